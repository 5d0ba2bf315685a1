"""Events: create, change the details of a draft, start, finish.

An event is a draft while it is set up (registration, teams, movement, deals: see the sibling
modules), running once started (results are entered), finished at the end. It starts only when
:func:`tournaments.selectors.event_start_problems` finds nothing missing; those problems are
the ``details`` of the refusal.

Sections of a simultaneous (``tournaments.services.sections``): a section starts only with
its simultaneous's deals and a movement of exactly the simultaneous's rounds
(:func:`section_start_problems`); its first start also starts the simultaneous (draft →
running), and the last section to finish finishes it, in the same transaction. A simultaneous
is never started nor finished directly. The deals per round of a simultaneous and of its
sections are fixed (every section plays the same deal sets).

The director's control of a running event (the control room,
``tournaments.views.control``):

- :func:`results_board`: per round, every table and deal entered, missing or awaiting a
  defender's confirmation (an unconfirmed result is not scored: it counts as missing);
- rounds: :func:`round_close` closes a round (refused with the list of what is missing unless
  ``confirm``); a closed round (``Event.closed_rounds``) is no longer written with a table code
  (``tournaments.table_scope``); :func:`round_reopen` opens it again;
- :func:`event_finish` likewise refuses while results are missing unless ``confirm``, and
  :func:`event_reopen` takes a finished event back to running (a section's finished
  simultaneous with it). Both bump the scoring event's ``results_version``: finishing or
  reopening changes what is public (``tournaments.publication``), so the standings republish.

Each of these director actions is kept in the history of the event (Django's ``LogEntry`` on
the event: who, when, what, why), shown with the results' history (:func:`event_log`).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club
from clubs.services import competition_require, competition_status_change
from clubs.signals import milestone_reached
from rules.duplicate import DUPLICATE_RULESET
from rules.ruleset import FFT, Ruleset
from tournaments.models import Deal, Event, Table, TableResult
from tournaments.movements import Schedule
from tournaments.selectors import event_start_problems
from tournaments.services.clock import clock_stop
from tournaments.services.common import is_simultaneous, locked, require_draft
from tournaments.services.deals import simultaneous_rounds
from tournaments.services.history import LOG_ACTIONS, log_director_action
from tournaments.services.swiss import pair_after_close, unpair_before_reopen
from tournaments.signals import results_changed


def _check_deals_per_round(deals_per_round: int) -> None:
    if not 1 <= deals_per_round <= 12:
        raise DomainError(
            "deals_per_round_out_of_range",
            _("Deals per round must be between 1 and 12."),
            field="deals_per_round",
        )


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    date: dt.date,
    format: str,
    deals_per_round: int = 4,
    public: bool = False,
    opponent_confirmation: bool = False,
    ruleset: Ruleset = FFT,
) -> Event:
    """A draft event, played under ``ruleset`` (duplicate formats: the FFT's only)."""
    if format not in Event.Format.values:
        raise DomainError("unknown_format", _("Unknown format."), field="format")
    _check_deals_per_round(deals_per_round)
    if not name.strip():
        raise DomainError("name_required", _("The event needs a name."), field="name")
    check_event_ruleset(format, ruleset)
    return Event.objects.create(
        club=club,
        name=name.strip(),
        date=date,
        format=format,
        deals_per_round=deals_per_round,
        public=public,
        opponent_confirmation=opponent_confirmation,
        ruleset=ruleset.to_dict(),
    )


DUPLICATE_FORMATS = frozenset(
    {Event.Format.INDIVIDUAL, Event.Format.TRIPLETTE, Event.Format.QUADRETTE}
)


def check_event_ruleset(format: str, ruleset: Ruleset) -> None:
    """Refuse a ruleset the format may not use: duplicate competitions play the FFT's rules
    (every table must be able to play the same cards the same way); free-play events may use
    any ruleset."""
    if format in DUPLICATE_FORMATS and ruleset != DUPLICATE_RULESET:
        raise DomainError(
            "ruleset_not_for_duplicate",
            _("A duplicate competition is played under the FFT rules, not under %(ruleset)s.")
            % {"ruleset": _(ruleset.name.label)},
            field="ruleset",
        )


@transaction.atomic
def event_update(
    *,
    event: Event,
    name: str,
    date: dt.date,
    deals_per_round: int,
    public: bool,
    opponent_confirmation: bool = False,
) -> Event:
    """Change the details of a draft event (a change of deals per round drops the deals)."""
    simultaneous = is_simultaneous(event)
    event = locked(event)
    require_draft(event)
    _check_deals_per_round(deals_per_round)
    if deals_per_round != event.deals_per_round:
        if simultaneous or event.is_section:
            raise DomainError(
                "simultaneous_deals_per_round",
                _(
                    "Every section of a simultaneous plays the same deal sets: the deals per "
                    "round cannot change."
                ),
                field="deals_per_round",
            )
        Deal.objects.filter(event=event).delete()
    event.name, event.date, event.public = name.strip(), date, public
    event.deals_per_round, event.opponent_confirmation = deals_per_round, opponent_confirmation
    event.save()
    return event


def section_movement_problem(section: Event, schedule: Schedule) -> str | None:
    """Why ``schedule`` cannot be the movement of ``section`` (None: it can).

    A section plays deals of its simultaneous only: its movement's deal sets are among the
    simultaneous's S sets (it holds S × dpr deals), in the order and the number of rounds the
    section's own movement chooses (a line movement on T tables uses T sets, each table
    playing as many of them as there are rounds); in team formats the étuis name the taker
    seat, so the movement must seat the taking member there.
    """
    if section.simultaneous_id is None or not schedule:
        return None
    parent = Event.objects.get(pk=section.simultaneous_id)
    sets = simultaneous_rounds(parent)
    if schedule.deal_set_count > sets:
        return _(
            "The simultaneous holds %(sets)s deal sets (étuis): this movement needs "
            "%(found)s. Choose fewer tables or rounds, or give the simultaneous more deal sets."
        ) % {"sets": sets, "found": schedule.deal_set_count}
    if section.is_team_event:
        taker = (
            Deal.objects.filter(event=parent)
            .order_by("number")
            .values_list("taker_seat", flat=True)
            .first()
        )
        if taker is not None and schedule.team_taker_seat() != taker:
            return _(
                "The étuis of the simultaneous name %(seat)s as taker seat: the movement must "
                "seat the taking member there."
            ) % {"seat": taker}
    return None


def _deal_rows(event_id: int) -> list[tuple[object, ...]]:
    return list(
        Deal.objects.filter(event_id=event_id)
        .order_by("number")
        .values_list("number", "deal_set", "dealer_seat", "taker_seat", "imposed_contract", "cards")
    )


def section_start_problems(event: Event) -> list[str]:
    """What prevents ``event`` from starting as a section or a simultaneous (translated)."""
    if event.simultaneous_id is None:
        if is_simultaneous(event):
            return [_("A simultaneous starts with its sections: start each section.")]
        return []
    parent = Event.objects.get(pk=event.simultaneous_id)
    problems: list[str] = []
    if parent.status == Event.Status.FINISHED:
        problems.append(_("The simultaneous is finished: no section can start."))
    parent_deals = _deal_rows(parent.pk)
    if not parent_deals:
        problems.append(_("The simultaneous has no deals yet."))
        return problems
    if _deal_rows(event.pk) != parent_deals:
        problems.append(_("The deals of this section differ from the simultaneous's."))
    problem = section_movement_problem(event, event.schedule)
    if problem is not None:
        problems.append(problem)
    return problems


@transaction.atomic
def event_start(*, event: Event) -> Event:
    """draft → running, once movement, entrants and every deal set are ready.

    A section's first start also starts its simultaneous; a simultaneous never starts itself.
    """
    if event.simultaneous_id is None and is_simultaneous(event):
        raise DomainError(
            "simultaneous_start", _("A simultaneous starts with its sections: start each section.")
        )
    event = locked(event)
    problems = event_start_problems(event) + section_start_problems(event)
    if problems:
        raise DomainError("event_not_ready", _("The event cannot start yet."), details=problems)
    competition_status_change(competition=event, to=Event.Status.RUNNING)
    if event.simultaneous_id is not None:
        # Section, then simultaneous: the order every writer locks them in.
        parent = Event.objects.select_for_update().get(pk=event.simultaneous_id)
        if parent.status == Event.Status.DRAFT:
            competition_status_change(competition=parent, to=Event.Status.RUNNING)
    return event


# ------------------------------------------------------------------- the results board

ENTERED, MISSING, UNCONFIRMED = "entered", "missing", "unconfirmed"


@dataclass
class DealState:
    """One deal at one table: ``entered``, ``missing`` or ``unconfirmed`` (with its result)."""

    deal: Deal
    state: str
    result: TableResult | None = None


@dataclass
class TableState:
    """One table in one round: its deals' states (none expected where a phantom sits)."""

    table: Table
    deal_set: int
    sits_out: bool
    deals: list[DealState] = field(default_factory=list)

    def count(self, state: str) -> int:
        return sum(1 for deal in self.deals if deal.state == state)

    @property
    def entered(self) -> int:
        return self.count(ENTERED)

    @property
    def missing(self) -> int:
        return self.count(MISSING)

    @property
    def unconfirmed(self) -> int:
        return self.count(UNCONFIRMED)

    @property
    def complete(self) -> bool:
        return self.entered == len(self.deals)


@dataclass
class RoundState:
    """One round: its tables, whether the director closed it, what is still missing."""

    number: int
    closed: bool
    tables: list[TableState] = field(default_factory=list)

    def _sum(self, name: str) -> int:
        return sum(getattr(table, name) for table in self.tables)

    @property
    def expected(self) -> int:
        return sum(len(table.deals) for table in self.tables)

    @property
    def entered(self) -> int:
        return self._sum("entered")

    @property
    def missing(self) -> int:
        return self._sum("missing")

    @property
    def unconfirmed(self) -> int:
        return self._sum("unconfirmed")

    @property
    def complete(self) -> bool:
        return self.entered == self.expected

    def gaps(self) -> list[tuple[TableState, DealState]]:
        """The (table, deal) still missing or unconfirmed, by table and deal."""
        return [
            (table, deal) for table in self.tables for deal in table.deals if deal.state != ENTERED
        ]


def _state_of(event: Event, result: TableResult | None) -> str:
    if result is None:
        return MISSING
    if event.opponent_confirmation and not result.confirmed:
        return UNCONFIRMED
    return ENTERED


def results_board(event: Event, rounds: list[int] | None = None) -> list[RoundState]:
    """Per round of the movement (or only ``rounds``), every table and deal with its state
    (3 queries). Tables where a phantom sits expect nothing: listed, with no deal."""
    schedule = event.schedule
    numbers = schedule.round_numbers if rounds is None else rounds
    tables = {t.number: t for t in Table.objects.filter(event=event)}
    deals_by_set: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(event=event).order_by("number"):
        deals_by_set.setdefault(deal.deal_set, []).append(deal)
    stored = TableResult.objects.filter(event=event)
    if rounds is not None:
        stored = stored.filter(round_number__in=numbers)
    results = {(r.table_id, r.deal_id): r for r in stored.select_related("deal", "table")}
    closed = set(event.closed_rounds or [])
    board = []
    for number in numbers:
        rnd = schedule.round(number)
        if rnd is None:
            continue
        state = RoundState(number=number, closed=number in closed)
        for play in rnd.tables:
            table = tables.get(play.table)
            if table is None:
                continue
            row = TableState(table=table, deal_set=play.deal_set, sits_out=play.sits_out)
            if not play.sits_out:
                for deal in deals_by_set.get(play.deal_set, []):
                    result = results.get((table.pk, deal.pk))
                    row.deals.append(DealState(deal, _state_of(event, result), result))
            state.tables.append(row)
        board.append(state)
    return board


def gap_lines(board: list[RoundState]) -> list[str]:
    """One translated line per missing or unconfirmed (round, table, deal)."""
    lines = []
    for rnd in board:
        for table, deal in rnd.gaps():
            values = {"round": rnd.number, "table": table.table.number, "deal": deal.deal.number}
            if deal.state == UNCONFIRMED:
                line = _(
                    "Round %(round)s, table %(table)s, deal %(deal)s: awaiting a defender's "
                    "confirmation"
                )
            else:
                line = _("Round %(round)s, table %(table)s, deal %(deal)s: missing")
            lines.append(line % values)
    return lines


class ResultsMissing(DomainError):
    """Closing a round or finishing the event while results are missing, unconfirmed: the
    ``details`` list them, ``board`` holds the rounds concerned."""

    def __init__(
        self, code: str, message: str, board: list[RoundState], pending: tuple[int, ...] = ()
    ) -> None:
        details = gap_lines(board) + [
            _("Round %(round)s: not paired yet") % {"round": number} for number in pending
        ]
        super().__init__(code, message, details=details)
        self.board = board
        # Rounds of a live Swiss movement not paired yet (finishing leaves them unplayed).
        self.pending = pending


# ------------------------------------------------------------------------------ the log


@dataclass(frozen=True)
class LogLine:
    """One director's action on the event, as the history page shows it."""

    at: dt.datetime
    by: str
    action: str
    round_number: int | None
    reason: str
    missing: int
    player: str = ""
    substitute: str = ""

    @property
    def label(self) -> str:
        if self.action == "substitute":
            return _("Round %(round)s: %(substitute)s replaces %(player)s") % {
                "round": self.round_number,
                "substitute": self.substitute,
                "player": self.player,
            }
        if self.action == "withdraw":
            return _("Round %(round)s: %(player)s withdraws") % {
                "round": self.round_number,
                "player": self.player,
            }
        if self.action == "finish":
            return _("Event finished")
        if self.action == "reopen":
            return _("Event reopened")
        if self.action == "close_round":
            return _("Round %(round)s closed") % {"round": self.round_number}
        if self.action == "pair_round":  # live Swiss (services.swiss)
            return _("Round %(round)s paired from the standings") % {"round": self.round_number}
        if self.action == "unpair_round":
            return _("Round %(round)s unpaired") % {"round": self.round_number}
        return _("Round %(round)s reopened") % {"round": self.round_number}


def event_log(event: Event) -> list[LogLine]:
    """The director's actions on ``event`` (finish, reopen, rounds closed and reopened)."""
    entries = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Event), object_id=str(event.pk)
    ).select_related("user")
    lines = []
    for entry in entries.order_by("action_time", "pk"):
        try:
            data = json.loads(entry.change_message)
        except ValueError:
            continue
        if not isinstance(data, dict) or data.get("action") not in LOG_ACTIONS:
            continue  # an admin change of the event: the admin's own history shows it
        lines.append(
            LogLine(
                at=entry.action_time,
                by=entry.user.get_username() if entry.user else "",
                action=str(data["action"]),
                round_number=data.get("round"),
                reason=str(data.get("reason") or ""),
                missing=int(data.get("missing") or 0),
                player=str(data.get("player") or ""),
                substitute=str(data.get("substitute") or ""),
            )
        )
    return lines


