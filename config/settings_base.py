"""Settings every profile shares (``config.settings`` chooses the profile), driven by the
environment (django-environ). No profile here: what differs between a developer's checkout, a
club's instance and production is set by its own module (``config.settings_developer``,
``config.settings_instance``, ``config.settings_production``), with the helpers below.

The defaults here are those of plain HTTP (a developer's machine, a club room's Wi-Fi); the
production module turns HTTPS on.
"""

import importlib.util
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import environment

BASE_DIR: Path = environment.BASE_DIR
env = environment.env

# The site's own templates, static files and translations (not an app's): inside this package,
# so that an installed duplitarot (a wheel) carries them.
SITE_DIR = Path(__file__).resolve().parent

#: The data folder of a club's instance (``config.settings_instance``); None elsewhere.
DATA_DIR: Path | None = None

# Off unless asked for: ``./dev`` and the test settings set DJANGO_DEBUG=1, production never does.
DEBUG = env.bool("DJANGO_DEBUG", default=False)

# Keys that were published (an old default, the example file): never acceptable outside debug.
PUBLISHED_SECRET_KEYS = frozenset(
    {"dev-only-insecure-key-change-me-in-production", "change-me-to-a-long-random-string"}
)
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="").strip()


def refuse_missing_key(key: str) -> None:
    """Outside debug, a missing, empty or published key refuses to start."""
    if not key or key in PUBLISHED_SECRET_KEYS:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is missing, empty or a published example value, and DEBUG is off: "
            "refusing to start. Set DJANGO_SECRET_KEY to a long random string in the environment "
            "or in the .env file, for example the output of "
            'python -c "import secrets; print(secrets.token_urlsafe(50))". '
            "For development only, set DJANGO_DEBUG=1 (./dev does)."
        )


# Where phones in the room reach this server, e.g. http://192.168.1.20:8000: the QR codes and
# table cards print it (empty, the default: the host of the organiser's request). ``./dev demo
# --lan`` sets it to the machine's LAN address.
DUPLITAROT_PUBLIC_URL = env.str("DUPLITAROT_PUBLIC_URL", default="").strip().rstrip("/")
if DUPLITAROT_PUBLIC_URL and not DUPLITAROT_PUBLIC_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        "DUPLITAROT_PUBLIC_URL must start with http:// or https://, e.g. http://192.168.1.20:8000"
    )

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    # Swagger UI and ReDoc served by the app (/api/docs/ and /api/redoc/ work offline).
    "drf_spectacular_sidecar",
    "axes",
    "clubs",
    "tournaments",
    "scoring",
    "series",
    "freedeal",
    "teammatch",
    "archives",
    # A club's own instance: first run, the serve command, backups.
    "instance",
    "demo",
]
if importlib.util.find_spec("bench") is not None:
    # Dev-only (not in the installed package): benchmarks, load test, scale builder.
    INSTALLED_APPS.append("bench")

MIDDLEWARE = [
    # Drops Cross-Origin-Opener-Policy from answers over plain HTTP (a club's Wi-Fi), where the
    # browser ignores it with a console error on every page; around SecurityMiddleware, which
    # sets it (SECURE_CROSS_ORIGIN_OPENER_POLICY) on every answer.
    "config.middleware.SecureOnlyOpenerPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Compresses the pages (HTML, JSON, CSV) for a client that accepts gzip, with Django's BREACH
    # mitigation (random bytes in the gzip header). Before every middleware that reads or changes
    # the body, so that it compresses their final answer; after WhiteNoise (inserted after
    # SecurityMiddleware outside debug: :func:`with_whitenoise`), which serves the static files'
    # own precompressed copies and never reaches it.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.ApiLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: turns a locked-out login into the 429 lockout page.
    "axes.middleware.AxesMiddleware",
    # With no account yet, every page leads to the first-run page (instance.setup).
    "instance.middleware.FirstRunMiddleware",
]


