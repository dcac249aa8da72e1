"""Settings from environment variables, through helpers that fail loudly.

Every helper raises :class:`ImproperlyConfigured` with a message that names the variable, quotes
the bad value and says what is expected, so a broken deployment stops at start-up instead of
misbehaving later.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
import secrets
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use one of 1/0, true/false, yes/no, on/off")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is below the minimum {minimum}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name}={value} is above the maximum {maximum}")
    return value


def env_float(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        value = float("nan")
    if math.isnan(value):  # not a number at all, or "nan"
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number")
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r} is below the minimum {minimum}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name}={value} is above the maximum {maximum}")
    return value


def port_number(text: str) -> int | None:
    """A TCP port from 1 to 65535 (0: any free port, for tests), or None when ``text`` is none."""
    value = str(text).strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 5 and int(value) <= 65535):
        return None
    return int(value)


def env_port(name: str, default: int) -> int:
    """A TCP port (``DELVE_PORT``); unset or blank: ``default``."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    port = port_number(raw)
    if port is None:
        raise ImproperlyConfigured(f"{name}: {raw!r} is not a TCP port from 1 to 65535")
    return port


_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def host_problem(text: str) -> str | None:
    """Why ``text`` is no address a server can listen on (None when it is one): an IP address
    (``0.0.0.0``, ``::``, ``127.0.0.1``...) or a host name, without a scheme, a port or brackets."""
    value = str(text).strip()
    if "://" in value:
        return "write the address alone, without a scheme (e.g. 0.0.0.0)"
    if value.startswith("[") and value.endswith("]"):
        return f"write an IPv6 address without brackets (e.g. {value[1:-1] or '::'})"
    try:
        ipaddress.ip_address(value)
        return None
    except ValueError:
        pass
    if value.count(":") == 1 and value.rsplit(":", 1)[1].isdigit():
        return "give the port in DELVE_PORT (or --port), not in the address"
    labels = value.rstrip(".").split(".")
    name = value and len(value) <= 253 and all(_HOST_LABEL.fullmatch(label) for label in labels)
    if name and not labels[-1].isdigit():  # all digits at the end: an IP address gone wrong
        return None
    return "give an IP address (0.0.0.0 for every interface, 127.0.0.1 for this machine only) or a host name"


