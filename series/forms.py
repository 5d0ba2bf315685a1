"""Forms of the series screens: the series and its formula, and the event to add.

The points table is typed as numbers separated by commas, spaces or semicolons
("10, 8, 6, 5"); the form only reads the numbers, ``series.services.series_formula_check``
judges them (its refusals land on their fields through ``clubs.forms.add_error``).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from series.models import Series
from tournaments.models import Event

SEPARATORS = re.compile(r"[\s,;]+")


def points_text(points: list[int]) -> str:
    return ", ".join(str(value) for value in points)


class PointsTableField(forms.CharField):
    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = (super().to_python(value) or "").strip()
        numbers = []
        for item in SEPARATORS.split(text) if text else []:
            try:
                numbers.append(int(item))
            except ValueError:
                raise ValidationError(
                    _("Write the points as whole numbers separated by commas: %(value)s is not "
                      "one."),
                    code="points_not_number",
                    params={"value": item},
                ) from None  # fmt: skip
        return numbers

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return points_text(value)
        return value


class SeriesForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    season = forms.CharField(
        label=_("Season"), max_length=40, required=False, help_text=_("For example 2026-2027.")
    )
    public = forms.BooleanField(label=_("Public ranking"), required=False)
    league = forms.BooleanField(
        label=_("League series: events of other clubs may count"), required=False
    )
    method = forms.ChoiceField(label=_("Ranking method"), choices=Series.Method.choices)
    points_table = PointsTableField(
        label=_("Points table"),
        required=False,
        max_length=4000,
        help_text=_("Points of the 1st, 2nd, 3rd… place, separated by commas."),
    )
    points_default = forms.IntegerField(
        label=_("Points beyond the table"), initial=0, required=False
    )
    best_n = forms.IntegerField(
        label=_("Best results counted"),
        required=False,
        help_text=_("Only each player's best N results count; blank: all of them."),
    )
    min_events = forms.IntegerField(
        label=_("Minimum attendance"),
        initial=1,
        help_text=_("Events a player must have played to be ranked."),
    )

    def clean_points_default(self) -> int:
        value = self.cleaned_data.get("points_default")
        return 0 if value is None else int(value)


class SeriesCreateForm(SeriesForm):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none())

    field_order = ["name", "season", "club"]

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        club_field.queryset = clubs
        if clubs.count() == 1:
            club_field.initial = clubs.first()
        self.fields["points_table"].initial = [10, 8, 6, 5, 4, 3, 2, 1]


def event_label(event: Event) -> str:
    return f"{event.name} · {date_format(event.date, 'SHORT_DATE_FORMAT')} · {event.club.name}"


class EventAddForm(forms.Form):
    event = forms.ModelChoiceField(label=_("Event"), queryset=Event.objects.none())

    def __init__(self, *args: Any, events: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        event_field = self.fields["event"]
        assert isinstance(event_field, forms.ModelChoiceField)
        event_field.queryset = events
        event_field.label_from_instance = event_label  # type: ignore[method-assign,assignment]
