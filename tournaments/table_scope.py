"""What a table code may read and write: its table's *open round*, and nothing ahead of it.

The table code (QR code of the table card) is the only credential of the phones at a table, and
every player who sits at that table during the event sees it. So the code is scoped:

- **The open round** of a table follows from what is entered there: the first round of the
  table's schedule, not closed by the director (``Event.closed_rounds``), with a deal whose
  result is missing at that table. In an event that asks
  for the opponent confirmation, a result still awaiting a defender's confirmation counts as
  missing (it "does not count as entered", ``tournaments.services.results``): the table stays
  in that round, where the defender confirms it, before it moves on. Rounds where a phantom
  sits at the table expect nothing and are never open. Every result entered: no open round,
  the table is done. The event not running: nothing is writable (the services refuse it).
- **Writes** (:func:`enter`): only the deals of the open round. A deal of another round is
  refused with :class:`RoundNotOpen` (code ``round_not_open``: 403 on the API, a message on
  the phone page), nothing stored, except the replay of an identical outcome already stored
  there (a retry after a lost answer: :class:`~tournaments.errors.ResultReplay`, 200 on the
  API), which writes nothing either. Another outcome of a stored result is a
  :class:`~tournaments.errors.ResultConflict` (409 with the stored result) in the open round
  (a second device) and in an earlier or closed round alike (two phones disagreeing about the
  round's last deal), its outcome hidden while the code may not read it (the reads below); a
  later round's stays a refusal. Changing an entry is an explicit correction.
- **Corrections** (:func:`correct`): the table corrects its own entry (not a director's) of
  the open round or of an earlier round until the director closes that round; the history
  keeps it (``ResultChange`` "corrected", by the table). Never a later round.
- **Closed rounds**: a round the director has closed (``tournaments.services.events``) is
  written by no table code: :class:`RoundClosed` (code ``round_closed``, 403 on the API, "this
  round is closed: ask the director" on the phone page), nothing stored, except an identical
  replay (200, nothing written). A table whose every missing result is in closed rounds has
  no open round.
- **Reads** (:class:`TableScope`): the open round's deals and the table's own results of them;
  an earlier round's results only for the deals whose outcomes are public
  (:func:`tournaments.publication.deals_hidden_from`: played at every scheduled table, or the
  event finished); a later round shows where to sit and which deals, never a result. A table
  that is done reads every round as an earlier one.
- **Unknown codes** (:func:`table_for_code`): looked up through the kernel's one path
  (:func:`clubs.phone_codes.phone_code_lookup`), throttled per client address like every
  phone code.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubs.errors import DomainError, NotOwnEntry, StageNotOpen
from clubs.phone_codes import phone_code_lookup
from tournaments import selectors, services
from tournaments.errors import ResultConflict, ResultReplay
from tournaments.models import Deal, Event, Table, TableResult
from tournaments.publication import deals_hidden_from
from tournaments.selectors import TableRound
from tournaments.services.results import table_result_table_correct

logger = logging.getLogger(__name__)


class RoundNotOpen(StageNotOpen):
    """A table code tried to write a deal outside its table's open round."""

    def __init__(self, deal: Deal, round_number: int, open_round: int | None) -> None:
        if open_round is None:
            message = _(
                "deal %(deal)s cannot be entered again with the table code: every round of this "
                "table is entered (to change your entry, use “Correct this entry” until "
                "the director closes the round)"
            ) % {"deal": deal.number}
        elif round_number < open_round:
            message = _(
                "deal %(deal)s was entered in round %(round)s: this table is in round "
                "%(open)s now (to change your entry, use “Correct this entry” on round "
                "%(round)s until the director closes it)"
            ) % {"deal": deal.number, "round": round_number, "open": open_round}
        else:
            message = _(
                "deal %(deal)s is played in round %(round)s, but this table is in round "
                "%(open)s: only the deals of round %(open)s can be entered with the table code "
                "(the director corrects an earlier round)"
            ) % {"deal": deal.number, "round": round_number, "open": open_round}
        super().__init__("round_not_open", message, field="deal")
        self.round_number = round_number
        self.open_round = open_round


