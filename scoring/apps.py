from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from scoring.signals import enqueue_standings_recompute
        from tournaments.signals import results_changed

        results_changed.connect(
            enqueue_standings_recompute, dispatch_uid="scoring.enqueue_standings_recompute"
        )
