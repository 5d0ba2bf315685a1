"""WSGI entry point (gunicorn config.wsgi; waitress in ``duplitarot serve``; runserver)."""

import os

import django
from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)
if settings.DATA_DIR is not None and not settings.DEBUG:
    # A club's instance: its static files collected into its data folder (when they changed)
    # before WhiteNoise reads that folder (instance.staticfiles).
    from instance.staticfiles import static_collected

    static_collected()
application = get_wsgi_application()
