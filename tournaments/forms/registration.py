"""Forms of registration: a new player, a known player, the search, the CSV import."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from clubs.forms import NewPlayerCheckForm, PlayersField, series_field
from clubs.models import Club, Player
from tournaments.forms.base import checked_upload
from tournaments.services.registration import MAX_AT_ONCE


class PlayerForm(NewPlayerCheckForm):
    """A new player typed by hand; ``club``: the event's, his home club by default. The other
    choice, a player of another club or of none, gives him no home club: a club writes only
    its own players (``clubs.newcomers``)."""

    last_name = forms.CharField(label=_("Last name"), max_length=80)
    first_name = forms.CharField(label=_("First name"), max_length=80)
    licence = forms.CharField(label=_("Licence number"), max_length=20, required=False)
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.none(),
        required=False,
        empty_label=_("Another club, or none"),
    )
    series = series_field()

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Club.objects.filter(pk=club.pk)
        field.initial = club.pk


class PlayerRegisterForm(forms.Form):
    """Players of the register chosen from the search or the last evening (one or several:
    ``player`` repeated); ``players``: those that may be."""

    player = PlayersField(
        queryset=Player.objects.none(), widget=forms.MultipleHiddenInput, limit=MAX_AT_ONCE
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = players


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Name or licence"), max_length=80, required=False)


class PlayersImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV or Excel file"),
        help_text=_(
            "Header row: Last name, First name, Licence, Club, Series (other columns are not "
            "read); a CSV file separated by ';' or ',', or an Excel workbook (.xlsx, its first "
            "sheet); at most 20,000 lines and 2 MB."
        ),
    )

    def clean_file(self) -> Any:
        return checked_upload(self.cleaned_data["file"])
