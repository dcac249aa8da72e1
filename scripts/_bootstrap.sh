# Shared set-up for scripts/run and scripts/test (sourced, not executed).
# Creates .venv with a Python >= 3.11 and installs the project into it, again only when
# pyproject.toml changed since the last install.

find_python() {
    for candidate in "${DELVE_PYTHON:-}" python3.13 python3.12 python3.11 python3 python; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "Delve needs Python 3.11 or newer; none was found on PATH (set DELVE_PYTHON to one)." >&2
    return 1
}

ensure_venv() {
    local extras="$1"
    local python
    if [ ! -x .venv/bin/python ]; then
        python=$(find_python)
        echo "==> creating .venv with $("$python" --version)"
        "$python" -m venv .venv
        .venv/bin/python -m pip install --quiet --upgrade pip
    fi
    local stamp=".venv/.delve-installed-$extras"
    local want
    want=$(cat pyproject.toml | .venv/bin/python -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        local spec="."
        [ "$extras" = base ] || spec=".[$extras]"
        echo "==> installing delve-server ($extras) into .venv"
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
        echo "$want" > "$stamp"
    fi
}
