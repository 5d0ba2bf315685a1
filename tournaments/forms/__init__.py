"""Forms of the tournaments screens: they parse and shape input; the services decide and store.

One module per subject: ``events`` (details), ``registration`` (players), ``teams``,
``movement``, ``deals``, ``results`` (director decisions, penalties; a deal's outcome is
the kernel's :mod:`clubs.outcome_forms`), ``sections``
(simultaneous tournaments, a results file); ``base`` holds uploads. A refused operation
reaches a form through :func:`clubs.forms.add_error`.
"""

from tournaments.forms.deals import DealSeatsForm, DealsGenerateForm, DealsImportForm
from tournaments.forms.events import EventCreateForm, EventDetailsForm
from tournaments.forms.movement import MovementForm, MovementImportForm
from tournaments.forms.registration import (
    PlayerForm,
    PlayerRegisterForm,
    PlayerSearchForm,
    PlayersImportForm,
)
from tournaments.forms.results import (
    ArtificialForm,
    PenaltyForm,
    ReasonForm,
)
from tournaments.forms.sections import (
    ResultsImportForm,
    SectionCreateForm,
    SimultaneousCreateForm,
    SimultaneousDealsGenerateForm,
    SimultaneousDealsImportForm,
)
from tournaments.forms.teams import TeamForm

__all__ = [
    "ArtificialForm",
    "DealSeatsForm",
    "DealsGenerateForm",
    "DealsImportForm",
    "EventCreateForm",
    "EventDetailsForm",
    "MovementForm",
    "MovementImportForm",
    "PenaltyForm",
    "PlayerForm",
    "PlayerRegisterForm",
    "PlayerSearchForm",
    "PlayersImportForm",
    "ReasonForm",
    "ResultsImportForm",
    "SectionCreateForm",
    "SimultaneousCreateForm",
    "SimultaneousDealsGenerateForm",
    "SimultaneousDealsImportForm",
    "TeamForm",
]