def with_whitenoise(middleware: list[str]) -> list[str]:
    """Outside debug the server serves the collected static files itself (production: collected
    in the image; a club's instance: in its data folder); in debug runserver and the test live
    server serve them from the apps and static/."""
    after = middleware.index("django.middleware.security.SecurityMiddleware") + 1
    return [*middleware[:after], "whitenoise.middleware.WhiteNoiseMiddleware", *middleware[after:]]


ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

SQLITE_ENGINE = "django.db.backends.sqlite3"


def database(default_file: Path) -> dict[str, Any]:
    """``DATABASE_URL`` (PostgreSQL in production), else the SQLite file ``default_file``."""
    config: dict[str, Any] = env.db("DATABASE_URL", default=f"sqlite:///{default_file}")
    config["ATOMIC_REQUESTS"] = False
    if config["ENGINE"] == SQLITE_ENGINE:
        # A tournament room has many phones writing at once: wait for the lock, don't fail.
        # WAL: readers never wait for the writer, nor the writer for readers; a write
        # transaction takes the lock when it begins (IMMEDIATE), so two writers queue instead of
        # one failing when it upgrades a read lock; NORMAL sync is safe in WAL mode (a power cut
        # may lose the last transactions, never corrupt the file).
        config.setdefault("OPTIONS", {}).update(
            {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            }
        )
        config.setdefault("TEST", {})
    else:
        config["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
        # A kept connection cut by a database restart is noticed before the request uses it
        # (one quick check per request), instead of failing that request with a 503.
        config["CONN_HEALTH_CHECKS"] = env.bool("DATABASE_CONN_HEALTH_CHECKS", default=True)
    return config


DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [SITE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT: Path = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [SITE_DIR / "static"]
#: The static files by their own names (debug); outside debug: hashed names, cached for ever by
#: the browsers, and gzip copies (config.staticfiles), collected by production in the image
#: (Dockerfile), by a club's instance in its data folder.
STATIC_STORAGE_DEBUG = "django.contrib.staticfiles.storage.StaticFilesStorage"
STATIC_STORAGE = "config.staticfiles.StaticStorage"


def storages(static_backend: str) -> dict[str, dict[str, str]]:
    return {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": static_backend},
    }


LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/organiser/"
LOGOUT_REDIRECT_URL = "/"

REDIS_URL = env.str("REDIS_URL", default="")


def caches(without_redis: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Redis when ``REDIS_URL`` names one, else ``without_redis`` (the profile's own)."""
    if not REDIS_URL:
        return {"default": without_redis}
    # django-redis: with Redis down, a cache read is a miss and a write is skipped (pages render
    # from the database) instead of an error page; short timeouts keep pages fast meanwhile.
    return {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="duplitarot"),
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 0.5,
            },
        }
    }


LOCAL_MEMORY_CACHE = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

# Celery: a broker URL means real workers; none means tasks run in-process: eagerly inside the
# request in a developer's checkout and the tests, on a background thread of the server in a
# club's instance (``runner.background``: the request that saved answers at once).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL)
_BROKER = bool(CELERY_BROKER_URL)


def background_mode(without_broker: str) -> str:
    """``DUPLITAROT_BACKGROUND``: ``celery`` with a broker, else the profile's ``without_broker``
    (``thread`` in a club's instance, ``eager`` elsewhere)."""
    mode = str(env.str("DUPLITAROT_BACKGROUND", default="celery" if _BROKER else without_broker))
    if mode not in {"celery", "thread", "eager"}:
        raise ImproperlyConfigured("DUPLITAROT_BACKGROUND must be celery, thread or eager.")
    return mode


# ``thread`` mode: the runner recomputes an event's standings this long after the save that asked
# for it, with the saves of that moment: the ranking shows a save within about a second, and a
# room's burst of saves (30 tables at once) costs a few recomputes instead of one per save.
STANDINGS_COALESCE_SECONDS = env.float("STANDINGS_COALESCE_SECONDS", default=0.5)
if not 0 <= STANDINGS_COALESCE_SECONDS <= 5:
    raise ImproperlyConfigured("STANDINGS_COALESCE_SECONDS must be between 0 and 5.")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not _BROKER)
