"""Forms of simultaneous tournaments: the simultaneous, a section, its deals, a results file."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from rules.deal import random_seed
from tournaments.forms.base import checked_upload
from tournaments.forms.deals import (
    DealsGenerateForm,
    DealsImportForm,
    imposed_contract_field,
    seed_field,
)
from tournaments.forms.events import EventDetailsForm, new_event_defaults
from tournaments.models import Event
from tournaments.services.deals import MAX_SIMULTANEOUS_ROUNDS
from tournaments.services.imports import MAX_BYTES as MAX_RESULTS_BYTES


def rounds_field(*, required: bool) -> forms.IntegerField:
    return forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_SIMULTANEOUS_ROUNDS,
        required=required,
        help_text=_("Every section plays this many rounds, one deal set per round."),
    )


class SimultaneousCreateForm(EventDetailsForm):
    """The simultaneous's details, its club (among ``clubs``), format, rounds and deal seed
    (a random one proposed; empty: a random one too)."""

    club = forms.ModelChoiceField(label=_("Organising club"), queryset=Club.objects.none())
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[
            (Event.Format.INDIVIDUAL.value, Event.Format.INDIVIDUAL.label),
            (Event.Format.TRIPLETTE.value, Event.Format.TRIPLETTE.label),
        ],
        help_text=_("Quadrettes are not played in simultaneous: a match pairs two tables."),
    )
    rounds = rounds_field(required=True)
    seed = seed_field()
    imposed_contract = imposed_contract_field()

    field_order = ["name", "date", "club", "format", "deals_per_round", "rounds"]

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        new_event_defaults(self)
        self.fields["seed"].initial = random_seed()
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        club_field.queryset = clubs
        if clubs.count() == 1:
            club_field.initial = clubs.first()


class SectionCreateForm(forms.Form):
    name = forms.CharField(label=_("Section name"), max_length=200)
    club = forms.ModelChoiceField(
        label=_("Club of the section"),
        queryset=Club.objects.order_by("name"),
        help_text=_("Its organisers direct this section (and you direct every section)."),
    )


class SimultaneousDealsGenerateForm(DealsGenerateForm):
    rounds = rounds_field(required=False)


class SimultaneousDealsImportForm(DealsImportForm):
    rounds = rounds_field(required=False)


class ResultsImportForm(forms.Form):
    file = forms.FileField(
        label=_("Results file (CSV or JSON)"),
        help_text=_(
            "CSV: one line per table and deal with a header row (table; deal; contract; "
            "oudlers; points; …), or the JSON file of 'manage.py score_event'. At most 8 MB."
        ),
    )

    def clean_file(self) -> Any:
        return checked_upload(self.cleaned_data["file"], MAX_RESULTS_BYTES)
