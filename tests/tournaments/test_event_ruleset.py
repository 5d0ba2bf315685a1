"""An event stores its ruleset; duplicate competitions are played under the FFT's rules."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.errors import DomainError
from rules.ruleset import FFT, HOUSE, TRADITIONAL, RulesetName, traditional
from tests.factories import ClubFactory, EventFactory
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_a_new_event_plays_the_fft_rules() -> None:
    event = services.event_create(
        club=ClubFactory(), name="Open", date="2026-12-05", format="individual"
    )
    event = Event.objects.get(pk=event.pk)
    assert event.ruleset == {"name": "fft", "version": 2}  # the rules version (issue 25)
    assert event.rules == FFT
    assert event.rules.is_fft


@pytest.mark.parametrize("format", ["individual", "triplette", "quadrette"])
@pytest.mark.parametrize("ruleset", [TRADITIONAL, HOUSE, traditional(3, flambeuse=True)])
def test_a_duplicate_competition_refuses_another_ruleset(format: str, ruleset: object) -> None:
    with translation.override("fr"), pytest.raises(DomainError) as exc:
        services.event_create(
            club=ClubFactory(),
            name="Open",
            date="2026-12-05",
            format=format,
            ruleset=ruleset,  # type: ignore[arg-type]
        )
    assert (exc.value.code, exc.value.field) == ("ruleset_not_for_duplicate", "ruleset")
    assert "FFT" in str(exc.value.message)
    assert not Event.objects.exists()


def test_the_stored_ruleset_is_read_back_with_its_parameters() -> None:
    event = EventFactory()
    Event.objects.filter(pk=event.pk).update(
        ruleset={"name": "traditional", "pousse_multiplier": 3, "flambeuse": True}
    )
    event = Event.objects.get(pk=event.pk)
    # stored without a version: version 1, the rules it was played under (issue 25)
    assert event.rules == traditional(3, flambeuse=True, version=1)
    assert event.rules.name is RulesetName.TRADITIONAL
    # A change of the stored value is seen by the same instance.
    event.ruleset = {"name": "house", "version": 2}
    assert event.rules == HOUSE


def test_an_event_stored_before_rulesets_existed_plays_the_fft_rules() -> None:
    event = EventFactory()
    Event.objects.filter(pk=event.pk).update(ruleset={})
    assert Event.objects.get(pk=event.pk).rules == FFT


def test_the_api_shows_the_events_ruleset() -> None:
    event = EventFactory(public=True)
    body = Client().get(reverse("api:event", args=[event.pk])).json()
    assert body["ruleset"] == {"name": "fft", "pousse_multiplier": None, "flambeuse": False}
