"""Forms of an event's details (creation and edition)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.models import Event


class DateInput(forms.DateInput):
    """The browser's date picker: its value is always ISO (yyyy-mm-dd), whatever the language
    (the localised dd/mm/yyyy of French would leave the field empty)."""

    input_type = "date"

    def __init__(self, attrs: Any = None, format: str = "%Y-%m-%d") -> None:
        super().__init__(attrs, format=format)


def new_event_defaults(form: forms.Form) -> None:
    """A new event's form proposes today's date and public results."""
    form.fields["date"].initial = timezone.localdate
    form.fields["public"].initial = True


class EventDetailsForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    date = forms.DateField(label=_("Date"), widget=DateInput)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"), min_value=1, max_value=12, initial=4
    )
    public = forms.BooleanField(label=_("Public results"), required=False)
    # Off by default: a club night runs faster without it; a director who wants every result
    # checked at the table (as bridge terminals ask the other side) ticks it at creation.
    opponent_confirmation = forms.BooleanField(
        label=_("A defender confirms each result"),
        required=False,
        initial=False,
        help_text=_(
            "The table phone asks a defender to confirm the result the taker's side entered "
            "before it counts, as bridge scoring terminals ask the other side to confirm."
        ),
    )


class EventCreateForm(EventDetailsForm):
    """The details, plus the club (among ``clubs``) and the format, fixed once created;
    today's date and public results proposed."""

    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none())
    format = forms.ChoiceField(label=_("Format"), choices=Event.Format.choices)

    field_order = ["name", "date", "club", "format"]

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        new_event_defaults(self)
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        club_field.queryset = clubs
        if clubs.count() == 1:
            club_field.initial = clubs.first()
