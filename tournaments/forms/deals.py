"""Forms of the deals: generated from a seed, or imported as text; optionally one imposed
contract (at least Garde) for all of them."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.forms.base import checked_upload, contract_choices


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
        file = checked_upload(self.cleaned_data["file"])
        try:
            return str(file.read().decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise ValidationError(_("The file is not UTF-8 text.")) from exc
