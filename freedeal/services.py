"""The only writer of free-deal tournaments: creation, registration, start, entry, correction,
closing a party, finishing.

Every refusal raises :class:`tournaments.errors.DomainError` (a stable ``code``, a message
already translated, the ``field`` at fault); a refusal of the rules engine keeps its code
(:meth:`DomainError.from_rule`). Nothing stored changes when one is raised. Operations
that two phones or the director could run at once lock the tournament row
(``select_for_update``) first, so a party cannot close while a table saves, and the same deal
cannot be created twice.

A result's input (``data``) is a mapping with ``taker`` (a player number of the table, or
empty when everybody passed), ``contract`` (a contract of the ruleset, or ``"passed"``),
``oudlers``, ``points``, ``petit_au_bout``, ``poignees`` (list of ``{side, size}``),
``chelem`` (``{announced, made_by}``), ``petit_chelem`` (``{announced, made}``, traditional
rules), ``chien`` (house rules: the dealer's chien size) and, at a table of 5 where a King is
called, ``partner``: the player who had the called King (the taker himself when he called his
own King and plays alone). The rules engine has no "everybody passed" outcome: such a deal is
stored with no taker, no outcome and every mark 0.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club, Player
from clubs.services import competition_require, competition_status_change
from freedeal.models import (
    MAX_DEALS_PER_PARTY,
    MAX_PARTIES,
    FreeDealChange,
    FreeDealPlayer,
    FreeDealResult,
    FreeDealTable,
    FreeDealTournament,
)
from rules.errors import RuleError
from rules.ruleset import RULES_VERSION, Ruleset, RulesetName, ruleset_from_dict
from rules.scoring import Outcome, outcome_from_dict, outcome_to_dict, score_deal
from tournaments.movements.free_deal import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TIE_BREAKS,
    seat_parties,
    table_sizes,
)
from tournaments.services.deals import random_seed

PASSED = "passed"
Status = FreeDealTournament.Status


# --------------------------------------------------------------------------- helpers
def ruleset_of(tournament: FreeDealTournament) -> Ruleset:
    return ruleset_from_dict(tournament.ruleset)


def _locked(tournament: FreeDealTournament) -> FreeDealTournament:
    """The tournament row, locked until the end of the transaction (fresh values)."""
    return FreeDealTournament.objects.select_for_update().get(pk=tournament.pk)


def _whole(value: object, field: str, low: int, high: int, message: str) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise DomainError("invalid_number", message, field=field) from None
    if not low <= number <= high:
        raise DomainError("out_of_range", message, field=field)
    return number


def clean_ruleset(
    data: Mapping[str, object] | str | None, version: int = RULES_VERSION
) -> dict[str, object]:
    """The stored form of a ruleset choice (``{"name": ..., ..., "version": ...}``, the
    current rules version unless ``version`` says otherwise), or a translated error."""
    try:
        return ruleset_from_dict(data, default_version=version).to_dict()
    except RuleError as error:
        raise DomainError.from_rule(error, field="ruleset") from error


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


# --------------------------------------------------------------------------- set-up
def _check_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise DomainError("name_required", _("Give the tournament a name."), field="name")
    return name[:200]


def create_tournament(
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


def update_settings(
    tournament: FreeDealTournament,
    *,
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
        locked = _locked(tournament)
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


def _check_draft(tournament: FreeDealTournament) -> None:
    if tournament.status != Status.DRAFT:
        raise DomainError(
            "already_started",
            _("The tournament has started: its players can no longer change."),
        )


def register_player(tournament: FreeDealTournament, player: Player) -> FreeDealPlayer:
    """Register a known player with the next number (at most 400 players, each once)."""
    with transaction.atomic():
        locked = _locked(tournament)
        _check_draft(locked)
        entries = locked.players.all()
        if entries.filter(player=player).exists():
            raise DomainError(
                "already_registered",
                _("%(player)s is already registered.") % {"player": player},
                field="player",
            )
        count = entries.count()
        if count >= MAX_PLAYERS:
            raise DomainError(
                "too_many_players",
                _("A free-deal tournament seats at most %(max)s players.") % {"max": MAX_PLAYERS},
                field="player",
            )
        return FreeDealPlayer.objects.create(tournament=locked, number=count + 1, player=player)


def register_new_player(
    tournament: FreeDealTournament, *, first_name: str, last_name: str, licence: str = ""
) -> FreeDealPlayer:
    """Create a player of the tournament's club and register him."""
    first, last, licence = first_name.strip(), last_name.strip(), licence.strip()
    if not first or not last:
        raise DomainError(
            "name_required", _("Give the player's first and last names."), field="last_name"
        )
    if licence and Player.objects.filter(licence=licence).exists():
        raise DomainError(
            "licence_taken",
            _("Licence %(licence)s belongs to another player: pick him in the list.")
            % {"licence": licence},
            field="licence",
        )
    with transaction.atomic():
        player = Player.objects.create(
            first_name=first[:80],
            last_name=last[:80],
            licence=licence or None,
            club=tournament.club,
        )
        return register_player(tournament, player)


