"""A simultaneous split into sections: one comparison across every section.

The sections' movements differ (3 and 4 tables: Howell movements over 3 deal sets; 5 tables: a
line movement over 5 sets), so some deals are played in one section only: every deal is
compared over all the tables that play it, whatever their section.

Three sections of different sizes play the same deals; their standings (computed for the
simultaneous) equal ``manage.py score_event`` on the union of their results, each section's
ranking lists only its players (ranked among themselves on the overall percentages), and the
status of a section follows the whole simultaneous.
"""

from __future__ import annotations

import itertools
import json
import random
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from scoring.selectors import standings_status
from scoring.services import standings_recompute
from tests.builders import enter_round, running_event
from tests.factories import OrganiserFactory
from tournaments.models import Deal, Event, TableResult
from tournaments.selectors import result_outcome
from tournaments.services.results import table_result_director_correct

pytestmark = pytest.mark.django_db

SECTION_TABLES = (3, 4, 5)
ROUNDS = 3


def simultaneous() -> tuple[Event, list[Event]]:
    """A simultaneous of three sections playing the same deals (same seed), all entered."""
    sections = [
        running_event(tables=tables, rounds=ROUNDS, deals_per_round=2, seed=4)
        for tables in SECTION_TABLES
    ]
    first = max(sections, key=lambda section: section.deals.count())  # a line movement: 5 sets
    parent = Event.objects.create(
        club=first.club, name="Simultané", date=first.date, format=first.format,
        deals_per_round=2, status=Event.Status.RUNNING, public=True,
    )  # fmt: skip
    Deal.objects.bulk_create(
        Deal(event=parent, number=d.number, deal_set=d.deal_set, cards=d.cards,
             dealer_seat=d.dealer_seat, taker_seat=d.taker_seat)
        for d in first.deals.all()
    )  # fmt: skip
    Event.objects.filter(pk__in=[s.pk for s in sections]).update(simultaneous=parent)
    sections = [Event.objects.get(pk=s.pk) for s in sections]
    for index, section in enumerate(sections):
        mine = list(section.deals.order_by("number").values_list("number", "cards"))
        assert (
            mine
            == list(parent.deals.order_by("number").values_list("number", "cards"))[: len(mine)]
        )
        rng = random.Random(index)
        for number in section.schedule.round_numbers:
            enter_round(section, number, rng)
    return parent, sections


def union_file(parent: Event, sections: list[Event], path: Path) -> None:
    """Every section's results in the score_event format, tables numbered 100·k + t."""
    entrants, results = [], []
    scheduled: dict[int, int] = {}
    for k, section in enumerate(sections, start=1):
        entrants += [{"id": f"e{e.pk}"} for e in section.entrants.all()]
        for play in section.schedule.plays():
            if play.sits_out:
                continue
            for deal in section.deals.filter(deal_set=play.deal_set):
                scheduled[deal.number] = scheduled.get(deal.number, 0) + 1
        for result in TableResult.objects.filter(event=section).select_related("deal", "table"):
            outcome = result_outcome(result)
            assert outcome is not None
            outcome.pop("taker_seat")
            results.append(
                {
                    "deal": result.deal.number,
                    "table": 100 * k + result.table.number,
                    "seats": {seat: f"e{pk}" for seat, pk in result.seat_entrant_ids().items()},
                    "outcome": outcome,
                }
            )
    deals = [
        {"number": d.number, "taker_seat": d.taker_seat, "scheduled": scheduled[d.number]}
        for d in parent.deals.order_by("number")
    ]
    document = {"title": parent.name, "entrants": entrants, "deals": deals, "results": results}
    path.write_text(json.dumps(document), encoding="utf-8")