def env_host(name: str, default: str) -> str:
    """An address to listen on (``DELVE_HOST``); unset or blank: ``default``."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    problem = host_problem(raw)
    if problem is not None:
        raise ImproperlyConfigured(f"{name}: {raw!r} is not an address to listen on: {problem}")
    return raw.strip()


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_email(name: str, default: str) -> str:
    """A sender address: ``delve@example.org`` or ``Delve <delve@example.org>``."""
    from email.utils import parseaddr

    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip()
    _, address = parseaddr(value)
    try:
        if not address or "\n" in value or "\r" in value:
            raise ValidationError("no address")
        validate_email(address)
    except ValidationError:
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not an e-mail address (e.g. delve@example.org or Delve <delve@example.org>)"
        ) from None
    return value


def b64decode(text: str) -> bytes | None:
    """base64url (or standard base64), with or without its ``=`` padding; None when it is neither."""
    import base64
    import binascii

    value = text.strip().replace("-", "+").replace("_", "/").rstrip("=")
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def vapid_private_key(text: str, name: str = "DELVE_VAPID_PRIVATE_KEY") -> Any:
    """The Web Push (VAPID) private key given as its base64url text: the raw 32-byte P-256 key
    (what ``delve push-keys`` prints) or its DER (PKCS#8) form; a ``cryptography`` key.

    :raises ImproperlyConfigured: naming ``name``; a file path or PEM text gets its own hint.
    """
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import load_der_private_key

    raw = b64decode(text)
    key: Any = None
    if raw is not None:
        try:
            if len(raw) == 32:
                key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
            else:
                key = load_der_private_key(raw, password=None)
        except (ValueError, TypeError):
            key = None
    if isinstance(key, ec.EllipticCurvePrivateKey) and isinstance(key.curve, ec.SECP256R1):
        return key
    shown = text.strip()
    if "-----BEGIN" in shown or "/" in shown or "\\" in shown or Path(shown).suffix in {".pem", ".der", ".key"}:
        raise ImproperlyConfigured(
            f"{name} is a file path or PEM text, not the key: give the private key as its base64url text "
            "(`delve push-keys --from private_key.pem` prints both key lines from the file `vapid --gen` wrote)"
        )
    raise ImproperlyConfigured(
        f"{name} is not a Web Push private key: give the base64url text of a P-256 key "
        "(`delve push-keys` makes a pair and prints both lines)"
    )


def vapid_public_key(text: str, name: str = "DELVE_VAPID_PUBLIC_KEY") -> bytes:
    """The Web Push (VAPID) public key as browsers take it (``applicationServerKey``): the
    base64url text of an uncompressed P-256 point (65 bytes, 87 characters starting with ``B``).

    :raises ImproperlyConfigured: naming ``name``.
    """
    from cryptography.hazmat.primitives.asymmetric import ec

    raw = b64decode(text)
    try:
        if raw is None or len(raw) != 65 or raw[0] != 4:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        raise ImproperlyConfigured(
            f"{name}={text.strip()[:20]!r}... is not a Web Push public key: give the base64url text of an "
            "uncompressed P-256 point (87 characters starting with B; `delve push-keys` prints both lines)"
        ) from None
    return raw


def vapid_pair(public: str, private: str) -> None:
    """Both VAPID keys, each well-formed, and the one the public key of the other: browsers
    subscribe with the public key, and push services refuse messages signed by another key.

    :raises ImproperlyConfigured: naming the variable at fault.
    """
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = vapid_private_key(private)
    given = vapid_public_key(public)
    if key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint) != given:
        raise ImproperlyConfigured(
            "DELVE_VAPID_PUBLIC_KEY is not the public key of DELVE_VAPID_PRIVATE_KEY: the push services would refuse "
            "every message; set the two lines of one pair (`delve push-keys`)"
        )


def public_name(host: str) -> bool:
    """Whether ``host`` (a domain, or an IP address) names something outside this machine, as a
    contact the push services read must: not ``localhost`` (or a name under it), not a name
    without a dot, not a loopback address."""
    value = host.strip().strip("[]").rstrip(".").lower()
    try:
        return not ipaddress.ip_address(value).is_loopback
    except ValueError:
        pass
    return "." in value and value != "localhost" and not value.endswith(".localhost")


def vapid_subject(text: str, name: str = "DELVE_VAPID_SUBJECT") -> str:
    """The contact the push services see: ``mailto:`` and an address, or an ``https://`` URL, of a
    public name (:func:`public_name`: a push service refuses ``mailto:delve@localhost``).

    :raises ImproperlyConfigured: naming ``name``.
    """
    from django.core.exceptions import ValidationError
    from django.core.validators import URLValidator, validate_email

    value = text.strip()
    try:
        if value.lower().startswith("mailto:"):
            validate_email(value[len("mailto:") :])
            good = public_name(value.rsplit("@", 1)[1])
        elif value.lower().startswith("https://"):
            URLValidator(schemes=["https"])(value)
            good = public_name(urlsplit(value).hostname or "")
        else:
            raise ValidationError("neither")
    except ValidationError:
        good = False
    if not good:
        raise ImproperlyConfigured(
            f"{name}={text!r} is not a contact for the push services: use mailto:you@example.org or "
            "https://your.site (a public address, not localhost)"
        )
    return value


def push_subject(explicit: str, mail_from: str, site_url: str) -> str | None:
    """The contact the push services see (the VAPID ``sub`` claim): ``explicit``
    (``DELVE_VAPID_SUBJECT``, checked) if given; else ``mailto:`` and the sender's address
    (``DELVE_MAIL_FROM``, its bare address) when that is a public one; else the site's address
    (``DELVE_SITE_URL``) when it is ``https://`` and public; else None (no valid contact)."""
    from email.utils import parseaddr

    if explicit.strip():
        return vapid_subject(explicit)
    for candidate in ("mailto:" + parseaddr(mail_from)[1], site_url.strip().rstrip("/")):
        try:
            return vapid_subject(candidate, "derived")
        except ImproperlyConfigured:
            continue
    return None


def push_keys(private_key: Any = None) -> tuple[str, str]:
    """A VAPID key pair as the two settings take them: (public, private) base64url texts; a new
    pair, or the one of ``private_key`` (a ``cryptography`` P-256 key)."""
    import base64

    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")

    key = private_key if private_key is not None else ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64(public), b64(key.private_numbers().private_value.to_bytes(32, "big"))


def set_names(names: Iterable[str]) -> list[str]:
    """Those of ``names`` the environment gives a value (not blank)."""
    return [name for name in names if os.environ.get(name, "").strip()]


def env_choice(name: str, default: str, choices: set[str]) -> str:
    value = os.environ.get(name, default).strip()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of {', '.join(sorted(choices))}")
    return value


#: ``DELVE_SQLITE_SYNC`` -> SQLite's ``synchronous`` in WAL mode. ``full``: a commit syncs the log
#: to the disk before it returns, so an acknowledged command survives a power loss or a crash of
#: the machine. ``normal``: the log is synced only at checkpoints; a commit survives a crash of
#: the process but the last ones before a power loss may roll back (cheaper per commit).
SQLITE_SYNC = {"full": "FULL", "normal": "NORMAL"}


def sqlite_database(path: Path) -> dict[str, Any]:
    """A SQLite database tuned for a small server: WAL journal, IMMEDIATE write transactions
    (so two writers queue instead of failing on upgrade) and a busy timeout. Connections are kept
    (one per thread: the server reuses its request threads, see ``delve.server.asgi``): opening
    one costs more than a command's commit. A commit checkpoints the log only past
    ``BACKSTOP_PAGES``: ``delve serve`` checkpoints it in a background thread
    (``delve.server.sqlite_backend.checkpoint``). A commit is synced to the disk before it
    returns unless ``DELVE_SQLITE_SYNC=normal`` (:data:`SQLITE_SYNC`)."""
    from delve.server.sqlite_backend.checkpoint import BACKSTOP_PAGES

    synchronous = SQLITE_SYNC[env_choice("DELVE_SQLITE_SYNC", "full", set(SQLITE_SYNC))]
    return {
        "ENGINE": "delve.server.sqlite_backend",
        "NAME": str(path),
        "CONN_MAX_AGE": None,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": f"PRAGMA journal_mode=WAL;PRAGMA synchronous={synchronous};PRAGMA busy_timeout=20000;"
            f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}",
        },
        "TEST": {"NAME": str(path.with_name(path.stem + "-test.sqlite3"))},
    }


