from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The round clock follows the positions (``tournaments.services.clock``).
        from tournaments.services.clock import follow_results
        from tournaments.signals import results_changed

        results_changed.connect(follow_results, dispatch_uid="tournaments.clock.follow_results")
