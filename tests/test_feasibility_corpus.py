"""``score_deal`` and the API accept an outcome if and only if the exact feasibility model says
some real deal produces it (issue 12): a seeded corpus of duplicate outcomes, half feasible and
half not, each sent through the command and through a table's results endpoint, with the
refusal's message in one language (French here)."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rules.duplicate import DUPLICATE_CONTRACTS
from rules.enums import Side
from rules.feasibility import is_feasible
from tests.builders import first_play, running_event
from tournaments.models import Deal, Event, ResultChange, TableResult

PER_KIND = 60
ENGLISH_WORDS = (" attack", " defence", " expected", " points is", " oudler")


def corpus(seed: int = 12) -> list[tuple[dict[str, Any], bool]]:
    """``PER_KIND`` feasible and ``PER_KIND`` infeasible 4-player outcomes (no poignée)."""
    rng = random.Random(seed)
    kept: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    for _ in range(100_000):
        if all(len(found) >= PER_KIND for found in kept.values()):
            break
        contract = rng.choice(DUPLICATE_CONTRACTS)
        oudlers = rng.randint(0, 3)
        points_half = rng.randint(0, 182)
        petit = rng.choice([None, None, Side.ATTACK, Side.DEFENCE])
        made_by = rng.choice([None] * 6 + [Side.ATTACK, Side.DEFENCE])
        announced = made_by is Side.ATTACK and rng.random() < 0.5
        feasible = is_feasible(4, contract, 1, oudlers, points_half, petit, made_by)
        if len(kept[feasible]) >= PER_KIND:
            continue
        points: int | float = points_half // 2 if points_half % 2 == 0 else points_half / 2
        kept[feasible].append(
            {
                "contract": contract.value,
                "oudlers": oudlers,
                "points": points,
                "petit_au_bout": petit.value if petit else None,
                "poignees": [],
                "chelem": {
                    "announced": announced,
                    "made_by": made_by.value if made_by else None,
                },
            }
        )
    assert all(len(found) == PER_KIND for found in kept.values())
    return [(outcome, True) for outcome in kept[True]] + [
        (outcome, False) for outcome in kept[False]
    ]


CORPUS = corpus()


def _one_language(message: str) -> None:
    assert not any(word in message for word in ENGLISH_WORDS), message


def test_the_corpus_holds_the_issues_examples_kind() -> None:
    # Infeasible chelems and points/bouts combinations, not only out-of-range numbers.
    infeasible = [outcome for outcome, feasible in CORPUS if not feasible]
    assert any(outcome["chelem"]["made_by"] for outcome in infeasible)
    assert any(outcome["chelem"]["made_by"] is None for outcome in infeasible)


def test_score_deal_accepts_exactly_the_feasible_outcomes() -> None:
    with translation.override("fr"):
        for outcome, feasible in CORPUS:
            stdin = io.StringIO(json.dumps({"players": 4, **outcome}))
            if feasible:
                out = io.StringIO()
                call_command("score_deal", stdin=stdin, stdout=out)
                assert "marks" in json.loads(out.getvalue()), outcome
            else:
                with pytest.raises(CommandError) as refused:
                    call_command("score_deal", stdin=stdin)
                assert refused.value.returncode == 2, outcome
                _one_language(str(refused.value))


@pytest.mark.django_db
def test_the_table_api_accepts_exactly_the_feasible_outcomes() -> None:
    event = running_event(tables=3, rounds=3, deals_per_round=1, seed=3)
    table, deal, _play = first_play(event)
    # The corpus is about the outcome model alone: the deal's cards are not known here (an
    # entry is checked against known cards too: tests/tournaments/test_hand_checks_entry.py).
    Deal.objects.filter(pk=deal.pk).update(cards="")
    url = reverse("api:table_results", kwargs={"code": table.code})
    client = Client()
    for outcome, feasible in CORPUS:
        response = client.post(
            url,
            data=json.dumps({"deal": deal.number, "outcome": outcome}),
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE="fr",
        )
        if feasible:
            assert response.status_code == 201, (outcome, response.content)
            # Free the cell for the next outcome (the corpus reuses one deal).
            ResultChange.objects.filter(result__deal=deal, result__table=table).delete()
            TableResult.objects.filter(deal=deal, table=table).delete()
        else:
            assert response.status_code == 400, (outcome, response.content)
            body = response.json()
            assert body["code"], body
            _one_language(json.dumps(body, ensure_ascii=False))
            assert not TableResult.objects.filter(deal=deal, table=table).exists()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
