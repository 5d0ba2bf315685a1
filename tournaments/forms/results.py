"""Forms of the director's decisions on a duplicate table's result (artificial scores, not
played, each with a reason) and penalties. A deal's outcome and its correction are the
kernel's forms, shared by every kind: :mod:`clubs.outcome_forms`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.forms import reason_field
from tournaments.models import SEATS, Entrant, Event, Seat, Team

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

ARTIFICIAL_PERCENTAGES = (60, 50, 40)


def percentage_field(label: StrOrPromise) -> forms.ChoiceField:
    choices = [(str(p), f"{p} %") for p in ARTIFICIAL_PERCENTAGES]
    return forms.ChoiceField(label=label, choices=choices, initial="50")


class ReasonForm(forms.Form):
    reason = reason_field()


class ArtificialForm(ReasonForm):
    """Artificial scores per seat, with the reason."""

    N = percentage_field(Seat.NORTH.label)
    E = percentage_field(Seat.EAST.label)
    S = percentage_field(Seat.SOUTH.label)
    W = percentage_field(Seat.WEST.label)

    def field_for_error(self, field: str) -> str:
        return field.removeprefix("percentages.")

    def percentages(self) -> dict[str, str]:
        return {seat: self.cleaned_data[seat] for seat in SEATS}


class PenaltyForm(ReasonForm):
    entrant = forms.ModelChoiceField(
        label=_("Player"), queryset=Entrant.objects.none(), required=False
    )
    team = forms.ModelChoiceField(label=_("Team"), queryset=Team.objects.none(), required=False)
    points = forms.DecimalField(
        label=_("Percentage points"), max_digits=5, decimal_places=2, min_value=0
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entrants = Entrant.objects.filter(event=event, phantom=False).select_related("player")
        cast(forms.ModelChoiceField, self.fields["entrant"]).queryset = entrants
        cast(forms.ModelChoiceField, self.fields["team"]).queryset = event.teams.all()
        if not event.is_team_event:
            del self.fields["team"]