# ------------------------------------------------------------------------------ rounds


def _require_round(event: Event, round_number: int) -> None:
    if round_number in event.schedule.pending_rounds:
        raise DomainError(
            "round_not_paired",
            _("Round %(round)s is not paired yet: it is paired at the close of round %(last)s.")
            % {"round": round_number, "last": round_number - 1},
            field="round",
        )
    if round_number not in event.schedule.round_numbers:
        raise DomainError(
            "unknown_round",
            _("Round %(round)s is not a round of the movement.") % {"round": round_number},
            field="round",
        )


def _require_running(event: Event, code: str, message: str) -> None:
    if event.status != Event.Status.RUNNING:
        raise DomainError(code, message)


@transaction.atomic
def round_close(
    *, event: Event, round_number: int, actor: Any = None, confirm: bool = False, reason: str = ""
) -> Event:
    """Close round ``round_number``: table codes no longer write there (the director still
    does). Refused with :class:`ResultsMissing` while a result is missing or unconfirmed,
    unless ``confirm``. Closing a closed round changes nothing."""
    event = locked(event)
    _require_running(
        event, "event_not_running", _("Only a round of a running event can be closed.")
    )
    _require_round(event, round_number)
    closed = set(event.closed_rounds or [])
    if round_number in closed:
        return event
    board = results_board(event, [round_number])
    if not confirm and any(not rnd.complete for rnd in board):
        raise ResultsMissing(
            "round_incomplete",
            _("Round %(round)s still has results missing.") % {"round": round_number},
            board,
        )
    event.closed_rounds = sorted(closed | {round_number})
    event.save(update_fields=["closed_rounds"])
    missing = sum(len(rnd.gaps()) for rnd in board)
    log_director_action(
        event, actor, "close_round", round_number=round_number, reason=reason, missing=missing
    )
    pair_after_close(event, round_number, actor)  # live Swiss: the next round (services.swiss)
    milestone_reached(event, "round-closed")
    return event


