"""Finishing a live Swiss event whose later rounds are not paired yet asks for confirmation and
says which rounds would never be played (they have no tables, so no result is "missing")."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.errors import DomainError
from tests.builders import enter_round
from tests.factories import OrganiserFactory
from tests.tournaments.test_swiss_live import live_event
from tournaments.models import Event
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def _round_one_entered_and_closed() -> Event:
    event = live_event(teams=6, rounds=3)
    enter_round(event, 1, random.Random(1))
    event_services.round_close(event=event, round_number=1, confirm=True)
    return Event.objects.get(pk=event.pk)


def test_finishing_with_rounds_not_paired_needs_confirmation() -> None:
    event = _round_one_entered_and_closed()
    assert event.schedule.pending_rounds == (3,)
    enter_round(event, 2, random.Random(2))
    with pytest.raises(DomainError) as refused:
        event_services.event_finish(event=event, confirm=False)
    assert refused.value.code == "rounds_not_paired"
    assert "Round 3: not paired yet" in refused.value.details
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    event_services.event_finish(event=event, confirm=True)
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED


def test_the_finish_page_lists_the_rounds_not_paired() -> None:
    event = _round_one_entered_and_closed()
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    with translation.override("fr"):
        url = reverse("organiser:event_finish", args=[event.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    box = html.split('id="unpaired-rounds"', 1)[1].split("</div>", 1)[0]
    assert "3" in box
    assert 'name="confirm"' in html
    # Posting without the confirmation (an old page) is refused with the same list.
    response = client.post(url, {"reason": ""})
    assert response.status_code == 409
    assert 'id="unpaired-rounds"' in response.content.decode()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING


def test_missing_results_come_first_and_the_unpaired_rounds_are_listed_with_them() -> None:
    event = live_event(teams=6, rounds=3)
    assert event.schedule.pending_rounds == (2, 3)
    with pytest.raises(DomainError) as refused:
        event_services.event_finish(event=event, confirm=False)
    # Results missing in round 1 come first; the unpaired rounds are listed with them.
    assert refused.value.code == "results_missing"
    assert "Round 2: not paired yet" in refused.value.details