#: Seconds between two closings of an idle pooled connection above the pool's minimum.
POOL_MAX_IDLE = 60.0


@dataclass(frozen=True)
class Pool:
    """A bounded pool of PostgreSQL connections per server process (psycopg_pool, through
    Django's ``OPTIONS["pool"]``). ``max_size`` 0 turns pooling off: every request then opens
    and closes its own connection (for an external pooler such as PgBouncer)."""

    min_size: int = 2
    max_size: int = 10
    timeout: float = 30.0

    @classmethod
    def from_env(cls) -> Pool:
        max_size = env_int("DELVE_DB_POOL_MAX", cls.max_size, minimum=0, maximum=1000)
        min_size = env_int("DELVE_DB_POOL_MIN", min(cls.min_size, max_size), minimum=0, maximum=1000)
        if min_size > max_size:
            raise ImproperlyConfigured(f"DELVE_DB_POOL_MIN={min_size} is above DELVE_DB_POOL_MAX={max_size}")
        timeout = env_float("DELVE_DB_POOL_TIMEOUT", cls.timeout, minimum=0.1, maximum=3600)
        return cls(min_size=min_size, max_size=max_size, timeout=timeout)


def database_from_url(
    url: str, *, data_dir: Path, variable: str = "DATABASE_URL", pool: Pool | None = None
) -> dict[str, Any]:
    """Django's DATABASES entry for a URL such as ``postgres://user:pw@host:5432/name`` or
    ``sqlite:///path/to/file.sqlite3``.

    PostgreSQL connections come from a bounded pool (``pool``, default :class:`Pool`): under
    ASGI each request runs in a thread of its own, so connections kept per thread
    (``CONN_MAX_AGE``) would grow with the number of concurrent requests until the database
    refuses more; a pool caps them per process and lets requests wait their turn instead.

    :raises ImproperlyConfigured: naming ``variable`` when the URL cannot be used.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(f"{variable}={url!r} names no database (expected postgres://host/dbname)")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{variable}={url!r} has an invalid port") from None
        options: dict[str, Any] = dict(parse_qsl(parts.query))
        pool = pool or Pool()
        if pool.max_size:
            options["pool"] = {
                "min_size": pool.min_size,
                "max_size": pool.max_size,
                "timeout": pool.timeout,
                # A pool grown under load closes, every POOL_MAX_IDLE seconds, one connection that
                # stayed idle that long, until it is back at min_size (psycopg's default: 10 min).
                "max_idle": POOL_MAX_IDLE,
            }
            # The pool keeps its connections, so the server may keep their statements too: bound
            # by the server (not quoted into the SQL text by psycopg) and prepared once a
            # connection has run one five times, they are parsed and planned once per connection
            # (a durable command runs the same few statements every time). Not without the pool:
            # an external pooler may hand a prepared statement's next run to another connection.
            options.setdefault("server_side_binding", True)
            options.setdefault("prepare_threshold", 5)
        return {
            "ENGINE": "delve.server.postgresql_backend",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "OPTIONS": options,
            "CONN_MAX_AGE": 0,  # a request's connection goes back to the pool when it ends
            # Pooled: the backend checks a connection as it takes it from the pool (or lets the
            # request's first read check it), so Django gives the pool no check of its own.
            # Unpooled: Django's own check of a kept connection (none is kept: CONN_MAX_AGE 0).
            "CONN_HEALTH_CHECKS": not pool.max_size,
        }
    if scheme == "sqlite":
        raw_path = unquote(parts.netloc + parts.path)
        if raw_path in {"", "/"}:
            raise ImproperlyConfigured(f"{variable}={url!r} names no file (expected sqlite:///path/to/db.sqlite3)")
        # sqlite:///relative/path (relative to the data folder), sqlite:////absolute/path
        path = Path(raw_path[1:])
        if not path.is_absolute():
            path = data_dir / path
        return sqlite_database(path)
    raise ImproperlyConfigured(
        f"{variable}={url!r} is not a database URL; use postgres://user:password@host:port/name "
        "or sqlite:///path/to/file.sqlite3 (or leave it unset for the default SQLite file)"
    )


def secret_key(data_dir: Path) -> str:
    """``DELVE_SECRET_KEY`` if set; otherwise a key generated once and kept in the data folder,
    so a zero-setup server keeps its sessions across restarts."""
    explicit = os.environ.get("DELVE_SECRET_KEY")
    if explicit is not None:
        if len(explicit) < 32:
            raise ImproperlyConfigured("DELVE_SECRET_KEY is shorter than 32 characters")
        return explicit
    path = data_dir / "secret_key"
    if path.exists():
        return path.read_text(encoding="ascii").strip()
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # Written whole under a name of its own (0600), then linked into place: processes starting
    # together (serve's HTTP workers, the tick worker) all keep the one key linked first, and none
    # reads a file still being written. (Creating the file itself with O_EXCL made the second
    # process fail with FileExistsError, or read an empty key.)
    fd, written = tempfile.mkstemp(dir=data_dir, prefix=".secret_key.")
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(key)
        try:
            os.link(written, path)
        except FileExistsError:
            return path.read_text(encoding="ascii").strip()
    finally:
        os.unlink(written)
    return key


def private_dir(path: Path) -> Path:
    """The data folder, created readable by its owner only (0700); an existing one of ours loses
    its group and world permissions (it holds the secret key and the SQLite database)."""
    if not path.exists():
        path.mkdir(parents=True, exist_ok=True)
        os.chmod(path, 0o700)
    elif path.is_dir() and path.stat().st_uid == os.geteuid() and path.stat().st_mode & 0o077:
        os.chmod(path, path.stat().st_mode & 0o700)
    return path


def private_sqlite_file(path: Path) -> Path:
    """Create the SQLite file 0600 before SQLite opens it (SQLite then gives its -wal and -shm
    files the database's permissions), and take group/world permissions off existing ones."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))  # an empty file is an empty database
    for name in (path.name, path.name + "-wal", path.name + "-shm", path.name + "-journal"):
        file = path.with_name(name)
        try:
            if file.stat().st_mode & 0o077 and file.stat().st_uid == os.geteuid():
                os.chmod(file, 0o600)
        except FileNotFoundError:
            continue
    return path


def parse_origins(items: Iterable[str], variable: str = "DELVE_CSRF_TRUSTED_ORIGINS") -> list[str]:
    """Origins such as ``https://delve.example.org`` (or ``https://*.example.org``, a port allowed):
    a scheme, a host, nothing after it. Django refuses one without a scheme only in its system
    checks, with a traceback; here it is one line naming the variable.

    :raises ImproperlyConfigured: naming ``variable`` and the bad item.
    """
    origins = []
    for item in items:
        parts = urlsplit(item)
        try:
            parts.port  # noqa: B018 (a port that is no number raises)
            good = parts.scheme in {"http", "https"} and bool(parts.hostname) and parts.path in {"", "/"}
        except ValueError:
            good = False
        if not good or parts.query or parts.fragment or parts.username is not None:
            raise ImproperlyConfigured(
                f"{variable}: {item!r} is not an origin; write the scheme and the host, e.g. "
                f"https://{parts.path.split('/')[0] or 'delve.example.org'} (comma-separated for several)"
            )
        origins.append(item.rstrip("/"))
    return origins


def parse_networks(items: Iterable[str], variable: str = "DELVE_TRUSTED_PROXY") -> list[Network]:
    """``10.0.0.5``, ``10.0.0.0/8``, ``::1`` ... as networks.

    :raises ImproperlyConfigured: naming ``variable`` and the bad item.
    """
    networks = []
    for item in items:
        try:
            networks.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{variable}: {item!r} is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/8)"
            ) from None
    return networks


