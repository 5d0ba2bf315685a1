from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamMatchConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "teammatch"
    verbose_name = _("Team matches")
