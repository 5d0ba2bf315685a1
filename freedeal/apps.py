from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FreeDealConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "freedeal"
    verbose_name = _("Free-deal tournaments")
