from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from scoring.pairing import answer_team_standings
        from scoring.signals import enqueue_standings_recompute
        from tournaments.signals import results_changed, team_standings_requested

        results_changed.connect(
            enqueue_standings_recompute, dispatch_uid="scoring.enqueue_standings_recompute"
        )
        team_standings_requested.connect(
            answer_team_standings, dispatch_uid="scoring.answer_team_standings"
        )
