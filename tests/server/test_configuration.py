"""Start-up configuration: bad settings stop the server with a message naming the setting."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from delve.server.env import Pool, database_from_url, env_bool, env_float, env_int, parse_origins


def run_delve(*args: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    full_env.update({"DELVE_DATA_DIR": str(tmp_path)}, **env)
    return subprocess.run(
        [sys.executable, "-m", "delve.cli", *args], env=full_env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("variable", "value", "needle"),
    [
        ("DATABASE_URL", "nonsense", "DATABASE_URL='nonsense' is not a database URL"),
        ("DATABASE_URL", "postgres://localhost", "names no database"),
        ("DELVE_DEBUG", "maybe", "DELVE_DEBUG='maybe' is not a boolean"),
        ("DELVE_SECRET_KEY", "short", "DELVE_SECRET_KEY is shorter than 32"),
        ("DELVE_LOG_LEVEL", "LOUD", "DELVE_LOG_LEVEL='LOUD' is not one of"),
        ("DELVE_SQLITE_SYNC", "sometimes", "DELVE_SQLITE_SYNC='sometimes' is not one of full, normal"),
        ("DELVE_NOTIFY_GRACE", "soon", "DELVE_NOTIFY_GRACE='soon' is not an integer"),
        ("DELVE_PORT", "abc", "DELVE_PORT: 'abc' is not a TCP port from 1 to 65535"),
        ("DELVE_PORT", "99999", "DELVE_PORT: '99999' is not a TCP port from 1 to 65535"),
        ("DELVE_TIME_ZONE", "Mars/Base", "DELVE_TIME_ZONE='Mars/Base' is not a time zone"),
        ("DELVE_SITE_URL", "notaurl", "DELVE_SITE_URL='notaurl' is not a site address"),
        ("DELVE_ALLOWED_HOSTS", "", "DELVE_ALLOWED_HOSTS is set but empty"),
        ("REDIS_URL", "redis://127.0.0.1:1/0", "Redis at REDIS_URL is not reachable"),
        ("DELVE_NOTIFY_GRACE", "9999", "DELVE_NOTIFY_GRACE=9999 is above the maximum 3600"),
        (
            "DELVE_CSRF_TRUSTED_ORIGINS",
            "delve.example.org",
            "DELVE_CSRF_TRUSTED_ORIGINS: 'delve.example.org' is not an origin; write the scheme and the host, "
            "e.g. https://delve.example.org",
        ),
        ("DELVE_CSRF_TRUSTED_ORIGINS", "https://ok.example,ftp://x.example", "'ftp://x.example' is not an origin"),
        ("DELVE_MAIL_FROM", "notanemail", "DELVE_MAIL_FROM='notanemail' is not an e-mail address"),
        ("DELVE_MAIL_FROM", "Delve <nobody>", "DELVE_MAIL_FROM='Delve <nobody>' is not an e-mail address"),
    ],
)
def test_a_bad_setting_fails_at_start_with_a_clear_message(tmp_path, variable, value, needle):
    result = run_delve("check", env={variable: value}, tmp_path=tmp_path)
    assert result.returncode == 2, result.stderr
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


def _pem_file(tmp_path: Path) -> tuple[Path, str]:
    """A private key file as `vapid --gen` writes it (PEM, PKCS#8) and its public key as browsers take it."""
    from py_vapid import Vapid

    vapid = Vapid()
    vapid.generate_keys()
    path = tmp_path / "private_key.pem"
    vapid.save_key(str(path))
    from delve.server.env import push_keys

    return path, push_keys(vapid.private_key)[0]


UNUSED_POSTGRES = "postgres://nobody@127.0.0.1:9/nowhere"  # never reached: the settings refuse first


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({"DELVE_SMTP_PORT": "99999"}, "DELVE_SMTP_PORT=99999 is above the maximum 65535"),
        ({"DELVE_SMTP_PORT": "smtp"}, "DELVE_SMTP_PORT='smtp' is not an integer"),
        (
            {"DELVE_SMTP_SSL": "1", "DELVE_SMTP_STARTTLS": "1"},
            "DELVE_SMTP_STARTTLS and DELVE_SMTP_SSL cannot both be on; choose one",
        ),
        ({"DELVE_SMTP_SSL": "maybe"}, "DELVE_SMTP_SSL='maybe' is not a boolean"),
        (
            {"DATABASE_URL": UNUSED_POSTGRES, "DELVE_SQLITE_SYNC": "off"},
            "DELVE_SQLITE_SYNC='off' is not one of full, normal",
        ),
        ({"DELVE_DB_POOL_MAX": "lots"}, "DELVE_DB_POOL_MAX='lots' is not an integer"),
        ({"DELVE_HSTS_SECONDS": "a year"}, "DELVE_HSTS_SECONDS='a year' is not an integer"),
        (
            {"DELVE_VAPID_PUBLIC_KEY": "garbage", "DELVE_VAPID_PRIVATE_KEY": "garbage"},
            "DELVE_VAPID_PRIVATE_KEY is not a Web Push private key",
        ),
        ({"DELVE_VAPID_PRIVATE_KEY": "garbage"}, "DELVE_VAPID_PRIVATE_KEY is not a Web Push private key"),
        ({"DELVE_VAPID_PUBLIC_KEY": "garbage"}, "DELVE_VAPID_PUBLIC_KEY='garbage'... is not a Web Push public key"),
        ({"DELVE_VAPID_SUBJECT": "delve@example.org"}, "DELVE_VAPID_SUBJECT='delve@example.org' is not a contact"),
    ],
)
def test_a_bad_value_is_refused_even_where_it_would_have_no_effect(tmp_path, env, needle):
    """A malformed value stops the start whether it is used or not (no mail server, SQLite's
    setting on PostgreSQL, push off): it fails at once, not on the day it is used."""
    result = run_delve("check", env=env, tmp_path=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        f"delve: configuration error: {result.stderr.split(': ', 2)[2].strip()}"
    ]
    assert needle in result.stderr


