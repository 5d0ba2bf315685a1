from django.apps import AppConfig


class DemoConfig(AppConfig):
    """``manage.py demo``: the demonstration club and its three simulated events (no models)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "demo"
