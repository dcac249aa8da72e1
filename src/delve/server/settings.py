"""Django settings for Delve, read from environment variables (see docs/operators.md).

Variables: DELVE_DATA_DIR, DATABASE_URL, DELVE_SECRET_KEY, DELVE_DEBUG, DELVE_ALLOWED_HOSTS,
DELVE_CSRF_TRUSTED_ORIGINS, DELVE_TIME_ZONE, DELVE_LOG_LEVEL, DELVE_TRUSTED_PROXY, DELVE_BEHIND_TLS,
DELVE_SSL_REDIRECT, DELVE_HSTS_*, DELVE_LOGIN_*, DELVE_PASSWORD_HASH_CONCURRENCY, DELVE_DB_POOL_MIN,
DELVE_DB_POOL_MAX, DELVE_DB_POOL_TIMEOUT, DELVE_MAX_BODY_BYTES, DELVE_HOST, DELVE_PORT, DELVE_SITE_URL,
DELVE_SMTP_*, DELVE_MAIL_FROM, DELVE_VAPID_*, REDIS_URL, DELVE_REDIS_PREFIX, DELVE_LIVE_PUSH. Bad values
stop the server at start with a message naming the variable.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from delve.server.env import (
    SQLITE_SYNC,
    Pool,
    database_from_url,
    env_bool,
    env_choice,
    env_email,
    env_host,
    env_int,
    env_list,
    env_port,
    env_str,
    parse_networks,
    parse_origins,
    private_dir,
    private_sqlite_file,
    push_subject,
    secret_key,
    set_names,
    sqlite_database,
    vapid_pair,
    vapid_private_key,
    vapid_public_key,
)

PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIR = private_dir(Path(env_str("DELVE_DATA_DIR", str(Path.cwd() / "var"))).resolve())

DEBUG = env_bool("DELVE_DEBUG", False)
SECRET_KEY = secret_key(DATA_DIR)
ALLOWED_HOSTS = env_list("DELVE_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "DELVE_ALLOWED_HOSTS is set but empty: every request would be refused; give the names players use"
    )
CSRF_TRUSTED_ORIGINS = parse_origins(env_list("DELVE_CSRF_TRUSTED_ORIGINS", []))

#: Settings given a value that has no effect in this configuration (DELVE_SQLITE_SYNC on
#: PostgreSQL, DELVE_SMTP_PORT without DELVE_SMTP_HOST...): `delve check`, `serve` and `tick` say
#: each in one line at start. Such a value is still checked: a malformed one is refused, used or not.
UNUSED_SETTINGS: list[str] = []


def _unused(names: list[str], why: str) -> None:
    UNUSED_SETTINGS.extend(f"{name} is set but has no effect: {why}" for name in set_names(names))


# Checked whatever the database: a bad value is refused even where it would not be used.
_pool = Pool.from_env()
env_choice("DELVE_SQLITE_SYNC", "full", set(SQLITE_SYNC))
_database_url = env_str("DATABASE_URL", "")
DATABASES = {
    "default": (
        database_from_url(_database_url, data_dir=DATA_DIR, pool=_pool)
        if _database_url.strip()
        else sqlite_database(DATA_DIR / "delve.sqlite3")
    )
}
if DATABASES["default"]["ENGINE"] in {"delve.server.sqlite_backend", "django.db.backends.sqlite3"}:
    private_sqlite_file(Path(DATABASES["default"]["NAME"]))
    _unused(["DELVE_DB_POOL_MAX", "DELVE_DB_POOL_MIN", "DELVE_DB_POOL_TIMEOUT"], "the database is SQLite")
else:
    _unused(["DELVE_SQLITE_SYNC"], "the database is PostgreSQL")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

#: Live updates between server processes go through Redis pub/sub (delve.server.live); without it
#: one process pushes to its own viewers.
REDIS_URL = env_str("REDIS_URL", "").strip()
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"REDIS_URL must start with redis://, rediss:// or unix://, got {REDIS_URL[:40]!r}")
DELVE_REDIS_PREFIX = env_str("DELVE_REDIS_PREFIX", "delve:")
#: The screens follow their game's event stream (off: they only poll, as before live updates).
LIVE_PUSH = env_bool("DELVE_LIVE_PUSH", True)

INSTALLED_APPS = [
    # before django.contrib.auth: its createsuperuser keeps the reserved names and the password rules
    "delve.server.accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "delve.server",
    "delve.server.games",
    "delve.server.lobby",
    "delve.server.play",
    "delve.server.api",
    "delve.server.records",
    "delve.server.notify",
    "delve.server.social",
    "delve.server.orders",
    "delve.server.live",
]

MIDDLEWARE = [
    "delve.server.guard.RequestGuard",  # first: refuses oversized or NUL-carrying requests, shapes every failure
    "delve.server.security.TrustedProxyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "delve.server.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "delve.server.accounts.middleware.LoginThrottleStatusMiddleware",
    "delve.server.usertime.TimeZoneMiddleware",  # the player's own zone (DELVE_TIME_ZONE for the others)
    "delve.server.social.spectators.SpectatorGate",  # a host may close a running game to spectators
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

#: Larger request bodies are refused with 413 before they are read (see delve.server.guard).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DELVE_MAX_BODY_BYTES", 256 * 1024, minimum=1024, maximum=64 * 1024 * 1024)

ROOT_URLCONF = "delve.server.urls"
WSGI_APPLICATION = "delve.server.wsgi.application"
ASGI_APPLICATION = "delve.server.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [PACKAGE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "delve.server.live.context.live",
                "delve.server.notify.context.waiting",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Argon2id first; older PBKDF2 hashes are upgraded at the next log-in. Both hashers take one of
# PASSWORD_HASH_CONCURRENCY process-wide slots while they work (accounts/hashers.py).
PASSWORD_HASHERS = [
    "delve.server.accounts.hashers.Argon2PasswordHasher",
    "delve.server.accounts.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
PASSWORD_HASH_CONCURRENCY = env_int(
    "DELVE_PASSWORD_HASH_CONCURRENCY", max(1, (os.cpu_count() or 2) - 1), minimum=1, maximum=64
)
AUTHENTICATION_BACKENDS = ["delve.server.accounts.backends.ThrottledModelBackend"]
LOGIN_THROTTLE = {
    "PER_ACCOUNT": env_int("DELVE_LOGIN_FAILURES_PER_ACCOUNT", 10, minimum=1),
    "PER_ADDRESS": env_int("DELVE_LOGIN_FAILURES_PER_ADDRESS", 50, minimum=1),
    "LOCKOUT_SECONDS": 60 * env_int("DELVE_LOGIN_LOCKOUT_MINUTES", 15, minimum=1, maximum=24 * 60),
}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ja", _("Japanese"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("DELVE_TIME_ZONE", "UTC")
try:
    import zoneinfo

    zoneinfo.ZoneInfo(TIME_ZONE)
except (ValueError, zoneinfo.ZoneInfoNotFoundError):
    raise ImproperlyConfigured(
        f"DELVE_TIME_ZONE={TIME_ZONE!r} is not a time zone (e.g. UTC, Europe/Paris, Asia/Tokyo)"
    ) from None
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [PACKAGE_DIR / "static"]
WHITENOISE_USE_FINDERS = True

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Django's database sessions; their lookup also checks a pooled connection (accounts/sessions.py).
SESSION_ENGINE = "delve.server.accounts.sessions"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Behind a TLS proxy (docs/operators.md, "Behind a TLS proxy"): the proxy's addresses are trusted
# for X-Forwarded-For and X-Forwarded-Proto (security.TrustedProxyMiddleware strips them from
# everyone else); cookies are Secure, plain HTTP is redirected and HSTS is sent.
TRUSTED_PROXY_NETWORKS = parse_networks(env_list("DELVE_TRUSTED_PROXY", []))
BEHIND_TLS = env_bool("DELVE_BEHIND_TLS", False)
# Checked with or without DELVE_BEHIND_TLS (a bad value is refused even where it has no effect).
_ssl_redirect = env_bool("DELVE_SSL_REDIRECT", True)
_hsts_seconds = env_int("DELVE_HSTS_SECONDS", 365 * 24 * 3600, minimum=0)
_hsts_include_subdomains = env_bool("DELVE_HSTS_INCLUDE_SUBDOMAINS", True)
_hsts_preload = env_bool("DELVE_HSTS_PRELOAD", False)
if TRUSTED_PROXY_NETWORKS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if BEHIND_TLS:
    if not TRUSTED_PROXY_NETWORKS:
        raise ImproperlyConfigured(
            "DELVE_BEHIND_TLS=1 needs DELVE_TRUSTED_PROXY (the TLS proxy's address, e.g. 127.0.0.1): "
            "without it the server cannot tell HTTPS requests from plain ones"
        )
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = _ssl_redirect
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # health checks may come over plain HTTP from inside
    SECURE_HSTS_SECONDS = _hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _hsts_include_subdomains
    SECURE_HSTS_PRELOAD = _hsts_preload
    if not SECURE_HSTS_PRELOAD:
        # Asking browsers to preload the domain is the domain owner's decision, not the server's.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
else:
    _unused(
        ["DELVE_SSL_REDIRECT", "DELVE_HSTS_SECONDS", "DELVE_HSTS_INCLUDE_SUBDOMAINS", "DELVE_HSTS_PRELOAD"],
        "DELVE_BEHIND_TLS is off",
    )

# Scripts and styles from our own static files only: no inline code, no eval (security.py).
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

_log_level = env_choice("DELVE_LOG_LEVEL", "INFO", {"DEBUG", "INFO", "WARNING", "ERROR"})
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": _log_level},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# Notifications (delve.server.notify): links in messages point at DELVE_SITE_URL. E-mail goes to the
# console (the log) unless DELVE_SMTP_HOST names a mail server; Web Push is off unless both VAPID
# keys are set. The worker sends; a failing server only delays messages (they wait in the outbox).
# Unset: this machine at DELVE_PORT (`delve serve --port` sets it for its own processes too).
#: Where `delve serve` listens unless given --port; read here so that every command refuses a bad one.
DELVE_PORT = env_port("DELVE_PORT", 8000)
#: The address `delve serve` listens on unless given --host; read here for the same reason.
DELVE_HOST = env_host("DELVE_HOST", "127.0.0.1")
DELVE_SITE_URL = env_str("DELVE_SITE_URL", "").strip() or f"http://localhost:{DELVE_PORT}"
if not re.fullmatch(r"https?://[^/\s?#]+(/[^\s?#]*)?", DELVE_SITE_URL):
    raise ImproperlyConfigured(
        f"DELVE_SITE_URL={DELVE_SITE_URL[:80]!r} is not a site address like https://delve.example.org"
    )
DELVE_SITE_URL = DELVE_SITE_URL.rstrip("/")
# A "your turn" or "defend" message waits this many seconds before it is sent, and is dropped if
# the player has acted meanwhile: a player at the screen is not mailed about the decision in front
# of them (0: send at once).
NOTIFY_GRACE = env_int("DELVE_NOTIFY_GRACE", 120, minimum=0, maximum=3600)
_smtp_host = env_str("DELVE_SMTP_HOST", "").strip()
# TLS from the start (DELVE_SMTP_SSL=1, port 465) or STARTTLS on a plain port (587): SSL alone
# turns the STARTTLS default off and moves the default port; both set on is refused. Checked with
# or without a mail server: a bad value is refused even where it has no effect.
_smtp_ssl = env_bool("DELVE_SMTP_SSL", False)
_smtp_starttls = env_bool("DELVE_SMTP_STARTTLS", not _smtp_ssl)
if _smtp_ssl and _smtp_starttls:
    raise ImproperlyConfigured("DELVE_SMTP_STARTTLS and DELVE_SMTP_SSL cannot both be on; choose one")
_smtp_port = env_int("DELVE_SMTP_PORT", 465 if _smtp_ssl else 587, minimum=1, maximum=65535)
EMAIL_TIMEOUT = env_int("DELVE_SMTP_TIMEOUT", 10, minimum=1, maximum=300)
if _smtp_host:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = _smtp_host
    EMAIL_USE_SSL = _smtp_ssl
    EMAIL_USE_TLS = _smtp_starttls
    EMAIL_PORT = _smtp_port
    EMAIL_HOST_USER = env_str("DELVE_SMTP_USER", "")
    EMAIL_HOST_PASSWORD = env_str("DELVE_SMTP_PASSWORD", "")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    _unused(
        [
            "DELVE_SMTP_PORT",
            "DELVE_SMTP_USER",
            "DELVE_SMTP_PASSWORD",
            "DELVE_SMTP_SSL",
            "DELVE_SMTP_STARTTLS",
            "DELVE_SMTP_TIMEOUT",
        ],
        "DELVE_SMTP_HOST is not set (e-mails are written to the log)",
    )
DEFAULT_FROM_EMAIL = env_email("DELVE_MAIL_FROM", "delve@localhost")
# Web Push: each key checked when it is set (the private key as its base64url text, never a file
# path), the pair checked to belong together, the subject checked as a contact.
DELVE_VAPID_PUBLIC_KEY = env_str("DELVE_VAPID_PUBLIC_KEY", "").strip()
DELVE_VAPID_PRIVATE_KEY = env_str("DELVE_VAPID_PRIVATE_KEY", "").strip()
if DELVE_VAPID_PRIVATE_KEY:
    vapid_private_key(DELVE_VAPID_PRIVATE_KEY)
if DELVE_VAPID_PUBLIC_KEY:
    vapid_public_key(DELVE_VAPID_PUBLIC_KEY)
if bool(DELVE_VAPID_PUBLIC_KEY) != bool(DELVE_VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured(
        "Web Push needs both DELVE_VAPID_PUBLIC_KEY and DELVE_VAPID_PRIVATE_KEY (or neither: push off)"
    )
if DELVE_VAPID_PUBLIC_KEY:
    vapid_pair(DELVE_VAPID_PUBLIC_KEY, DELVE_VAPID_PRIVATE_KEY)
# The contact the push services see: DELVE_VAPID_SUBJECT, else mailto: the sender's bare address
# when it is a public one (DELVE_MAIL_FROM may be "Delve <delve@example.org>"; the default
# delve@localhost is refused by push services), else the site's https address. Push on and none
# of these: refused at start (every push would be refused, or read as nonsense, by the services).
_vapid_subject = push_subject(env_str("DELVE_VAPID_SUBJECT", ""), DEFAULT_FROM_EMAIL, DELVE_SITE_URL)
if DELVE_VAPID_PUBLIC_KEY and _vapid_subject is None:
    raise ImproperlyConfigured(
        "Web Push needs a contact for the push services and none can be made: set "
        "DELVE_VAPID_SUBJECT=mailto:you@example.org, or DELVE_MAIL_FROM to a public address "
        f"(it is {DEFAULT_FROM_EMAIL!r}), or DELVE_SITE_URL to the site's https address (it is {DELVE_SITE_URL!r})"
    )
DELVE_VAPID_SUBJECT = _vapid_subject or ""
DELVE_PUSH_TIMEOUT = env_int("DELVE_PUSH_TIMEOUT", 10, minimum=1, maximum=300)
if not DELVE_VAPID_PUBLIC_KEY:
    _unused(["DELVE_VAPID_SUBJECT", "DELVE_PUSH_TIMEOUT"], "Web Push is off (no VAPID keys)")