def test_push_keys_are_refused_as_a_file_path_a_pem_text_or_two_halves_of_different_pairs(tmp_path):
    path, public = _pem_file(tmp_path)
    for private in (str(path), path.read_text()):
        result = run_delve(
            "check", env={"DELVE_VAPID_PUBLIC_KEY": public, "DELVE_VAPID_PRIVATE_KEY": private}, tmp_path=tmp_path
        )
        assert result.returncode == 2
        assert "DELVE_VAPID_PRIVATE_KEY is a file path or PEM text, not the key" in result.stderr
        assert "delve push-keys --from private_key.pem" in result.stderr
    from delve.server.env import push_keys

    _, other_private = push_keys()
    result = run_delve(
        "check", env={"DELVE_VAPID_PUBLIC_KEY": public, "DELVE_VAPID_PRIVATE_KEY": other_private}, tmp_path=tmp_path
    )
    assert result.returncode == 2
    assert "DELVE_VAPID_PUBLIC_KEY is not the public key of DELVE_VAPID_PRIVATE_KEY" in result.stderr


def test_push_without_a_public_contact_is_refused_at_start_in_one_line(tmp_path):
    """The VAPID subject defaulted to "mailto:delve@localhost" (DELVE_MAIL_FROM unset), which push
    services refuse or cannot use: with push on and no public contact to be made, every command
    stops at start with one line saying what to set."""
    from delve.server.env import push_keys

    public, private = push_keys()
    keys = {"DELVE_VAPID_PUBLIC_KEY": public, "DELVE_VAPID_PRIVATE_KEY": private}
    result = run_delve("check", env=keys, tmp_path=tmp_path)
    assert result.returncode == 2, result.stdout
    assert result.stderr.strip().splitlines() == [
        "delve: configuration error: Web Push needs a contact for the push services and none can be made: set "
        "DELVE_VAPID_SUBJECT=mailto:you@example.org, or DELVE_MAIL_FROM to a public address (it is "
        "'delve@localhost'), or DELVE_SITE_URL to the site's https address (it is 'http://localhost:8000')"
    ]
    for explicit in ("mailto:ops@localhost", "https://localhost/", "mailto:ops@server", "https://127.0.0.1"):
        result = run_delve("check", env={**keys, "DELVE_VAPID_SUBJECT": explicit}, tmp_path=tmp_path)
        assert result.returncode == 2 and "is not a contact for the push services" in result.stderr, explicit
    shown = run_delve(
        "manage",
        "shell",
        "-v",
        "0",
        "-c",
        "from django.conf import settings; print(settings.DELVE_VAPID_SUBJECT)",
        env={**keys, "DELVE_SITE_URL": "https://delve.example.org"},
        tmp_path=tmp_path,
    )
    assert shown.returncode == 0 and shown.stdout.split() == ["https://delve.example.org"], shown.stderr


