"""The form of a deal's outcome, shared by every kind of competition that enters a
four-player étui (a duplicate table, the director's grid, a cup room), with its correction
(the outcome and the director's reason), and the error lines every kind's forms show.

A deal's outcome is validated by ``rules`` in :meth:`DealOutcomeForm.clean` (through
:func:`clubs.outcomes.outcome_score`, nothing stored) and its marks kept in ``scored``. Service
field names (``poignees[1].size``, ``chelem.made_by``, ``percentages.N``) are translated to the
form fields by ``field_for_error`` (see :func:`clubs.forms.add_error`). A free deal's form
(any ruleset, any number of players) is ``freedeal.forms.DealForm``; it shows its errors with
:func:`named_error_lines` too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.errors import DomainError
from clubs.forms import add_error, reason_field
from clubs.outcomes import (
    Contract,
    OutcomeDeal,
    PoigneeSize,
    ScoredOutcome,
    Seat,
    Side,
    outcome_score,
)
from clubs.typography import colon
from rules.duplicate import DUPLICATE_CONTRACTS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

BLANK = ("", "—")
POIGNEE_SLOTS = (1, 2)


def contract_choices() -> list[tuple[str, StrOrPromise]]:
    """The contracts a duplicate deal is played at (``rules.duplicate``), with their labels."""
    return [(c.value, Contract(c.value).label) for c in DUPLICATE_CONTRACTS]


def side_field(label: StrOrPromise) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=[BLANK, *Side.choices], required=False)


def poignee_size_field() -> forms.ChoiceField:
    return forms.ChoiceField(label=_("size"), choices=[BLANK, *PoigneeSize.choices], required=False)


def outcome_field_for_error(field: str, fields: Mapping[str, Any]) -> str:
    """The outcome form's field (among ``fields``) where a service error on ``field`` shows:
    ``poignees[1].size`` → ``poignee_2_size`` (the first poignée when the form has no such
    row), ``chelem.announced`` → ``chelem_announced``, ``points`` → ``points``. The duplicate,
    cup and free-deal outcome forms all name their fields so."""
    match = re.fullmatch(r"poignees\[(\d+)\](?:\.(side|size))?", field)
    if match:
        name = f"poignee_{int(match.group(1)) + 1}_{match.group(2) or 'side'}"
        return name if name in fields else "poignee_1_side"
    if field.startswith("poignees"):
        return "poignee_1_side"
    if field.startswith("petit_chelem"):
        return "petit_chelem_announced"
    if field.startswith("chelem"):
        return "chelem_announced" if field.endswith("announced") else "chelem_made_by"
    return re.split(r"[.\[]", field, maxsplit=1)[0]


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

    def __init__(
        self, *args: Any, deal: OutcomeDeal, director: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.deal = deal
        self.director = director
        self.scored: ScoredOutcome | None = None
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
        return outcome_field_for_error(field, self.fields)

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
            self.scored = outcome_score(
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


class CorrectionForm(DealOutcomeForm):
    reason = reason_field()
