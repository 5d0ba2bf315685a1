"""Forms of result entry: a deal's outcome (table, grid, director), the director's decisions
(correction, artificial scores, not played, each with a reason) and penalties.

A deal's outcome is validated by ``rules`` in :meth:`DealOutcomeForm.clean` (through
``services.outcome_score``, nothing stored) and its marks kept in ``scored``. Service field
names (``poignees[1].size``, ``chelem.made_by``, ``percentages.N``) are translated to the form
fields by ``field_for_error`` (see :func:`tournaments.forms.base.add_error`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.errors import DomainError
from clubs.forms import add_error, reason_field
from tournaments import services
from tournaments.forms.base import contract_choices
from tournaments.models import (
    SEATS,
    Contract,
    Deal,
    Entrant,
    Event,
    PoigneeSize,
    Seat,
    Side,
    Team,
)
from tournaments.presentation import colon

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

BLANK = ("", "—")
POIGNEE_SLOTS = (1, 2)
ARTIFICIAL_PERCENTAGES = (60, 50, 40)


def side_field(label: StrOrPromise) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=[BLANK, *Side.choices], required=False)


def poignee_size_field() -> forms.ChoiceField:
    return forms.ChoiceField(label=_("size"), choices=[BLANK, *PoigneeSize.choices], required=False)


def percentage_field(label: StrOrPromise) -> forms.ChoiceField:
    choices = [(str(p), f"{p} %") for p in ARTIFICIAL_PERCENTAGES]
    return forms.ChoiceField(label=label, choices=choices, initial="50")


class DealOutcomeForm(forms.Form):
    """One deal's outcome; see the module docstring."""

    taker_seat = forms.ChoiceField(label=_("Taker"), choices=Seat.choices)
    contract = forms.ChoiceField(label=_("Contract"), choices=contract_choices)
    oudlers = forms.TypedChoiceField(
        label=_("Oudlers"), choices=[BLANK] + [(n, str(n)) for n in range(4)], coerce=int
    )
    points = forms.CharField(
        label=_("Points"),
        max_length=6,
        # No autocomplete="off": it makes the browser's Back lose the points typed.
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 4}),
    )
    petit_au_bout = side_field(_("Petit au bout"))
    poignee_1_side = side_field(_("Poignée 1"))
    poignee_1_size = poignee_size_field()
    poignee_2_side = side_field(_("Poignée 2"))
    poignee_2_size = poignee_size_field()
    chelem_announced = forms.BooleanField(label=_("Chelem announced"), required=False)
    chelem_made_by = side_field(_("Chelem made by"))

    COMPACT_FIELDS = ("contract", "oudlers", "points", "petit_au_bout")

    def __init__(self, *args: Any, deal: Deal, director: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deal = deal
        self.director = director
        self.scored: services.ScoredOutcome | None = None
        self.fields["taker_seat"].initial = deal.taker_seat
        if not director:
            # The étui names the taker seat: shown, never changed at the table.
            self.fields["taker_seat"].disabled = True
        contract = cast(forms.ChoiceField, self.fields["contract"])
        if deal.imposed_contract:
            contract.choices = [(deal.imposed_contract, Contract(deal.imposed_contract).label)]
            contract.initial = deal.imposed_contract
        else:
            contract.initial = Contract.GARDE.value

    def field_for_error(self, field: str) -> str:
        """The form field of a service field: ``poignees[1].size`` → ``poignee_2_size``."""
        match = re.fullmatch(r"poignees\[(\d+)\](?:\.(side|size))?", field)
        if match:
            name = f"poignee_{int(match.group(1)) + 1}_{match.group(2) or 'side'}"
            return name if name in self.fields else "poignee_1_side"
        if field.startswith("poignees"):
            return "poignee_1_side"
        if field.startswith("chelem"):
            return "chelem_announced" if field.endswith("announced") else "chelem_made_by"
        return re.split(r"[.\[]", field, maxsplit=1)[0]

    @staticmethod
    def initial_of(outcome: dict[str, Any] | None) -> dict[str, Any]:
        """The form's initial values showing a stored ``outcome`` (the inverse of ``outcome``)."""
        if not outcome:
            return {}
        initial = {
            "taker_seat": outcome["taker_seat"],
            "contract": outcome["contract"],
            "oudlers": outcome["oudlers"],
            "points": outcome["points"],
            "petit_au_bout": outcome["petit_au_bout"] or "",
            "chelem_announced": outcome["chelem"]["announced"],
            "chelem_made_by": outcome["chelem"]["made_by"] or "",
        }
        for slot, poignee in zip(POIGNEE_SLOTS, outcome["poignees"], strict=False):
            initial[f"poignee_{slot}_side"] = poignee["side"]
            initial[f"poignee_{slot}_size"] = poignee["size"]
        return initial

    def is_blank(self) -> bool:
        """Neither oudlers nor points given (the grid skips such rows)."""
        return not any(
            (self.data.get(self.add_prefix(name)) or "").strip() for name in ("oudlers", "points")
        )

    def outcome(self) -> dict[str, Any]:
        """The outcome in the services' input shape."""
        data = self.cleaned_data
        poignees = []
        for slot in POIGNEE_SLOTS:
            side, size = data.get(f"poignee_{slot}_side"), data.get(f"poignee_{slot}_size")
            if side or size:
                poignees.append({key: v for key, v in (("side", side), ("size", size)) if v})
        return {
            "taker_seat": data.get("taker_seat") or self.deal.taker_seat,
            "contract": data["contract"],
            "oudlers": data["oudlers"],
            "points": data["points"],
            "petit_au_bout": data.get("petit_au_bout") or None,
            "poignees": poignees,
            "chelem": {
                "announced": bool(data.get("chelem_announced")),
                "made_by": data.get("chelem_made_by") or None,
            },
        }

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            self.scored = services.outcome_score(
                deal=self.deal, outcome=self.outcome(), director=self.director
            )
        except DomainError as error:
            add_error(self, error)
        return cleaned

    def named_errors(self, *, required: bool = True) -> list[str]:
        """Every error as one line naming its field (for summaries and the preview), with the
        language's colon ("Points : ..." in French); ``required=False`` leaves out the fields
        only left empty (the live preview, while the table is still filling the form in)."""
        return named_error_lines(self, required=required)


def named_error_lines(form: forms.Form, *, required: bool = True) -> list[str]:
    """The errors of ``form``, one line each naming its field with the language's colon;
    without the ``required`` ones when ``required`` is False."""
    lines = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        for error, message in zip(errors.as_data(), errors, strict=True):
            if not required and error.code == "required":
                continue
            lines.append(f"{label}{colon()} {message}" if label else str(message))
    return lines


class ReasonForm(forms.Form):
    reason = reason_field()


class CorrectionForm(DealOutcomeForm):
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
