"""Forms of the organiser screens: they parse and shape input; the services decide and store.

A service's ``ValidationError`` is attached back to the form with :func:`add_service_errors`
(keyed by field when the service named one, otherwise as a form-wide error).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Contract, Entrant, Event, Player

MAX_UPLOAD_BYTES = 2 * 1024 * 1024

DUPLICATE_CONTRACTS = [("", _("Free (at least Garde)"))] + [
    (c.value, c.label) for c in Contract if c != Contract.PRISE
]


def add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Attach a service error to ``form`` (unknown field names become form-wide errors)."""
    if hasattr(exc, "error_dict"):
        for name, errors in exc.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc)


class DateInput(forms.DateInput):
    input_type = "date"


class EventCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    date = forms.DateField(label=_("Date"), widget=DateInput)
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none())
    format = forms.ChoiceField(label=_("Format"), choices=Event.Format.choices)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"), min_value=1, max_value=12, initial=4
    )
    public = forms.BooleanField(label=_("Public results"), required=False)
    opponent_confirmation = forms.BooleanField(
        label=_("A defender confirms each result"), required=False
    )

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        club_field.queryset = clubs
        if clubs.count() == 1:
            club_field.initial = clubs.first()


class EventDetailsForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    date = forms.DateField(label=_("Date"), widget=DateInput)
    deals_per_round = forms.IntegerField(label=_("Deals per round"), min_value=1, max_value=12)
    public = forms.BooleanField(label=_("Public results"), required=False)
    opponent_confirmation = forms.BooleanField(
        label=_("A defender confirms each result"), required=False
    )


class PlayerForm(forms.Form):
    last_name = forms.CharField(label=_("Last name"), max_length=80)
    first_name = forms.CharField(label=_("First name"), max_length=80)
    licence = forms.CharField(label=_("Licence number"), max_length=20, required=False)
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.all(), required=False)
    series = forms.CharField(label=_("Series"), max_length=20, required=False)


class PlayerRegisterForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.all(), widget=forms.HiddenInput)


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Name or licence"), max_length=80, required=False)


class PlayersImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "Header row: last_name, first_name, licence, club, series; separated by ';' or ','; "
            "UTF-8."
        ),
    )

    def clean_file(self) -> Any:
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD_BYTES:
            raise ValidationError(_("The file is larger than 2 MB."))
        return file


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=120)
    members = forms.ModelMultipleChoiceField(
        label=_("Members"), queryset=Entrant.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        members = self.fields["members"]
        assert isinstance(members, forms.ModelMultipleChoiceField)
        members.queryset = (
            Entrant.objects.filter(event=event, phantom=False, team__isnull=True)
            .select_related("player")
            .order_by("slot")
        )


class MovementForm(forms.Form):
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=200, required=False)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=60, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=0, initial=0, required=False)
    document = forms.JSONField(required=False, widget=forms.HiddenInput)

    def clean_document(self) -> dict[str, Any] | None:
        document = self.cleaned_data.get("document")
        if document in (None, ""):
            return None
        if not isinstance(document, dict):
            raise ValidationError(_("The movement is not a document."))
        return document


class MovementImportForm(forms.Form):
    file = forms.FileField(
        label=_("Movement file (JSON)"),
        help_text=_("A document of schema duplitarot-movement/1, e.g. from 'manage.py movement'."),
    )

    def clean_file(self) -> dict[str, Any]:
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD_BYTES:
            raise ValidationError(_("The file is larger than 2 MB."))
        try:
            document = json.loads(file.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ValidationError(_("The file is not a JSON document.")) from exc
        if not isinstance(document, dict):
            raise ValidationError(_("The file is not a movement document."))
        return document


class DealsGenerateForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), min_value=0, max_value=2**62)
    imposed_contract = forms.ChoiceField(
        label=_("Imposed contract"), choices=DUPLICATE_CONTRACTS, required=False
    )


class DealsImportForm(forms.Form):
    file = forms.FileField(
        label=_("Deals file"),
        help_text=_("The text form printed by 'python manage.py deals', one deal per block."),
    )
    imposed_contract = forms.ChoiceField(
        label=_("Imposed contract"), choices=DUPLICATE_CONTRACTS, required=False
    )

    def clean_file(self) -> str:
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD_BYTES:
            raise ValidationError(_("The file is larger than 2 MB."))
        try:
            return str(file.read().decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise ValidationError(_("The file is not UTF-8 text.")) from exc