def two_places(text: str) -> Decimal:
    value = Fraction(text) if "/" in text else Fraction(Decimal(text))
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_three_sections_equal_score_event_on_the_union(tmp_path: Path) -> None:
    parent, sections = simultaneous()
    parent.refresh_from_db()
    total = sum(TableResult.objects.filter(event=s).count() for s in sections)
    assert parent.results_version == total  # every section's result bumps the simultaneous
    assert all(s.results_version == 0 for s in Event.objects.filter(simultaneous=parent))

    snapshot = standings_recompute(event_id=sections[1].pk)  # a section names its simultaneous
    assert snapshot.event_id == parent.pk
    assert snapshot.results_version == parent.results_version
    assert snapshot.results_entered == snapshot.results_expected == total
    assert [s["event"] for s in snapshot.data["sections"]] == [s.pk for s in sections]

    path = tmp_path / "union.json"
    union_file(parent, sections, path)
    out = StringIO()
    call_command("score_event", str(path), "--format", "json", stdout=out)
    expected = json.loads(out.getvalue())

    overall = RankingEntry.objects.filter(event=parent, kind="individual")
    assert sorted(
        (r.rank, f"e{r.entrant_id}", r.percentage, r.marks_total, r.deals_played) for r in overall
    ) == sorted(
        (row["rank"], row["entrant"], Decimal(row["percentage"]), row["marks"], row["deals"])
        for row in expected["individual"]
    )
    offsets = {s.pk: 100 * k for k, s in enumerate(sections, start=1)}
    hands = {
        (h.deal.number, offsets[h.event_id] + h.table_number, h.seat): (
            f"e{h.entrant_id}", h.mark, h.percentage, h.matchpoints,
        )
        for h in HandScore.objects.filter(event__in=sections).select_related("deal")
    }  # fmt: skip
    assert hands == {
        (row["deal"], row["table"], row["seat"]): (
            row["entrant"], row["mark"], Decimal(row["percentage"]), two_places(row["matchpoints"]),
        )
        for row in expected["hands"]
    }  # fmt: skip
    # Hand scores live with their section, under the section's own table numbers and deals.
    for section in sections:
        rows = HandScore.objects.filter(event=section)
        assert set(rows.values_list("deal__event_id", flat=True)) == {section.pk}
        assert max(rows.values_list("table_number", flat=True)) == section.tables.count()

    # A section's ranking: only its players, ranked among themselves on the overall figures.
    percentage = {r.entrant_id: r.percentage for r in overall}
    for section in sections:
        players = set(section.entrants.filter(phantom=False).values_list("pk", flat=True))
        rows = list(RankingEntry.objects.filter(event=section, kind="individual").order_by("rank"))
        assert {r.entrant_id for r in rows} == players
        assert all(r.percentage == percentage[r.entrant_id] for r in rows)
        assert rows[0].rank == 1
        values = [r.percentage for r in rows]
        assert values == sorted(values, reverse=True)
        for before, after in itertools.pairwise(rows):
            expected_rank = before.rank if after.percentage == before.percentage else None
            assert after.rank == (expected_rank or rows.index(after) + 1)


def test_a_section_status_follows_the_whole_simultaneous() -> None:
    parent, sections = simultaneous()
    standings_recompute(event_id=parent.pk)
    for section in sections[:2]:
        Event.objects.filter(pk=section.pk).update(status=Event.Status.FINISHED)
    status = standings_status(Event.objects.get(pk=sections[0].pk))
    assert status.state == "provisional"  # the simultaneous itself is not finished
    assert (
        status.entered == status.expected == TableResult.objects.filter(event=sections[0]).count()
    )
    assert [r.number for r in status.rounds] == list(range(1, ROUNDS + 1))
    overall = standings_status(Event.objects.get(pk=parent.pk))
    assert overall.expected == sum(TableResult.objects.filter(event=s).count() for s in sections)
    Event.objects.filter(pk__in=[parent.pk, sections[2].pk]).update(status=Event.Status.FINISHED)
    assert standings_status(Event.objects.get(pk=sections[2].pk)).state == "complete"


def test_a_correction_in_one_section_rescores_its_deal_everywhere() -> None:
    parent, sections = simultaneous()
    standings_recompute(event_id=parent.pk)
    result = TableResult.objects.filter(event=sections[2]).select_related("deal").first()
    assert result is not None
    untouched = set(
        HandScore.objects.filter(event__in=sections)
        .exclude(deal__number=result.deal.number)
        .values_list("pk", flat=True)
    )
    director = OrganiserFactory(clubs=[sections[2].club])
    outcome: dict[str, Any] = {"contract": "garde_contre", "oudlers": 3, "points": 80}
    table_result_director_correct(result=result, outcome=outcome, actor=director, reason="misread")
    incremental = standings_recompute(event_id=parent.pk)
    stored = set(HandScore.objects.filter(event__in=sections).values_list("pk", flat=True))
    assert untouched <= stored  # only the corrected deal's hands were rewritten, in every section

    def rows() -> Any:
        return (
            sorted(HandScore.objects.filter(event__in=sections).values_list(
                "result_id", "entrant_id", "table_number", "seat", "mp_num", "mp_den", "percentage"
            )),
            sorted(RankingEntry.objects.filter(event__in=[parent, *sections]).values_list(
                "event_id", "kind", "line", "rank", "entrant_id", "percentage"
            )),
            StandingsSnapshot.objects.get(event=parent).data,
        )  # fmt: skip

    after = rows()
    full = standings_recompute(event_id=parent.pk, force=True, full=True)
    assert full.results_version == incremental.results_version
    assert rows() == after
