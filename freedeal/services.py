"""The only writer of free-deal tournaments: creation, settings, registration, start, result
entry and corrections, closing a party, finishing.

Every service is named ``<entity>_<action>``, takes keyword arguments only and runs in one
transaction. Every refusal raises :class:`clubs.errors.DomainError` (a stable ``code``, a
message already translated, the ``field`` at fault); a refusal of the rules engine keeps its
code. Nothing stored changes when one is raised. Operations that two phones or the director
could run at once lock the tournament row first (``clubs.services.competition_lock``), then
the result row, so a party cannot close while a table saves and the same deal cannot be
created twice. Status changes go through ``clubs.services.competition_status_change``.

Result entry has one semantics, the kernel's (:mod:`clubs.errors`, :mod:`freedeal.errors`):

- :func:`free_deal_result_enter` (a table phone): the first outcome of a deal of the open
  party is stored, with a history line "entered" by the table. The same deal sent again is a
  :class:`~freedeal.errors.ResultReplay` when it is the very outcome stored (nothing written,
  no history line), a :class:`~freedeal.errors.ResultConflict` carrying the stored result
  otherwise (nothing changed). A deal of a closed party (or when no party is open) is a
  :class:`~freedeal.errors.PartyNotOpen`, except an identical replay.
- :func:`free_deal_result_table_correct` (a table phone, explicitly): replaces the stored
  outcome of a deal of the open party; the history says "corrected" by the table. A deal not
  entered yet is entered (the table's last word), as in every kind (docs/architecture.md).
- :func:`free_deal_result_director_correct`: the director enters or corrects any deal of a
  party begun, at any time, with a reason; the history names his account.

The validation and the scoring of an outcome are :mod:`freedeal.outcomes` (the rules engine
under the tournament's ruleset and the table's size).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError, NotOwnEntry
from clubs.history import Author, EnteredVia, entered_by_set, history_write
from clubs.models import Club, Player
from clubs.register import register_player_add
from clubs.services import competition_lock, competition_require, competition_status_change
from clubs.signals import milestone_reached
from freedeal.errors import PartyNotOpen, ResultConflict, ResultReplay
from freedeal.models import (
    MAX_DEALS_PER_PARTY,
    MAX_PARTIES,
    FreeDealChange,
    FreeDealPlayer,
    FreeDealResult,
    FreeDealTable,
    FreeDealTournament,
)
from freedeal.outcomes import (
    clean_ruleset,
    default_dealer,
    outcome_score,
    result_state,
    ruleset_of,
    same_outcome,
)
from freedeal.seating import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TIE_BREAKS,
    seat_parties,
    table_sizes,
)
from freedeal.selectors import free_deal_missing_deals
from rules.deal import random_seed
from rules.ruleset import RULES_VERSION, ruleset_from_dict

Status = FreeDealTournament.Status


# --------------------------------------------------------------------------- helpers
def _whole(value: object, field: str, low: int, high: int, message: str) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise DomainError("invalid_number", message, field=field) from None
    if not low <= number <= high:
        raise DomainError("out_of_range", message, field=field)
    return number


def _check_settings(parties: object, deals_per_party: object, tie_break: str) -> tuple[int, int]:
    count = _whole(
        parties,
        "parties",
        1,
        MAX_PARTIES,
        _("The number of parties must be a whole number from 1 to %(max)s.") % {"max": MAX_PARTIES},
    )
    deals = _whole(
        deals_per_party,
        "deals_per_party",
        1,
        MAX_DEALS_PER_PARTY,
        _("The number of deals per party must be a whole number from 1 to %(max)s.")
        % {"max": MAX_DEALS_PER_PARTY},
    )
    if tie_break not in TIE_BREAKS:
        raise DomainError(
            "unknown_tie_break",
            _("Unknown tie-break %(value)s.") % {"value": tie_break},
            "tie_break",
        )
    return count, deals


def _check_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise DomainError("name_required", _("Give the tournament a name."), field="name")
    return name[:200]


def _check_draft(tournament: FreeDealTournament) -> None:
    if tournament.status != Status.DRAFT:
        raise DomainError(
            "already_started",
            _("The tournament has started: its players can no longer change."),
        )


# --------------------------------------------------------------------------- set-up
def free_deal_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    ruleset: Mapping[str, object] | str | None = None,
    parties: int = 5,
    deals_per_party: int = 4,
    tie_break: str = "best_party",
    public: bool = False,
    seed: int | None = None,
) -> FreeDealTournament:
    """A draft tournament of ``club`` (its seating seed drawn unless ``seed`` is given)."""
    name = _check_name(name)
    count, deals = _check_settings(parties, deals_per_party, tie_break)
    return FreeDealTournament.objects.create(
        club=club,
        name=name,
        date=date,
        ruleset=clean_ruleset(ruleset),
        parties=count,
        deals_per_party=deals,
        tie_break=tie_break,
        public=public,
        seed=random_seed() if seed is None else seed,
    )


def free_deal_settings_update(
    *,
    tournament: FreeDealTournament,
    name: str,
    date: datetime.date,
    ruleset: Mapping[str, object] | str | None,
    parties: int,
    deals_per_party: int,
    tie_break: str,
    public: bool,
) -> FreeDealTournament:
    """Change the settings; the rules and the format only before the start."""
    name = _check_name(name)
    with transaction.atomic():
        locked = competition_lock(tournament)
        count, deals = _check_settings(parties, deals_per_party, tie_break)
        started = locked.status != Status.DRAFT
        # Once started, the rules keep their stored version (and dict): same rules, same scores.
        stored = clean_ruleset(ruleset, ruleset_of(locked).version if started else RULES_VERSION)
        if started and (
            ruleset_from_dict(stored) != ruleset_of(locked)
            or count != locked.parties
            or deals != locked.deals_per_party
        ):
            raise DomainError(
                "already_started",
                _("The rules, parties and deals cannot change once the tournament has started."),
            )
        if not started:
            locked.ruleset = stored
        locked.parties, locked.deals_per_party = count, deals
        locked.tie_break, locked.public = tie_break, public
        locked.name, locked.date = name, date
        locked.save()
    return locked


def free_deal_player_register(*, tournament: FreeDealTournament, player: Player) -> FreeDealPlayer:
    """Register a known player with the next number (at most 400 players, each once)."""
    with transaction.atomic():
        added = free_deal_players_register(tournament=tournament, players=[player])
        if not added:
            raise DomainError(
                "already_registered",
                _("%(player)s is already registered.") % {"player": player},
                field="player",
            )
        return added[0]


def free_deal_players_register(
    *, tournament: FreeDealTournament, players: Sequence[Player]
) -> list[FreeDealPlayer]:
    """Register several known players with one confirmation (those ticked, the players of the
    last tournament), numbered on from the last one in French order of their names; those
    already registered are left out. Refused as a whole past the seats
    (``too_many_players``)."""
    with transaction.atomic():
        locked = competition_lock(tournament)
        _check_draft(locked)
        entries = locked.players.all()
        wanted = {player.pk: player for player in players}
        taken = set(entries.filter(player__in=list(wanted)).values_list("player_id", flat=True))
        new = sorted(
            (player for pk, player in wanted.items() if pk not in taken),
            key=lambda player: (player.name_sort_key, player.pk),
        )
        count = entries.count()
        if count + len(new) > MAX_PLAYERS:
            raise DomainError(
                "too_many_players",
                _("A free-deal tournament seats at most %(max)s players.") % {"max": MAX_PLAYERS},
                field="player",
            )
        return FreeDealPlayer.objects.bulk_create(
            FreeDealPlayer(tournament=locked, number=count + n, player=player)
            for n, player in enumerate(new, start=1)
        )


def free_deal_player_register_new(
    *, tournament: FreeDealTournament, first_name: str, last_name: str, licence: str = ""
) -> FreeDealPlayer:
    """Register a newcomer: he joins the register of the tournament's club
    (``clubs.register.register_player_add``: a known licence registers that player, under his
    stored name), then the tournament; nothing is kept when either refuses."""
    with transaction.atomic():
        player = register_player_add(
            club=tournament.club, first_name=first_name, last_name=last_name, licence=licence
        ).player
        return free_deal_player_register(tournament=tournament, player=player)


def free_deal_player_remove(*, tournament: FreeDealTournament, number: int) -> None:
    """Remove a player before the start; the later numbers move down by one."""
    with transaction.atomic():
        locked = competition_lock(tournament)
        _check_draft(locked)
        deleted, _details = locked.players.filter(number=number).delete()
        if not deleted:
            raise DomainError("unknown_player", _("No such player."), field="player")
        for entry in locked.players.filter(number__gt=number).order_by("number"):
            entry.number -= 1
            entry.save(update_fields=["number"])


def free_deal_start(*, tournament: FreeDealTournament) -> FreeDealTournament:
    """Seat every party (``seat_parties`` with the tournament's seed) and create the tables."""
    with transaction.atomic():
        locked = competition_lock(tournament)
        _check_draft(locked)
        count = locked.players.count()
        if count < MIN_PLAYERS:
            raise DomainError(
                "too_few_players",
                _("A free-deal tournament needs at least %(min)s players.") % {"min": MIN_PLAYERS},
            )
        sizes = table_sizes(count)
        seating = seat_parties(count, locked.parties, locked.seed)
        locked.seating = [[list(table) for table in party] for party in seating]
        for number, size in enumerate(sizes, start=1):
            FreeDealTable.objects.create(tournament=locked, number=number, size=size)
        locked.closed_parties = 0
        locked.save(update_fields=["seating", "closed_parties"])
        competition_status_change(competition=locked, to=Status.RUNNING)
    return locked


# --------------------------------------------------------------------------- results
def _check_deal(tournament: FreeDealTournament, party: int, deal: int) -> None:
    if not 1 <= party <= tournament.parties:
        raise DomainError(
            "unknown_party",
            _("There is no party %(party)s.") % {"party": party},
            field="party",
        )
    if not 1 <= deal <= tournament.deals_per_party:
        raise DomainError(
            "unknown_deal",
            _("A party has deals 1 to %(max)s.") % {"max": tournament.deals_per_party},
            field="deal",
        )


def _locked_result(table: FreeDealTable, party: int, deal: int) -> FreeDealResult | None:
    return (
        FreeDealResult.objects.select_for_update()
        .select_related("table")
        .filter(table=table, party=party, deal=deal)
        .first()
    )


def _table_label(table: FreeDealTable) -> str:
    return _("Table %(number)s") % {"number": table.number}


def _author(actor: Any, label: str, via: str = EnteredVia.TABLE) -> Author:
    """A signed-in actor is the director (his account named), else the table by ``via`` (its
    phone's page or the API)."""
    if getattr(actor, "is_authenticated", False):
        via = EnteredVia.ORGANISER
    return Author(user=actor, label=label, via=via)


def _record(
    result: FreeDealResult,
    action: str,
    *,
    before: dict[str, Any] | None,
    author: Author,
    reason: str = "",
) -> None:
    history_write(
        FreeDealChange, result=result, action=action, author=author, reason=reason,
        before=before, after=result_state(result), tournament_id=result.tournament_id,
    )  # fmt: skip


def _create(
    tournament: FreeDealTournament,
    table: FreeDealTable,
    party: int,
    deal: int,
    fields: dict[str, Any],
    *,
    actor: Any,
    label: str,
    reason: str = "",
    via: str = EnteredVia.TABLE,
) -> FreeDealResult:
    seated = tournament.table_players(party, table.number)
    author = _author(actor, label, via)
    result = FreeDealResult(
        tournament=tournament,
        table=table,
        party=party,
        deal=deal,
        dealer=default_dealer(seated, deal),
        **author.fields(),
        **fields,
    )
    try:
        with transaction.atomic():
            result.save()
    except IntegrityError:
        # Every writer locks the tournament first, so this is another constraint: say so.
        raise DomainError(
            "result_exists", _("This deal was just entered: reload the page."), field="deal"
        ) from None
    _record(result, FreeDealChange.Action.CREATE, before=None, author=author, reason=reason)
    return result


def _replace(
    result: FreeDealResult,
    fields: dict[str, Any],
    *,
    actor: Any,
    label: str,
    reason: str = "",
    via: str = EnteredVia.TABLE,
) -> FreeDealResult:
    before = result_state(result)
    author = _author(actor, label, via)
    for name, value in fields.items():
        setattr(result, name, value)
    entered_by_set(result, author)
    result.save()
    _record(result, FreeDealChange.Action.CORRECT, before=before, author=author, reason=reason)
    return result


def _table_party(locked: FreeDealTournament, party: int | None) -> int:
    """The party a table code writes: ``party`` when it names one (the phone's page says
    which), else the open one; refused when no party is open."""
    if locked.status == Status.DRAFT:
        raise PartyNotOpen(party=party, open_party=None, running=False)
    target = party if party is not None else locked.open_party
    if target is None:
        raise PartyNotOpen(party=None, open_party=None, running=locked.running)
    if not 1 <= target <= locked.parties:
        raise DomainError(
            "unknown_party",
            _("There is no party %(party)s.") % {"party": target},
            field="party",
        )
    return target


def free_deal_result_enter(
    *,
    table: FreeDealTable,
    deal: int,
    data: Mapping[str, Any],
    party: int | None = None,
    via: str = EnteredVia.TABLE,
) -> FreeDealResult:
    """A table phone enters ``deal`` of the open party at its table (``party``, when given,
    must be the open one: the party the phone showed).

    Raises :class:`~freedeal.errors.ResultReplay` (nothing written) when this very outcome is
    stored, :class:`~freedeal.errors.ResultConflict` (nothing changed) when another one is,
    :class:`~freedeal.errors.PartyNotOpen` outside the open party (but a replay stays a replay),
    :class:`DomainError` naming the field for an invalid outcome.
    """
    with transaction.atomic():
        tournament = competition_lock(table.tournament)
        target = _table_party(tournament, party)
        _check_deal(tournament, target, deal)
        stored = _locked_result(table, target, deal)
        if stored is None and target != tournament.open_party:
            raise PartyNotOpen(
                party=target, open_party=tournament.open_party, running=tournament.running
            )
        fields = outcome_score(tournament, tournament.table_players(target, table.number), data)
        if stored is not None:
            if same_outcome(stored, fields):
                raise ResultReplay(stored)
            raise ResultConflict(stored)
        return _create(
            tournament, table, target, deal, fields, actor=None, label=_table_label(table), via=via
        )


def free_deal_result_table_correct(
    *,
    table: FreeDealTable,
    deal: int,
    data: Mapping[str, Any],
    party: int | None = None,
    via: str = EnteredVia.TABLE,
) -> FreeDealResult:
    """A table phone corrects its entry of ``deal`` in the open party (``party``, when given,
    must be the open one), until the director closes the party.

    The same outcome again is a :class:`~freedeal.errors.ResultReplay` (nothing written); a deal
    not entered yet is entered, as every kind does (the phone's first save never arrived: the
    history keeps an entry); outside the open party, :class:`~freedeal.errors.PartyNotOpen`.
    The history keeps a line "corrected" by the table.
    """
    with transaction.atomic():
        tournament = competition_lock(table.tournament)
        target = _table_party(tournament, party)
        _check_deal(tournament, target, deal)
        if target != tournament.open_party:
            raise PartyNotOpen(
                party=target, open_party=tournament.open_party, running=tournament.running
            )
        stored = _locked_result(table, target, deal)
        if stored is not None and stored.entered_by_director:  # the director's: his
            raise NotOwnEntry()
        fields = outcome_score(tournament, tournament.table_players(target, table.number), data)
        if stored is None:  # never entered: the table's last word is its entry
            return _create(
                tournament,
                table,
                target,
                deal,
                fields,
                actor=None,
                label=_table_label(table),
                via=via,
            )
        if same_outcome(stored, fields):
            raise ResultReplay(stored)
        return _replace(stored, fields, actor=None, label=_table_label(table), via=via)


def free_deal_result_director_correct(
    *,
    tournament: FreeDealTournament,
    table_number: int,
    party: int,
    deal: int,
    data: Mapping[str, Any],
    user: AbstractBaseUser,
    reason: str,
) -> FreeDealResult:
    """The director enters or corrects any deal of a party begun (even closed), with a reason;
    the history names his account. The very outcome stored is a
    :class:`~freedeal.errors.ResultReplay` (nothing written, no history line)."""
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(
            "reason_required", _("Give the reason for the correction."), field="reason"
        )
    with transaction.atomic():
        locked = competition_lock(tournament)
        if locked.status == Status.DRAFT:
            raise DomainError(
                "not_started", _("The tournament has not started: there is nothing to correct.")
            )
        _check_deal(locked, party, deal)
        if locked.open_party is not None and party > locked.open_party:
            raise DomainError(
                "party_not_started",
                _("Party %(party)s has not started yet.") % {"party": party},
                field="party",
            )
        table = locked.tables.filter(number=table_number).first()
        if table is None:
            raise DomainError("unknown_table", _("No such table."), field="table")
        fields = outcome_score(locked, locked.table_players(party, table.number), data)
        label = str(user.get_username()) or _("Director")
        stored = _locked_result(table, party, deal)
        if stored is None:
            return _create(
                locked, table, party, deal, fields, actor=user, label=label, reason=reason[:1000]
            )
        if same_outcome(stored, fields):
            raise ResultReplay(stored)
        return _replace(stored, fields, actor=user, label=label, reason=reason[:1000])


# --------------------------------------------------------------------------- parties
def free_deal_party_close(*, tournament: FreeDealTournament, confirm: bool = False) -> int:
    """Close the open party: every deal of every table entered, or the director confirms
    (a missing deal then counts 0 for its players). Returns the party closed."""
    with transaction.atomic():
        locked = competition_lock(tournament)
        party = locked.open_party
        if party is None:
            raise DomainError("no_open_party", _("There is no open party to close."))
        missing = free_deal_missing_deals(locked, party)
        if missing and not confirm:
            raise DomainError(
                "party_incomplete",
                _("Party %(party)s still misses %(count)s deals: confirm to close it anyway.")
                % {"party": party, "count": len(missing)},
                details=[
                    _("Table %(table)s, deal %(deal)s") % {"table": table, "deal": deal}
                    for table, deal in missing
                ],
            )
        locked.closed_parties = party
        locked.save(update_fields=["closed_parties"])
        milestone_reached(locked, "party-closed")
    return party


def free_deal_finish(*, tournament: FreeDealTournament) -> FreeDealTournament:
    """Finish the tournament once every party is closed: the ranking becomes final."""
    with transaction.atomic():
        locked = competition_lock(tournament)
        competition_require(locked, Status.RUNNING)
        if locked.closed_parties < locked.parties:
            raise DomainError(
                "parties_open",
                _("Close every party before finishing (%(closed)s of %(parties)s closed).")
                % {"closed": locked.closed_parties, "parties": locked.parties},
            )
        competition_status_change(competition=locked, to=Status.FINISHED)
    return locked