@transaction.atomic
def round_reopen(*, event: Event, round_number: int, actor: Any = None, reason: str = "") -> Event:
    """Open a closed round again: its tables may correct their entries there again."""
    event = locked(event)
    _require_running(
        event, "event_not_running", _("Only a round of a running event can be reopened.")
    )
    _require_round(event, round_number)
    if round_number not in set(event.closed_rounds or []):
        raise DomainError(
            "round_not_closed", _("Round %(round)s is not closed.") % {"round": round_number}
        )
    unpair_before_reopen(event, round_number, actor)  # live Swiss: later rounds (services.swiss)
    closed = set(event.closed_rounds or [])
    event.closed_rounds = sorted(closed - {round_number})
    event.save(update_fields=["closed_rounds"])
    log_director_action(event, actor, "reopen_round", round_number=round_number, reason=reason)
    return event


# ------------------------------------------------------------------------- finish, reopen


def _republish(event: Event) -> Event:
    """Bump the scoring event's ``results_version`` and announce it on commit: what finishing
    or reopening made public (or withheld again) is published by the recompute, which brings
    the snapshot to this version even when it was behind (a lost task, a broker outage)."""
    scoring_id = event.scoring_event_id
    Event.objects.filter(pk=scoring_id).update(results_version=F("results_version") + 1)
    version = Event.objects.values_list("results_version", flat=True).get(pk=scoring_id)
    if scoring_id == event.pk:
        event.results_version = version
    transaction.on_commit(
        lambda: results_changed.send(sender=Event, event_id=scoring_id, results_version=version)
    )
    return event


