"""Live Swiss rounds of a quadrette event: the movement option, pairing at a round's close,
unpairing when a round is reopened (algorithm: ``tournaments.movements.swiss``, docs/swiss.md).

- **Option** (:func:`swiss_mode`): where the movement is set, a quadrette event playing fewer
  rounds than a round robin is Swiss, ``live`` (the default: round 1 drawn at the start, each
  later round paired from the standings when the round before it closes) or ``prepaired``
  (every round paired at the start from seeded random orders, as before). Live is refused
  for the other formats, for a round robin, and beyond ⌈teams/2⌉ rounds (beyond it a
  rematch-free pairing is not guaranteed whatever the results: pre-pair those).
- **Pairing** (:func:`pair_after_close`, called by ``events.round_close`` under the event's
  row lock, in its transaction): when the director closes round r, every round 1..r is closed
  and round r+1 is pending, round r+1 is paired from the team standings after round r and
  stored in the movement (``event.save(update_fields=["movement", "updated_at"])``: the schedule
  cache is keyed by ``updated_at``). The standings are computed now from the stored results by
  the scoring app (``tournaments.signals.team_standings_requested``; the same computation as the
  published ranking, on every entered deal), never read from a snapshot that may be behind. The
  order (:func:`pairing_order`): total PM (or VP when the event ranks by VP), a bye counting as a
  drawn match (0 PM, 10 VP); equal totals by the ranking's rank, then by team number. A team
  without any scored deal yet (a round-1 bye) has 0. If no pairing is possible the close is
  refused and nothing changes.
- **Unpairing** (:func:`unpair_before_reopen`, called by ``events.round_reopen``): reopening
  round r while later rounds are paired removes those rounds from the movement (they are
  pending again, paired afresh when round r closes again) and from the closed rounds; refused
  while any of them has a result (the table results would lose their seats).
  Both actions are kept in the event's history (``events.log_director_action``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from tournaments import movements
from tournaments.models import Entrant, Event, TableResult
from tournaments.movements import LIVE, PREPAIRED, LiveSwiss, live_swiss, max_live_rounds
from tournaments.signals import results_changed, team_standings_requested

MODES = (LIVE, PREPAIRED)
BYE_VP = Decimal(10)  # a bye counts as a drawn match for the pairing order


def swiss_mode(event: Event, teams: int, rounds: int | None, swiss: str | None) -> str:
    """The Swiss mode for the movement generator (see the module docstring); refusals are
    translated :class:`DomainError` with ``field="swiss"``."""
    if swiss not in (None, "", *MODES):
        raise DomainError(
            "swiss_mode", _("Unknown Swiss pairing mode %(mode)s.") % {"mode": swiss}, "swiss"
        )
    if event.format != Event.Format.QUADRETTE:
        if swiss == LIVE:
            raise DomainError(
                "swiss_live_format",
                _("Live Swiss pairing is for quadrette events only."),
                field="swiss",
            )
        return PREPAIRED
    full = teams - 1 if teams % 2 == 0 else teams
    is_swiss = rounds is not None and rounds < full
    if not is_swiss:
        if swiss == LIVE:
            raise DomainError(
                "swiss_live_round_robin",
                _(
                    "Live Swiss pairing needs fewer rounds than a round robin "
                    "(%(teams)s teams: fewer than %(full)s)."
                )
                % {"teams": teams, "full": full},
                field="swiss",
            )
        return PREPAIRED
    assert rounds is not None
    limit = max_live_rounds(teams)
    if swiss == LIVE and rounds > limit:
        raise DomainError(
            "swiss_live_rounds",
            _(
                "Live Swiss pairing of %(teams)s teams guarantees no rematch over %(max)s "
                "rounds at most: choose pre-paired rounds for more."
            )
            % {"teams": teams, "max": limit},
            field="swiss",
        )
    if swiss:
        return swiss
    return LIVE if rounds <= limit else PREPAIRED


# ------------------------------------------------------------------------------ standings


def _team_numbers(event: Event, state: LiveSwiss) -> dict[int, int]:
    """Team pk → the movement's team number (team k owns slots 4(k-1)+1..4k)."""
    firsts = {4 * (k - 1) + 1: k for k in range(1, state.teams + 1)}
    rows = Entrant.objects.filter(event=event, slot__in=list(firsts)).values_list("slot", "team_id")
    return {team_id: firsts[slot] for slot, team_id in rows if team_id is not None}


