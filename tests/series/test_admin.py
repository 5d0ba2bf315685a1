"""The admin checks a series' formula as the organiser pages do and adds no event itself."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory

from series.admin import SeriesAdminForm, SeriesEventInline
from series.models import Series
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def form_data(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "club": ClubFactory().pk,
        "name": "Challenge",
        "season": "2026-2027",
        "method": "points",
        "points_table": "[10, 8, 6]",
        "points_default": 1,
        "best_n": "",
        "min_events": 1,
    }
    data.update(changes)
    return data


def test_a_valid_formula_is_saved() -> None:
    form = SeriesAdminForm(data=form_data())
    assert form.is_valid(), form.errors
    assert form.save().points_table == [10, 8, 6]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"points_table": "[]"}, "points_table"),
        ({"points_table": "[5, 8]"}, "points_table"),
        ({"best_n": 0}, "best_n"),
        ({"min_events": 0}, "min_events"),
    ],
)
def test_a_formula_that_cannot_rank_is_refused(changes: dict[str, object], field: str) -> None:
    form = SeriesAdminForm(data=form_data(**changes))
    assert not form.is_valid()
    assert field in form.errors or "__all__" in form.errors, form.errors
    assert not Series.objects.exists()


def test_events_are_not_added_from_the_admin() -> None:
    request = RequestFactory().get("/admin/")
    request.user = UserFactory(is_superuser=True, is_staff=True)
    inline = SeriesEventInline(Series, admin.site)
    assert not inline.has_add_permission(request)


def test_the_admin_pages_of_a_series_render(client) -> None:  # type: ignore[no-untyped-def]
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    assert client.get("/admin/series/series/add/").status_code == 200
    form = SeriesAdminForm(data=form_data())
    assert form.is_valid(), form.errors
    series = form.save()
    assert client.get(f"/admin/series/series/{series.pk}/change/").status_code == 200