class RoundClosed(RoundNotOpen):
    """A table code tried to write a deal of a round the director has closed."""

    def __init__(self, deal: Deal, round_number: int, open_round: int | None) -> None:
        super().__init__(deal, round_number, open_round)
        self.code = "round_closed"
        self.message = _(
            "deal %(deal)s is played in round %(round)s: this round is closed, ask the director"
        ) % {"deal": deal.number, "round": round_number}
        self.args = (self.describe(),)


def _awaits_confirmation(event: Event, result: TableResult) -> bool:
    return bool(event.opponent_confirmation) and not result.confirmed


def closed_rounds(event: Event) -> set[int]:
    """The rounds of ``event`` the director has closed."""
    return {int(number) for number in event.closed_rounds or []}


def open_round_of(event: Event, plays: list[TableRound]) -> int | None:
    """The first round of ``plays``, not closed, with a deal still to enter (or to confirm),
    else None."""
    closed = closed_rounds(event)
    for play in plays:
        if play.sits_out or play.round_number in closed:
            continue
        for deal in play.deals:
            result = play.results.get(deal.pk)
            if result is None or _awaits_confirmation(event, result):
                return play.round_number
    return None


@dataclass
class TableScope:
    """One table as its code sees it: its rounds, its open round, what it may read and write."""

    table: Table
    plays: list[TableRound]
    open_round: int | None
    _round_of_set: dict[int, int] = field(default_factory=dict, repr=False)
    #: Built by :meth:`for_save`: the plays carry no seats, deals or results; the pks of the
    #: deals with a result stored at the table are :attr:`stored_deals`.
    outlined: bool = False
    stored_deals: frozenset[int] = frozenset()

    @classmethod
    def of(cls, table: Table) -> TableScope:
        plays = selectors.table_rounds(table)
        return cls(
            table=table,
            plays=plays,
            open_round=open_round_of(table.event, plays),
            _round_of_set={play.deal_set: play.round_number for play in plays},
        )

    @classmethod
    def for_save(cls, table: Table) -> TableScope:
        """The scope as a table code's save (:func:`enter`) needs it, read as plain values
        (1 query): the open round and the rounds of the table (round, deal set, sit-out),
        without their seats, deals or results (:attr:`outlined`: for :func:`enter` only, the
        service reads the deal's own)."""
        event = table.event
        schedule = event.schedule.plays_of_table(table.number)
        outline = selectors.table_outline(table)
        closed = closed_rounds(event)
        waits = bool(event.opponent_confirmation)
        open_round = None
        for scheduled in schedule:  # as open_round_of, on the outline
            if scheduled.sits_out or scheduled.round in closed:
                continue
            for pk in outline.deals_by_set.get(scheduled.deal_set, []):
                confirmed = outline.confirmed.get(pk)
                if confirmed is None or (waits and not confirmed):
                    open_round = scheduled.round
                    break
            if open_round is not None:
                break
        plays = [
            TableRound(
                round_number=scheduled.round,
                deal_set=scheduled.deal_set,
                sits_out=scheduled.sits_out,
                seats={},
                deals=[],
                results={},
            )
            for scheduled in schedule
        ]
        return cls(
            table=table,
            plays=plays,
            open_round=open_round,
            _round_of_set={play.deal_set: play.round_number for play in plays},
            outlined=True,
            stored_deals=frozenset(outline.confirmed),
        )

    @property
    def event(self) -> Event:
        return self.table.event

    @property
    def running(self) -> bool:
        return self.event.status == Event.Status.RUNNING

    @property
    def writable_round(self) -> int | None:
        """The round whose deals the code may enter now (none unless the event runs)."""
        return self.open_round if self.running else None

    @cached_property
    def closed(self) -> set[int]:
        """The rounds the director has closed."""
        return closed_rounds(self.event)

    def is_closed(self, round_number: int) -> bool:
        return round_number in self.closed

    def may_correct(self, round_number: int, result: TableResult) -> bool:
        """Whether the code may correct ``result`` (of its table, played in that round): its
        own played entry, the event running, the round neither closed nor later. An outcome
        the code may not read yet (:meth:`result_visible`) is corrected blind: the page shows
        an empty form, never the stored outcome."""
        return (
            self.running
            and not self.is_closed(round_number)
            and not self.is_later(round_number)
            and result.kind == TableResult.Kind.PLAYED
            and not result.director_assigned
            and result.entered_via in ("table", "api")
        )

    def round_of(self, deal: Deal) -> int | None:
        """The round in which this table plays ``deal`` (None: not scheduled here)."""
        return self._round_of_set.get(deal.deal_set)

    def deal_numbered(self, number: int) -> Deal | None:
        """Deal ``number`` if this table plays it (as loaded with the scope), else None (always
        None for an :attr:`outlined` scope)."""
        for play in self.plays:
            for deal in play.deals:
                if deal.number == number:
                    return deal
        return None

    def play(self, round_number: int) -> TableRound | None:
        return next((p for p in self.plays if p.round_number == round_number), None)

    @property
    def current(self) -> TableRound | None:
        """The round the phone shows first: the open one, else the last."""
        if self.open_round is not None:
            return self.play(self.open_round)
        return self.plays[-1] if self.plays else None

    @cached_property
    def _hidden_numbers(self) -> set[int]:
        """Deal numbers whose outcomes are not public yet (one or two queries, when asked)."""
        return deals_hidden_from(self.event, directs=False)

    def is_later(self, round_number: int) -> bool:
        return self.open_round is not None and round_number > self.open_round

    def result_visible(self, round_number: int, deal: Deal) -> bool:
        """Whether the code may read this table's result of ``deal`` (played in that round)."""
        if self.open_round is not None and round_number == self.open_round:
            return True
        if self.is_later(round_number):
            return False
        return deal.number not in self._hidden_numbers

    def visible_results(self, play: TableRound) -> dict[int, TableResult]:
        """The stored results of ``play`` the code may read, by deal pk."""
        if self.is_later(play.round_number):
            return {}
        return {
            pk: result
            for pk, result in play.results.items()
            if self.result_visible(play.round_number, result.deal)
        }

    def visible_result_list(self) -> list[TableResult]:
        """Every result of the table the code may read, by round and deal."""
        listed: list[TableResult] = []
        for play in self.plays:
            visible = self.visible_results(play)
            listed.extend(visible[deal.pk] for deal in play.deals if deal.pk in visible)
        return listed