def pairing_order(
    rows: Sequence[Mapping[str, Any]],
    numbers: Mapping[int, int],
    state: LiveSwiss,
    by_vp: bool,
) -> list[int]:
    """The movement's team numbers best first, from the scoring ``rows`` (module docstring)."""
    byes: dict[int, int] = {}
    for team in state.byes():
        byes[team] = byes.get(team, 0) + 1
    ranked = {numbers[int(row["team"])]: row for row in rows if int(row["team"]) in numbers}

    def key(team: int) -> tuple[Decimal, int, int]:
        row = ranked.get(team)
        if by_vp:
            score = Decimal(str(row["vp"] or 0)) if row else Decimal(0)
            score += BYE_VP * byes.get(team, 0)
        else:
            score = Decimal(int(row["pm"] or 0)) if row else Decimal(0)
        rank = int(row["rank"]) if row else len(numbers) + 1
        return (-score, rank, team)

    return sorted(range(1, state.teams + 1), key=key)


def _standings(event: Event, state: LiveSwiss, after_round: int) -> list[int]:
    rows: list[Mapping[str, Any]] | None = None
    for _receiver, response in team_standings_requested.send(sender=Event, event=event):
        answer: Any = response
        if isinstance(answer, list):
            rows = answer
            break
    if rows is None:
        raise DomainError(
            "standings_unavailable",
            _("The standings after round %(round)s are not available: try again.")
            % {"round": after_round},
        )
    return pairing_order(
        rows, _team_numbers(event, state), state, event.ranking == Event.Ranking.VP
    )


def _announce(event: Event) -> None:
    """The movement changed: the standings' expected counts and matches are republished."""
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    version = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
    event.results_version = version
    transaction.on_commit(
        lambda: results_changed.send(sender=Event, event_id=event.pk, results_version=version)
    )


# -------------------------------------------------------------------------------- actions


def pair_after_close(event: Event, round_number: int, actor: Any = None) -> int | None:
    """Pair the round after ``round_number`` if it is due (module docstring); returns its
    number, or None when nothing was paired. ``event`` is locked by the caller and has
    ``round_number`` in its closed rounds already."""
    from tournaments.services.history import log_director_action

    state = live_swiss(event.movement)
    if state is None or not state.pending or state.paired_count != round_number:
        return None
    closed = set(event.closed_rounds or [])
    if not set(range(1, round_number + 1)) <= closed:
        return None
    standings = _standings(event, state, round_number)
    assert event.movement is not None  # live_swiss found it
    try:
        document = movements.pair_next_round(event.movement, standings)
    except movements.MovementError as exc:
        raise DomainError(
            "swiss_no_pairing",
            _("Round %(round)s cannot be paired: %(reason)s")
            % {"round": round_number + 1, "reason": exc},
        ) from exc
    event.movement = document
    event.save(update_fields=["movement", "updated_at"])
    _announce(event)
    log_director_action(event, actor, "pair_round", round_number=round_number + 1)
    return round_number + 1


def unpair_before_reopen(event: Event, round_number: int, actor: Any = None) -> list[int]:
    """Before round ``round_number`` reopens: unpair the live rounds after it (refused while
    one has a result); returns the rounds unpaired. ``event`` is locked by the caller."""
    from tournaments.services.history import log_director_action

    state = live_swiss(event.movement)
    if state is None or state.paired_count <= round_number:
        return []
    later = list(range(round_number + 1, state.paired_count + 1))
    if TableResult.objects.filter(event=event, round_number__gt=round_number).exists():
        raise DomainError(
            "swiss_round_played",
            _(
                "Round %(next)s is already paired from the standings after round %(round)s "
                "and has results: round %(round)s cannot be reopened."
            )
            % {"next": round_number + 1, "round": round_number},
        )
    assert event.movement is not None  # live_swiss found it
    event.movement = movements.unpair_after(event.movement, round_number)
    event.closed_rounds = sorted(set(event.closed_rounds or []) - set(later))
    event.save(update_fields=["movement", "closed_rounds", "updated_at"])
    _announce(event)
    for number in later:
        log_director_action(event, actor, "unpair_round", round_number=number)
    return later
