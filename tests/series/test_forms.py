"""Series forms (the points table typed as text, the club and event choices) and the words the
pages use for a formula, a reason and a score."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from clubs.models import Club
from series.forms import EventAddForm, PointsTableField, SeriesCreateForm, SeriesForm, points_text
from series.models import Series
from series.selectors import NOT_FINISHED, NOT_PUBLIC, UPDATING
from series.views import formula_text, reason_text, score_label, score_value
from tests.factories import ClubFactory, EventFactory, SeriesFactory

FORM = {"name": "Saison", "season": "", "method": "points", "points_table": "10, 8, 6",
        "points_default": "", "best_n": "", "min_events": "1"}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("10, 8, 6", [10, 8, 6]),
        ("12; 9 7,5", [12, 9, 7, 5]),
        ("  3\n2\t1  ", [3, 2, 1]),
        ("", []),
        ("-1, 4", [-1, 4]),  # read as typed: the service judges the numbers
    ],
)
def test_the_points_table_is_read_from_any_separator(text: str, numbers: list[int]) -> None:
    assert PointsTableField(required=False).clean(text) == numbers


@pytest.mark.parametrize("text", ["10, dix", "10, 8.5", "1e3"])
def test_a_points_table_with_a_word_is_refused_naming_it(text: str) -> None:
    form = SeriesForm({**FORM, "points_table": text})
    assert not form.is_valid()
    [message] = form.errors["points_table"]
    assert message.startswith("Write the points as whole numbers separated by commas: ")
    assert message.endswith(" is not one.")


def test_the_points_table_shows_as_text_again() -> None:
    assert points_text([10, 8, 6]) == "10, 8, 6"
    assert PointsTableField().prepare_value([5, 3]) == "5, 3"
    assert PointsTableField().prepare_value("5, 3") == "5, 3"


def test_blank_points_beyond_the_table_are_zero() -> None:
    form = SeriesForm(FORM)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["points_default"] == 0
    assert form.cleaned_data["best_n"] is None


@pytest.mark.django_db
def test_the_create_form_offers_the_clubs_given_and_chooses_a_lone_one() -> None:
    lyon, vienne = ClubFactory(name="Tarot Lyon"), ClubFactory(name="Tarot Vienne")
    alone = SeriesCreateForm(clubs=Club.objects.filter(pk=lyon.pk))
    assert alone.fields["club"].initial == lyon
    assert alone.fields["points_table"].initial == [10, 8, 6, 5, 4, 3, 2, 1]
    both = SeriesCreateForm(clubs=Club.objects.all())
    assert both.fields["club"].initial is None
    refused = SeriesCreateForm({**FORM, "club": vienne.pk}, clubs=Club.objects.filter(pk=lyon.pk))
    assert not refused.is_valid() and "club" in refused.errors


@pytest.mark.django_db
def test_the_event_choice_names_the_event_its_date_and_club_and_takes_only_those_given() -> None:
    club = ClubFactory(name="Tarot Lyon")
    offered = EventFactory(club=club, name="Mardi")
    other = EventFactory(club=club, name="Jeudi")
    form = EventAddForm({"event": other.pk}, events=type(offered).objects.filter(pk=offered.pk))
    assert not form.is_valid() and "event" in form.errors
    with translation.override("fr"):
        labels = [label for _value, label in form.fields["event"].choices]
    assert labels[1:] == ["Mardi · 05/12/2026 · Tarot Lyon"]


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({}, "Points per place: 10, 8, 6, then 0 for every other place; every result counts; "
             "ranked from 1 event played."),
        ({"points_default": 1, "best_n": 1, "min_events": 3},
         "Points per place: 10, 8, 6, then 1 for every other place; the best result of each "
         "player counts; ranked from 3 events played."),
        ({"method": "percentage", "best_n": 4},
         "Average percentage of the results counted; the best 4 results of each player count; "
         "ranked from 1 event played."),
    ],
)  # fmt: skip
def test_the_formula_in_one_sentence(changes: dict[str, object], text: str) -> None:
    series = Series(name="S", method="points", points_table=[10, 8, 6], points_default=0,
                    best_n=None, min_events=1)  # fmt: skip
    for name, value in changes.items():
        setattr(series, name, value)
    assert formula_text(series) == text


def test_the_formula_in_french() -> None:
    series = Series(name="S", method="percentage", best_n=None, min_events=2)
    with translation.override("fr"):
        text = formula_text(series)
    assert text != formula_text(series) and "2" in text


@pytest.mark.parametrize(
    ("reason", "text"),
    [
        (None, "Counted"),
        (NOT_PUBLIC, "Not counted: its results are not public"),
        (NOT_FINISHED, "Not counted yet: not finished"),
        (UPDATING, "Not counted yet: its final ranking is being computed"),
    ],
)
def test_why_an_event_counts_or_not(reason: str | None, text: str) -> None:
    assert reason_text(reason) == text


@pytest.mark.django_db
def test_points_are_whole_and_an_average_keeps_two_decimals() -> None:
    points = SeriesFactory(method="points")
    average = SeriesFactory(method="percentage", points_table=[])
    assert score_value(points, Decimal("17")) == 17
    assert isinstance(score_value(points, Decimal("17")), int)
    assert score_value(average, Decimal("56.50")) == Decimal("56.50")
    assert (score_label(points), score_label(average)) == ("Points", "Average")
