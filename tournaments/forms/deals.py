"""Forms of the deals: generated from a seed, or imported as text; optionally one imposed
contract (at least Garde) for all of them."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.forms.base import (
    MAX_TEXT_LINE_CHARS,
    MAX_TEXT_LINES,
    contract_choices,
    uploaded_text,
)
from tournaments.services import uploads


def imposed_contract_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("Imposed contract"),
        choices=[("", _("Free (at least Garde)")), *contract_choices()],
        required=False,
    )


class DealsGenerateForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), min_value=0, max_value=2**62)
    imposed_contract = imposed_contract_field()


class DealsImportForm(forms.Form):
    file = forms.FileField(
        label=_("Deals file"),
        help_text=_("The text form printed by 'python manage.py deals', one deal per block."),
    )
    imposed_contract = imposed_contract_field()

    def clean_file(self) -> str:
        text = uploaded_text(self.cleaned_data["file"])
        try:
            uploads.check_lines(text, max_lines=MAX_TEXT_LINES, max_line_chars=MAX_TEXT_LINE_CHARS)
        except TournamentError as error:
            raise ValidationError(error.message, code=error.code) from error
        return text
