"""Settings of the test run (pytest's ``DJANGO_SETTINGS_MODULE``): the project's settings, made
fast and hermetic.

Everything still comes from ``config.settings`` and so from the environment: ``DATABASE_URL``,
``REDIS_URL``, ``CELERY_BROKER_URL`` and ``CELERY_TASK_ALWAYS_EAGER`` choose the services, which
is how ``.ci/run`` runs the integration tests against real PostgreSQL, Redis and a real Celery
worker (the worker inherits ``DJANGO_SETTINGS_MODULE`` from pytest's environment). Only what
must differ in tests is overridden here:

- a fast password hasher: the tests create many users, PBKDF2 would dominate their time;
- debug settings (``DJANGO_DEBUG=1`` unless the environment says otherwise);
- ``club.test`` among the allowed hosts: the browser tests open the phone pages through that
  non-loopback name (an insecure origin, as a club room's Wi-Fi is), mapped to 127.0.0.1;
- a local-memory cache, even when ``REDIS_URL`` is set: each test process caches on its own
  and nothing leaks between runs through a shared Redis (no test needs Redis as a cache).
"""

import os

# Tests run in debug settings (plain HTTP, no secret key needed), whether pytest or a Celery worker
# started by a test imports this module; Django's test runner still runs the views with
# DEBUG=False. The production defaults are tested in a subprocess (tests/test_settings_deploy.py).
os.environ.setdefault("DJANGO_DEBUG", "1")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

ALLOWED_HOSTS = [*ALLOWED_HOSTS, "club.test"]  # noqa: F405