def unregister_player(tournament: FreeDealTournament, number: int) -> None:
    """Remove a player before the start; the later numbers move down by one."""
    with transaction.atomic():
        locked = _locked(tournament)
        _check_draft(locked)
        deleted, _details = locked.players.filter(number=number).delete()
        if not deleted:
            raise DomainError("unknown_player", _("No such player."), field="player")
        for entry in locked.players.filter(number__gt=number).order_by("number"):
            entry.number -= 1
            entry.save(update_fields=["number"])


def start(tournament: FreeDealTournament) -> FreeDealTournament:
    """Seat every party (``seat_parties`` with the tournament's seed) and create the tables."""
    with transaction.atomic():
        locked = _locked(tournament)
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
def _player_number(value: object, field: str, seated: tuple[int, ...]) -> int | None:
    if value is None or str(value).strip() == "":
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        raise DomainError(
            "invalid_player", _("%(value)s is not a player number.") % {"value": value}, field
        ) from None
    if number not in seated:
        raise DomainError(
            "not_at_table",
            _("Player %(number)s does not sit at this table in this party.") % {"number": number},
            field=field,
        )
    return number


def default_dealer(seated: tuple[int, ...], deal: int) -> int:
    """The deal's dealer: the table's players in turn, seat order."""
    return seated[(deal - 1) % len(seated)]


def score_result(
    tournament: FreeDealTournament, seated: tuple[int, ...], data: Mapping[str, Any]
) -> dict[str, Any]:
    """Validate ``data`` for a table seating ``seated`` (nothing stored): the fields to store.

    Returns ``passed``, ``taker``, ``partner``, ``contract``, ``outcome``, ``value`` and
    ``marks`` (``{"number": mark}``).
    """
    contract = str(data.get("contract") or "").strip()
    if not contract:
        raise DomainError("missing_field", _("Choose the contract."), field="contract")
    if contract == PASSED:
        return {
            "passed": True,
            "taker": None,
            "partner": None,
            "contract": PASSED,
            "outcome": None,
            "value": 0,
            "marks": {str(number): 0 for number in seated},
        }
    size = len(seated)
    ruleset = ruleset_of(tournament)
    taker = _player_number(data.get("taker"), "taker", seated)
    if taker is None:
        raise DomainError("missing_field", _("Choose the taker."), field="taker")
    partner = _player_number(data.get("partner"), "partner", seated)
    calls_king = size == 5 and ruleset.calls_king
    if calls_king and partner is None:
        raise DomainError(
            "partner_required",
            _(
                "At 5 players, say who had the called King (the taker himself if he called "
                "his own King and played alone)."
            ),
            field="partner",
        )
    if not calls_king and partner is not None:
        raise DomainError(
            "partner_not_allowed",
            _("In the flambeuse the taker plays alone: no partner.")
            if size == 5
            else _("A partner is only called at 5 players."),
            field="partner",
        )
    if partner == taker:
        partner = None  # the taker called his own King: he plays alone
    raw: dict[str, Any] = {
        "players": size,
        "contract": contract,
        "oudlers": data.get("oudlers"),
        "points": data.get("points"),
        "petit_au_bout": data.get("petit_au_bout") or None,
        "poignees": list(data.get("poignees") or []),
        "chelem": data.get("chelem") or None,
    }
    if size == 5:
        raw["partner"] = partner is not None
    for key in ("oudlers", "points"):
        if raw[key] is None or str(raw[key]).strip() == "":
            raise DomainError(
                "missing_field",
                _("Give the oudlers and the points of the attack."),
                field=key,
            )
    if data.get("chien") not in (None, ""):
        raw["chien"] = data.get("chien")
    petit = data.get("petit_chelem")
    if petit and (petit.get("announced") or petit.get("made")):
        raw["petit_chelem"] = dict(petit)
    try:
        outcome: Outcome = outcome_from_dict(raw, ruleset)
        score = score_deal(outcome)
    except RuleError as error:
        raise DomainError.from_rule(error) from error
    marks: dict[str, int] = {}
    for number in seated:
        if number == taker:
            marks[str(number)] = score.marks.taker
        elif number == partner and score.marks.partner is not None:
            marks[str(number)] = score.marks.partner
        else:
            marks[str(number)] = score.marks.defender
    assert sum(marks.values()) == 0
    return {
        "passed": False,
        "taker": taker,
        "partner": partner,
        "contract": outcome.contract.value,
        "outcome": outcome_to_dict(outcome),
        "value": score.value,
        "marks": marks,
    }