def _stored(table: Table, deal: Deal) -> bool:
    return TableResult.objects.filter(table=table, deal=deal).exists()


def _closed_refusal(error: DomainError, deal: Deal, scope: TableScope) -> DomainError:
    """The service's ``round_closed`` (the round closed while the write ran) as RoundClosed."""
    if error.code == "round_closed":
        round_number = scope.round_of(deal) or 0
        return RoundClosed(deal, round_number, scope.open_round)
    return error


def _refuse_stored(
    scope: TableScope, deal: Deal, round_number: int, refusal: RoundNotOpen, **kwargs: Any
) -> TableResult:
    """Outside the open round: an identical replay of a stored result is kept
    (:class:`ResultReplay`, nothing written); another outcome of a result stored in an
    earlier or closed round is a conflict (:class:`ResultConflict`, 409 with the stored result:
    two phones of the table disagreeing about the last deal of a round), its outcome ``hidden``
    while the code may not read it (:meth:`TableScope.result_visible`); anything else (a
    later round) refused with ``refusal``."""
    if _stored(scope.table, deal):
        # A stored result (never deleted while the event runs): the service writes nothing for
        # it, and tells a replay (kept) from another outcome.
        try:
            services.table_result_enter(table=scope.table, deal=deal, **kwargs)
        except ResultReplay:
            raise
        except ResultConflict as conflict:
            if scope.is_later(round_number):
                raise refusal from conflict
            hidden = not scope.result_visible(round_number, deal)
            raise ResultConflict(conflict.result, hidden=hidden) from None
    raise refusal