# Without a broker: in-process only, every task runs eagerly.
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task taken by a worker that dies (acks late) goes back to the queue after this many
# seconds, not Redis' default hour; longer than any recompute (bounded to 90 s).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=300)
}
# Sending a task while the broker is down fails fast instead of holding the request: the
# result is stored, and the periodic reconciliation sends the recompute later.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
# Celery beat (``celery -A config beat``): re-queue the events whose standings are behind.
CELERY_BEAT_SCHEDULE = {
    "standings-reconcile": {
        "task": "scoring.tasks.standings_reconcile_task",
        "schedule": env.float("STANDINGS_RECONCILE_SECONDS", default=30.0),
    }
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Sessions only (the login page is throttled); table phones authenticate by their code.
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    # Closed by default: every view says who may call it (tests/test_authorisation_matrix.py).
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.BoundedLimitOffsetPagination",
    # Every error: RFC 9457 problem details with a ``code``; the kernel's DomainError with its
    # status (and Django's body limits answer 413/400 problems too).
    "EXCEPTION_HANDLER": "clubs.api.exception_handler",
    "PAGE_SIZE": 100,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "duplitarot API",
    "DESCRIPTION": (
        "Duplicate French tarot tournaments: events, movements, deals, results, rankings."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The documentation pages' JavaScript and CSS come from drf-spectacular-sidecar's static
    # files (pinned by uv.lock), never from a CDN: a club room often has no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One schema name per shared choice set (seats, contracts, sides).
    "ENUM_NAME_OVERRIDES": {
        "SeatEnum": "clubs.outcomes.Seat",
        "ContractEnum": "clubs.outcomes.Contract",
        "SideEnum": "clubs.outcomes.Side",
        "SizeEnum": "clubs.outcomes.PoigneeSize",
        "RulesetNameEnum": "tournaments.api.serializers.RULESET_NAME_CHOICES",
        # draft / running / finished: events, cups and free-deal tournaments alike
        "StatusEnum": "clubs.models.CompetitionStatus",
        "CupMatchStatusEnum": "teammatch.models.CupMatch.Status",
        # a stored result and its replay (TableResultReplaySerializer) share it
        "TableResultKindEnum": "tournaments.models.TableResult.Kind",
    },
    # Every 4xx/5xx answer is application/problem+json (clubs.api.exception_handler).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "clubs.api.problem_media_type",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A full disk: one line now and then, not a traceback per refused save (config.errors).
    "filters": {
        "disk_full": {"()": "config.errors.DiskFullLogFilter"},
        "disallowed_host": {"()": "config.errors.DisallowedHostLogFilter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["disk_full"]}},
    # A host name not in ALLOWED_HOSTS: one line per request, not a traceback.
    "loggers": {"django.security.DisallowedHost": {"filters": ["disallowed_host"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}

# HTTPS: off by default here, where the server speaks plain HTTP (a developer's machine, a club
# room's Wi-Fi: no redirect, no secure-only cookies); production turns the defaults on
# (``config.settings_production``). Each is switched by the environment (docs/deployment.md).
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=False)
# Strict-Transport-Security is only sent on HTTPS responses: harmless on a plain-HTTP LAN.
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE


def proxy_ssl_header(name: str) -> tuple[str, str] | None:
    """``X-Forwarded-Proto`` (or ``HTTP_X_FORWARDED_PROTO``) -> Django's (META key, "https")."""
    name = name.strip()
    if not name:
        return None
    key = name.upper().replace("-", "_")
    return (key if key.startswith("HTTP_") else f"HTTP_{key}", "https")


# Behind a TLS-terminating proxy that sets (and overwrites) this header, e.g. X-Forwarded-Proto;
# unset (the default) the header is ignored, as it must be when clients can reach gunicorn.
SECURE_PROXY_SSL_HEADER = proxy_ssl_header(env.str("DJANGO_SECURE_PROXY_SSL_HEADER", default=""))

# Login throttling (django-axes) on /login/ and /admin/login/: a username is locked for one
# client address after DJANGO_LOGIN_FAILURE_LIMIT failures in a row, for
# DJANGO_LOGIN_COOLOFF_MINUTES (every failure while locked restarts the wait). Locking the pair,
# not the address alone, keeps a whole club behind one address from being locked by one player,
# and one person from locking everybody. Attempts live in the database: no cache involved.
# The API authenticates by session only (no Basic or token authentication, see REST_FRAMEWORK),
# so the only way to try passwords is this login page: its throttle is the API's too.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env.int("DJANGO_LOGIN_FAILURE_LIMIT", default=5)
if AXES_FAILURE_LIMIT < 1:
    raise ImproperlyConfigured("DJANGO_LOGIN_FAILURE_LIMIT must be at least 1.")
_cool_off_minutes = env.float("DJANGO_LOGIN_COOLOFF_MINUTES", default=15.0)
if _cool_off_minutes < 0:
    raise ImproperlyConfigured("DJANGO_LOGIN_COOLOFF_MINUTES must be 0 (no end) or more.")
# 0: locked until an administrator unlocks (admin "Access attempts", or axes_reset_username).
AXES_COOLOFF_TIME = timedelta(minutes=_cool_off_minutes) if _cool_off_minutes else None
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.lockout.lockout_response"
# The client address: REMOTE_ADDR, or behind DJANGO_TRUSTED_PROXY_COUNT reverse proxies (that
# append to X-Forwarded-For, as nginx's $proxy_add_x_forwarded_for does) the address the
# outermost one saw. 0 (the default) ignores X-Forwarded-For, as it must when clients can reach
# gunicorn directly: they could write any address there and never be throttled.
TRUSTED_PROXY_COUNT = env.int("DJANGO_TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("DJANGO_TRUSTED_PROXY_COUNT must be 0 (no proxy) or more.")
AXES_CLIENT_IP_CALLABLE = "config.lockout.client_address"

# A club's instance (``config.settings_instance``): the data folder's lock, held while a server
# serves (a restore refuses to run then), and the automatic SQLite backups (``instance.backups``),
# in DUPLITAROT_BACKUP_DIR (default: the data folder's ``backups``; a USB stick or a second disk
# is a good place): at every start, position finished at every table, close and finish, and
# every DUPLITAROT_BACKUP_EVERY seconds while results arrive; kept: those of the last
# DUPLITAROT_BACKUP_EVENINGS evenings, the last DUPLITAROT_BACKUP_KEEP others, all of tonight's.
# Elsewhere: none of them.
DUPLITAROT_SERVE_LOCK: Path | None = None
DUPLITAROT_BACKUP_DIR: Path | None = None
DUPLITAROT_BACKUP_KEEP = env.int("DUPLITAROT_BACKUP_KEEP", default=20)
if DUPLITAROT_BACKUP_KEEP < 1:
    raise ImproperlyConfigured("DUPLITAROT_BACKUP_KEEP must be at least 1.")
DUPLITAROT_BACKUP_EVENINGS = env.int("DUPLITAROT_BACKUP_EVENINGS", default=10)
if DUPLITAROT_BACKUP_EVENINGS < 1:
    raise ImproperlyConfigured("DUPLITAROT_BACKUP_EVENINGS must be at least 1.")
DUPLITAROT_BACKUP_EVERY = env.float("DUPLITAROT_BACKUP_EVERY", default=600.0)
if not DUPLITAROT_BACKUP_EVERY >= 1:  # also refuses nan
    raise ImproperlyConfigured("DUPLITAROT_BACKUP_EVERY must be at least 1 (seconds).")
# With no account yet, every page of a club's instance leads to the first-run page (/setup/).
DUPLITAROT_FIRST_RUN_REDIRECT = env.bool("DUPLITAROT_FIRST_RUN_REDIRECT", default=False)