@transaction.atomic
def event_finish(
    *, event: Event, actor: Any = None, confirm: bool = True, reason: str = ""
) -> Event:
    """running → finished; the last section to finish finishes its simultaneous too.

    With ``confirm=False`` (the organiser's page) it is refused with :class:`ResultsMissing`
    while a result is missing or unconfirmed; the director then confirms with the list in
    front of him. The final standings are produced either way (a new results version).
    """
    if event.simultaneous_id is None and is_simultaneous(event):
        raise DomainError(
            "simultaneous_finish",
            _("A simultaneous finishes with its last section: finish each section."),
        )
    event = locked(event)
    competition_require(event, Event.Status.RUNNING)
    board = [rnd for rnd in results_board(event) if not rnd.complete]
    pending = event.schedule.pending_rounds
    if board and not confirm:
        raise ResultsMissing(
            "results_missing", _("Results are still missing in this event."), board, pending
        )
    if pending and not confirm:
        raise ResultsMissing(
            "rounds_not_paired",
            _("Rounds of this event are not paired yet: finishing now leaves them unplayed."),
            board,
            pending,
        )
    competition_status_change(competition=event, to=Event.Status.FINISHED)
    clock_stop(event=event)
    if event.simultaneous_id is not None:
        parent = Event.objects.select_for_update().get(pk=event.simultaneous_id)
        unfinished = (
            Event.objects.filter(simultaneous_id=parent.pk)
            .exclude(status=Event.Status.FINISHED)
            .exists()
        )
        if parent.status == Event.Status.RUNNING and not unfinished:
            competition_status_change(competition=parent, to=Event.Status.FINISHED)
    missing = sum(len(rnd.gaps()) for rnd in board)
    log_director_action(event, actor, "finish", reason=reason, missing=missing)
    # The final standings are always produced, and they publish what finishing made public
    # (``tournaments.publication``: a closed event or section withholds no deal any more).
    return _republish(event)


@transaction.atomic
def event_reopen(*, event: Event, actor: Any = None, reason: str = "") -> Event:
    """finished → running (the director reopens it, e.g. for a forgotten result): tables
    enter their missing results again, the standings are provisional again; a section's
    finished simultaneous runs again with it. Kept in the history with its ``reason``."""
    if event.simultaneous_id is None and is_simultaneous(event):
        raise DomainError(
            "simultaneous_reopen",
            _("A simultaneous is reopened with its sections: reopen a section."),
        )
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason_required", _("a reason is required"), field="reason")
    event = locked(event)
    competition_status_change(competition=event, to=Event.Status.RUNNING)
    if event.simultaneous_id is not None:
        parent = Event.objects.select_for_update().get(pk=event.simultaneous_id)
        if parent.status == Event.Status.FINISHED:
            competition_status_change(competition=parent, to=Event.Status.RUNNING)
    log_director_action(event, actor, "reopen", reason=reason)
    return _republish(event)