KNOWN_VARIABLES = frozenset(
    {
        "DELVE_ALLOWED_HOSTS",
        "DELVE_BEHIND_TLS",
        "DELVE_CSRF_TRUSTED_ORIGINS",
        "DELVE_DATA_DIR",
        "DELVE_DB_POOL_MAX",
        "DELVE_DB_POOL_MIN",
        "DELVE_DB_POOL_TIMEOUT",
        "DELVE_DEBUG",
        "DELVE_HOST",
        "DELVE_HSTS_INCLUDE_SUBDOMAINS",
        "DELVE_HSTS_PRELOAD",
        "DELVE_HSTS_SECONDS",
        "DELVE_LIVE_PUSH",
        "DELVE_LOGIN_FAILURES_PER_ACCOUNT",
        "DELVE_LOGIN_FAILURES_PER_ADDRESS",
        "DELVE_LOGIN_LOCKOUT_MINUTES",
        "DELVE_LOG_LEVEL",
        "DELVE_MAIL_FROM",
        "DELVE_MAX_BODY_BYTES",
        "DELVE_NOTIFY_GRACE",
        "DELVE_PASSWORD_HASH_CONCURRENCY",
        "DELVE_PORT",
        "DELVE_PUSH_TIMEOUT",
        "DELVE_REDIS_PREFIX",
        "DELVE_SECRET_KEY",
        "DELVE_SITE_URL",
        "DELVE_SMTP_HOST",
        "DELVE_SMTP_PASSWORD",
        "DELVE_SMTP_PORT",
        "DELVE_SMTP_SSL",
        "DELVE_SMTP_STARTTLS",
        "DELVE_SMTP_TIMEOUT",
        "DELVE_SMTP_USER",
        "DELVE_SQLITE_SYNC",
        "DELVE_SSL_REDIRECT",
        "DELVE_TIME_ZONE",
        "DELVE_TRUSTED_PROXY",
        "DELVE_VAPID_PRIVATE_KEY",
        "DELVE_VAPID_PUBLIC_KEY",
        "DELVE_VAPID_SUBJECT",
    }
)
"""Every DELVE_* variable a part of Delve reads (docs/operators.md lists each): another one in the
environment is a typo the commands point out (``delve check``, ``serve``, ``tick``)."""

TOOL_VARIABLES = frozenset(
    {
        "DELVE_BENCH_DATABASE_URL",
        "DELVE_BENCH_REDIS_URL",
        "DELVE_CHROMIUM",
        "DELVE_E2E_FULL",
        "DELVE_PYTHON",
        "DELVE_REGENERATE_GOLDEN",
        "DELVE_SCHEMATHESIS_EXAMPLES",
        "DELVE_UPDATE_GOLDEN",
    }
)
"""DELVE_* variables of the test suite, the benchmarks and the scripts (docs/testing.md; with
``DELVE_TEST_*``): a developer's shell may hold them, and the typo check leaves them alone."""
