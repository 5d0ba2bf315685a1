"""Forms of the deals: generated from a seed, or imported as text; optionally one imposed
contract (at least Garde) for all of them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs import uploads
from clubs.errors import DomainError
from clubs.outcome_forms import contract_choices
from rules.deal import MAX_SEED, random_seed
from tournaments.forms.base import (
    MAX_TEXT_LINE_CHARS,
    MAX_TEXT_LINES,
    uploaded_text,
)
from tournaments.models import Seat


def imposed_contract_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("Imposed contract"),
        choices=[("", _("Free (at least Garde)")), *contract_choices()],
        required=False,
    )


def seed_field() -> forms.IntegerField:
    return forms.IntegerField(
        label=_("Deal seed"),
        min_value=1,
        max_value=MAX_SEED,
        required=False,
        help_text=_(
            "A random seed is proposed (left empty: a new random one); the same seed gives "
            "the same deals."
        ),
    )


class DealSeatsForm(forms.Form):
    """One deal's dealer and taker seat, set independently (deals page, draft events)."""

    dealer_seat = forms.ChoiceField(label=_("Dealer"), choices=Seat.choices)
    taker_seat = forms.ChoiceField(label=_("Taker"), choices=Seat.choices)


class DealsGenerateForm(forms.Form):
    """The seed (a fresh random one proposed unless ``initial`` gives the event's own) and
    the imposed contract."""

    seed = seed_field()
    imposed_contract = imposed_contract_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.initial.get("seed"):  # no deals generated yet (or imported): a new seed
            self.initial["seed"] = random_seed()

    def clean_seed(self) -> int:
        seed = self.cleaned_data.get("seed")
        return random_seed() if seed is None else int(seed)


class DealsImportForm(forms.Form):
    file = forms.FileField(
        label=_("Deals file"),
        help_text=_(
            "The text form printed by 'python manage.py deals', one deal per block; a "
            "'taker: S' line in a block sets that deal's taker seat (N, E, S, W), else the "
            "seat after the dealer takes."
        ),
    )
    imposed_contract = imposed_contract_field()

    def clean_file(self) -> str:
        text = uploaded_text(self.cleaned_data["file"])
        try:
            uploads.check_lines(text, max_lines=MAX_TEXT_LINES, max_line_chars=MAX_TEXT_LINE_CHARS)
        except DomainError as error:
            raise ValidationError(error.message, code=error.code) from error
        return text
