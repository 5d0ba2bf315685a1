"""Production (debug off, no data folder): ``DATABASE_URL`` (PostgreSQL), ``REDIS_URL`` /
``CELERY_BROKER_URL`` (Redis, Celery workers), gunicorn behind a TLS proxy (``docker compose``;
``.env.example`` is its documented environment). HTTPS on by default, a secret key of one's own
required, the static files collected in the image and served by WhiteNoise.

The ``.env`` file of the checkout is read first (the environment wins over it)."""

from config.environment import read_dotenv

read_dotenv()

from config import settings_base as base  # noqa: E402
from config.settings_base import *  # noqa: E402, F403

base.refuse_missing_key(base.SECRET_KEY)

MIDDLEWARE = base.with_whitenoise(base.MIDDLEWARE)
DATABASES = {"default": base.database(base.BASE_DIR / "db.sqlite3")}
STORAGES = base.storages(base.STATIC_STORAGE)
CACHES = base.caches(base.LOCAL_MEMORY_CACHE)
DUPLITAROT_BACKGROUND = base.background_mode("eager")

# HTTPS by default (``check --deploy`` is clean with these); a server without TLS switches them
# off in its environment (docs/deployment.md).
SECURE_SSL_REDIRECT = base.env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = base.env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SESSION_COOKIE_SECURE = base.env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