def enter(
    scope: TableScope, *, deal: Deal, outcome: Mapping[str, Any], actor: Any, via: str
) -> TableResult:
    """Enter ``outcome`` for ``deal`` at the scope's table, within its open round.

    Raises what :func:`tournaments.services.table_result_enter` raises, :class:`RoundClosed`
    for a deal of a closed round and :class:`RoundNotOpen` for a deal of another round
    (nothing stored), except an identical replay of a stored result (:class:`ResultReplay`,
    nothing written).
    """
    table = scope.table
    round_number = scope.round_of(deal)
    kwargs: dict[str, Any] = {"outcome": outcome, "actor": actor, "via": via}
    play = scope.play(round_number) if round_number is not None else None
    if (
        not scope.running
        or round_number is None
        or deal.event_id != table.event_id
        or (play is not None and play.sits_out)
    ):
        # Not running, not scheduled here, another event's deal, a sit-out round: the service
        # says why it refuses.
        return services.table_result_enter(table=table, deal=deal, **kwargs)
    if scope.is_closed(round_number):
        refusal: RoundNotOpen = RoundClosed(deal, round_number, scope.open_round)
        return _refuse_stored(scope, deal, round_number, refusal, **kwargs)
    if round_number == scope.open_round:
        # The open round: the service stores it (or answers conflict / replay).
        try:
            return services.table_result_enter(
                table=table,
                deal=deal,
                refuse_closed=True,
                known=None if scope.outlined else play,
                none_stored=scope.outlined and deal.pk not in scope.stored_deals,
                **kwargs,
            )
        except ResultConflict:
            raise
        except DomainError as error:
            raise _closed_refusal(error, deal, scope) from error
    refusal = RoundNotOpen(deal, round_number, scope.open_round)
    return _refuse_stored(scope, deal, round_number, refusal, **kwargs)


def correct(
    scope: TableScope, *, deal: Deal, outcome: Mapping[str, Any], actor: Any, via: str
) -> TableResult:
    """The table corrects its own entry of ``deal`` (see the module docstring).

    A deal not entered yet is entered (:func:`enter`). Raises :class:`RoundClosed` in a
    closed round, :class:`RoundNotOpen` in a later one, :class:`NotOwnEntry` for a result the
    director recorded (or one the code may not read yet), :class:`ResultReplay` for the same
    outcome again (nothing written), and what the services raise.
    """
    assert not scope.outlined, "a correction reads the full scope (TableScope.of)"
    round_number = scope.round_of(deal)
    play = scope.play(round_number) if round_number is not None else None
    stored = play.results.get(deal.pk) if play is not None else None
    if (
        stored is None
        or not scope.running
        or play is None
        or play.sits_out
        or deal.event_id != scope.table.event_id
    ):
        return enter(scope, deal=deal, outcome=outcome, actor=actor, via=via)
    assert round_number is not None
    if scope.is_closed(round_number):
        raise RoundClosed(deal, round_number, scope.open_round)
    if scope.is_later(round_number):
        raise RoundNotOpen(deal, round_number, scope.open_round)
    if not scope.may_correct(round_number, stored):
        raise NotOwnEntry()
    try:
        return table_result_table_correct(result=stored, outcome=outcome, actor=actor, via=via)
    except ResultConflict:
        raise
    except DomainError as error:
        raise _closed_refusal(error, deal, scope) from error


# ------------------------------------------------------------------------ unknown codes


def table_for_code(request: HttpRequest | Any, code: str) -> Table:
    """The table whose code is ``code``, its event loaded; :class:`UnknownCode` if none (one
    failure counted for the address), :class:`CodeThrottled` once it has failed too often."""
    table: Table = phone_code_lookup(request, selectors.phone_tables(), code)
    return table
