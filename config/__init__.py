"""Project configuration: settings, URLs, Celery app, WSGI/ASGI entry points (not an app)."""

from .celery import app as celery_app

__all__ = ["celery_app"]