def _snapshot(result: FreeDealResult) -> dict[str, Any]:
    return {
        "passed": result.passed,
        "taker": result.taker,
        "partner": result.partner,
        "contract": result.contract,
        "outcome": result.outcome,
        "marks": result.marks,
    }


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


def _write(
    tournament: FreeDealTournament,
    table: FreeDealTable,
    party: int,
    deal: int,
    data: Mapping[str, Any],
    *,
    actor: AbstractBaseUser | None,
    actor_label: str,
    reason: str,
) -> FreeDealResult:
    seated = tournament.table_players(party, table.number)
    fields = score_result(tournament, seated, data)
    result = (
        FreeDealResult.objects.select_for_update()
        .filter(table=table, party=party, deal=deal)
        .first()
    )
    user: Any = actor if actor is not None and actor.is_authenticated else None
    if result is None:
        result = FreeDealResult(
            tournament=tournament,
            table=table,
            party=party,
            deal=deal,
            dealer=default_dealer(seated, deal),
        )
        before = None
        action = FreeDealChange.Action.CREATE
    else:
        before = _snapshot(result)
        action = FreeDealChange.Action.CORRECT
    for name, value in fields.items():
        setattr(result, name, value)
    result.entered_by = user
    result.entered_by_label = actor_label[:120]
    try:
        with transaction.atomic():
            result.save()
    except IntegrityError:
        raise DomainError(
            "result_exists", _("This deal was just entered: reload the page."), field="deal"
        ) from None
    after = _snapshot(result)
    if before != after:
        FreeDealChange.objects.create(
            tournament=tournament,
            result=result,
            action=action,
            actor=user,
            actor_label=actor_label[:120],
            reason=reason,
            before=before,
            after=after,
        )
    return result


def enter_from_table(table: FreeDealTable, deal: int, data: Mapping[str, Any]) -> FreeDealResult:
    """The table phone enters (or corrects) a deal of the open party at its table."""
    with transaction.atomic():
        tournament = _locked(table.tournament)
        party = tournament.open_party
        if party is None:
            raise DomainError(
                "not_running",
                _("The tournament is not running: results cannot be entered."),
            )
        _check_deal(tournament, party, deal)
        label = _("Table %(number)s") % {"number": table.number}
        return _write(
            tournament, table, party, deal, data, actor=None, actor_label=label, reason=""
        )


def director_correct(
    tournament: FreeDealTournament,
    *,
    table_number: int,
    party: int,
    deal: int,
    data: Mapping[str, Any],
    user: AbstractBaseUser,
    reason: str,
) -> FreeDealResult:
    """The director enters or corrects any deal of a party already played, with a reason."""
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(
            "reason_required", _("Give the reason for the correction."), field="reason"
        )
    with transaction.atomic():
        locked = _locked(tournament)
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
        label = str(getattr(user, "get_username", lambda: "")()) or _("Director")
        return _write(
            locked, table, party, deal, data, actor=user, actor_label=label, reason=reason[:1000]
        )


# --------------------------------------------------------------------------- progress
def missing_deals(tournament: FreeDealTournament, party: int) -> list[tuple[int, int]]:
    """(table number, deal) pairs of ``party`` without a result."""
    entered = set(
        FreeDealResult.objects.filter(tournament=tournament, party=party).values_list(
            "table__number", "deal"
        )
    )
    return [
        (table, deal)
        for table in tournament.tables.values_list("number", flat=True)
        for deal in range(1, tournament.deals_per_party + 1)
        if (table, deal) not in entered
    ]


def close_party(tournament: FreeDealTournament, *, confirm: bool = False) -> int:
    """Close the open party: every deal of every table entered, or the director confirms
    (a missing deal then counts 0 for its players). Returns the party closed."""
    with transaction.atomic():
        locked = _locked(tournament)
        party = locked.open_party
        if party is None:
            raise DomainError("no_open_party", _("There is no open party to close."))
        missing = missing_deals(locked, party)
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
    return party


def finish(tournament: FreeDealTournament) -> FreeDealTournament:
    """Finish the tournament once every party is closed: the ranking becomes final."""
    with transaction.atomic():
        locked = _locked(tournament)
        competition_require(locked, Status.RUNNING)
        if locked.closed_parties < locked.parties:
            raise DomainError(
                "parties_open",
                _("Close every party before finishing (%(closed)s of %(parties)s closed).")
                % {"closed": locked.closed_parties, "parties": locked.parties},
            )
        competition_status_change(competition=locked, to=Status.FINISHED)
    return locked


def ruleset_choice(name: str, pousse_multiplier: int | None, flambeuse: bool) -> dict[str, object]:
    """The stored ruleset of an organiser's choice (a name and the traditional options)."""
    data: dict[str, object] = {"name": name}
    if name == RulesetName.TRADITIONAL.value:
        data["pousse_multiplier"] = pousse_multiplier if pousse_multiplier is not None else 2
        data["flambeuse"] = flambeuse
    return clean_ruleset(data)