@pytest.mark.parametrize(
    ("explicit", "mail_from", "site_url", "subject"),
    [
        ("", "Delve <ops@example.org>", "https://delve.example.org", "mailto:ops@example.org"),
        ("", "delve@localhost", "https://delve.example.org/", "https://delve.example.org"),
        ("", "delve@localhost", "http://delve.example.org", None),
        ("", "delve@localhost", "https://localhost:8443", None),
        ("", "delve@mybox", "http://localhost:8000", None),
        (" mailto:push@example.org ", "delve@localhost", "http://localhost:8000", "mailto:push@example.org"),
        ("https://delve.example.org/contact", "ops@example.org", "", "https://delve.example.org/contact"),
    ],
)
def test_the_push_subject_is_the_set_one_or_a_public_sender_or_the_https_site(explicit, mail_from, site_url, subject):
    from delve.server.env import push_subject

    assert push_subject(explicit, mail_from, site_url) == subject


def test_delve_push_keys_prints_the_two_lines_the_settings_take(tmp_path, capsys):
    """A new pair, or the pair of the PEM file `vapid --gen` writes; `delve check` takes them, and
    pywebpush's key reader (py_vapid) reads the same key from the private line."""
    from py_vapid import Vapid

    from delve import cli
    from delve.server.env import push_keys, vapid_pair

    path, public = _pem_file(tmp_path)
    assert cli.main(["push-keys", "--from", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0] == f"DELVE_VAPID_PUBLIC_KEY={public}"
    env = dict(line.split("=", 1) for line in lines)
    vapid_pair(env["DELVE_VAPID_PUBLIC_KEY"], env["DELVE_VAPID_PRIVATE_KEY"])
    assert push_keys(Vapid.from_string(env["DELVE_VAPID_PRIVATE_KEY"]).private_key)[0] == public
    assert cli.main(["push-keys"]) == 0
    fresh = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines())
    assert fresh.keys() == env.keys() and fresh["DELVE_VAPID_PUBLIC_KEY"] != public
    result = run_delve("check", env={**fresh, "DELVE_VAPID_SUBJECT": "mailto:ops@example.org"}, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    public_file = tmp_path / "public_key.pem"
    Vapid.from_file(str(path)).save_public_key(str(public_file))
    assert cli.main(["push-keys", "--from", str(public_file)]) == 2
    assert "is not a P-256 private key" in capsys.readouterr().err


def test_the_pem_body_in_one_line_is_a_private_key_too(tmp_path):
    """The DER form in base64 (the PEM's lines joined) is also the key as text (py_vapid reads it)."""
    from delve.server.env import vapid_pair

    path, public = _pem_file(tmp_path)
    body = "".join(path.read_text().splitlines()[1:-1])
    vapid_pair(public, body)


def test_a_well_formed_value_without_effect_is_said_at_start(tmp_path):
    """A valid value the configuration does not use is no error (a mail server set up ahead of
    its host, say), but check, serve and tick say it in one line each."""
    env = {"DELVE_SMTP_PORT": "25", "DELVE_HSTS_PRELOAD": "1", "DELVE_VAPID_SUBJECT": "mailto:ops@example.org"}
    result = run_delve("check", env=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    said = [line for line in result.stderr.splitlines() if "has no effect" in line]
    assert said == [
        "delve check: DELVE_HSTS_PRELOAD is set but has no effect: DELVE_BEHIND_TLS is off",
        "delve check: DELVE_SMTP_PORT is set but has no effect: DELVE_SMTP_HOST is not set (e-mails are written "
        "to the log)",
        "delve check: DELVE_VAPID_SUBJECT is set but has no effect: Web Push is off (no VAPID keys)",
    ]
    result = run_delve(
        "manage",
        "shell",
        "--verbosity",
        "0",
        "-c",
        "from django.conf import settings; print(settings.UNUSED_SETTINGS)",
        env={"DATABASE_URL": UNUSED_POSTGRES, "DELVE_SQLITE_SYNC": "normal", "DELVE_DB_POOL_MAX": "4"},
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['DELVE_SQLITE_SYNC is set but has no effect: the database is PostgreSQL']"


def test_an_unreachable_database_fails_check_with_a_clear_message(tmp_path):
    result = run_delve("check", env={"DATABASE_URL": "postgres://nobody@127.0.0.1:9/nowhere"}, tmp_path=tmp_path)
    assert result.returncode == 2
    assert "database postgresql is not reachable" in result.stderr


def test_check_passes_on_a_fresh_sqlite_data_folder(tmp_path):
    result = run_delve("check", env={}, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "database: sqlite reachable" in result.stdout
    assert (tmp_path / "secret_key").exists()
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_serve_refuses_more_than_one_process_on_sqlite_with_one_clear_line(tmp_path):
    """Issue 16 (SQLite write starvation): processes would fight over the file's lock."""
    result = run_delve("serve", "--workers", "4", "--port", "8199", env={}, tmp_path=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "delve: configuration error: --workers 4 needs PostgreSQL (DATABASE_URL=postgres://...): on SQLite one "
        "process serves every request, with writers queueing on one lock; use --workers 1"
    ]
    database = tmp_path / "delve.sqlite3"
    assert not database.exists() or database.stat().st_size == 0  # refused before any migration


def test_database_urls(tmp_path):
    pg = database_from_url("postgresql://u:p%40ss@db.example:6543/delve?sslmode=require", data_dir=tmp_path)
    assert pg["ENGINE"] == "delve.server.postgresql_backend"  # Django's, checking pooled connections itself
    assert pg["CONN_HEALTH_CHECKS"] is False  # the backend checks, not Django's check given to the pool
    assert (pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"], pg["NAME"]) == (
        "u",
        "p@ss",
        "db.example",
        "6543",
        "delve",
    )
    assert pg["OPTIONS"] == {
        "sslmode": "require",
        "pool": {"min_size": 2, "max_size": 10, "timeout": 30.0, "max_idle": 60.0},
        "server_side_binding": True,
        "prepare_threshold": 5,
    }
    assert pg["CONN_MAX_AGE"] == 0  # a request's connection goes back to the pool when it ends
    relative = database_from_url("sqlite:///games.sqlite3", data_dir=tmp_path)
    assert relative["NAME"] == str(tmp_path / "games.sqlite3")
    absolute = database_from_url("sqlite:////srv/delve/db.sqlite3", data_dir=tmp_path)
    assert absolute["NAME"] == "/srv/delve/db.sqlite3"
    assert absolute["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in absolute["OPTIONS"]["init_command"]
    with pytest.raises(ImproperlyConfigured, match="invalid port"):
        database_from_url("postgres://h:notaport/db", data_dir=tmp_path)


def test_postgresql_connections_come_from_a_pool_bounded_by_the_environment(monkeypatch, tmp_path):
    """Issue 16 (HIGH): a bounded pool per process, sized by DELVE_DB_POOL_MIN/MAX/TIMEOUT."""
    monkeypatch.setenv("DELVE_DB_POOL_MAX", "24")
    monkeypatch.setenv("DELVE_DB_POOL_MIN", "4")
    monkeypatch.setenv("DELVE_DB_POOL_TIMEOUT", "12.5")
    pool = Pool.from_env()
    assert pool == Pool(min_size=4, max_size=24, timeout=12.5)
    pg = database_from_url("postgres://u@h/db", data_dir=tmp_path, pool=pool)
    assert pg["OPTIONS"]["pool"] == {"min_size": 4, "max_size": 24, "timeout": 12.5, "max_idle": 60.0}
    monkeypatch.setenv("DELVE_DB_POOL_MAX", "0")
    monkeypatch.setenv("DELVE_DB_POOL_MIN", "0")
    unpooled = database_from_url("postgres://u@h/db", data_dir=tmp_path, pool=Pool.from_env())
    assert "pool" not in unpooled["OPTIONS"] and unpooled["CONN_MAX_AGE"] == 0
    assert "prepare_threshold" not in unpooled["OPTIONS"], "an external pooler may not keep prepared statements"


@pytest.mark.parametrize(
    ("values", "needle"),
    [
        ({"DELVE_DB_POOL_MAX": "lots"}, "DELVE_DB_POOL_MAX='lots' is not an integer"),
        ({"DELVE_DB_POOL_MAX": "4", "DELVE_DB_POOL_MIN": "8"}, "DELVE_DB_POOL_MIN=8 is above DELVE_DB_POOL_MAX=4"),
        ({"DELVE_DB_POOL_TIMEOUT": "0"}, "DELVE_DB_POOL_TIMEOUT='0' is below the minimum"),
        ({"DELVE_DB_POOL_TIMEOUT": "nan"}, "DELVE_DB_POOL_TIMEOUT='nan' is not a number"),
    ],
)
def test_a_bad_pool_setting_is_refused_with_its_name(monkeypatch, values, needle):
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=needle):
        Pool.from_env()


def test_env_helpers(monkeypatch):
    monkeypatch.setenv("X_INT", "12")
    assert env_int("X_INT", 1, maximum=20) == 12
    monkeypatch.setenv("X_INT", "twelve")
    with pytest.raises(ImproperlyConfigured, match="X_INT='twelve' is not an integer"):
        env_int("X_INT", 1)
    monkeypatch.setenv("X_INT", "50")
    with pytest.raises(ImproperlyConfigured, match="above the maximum 20"):
        env_int("X_INT", 1, maximum=20)
    monkeypatch.setenv("X_FLOAT", "2.5")
    assert env_float("X_FLOAT", 1.0, minimum=0.1) == 2.5
    monkeypatch.setenv("X_FLOAT", "soon")
    with pytest.raises(ImproperlyConfigured, match="X_FLOAT='soon' is not a number"):
        env_float("X_FLOAT", 1.0)
    monkeypatch.setenv("X_BOOL", "Yes")
    assert env_bool("X_BOOL", False) is True
    monkeypatch.delenv("X_BOOL")
    assert env_bool("X_BOOL", True) is True


def test_sqlite_runs_with_wal_and_immediate_transactions(db):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("SQLite-specific: this pass runs on " + connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] >= 20000
    assert connection.transaction_mode == "IMMEDIATE"


def test_a_sqlite_commit_is_synced_to_the_disk_unless_the_operator_says_otherwise(monkeypatch, tmp_path):
    """No acknowledged command is lost: in WAL mode SQLite's ``synchronous=NORMAL`` syncs the log
    only at checkpoints, so the last commits before a power loss could roll back; by default a
    commit is synced before it returns (``FULL``). ``DELVE_SQLITE_SYNC=normal`` is the operator's
    choice of the cheaper commit."""
    import sqlite3

    from delve.server.env import sqlite_database

    def synchronous() -> int:
        pragmas = sqlite_database(tmp_path / "sync.sqlite3")["OPTIONS"]["init_command"]
        db = sqlite3.connect(tmp_path / "sync.sqlite3")
        try:
            for pragma in pragmas.split(";"):
                db.execute(pragma)
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            return int(db.execute("PRAGMA synchronous").fetchone()[0])
        finally:
            db.close()

    monkeypatch.delenv("DELVE_SQLITE_SYNC", raising=False)
    assert synchronous() == 2  # FULL
    monkeypatch.setenv("DELVE_SQLITE_SYNC", "normal")
    assert synchronous() == 1  # NORMAL
    monkeypatch.setenv("DELVE_SQLITE_SYNC", "full")
    assert synchronous() == 2
    monkeypatch.setenv("DELVE_SQLITE_SYNC", "off")
    with pytest.raises(ImproperlyConfigured, match="DELVE_SQLITE_SYNC='off' is not one of full, normal"):
        sqlite_database(tmp_path / "sync.sqlite3")


def test_the_servers_own_sqlite_connections_sync_each_commit(db):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("SQLite-specific: this pass runs on " + connection.vendor)
    expected = {"full": 2, "normal": 1}[os.environ.get("DELVE_SQLITE_SYNC", "full")]
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == expected


def test_a_pooled_postgresql_connection_binds_on_the_server_and_prepares_what_it_repeats(db):
    from django.db import connection

    from delve.server.games.models import Game

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL-specific: this pass runs on " + connection.vendor)
    assert connection.features.uses_server_side_binding
    for pk in range(1, 8):  # one statement, run seven times with different values
        assert not Game.objects.filter(pk=pk).exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('FROM "games_game"' in statement for statement in prepared), prepared


def test_a_misspelt_setting_is_pointed_out_not_silently_ignored(tmp_path):
    result = run_delve("check", env={"DELVE_PROT": "8000"}, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "DELVE_PROT is not a setting of Delve: it is ignored (did you mean DELVE_PORT?)" in result.stderr


def test_every_documented_setting_is_known_and_every_known_one_documented():
    """The list the typo check uses (env.KNOWN_VARIABLES) is what docs/operators.md documents."""
    import re

    from delve.server.env import KNOWN_VARIABLES

    table = (Path(__file__).resolve().parents[2] / "docs" / "operators.md").read_text()
    documented = set(re.findall(r"`(DELVE_[A-Z0-9_]+)", table)) - {"DELVE_PROT"}  # the typo the text shows
    assert documented == set(KNOWN_VARIABLES)


def test_serve_refuses_a_port_in_use_and_a_bad_port_in_one_line(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run_delve("serve", "--port", str(port), env={}, tmp_path=tmp_path)
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "Traceback" not in result.stderr
    assert "Delve is serving" not in result.stdout
    result = run_delve("serve", "--port", "70000", env={}, tmp_path=tmp_path)
    assert result.returncode == 2 and "is not a TCP port from 1 to 65535" in result.stderr
    result = run_delve("serve", env={"DELVE_PORT": "x"}, tmp_path=tmp_path)
    assert result.returncode == 2 and "'x' is not a TCP port" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [("tick", "--once"), ("manage", "check"), ("demo",), ("check",), ("serve",)])
def test_every_command_refuses_a_bad_port_in_one_line(tmp_path, command):
    """DELVE_PORT is read with the other settings: `delve tick` and `delve manage` took
    DELVE_PORT=abc (exit 0) and made the links of their notifications http://localhost:abc."""
    result = run_delve(*command, env={"DELVE_PORT": "abc"}, tmp_path=tmp_path)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.strip().splitlines() == [
        "delve: configuration error: DELVE_PORT: 'abc' is not a TCP port from 1 to 65535"
    ]


@pytest.mark.parametrize("command", [("tick", "--once"), ("manage", "check"), ("demo",), ("check",), ("serve",)])
def test_every_command_refuses_a_bad_host_in_one_line(tmp_path, command):
    """DELVE_HOST was checked only by `delve serve` (when it failed to listen): every other
    command took DELVE_HOST=http://0.0.0.0 silently. It is read with the other settings now,
    as DELVE_PORT is."""
    result = run_delve(*command, env={"DELVE_HOST": "http://0.0.0.0"}, tmp_path=tmp_path)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.strip().splitlines() == [
        "delve: configuration error: DELVE_HOST: 'http://0.0.0.0' is not an address to listen on: write the address "
        "alone, without a scheme (e.g. 0.0.0.0)"
    ]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("0.0.0.0:8000", "give the port in DELVE_PORT (or --port), not in the address"),
        ("[::1]", "write an IPv6 address without brackets (e.g. ::1)"),
        ("my host", "give an IP address (0.0.0.0 for every interface, 127.0.0.1 for this machine only) or a host"),
        ("-bad.example", "give an IP address"),
        ("999.1.1.1", "give an IP address"),
    ],
)
def test_a_bad_host_is_refused_with_what_to_write(monkeypatch, value, problem):
    from delve.server.env import env_host

    monkeypatch.setenv("DELVE_HOST", value)
    with pytest.raises(ImproperlyConfigured, match=re.escape(f"DELVE_HOST: {value!r} is not an address to listen on")):
        env_host("DELVE_HOST", "127.0.0.1")
    with pytest.raises(ImproperlyConfigured, match=re.escape(problem)):
        env_host("DELVE_HOST", "127.0.0.1")


@pytest.mark.parametrize("value", ["0.0.0.0", "::", "127.0.0.1", " ::1 ", "localhost", "games.example.org", ""])
def test_a_good_host_is_taken(monkeypatch, value):
    from delve.server.env import env_host

    monkeypatch.setenv("DELVE_HOST", value)
    assert env_host("DELVE_HOST", "127.0.0.1") == (value.strip() or "127.0.0.1")


def test_serve_refuses_a_bad_host_option_in_one_line(tmp_path):
    result = run_delve("serve", "--host", "0.0.0.0:80", env={}, tmp_path=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "'0.0.0.0:80' is not an address to listen on: give the port in DELVE_PORT" in result.stderr


def test_the_port_makes_the_default_site_address(tmp_path):
    result = run_delve(
        "manage",
        "shell",
        "--verbosity",
        "0",
        "-c",
        "from django.conf import settings; print(settings.DELVE_PORT, settings.DELVE_SITE_URL)",
        env={"DELVE_PORT": " 8123 "},
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["8123", "http://localhost:8123"]


def test_the_worker_refuses_a_database_not_migrated_yet_in_one_line(tmp_path):
    result = run_delve("tick", "--once", env={}, tmp_path=tmp_path)
    assert result.returncode == 2
    assert "migration(s) not applied yet" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_server_on_every_interface_says_what_to_set(tmp_path, capsys, monkeypatch, db):
    """On 0.0.0.0 other names than localhost are refused unless DELVE_ALLOWED_HOSTS lists them,
    and the demo account's published password should not stay: both said at start."""
    from delve import cli
    from delve.server.games import demo

    monkeypatch.delenv("DELVE_ALLOWED_HOSTS", raising=False)
    cli._public_warnings("127.0.0.1")
    assert capsys.readouterr().out == ""
    cli._public_warnings("0.0.0.0")
    assert "DELVE_ALLOWED_HOSTS is not set" in capsys.readouterr().out
    demo.create()
    monkeypatch.setenv("DELVE_ALLOWED_HOSTS", "games.example.org")
    cli._public_warnings("0.0.0.0")
    out = capsys.readouterr().out
    assert "DELVE_ALLOWED_HOSTS" not in out and "the demo account ('demo', password 'delve-demo'" in out


def test_the_test_and_script_variables_are_not_taken_for_typos():
    """Every DELVE_* variable the scripts, tests and benchmarks read is a setting or a tool
    variable (env.TOOL_VARIABLES), so a developer's shell gets no warning for them."""
    import re

    from delve.server.env import KNOWN_VARIABLES, TOOL_VARIABLES

    root = Path(__file__).resolve().parents[2]
    used: set[str] = set()
    for folder in ("scripts", "tests", "benchmarks"):
        for path in (root / folder).rglob("*"):
            if path.is_file() and path.suffix in ("", ".py", ".sh"):
                used |= set(re.findall(r"DELVE_[A-Z0-9_]+", path.read_text(errors="ignore")))
    unknown = {n for n in used - KNOWN_VARIABLES - TOOL_VARIABLES if not n.startswith("DELVE_TEST_")}
    assert unknown <= {"DELVE_PROT", "DELVE_TEST_"}, unknown  # the typo the tests make on purpose


def test_csrf_trusted_origins_need_a_scheme_and_a_host():
    good = "https://delve.example.org,http://10.0.0.5:8000,https://*.example.org,https://x.example/"
    assert parse_origins(good.split(",")) == [
        "https://delve.example.org",
        "http://10.0.0.5:8000",
        "https://*.example.org",
        "https://x.example",
    ]
    for bad in ("delve.example.org", "https://", "https://x.example/path", "https://x.example:port", "//x.example"):
        with pytest.raises(ImproperlyConfigured, match=r"DELVE_CSRF_TRUSTED_ORIGINS: .* is not an origin"):
            parse_origins([bad])


def _without_secret_key(*args: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    full_env.pop("DELVE_SECRET_KEY", None)
    full_env.update({"DELVE_DATA_DIR": str(tmp_path)}, **env)
    return subprocess.run(
        [sys.executable, "-m", "delve.cli", *args], env=full_env, capture_output=True, text=True, timeout=120
    )


SHARED_KEY = "every process must share DELVE_SECRET_KEY"


def test_a_generated_secret_key_on_a_site_of_several_processes_is_warned_of(tmp_path):
    """REDIS_URL says the site has several processes: one that generated its own key would refuse
    the others' sessions behind a load balancer. check, tick and serve say so in one line."""
    from tests.server.scale import REDIS_URL, redis_absent

    if why := redis_absent():
        pytest.skip(why)
    redis = {"REDIS_URL": REDIS_URL}
    result = _without_secret_key("check", env=redis, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    [line] = [line for line in result.stderr.splitlines() if SHARED_KEY in line]
    assert line.startswith("delve check: DELVE_SECRET_KEY is not set, but REDIS_URL is set")
    assert str(tmp_path / "secret_key") in line
    assert _without_secret_key("manage", "migrate", "-v0", env={}, tmp_path=tmp_path).returncode == 0
    result = _without_secret_key("tick", "--once", env=redis, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert next(line for line in result.stderr.splitlines() if SHARED_KEY in line).startswith("delve tick: ")
    keyed = _without_secret_key("check", env={**redis, "DELVE_SECRET_KEY": "k" * 40}, tmp_path=tmp_path)
    assert keyed.returncode == 0 and SHARED_KEY not in keyed.stderr


def test_a_single_sqlite_process_with_a_generated_key_is_not_warned(tmp_path):
    result = _without_secret_key("check", env={}, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert SHARED_KEY not in result.stderr


@pytest.mark.postgres
def test_a_generated_secret_key_on_postgresql_is_warned_of(tmp_path):
    from tests.server.live import live_database

    with live_database(tmp_path) as env:
        result = _without_secret_key("check", env={"DATABASE_URL": env["DATABASE_URL"]}, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "delve check: DELVE_SECRET_KEY is not set, but the database is PostgreSQL" in result.stderr
    assert SHARED_KEY in result.stderr


RELEASE_SCRIPT = """
import argparse, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "delve.server.settings"
import django
django.setup()
from django.db import connection
from delve.cli import _release_start_connections

# One probe for every count, left out of it: a probe opened for each count and closed found the
# backend of the one before still listed (a closed connection's backend leaves pg_stat_activity a
# moment later; on a busy machine one count in ten saw 4 where the pool held 3).
probe = connection.Database.connect(**connection.get_connection_params(), autocommit=True)

def held():
    return probe.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    ).fetchone()[0]

connection.ensure_connection()  # the start-up's checks and migrations
print(connection.pool.max_idle, connection.pool.min_size, held() >= 1)
_release_start_connections(argparse.Namespace(workers=2, no_worker=sys.argv[1] == "1"))
import time
deadline = time.monotonic() + 15  # the pool's connections leave pg_stat_activity a moment after they close
while held() > int(sys.argv[2]) and time.monotonic() < deadline:
    time.sleep(0.1)
print(held())
"""


@pytest.mark.postgres
@pytest.mark.parametrize(("no_worker", "left"), [("1", 0), ("0", 3)])
def test_the_parent_of_several_http_processes_holds_connections_only_for_its_worker(tmp_path, no_worker, left):
    """`delve serve --workers N`: the parent's start-up connection goes back to its pool before the
    HTTP processes start; with --no-worker the parent closes its pool (it holds none), otherwise
    the pool keeps its minimum (DELVE_DB_POOL_MIN, 2) for the in-process worker, and the one more it
    may have opened at its start until that has been idle a minute (psycopg_pool's max_idle: idle
    connections above the minimum are closed one a minute)."""
    from tests.server.live import live_database

    with live_database(tmp_path) as env:
        result = subprocess.run(
            [sys.executable, "-c", RELEASE_SCRIPT, no_worker, str(left)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first == "60.0 2 True", result.stdout
    assert int(second) <= left, result.stdout


def _mail_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    script = (
        "import os, django; os.environ['DJANGO_SETTINGS_MODULE'] = 'delve.server.settings'\n"
        "import sys\n"
        "try:\n"
        "    django.setup()\n"
        "except Exception as exc:\n"
        "    print('refused:', exc); sys.exit(0)\n"
        "from django.conf import settings as s\n"
        "print(s.EMAIL_USE_SSL, s.EMAIL_USE_TLS, s.EMAIL_PORT)\n"
    )
    full_env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    full_env.update({"DELVE_DATA_DIR": str(tmp_path), "DELVE_SMTP_HOST": "mail.example.org"}, **env)
    return subprocess.run([sys.executable, "-c", script], env=full_env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "False True 587"),  # STARTTLS on the submission port
        ({"DELVE_SMTP_SSL": "1"}, "True False 465"),  # SSL alone: TLS from the start, on 465
        ({"DELVE_SMTP_SSL": "1", "DELVE_SMTP_PORT": "2465"}, "True False 2465"),
        ({"DELVE_SMTP_SSL": "1", "DELVE_SMTP_STARTTLS": "0"}, "True False 465"),
        ({"DELVE_SMTP_STARTTLS": "0"}, "False False 587"),
        (
            {"DELVE_SMTP_SSL": "1", "DELVE_SMTP_STARTTLS": "1"},
            "refused: DELVE_SMTP_STARTTLS and DELVE_SMTP_SSL cannot both be on; choose one",
        ),
    ],
)
def test_smtp_ssl_alone_turns_the_starttls_default_off(tmp_path, env, expected):
    result = _mail_settings(tmp_path, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


@pytest.mark.parametrize("sender", ["delve@localhost", "delve@example.org", "Delve <delve@example.org>"])
def test_a_sender_address_is_accepted(monkeypatch, sender):
    from delve.server.env import env_email

    monkeypatch.setenv("DELVE_MAIL_FROM", sender)
    assert env_email("DELVE_MAIL_FROM", "x@y.z") == sender
    monkeypatch.setenv("DELVE_MAIL_FROM", sender + "\nBcc: all@example.org")
    with pytest.raises(ImproperlyConfigured, match="is not an e-mail address"):
        env_email("DELVE_MAIL_FROM", "x@y.z")


def test_processes_generating_the_secret_key_together_all_keep_the_first_one(tmp_path, monkeypatch):
    """Two processes without DELVE_SECRET_KEY start together: the second finds no key file,
    generates its own, and another process links its key into place first: the second keeps that
    one (it failed with FileExistsError), and the file holds it whole, readable by its owner only."""
    from delve.server import env

    monkeypatch.delenv("DELVE_SECRET_KEY", raising=False)
    real_link = os.link

    def first_there(src, dst):
        Path(dst).write_text("k" * 60, encoding="ascii")  # the other process's key
        return real_link(src, dst)

    monkeypatch.setattr(env.os, "link", first_there)
    assert env.secret_key(tmp_path) == "k" * 60
    monkeypatch.setattr(env.os, "link", real_link)
    assert env.secret_key(tmp_path) == "k" * 60
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret_key"], "no file of its own left behind"
    other = tmp_path / "fresh"
    key = env.secret_key(other)
    assert (other / "secret_key").read_text(encoding="ascii") == key and len(key) >= 32
    assert (other / "secret_key").stat().st_mode & 0o777 == 0o600
