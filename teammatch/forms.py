"""Forms of the cup screens; a deal's outcome reuses the table phone's ``DealOutcomeForm``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from teammatch.models import MAX_DEALS_PER_QUARTER, Cup, QuarterLineup


class CupForm(forms.Form):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none())
    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    public = forms.BooleanField(label=_("Public"), required=False)
    deals_per_quarter = forms.IntegerField(
        label=_("Deals per quarter"), min_value=1, max_value=MAX_DEALS_PER_QUARTER, initial=6
    )
    pm_scale = forms.CharField(
        label=_("Points-de-match scale"),
        max_length=400,
        required=False,
        help_text=_("Thresholds of net marks, separated by commas (empty: the usual scale)."),
    )
    tie_break = forms.ChoiceField(
        label=_("Tie-break of a drawn match"),
        choices=Cup.TieBreakOrder.choices,
        initial=Cup.TieBreakOrder.NET_FIRST,
    )

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = clubs

    def clean_pm_scale(self) -> list[int] | None:
        text = (self.cleaned_data.get("pm_scale") or "").strip()
        if not text:
            return None
        try:
            return [int(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(
                _("The scale lists positive whole thresholds in increasing order.")
            ) from None


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=80)
    players = forms.ModelMultipleChoiceField(
        label=_("Players (4 to 6)"),
        queryset=Player.objects.none(),
        widget=forms.SelectMultiple(attrs={"size": 10}),
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = players


SEAT_LABELS = {
    "open_taker": _("Open room: taker (team A)"),
    "open_defender_1": _("Open room: defender 1 (team B)"),
    "open_defender_2": _("Open room: defender 2 (team B)"),
    "open_defender_3": _("Open room: defender 3 (team B)"),
    "closed_taker": _("Closed room: taker (team B)"),
    "closed_defender_1": _("Closed room: defender 1 (team A)"),
    "closed_defender_2": _("Closed room: defender 2 (team A)"),
    "closed_defender_3": _("Closed room: defender 3 (team A)"),
}


class LineupForm(forms.Form):
    """A quarter's eight seats; any player of the two rosters may be chosen (the service says
    what is wrong with a seat)."""

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in QuarterLineup.SEAT_FIELDS:
            self.fields[name] = forms.ModelChoiceField(
                label=SEAT_LABELS[name], queryset=players, required=False
            )

    def seats(self) -> dict[str, Player | None]:
        return {name: self.cleaned_data.get(name) for name in QuarterLineup.SEAT_FIELDS}
