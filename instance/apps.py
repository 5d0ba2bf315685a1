from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InstanceConfig(AppConfig):
    """A club's own instance: the first run, the serve command, its backups, its status box."""

    name = "instance"
    verbose_name = _("Instance")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from clubs.signals import milestone
        from clubs.status import status_source
        from instance import health
        from instance.backups import on_milestone

        milestone.connect(on_milestone, dispatch_uid="instance.backups.on_milestone")
        for source in health.sources():
            status_source(source)
