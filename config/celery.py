"""The Celery application.

Without a broker (the embedded default) tasks run eagerly in-process; with
``CELERY_BROKER_URL``/``REDIS_URL`` set they go to Redis and real workers.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("duplitarot")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
