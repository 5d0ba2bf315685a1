"""Archive and restore a free-deal tournament (``duplitarot-free-deal-archive``,
``docs/archive-format.md``).

The archive holds the tournament's settings (the ruleset as stored, parties, deals per party,
seating seed and seating, tie-break, parties closed, status), its players by number (each by
natural reference), its tables (number, size, code), every result with its whole history,
and the ranking the server showed.

A restore (:func:`archives.kinds.restore_document`) checks
everything first (the seating against the players and the
tables, every result re-scored by the rules for the players of its table, every history line
naming a result), then in one transaction creates the tournament in the club given and
verifies that the ranking recomputed from the restored results equals the archived one.
Table codes are renewed unless asked to keep them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archives.format import (
    POSITIVE,
    SMALL,
    TEXT,
    appears_twice,
    as_bool,
    as_choice,
    as_date,
    as_int,
    as_list,
    as_moment,
    as_name,
    as_object,
    as_text,
    check_envelope,
    filename,
    iso,
    refuse,
)
from archives.players import PlayerMatcher, check_player, player_ref
from clubs.errors import DomainError
from clubs.models import Club, EnteredVia
from clubs.phone_codes import new_phone_code
from freedeal import selectors
from freedeal.models import (
    MAX_DEALS_PER_PARTY,
    MAX_PARTIES,
    FreeDealChange,
    FreeDealPlayer,
    FreeDealResult,
    FreeDealTable,
    FreeDealTournament,
)
from freedeal.outcomes import clean_ruleset, outcome_score, ruleset_of

SCHEMA = "duplitarot-free-deal-archive"
VERSION = 1

TOURNAMENT_KEYS = (
    "name", "club", "date", "status", "public", "ruleset", "parties", "deals_per_party",
    "seed", "tie_break", "seating", "closed_parties",
)  # fmt: skip
RESULT_KEYS = (
    "party", "table", "deal", "dealer", "passed", "taker", "partner", "contract", "outcome",
    "value", "marks", "entered_by", "created_at", "updated_at",
)  # fmt: skip
SCORED = ("passed", "taker", "partner", "contract", "outcome", "value", "marks")
HISTORY_KEYS = ("party", "table", "deal", "action", "by", "at", "reason", "before", "after")


# =============================================================================== export


def _ranking(tournament: FreeDealTournament) -> dict[str, Any]:
    ranking = selectors.free_deal_ranking(tournament)
    return {
        "parties": ranking.parties,
        "rows": [
            {
                "place": row.place,
                "number": row.player,
                "total": row.total,
                "best_party": row.best_party,
                "parties": list(row.parties),
                "tied": row.tied,
            }
            for row in ranking.rows
        ],
    }


def archive_free_deal(tournament: FreeDealTournament) -> dict[str, Any]:
    """The archive document of ``tournament``."""
    with transaction.atomic():
        t = FreeDealTournament.objects.select_related("club").get(pk=tournament.pk)
        players = t.players.select_related("player__club").order_by("number")
        tables = t.tables.order_by("number")
        results = FreeDealResult.objects.filter(tournament=t).select_related("table", "entered_by")
        history = (
            FreeDealChange.objects.filter(tournament=t)
            .select_related("result__table", "actor")
            .order_by("at", "pk")
        )
        return {
            "schema": SCHEMA,
            "version": VERSION,
            "exported_at": iso(timezone.now()),
            "tournament": {
                "name": t.name,
                "club": {"name": t.club.name, "city": t.club.city},
                "date": t.date.isoformat(),
                "status": t.status,
                "public": t.public,
                "ruleset": t.ruleset,
                "parties": t.parties,
                "deals_per_party": t.deals_per_party,
                "seed": t.seed,
                "tie_break": t.tie_break,
                "seating": t.seating,
                "closed_parties": t.closed_parties,
            },
            "players": [
                {"number": entry.number, "player": player_ref(entry.player, t.club_id)}
                for entry in players
            ],
            "tables": [
                {"number": table.number, "size": table.size, "code": table.code} for table in tables
            ],
            "results": [
                {
                    "party": result.party,
                    "table": result.table.number,
                    "deal": result.deal,
                    "dealer": result.dealer,
                    "passed": result.passed,
                    "taker": result.taker,
                    "partner": result.partner,
                    "contract": result.contract,
                    "outcome": result.outcome,
                    "value": result.value,
                    "marks": result.marks,
                    "entered_by": result.entered_by_label
                    or ("" if result.entered_by is None else result.entered_by.get_username()),
                    "created_at": iso(result.created_at),
                    "updated_at": iso(result.updated_at),
                }
                for result in sorted(results, key=lambda r: (r.party, r.table.number, r.deal))
            ],
            "history": [
                {
                    "party": change.result.party,
                    "table": change.result.table.number,
                    "deal": change.result.deal,
                    "action": change.action,
                    "by": change.actor_label
                    or ("" if change.actor is None else change.actor.get_username()),
                    "at": iso(change.at),
                    "reason": change.reason,
                    "before": change.before,
                    "after": change.after,
                }
                for change in history
            ],
            "ranking": _ranking(t),
        }


def free_deal_filename(tournament: FreeDealTournament) -> str:
    return filename(tournament.date, tournament.name, "free-deal")


# ============================================================================== checking


@dataclass
class CheckedFreeDeal:
    tournament: dict[str, Any]
    players: dict[int, dict[str, Any]]
    tables: dict[int, dict[str, Any]]
    results: dict[tuple[int, int, int], dict[str, Any]]
    history: list[dict[str, Any]]
    ranking: Any


def _check_seating(value: Any, path: str, checked: CheckedFreeDeal, parties: int) -> None:
    """Null before the start; else per party, per table (by number), the player numbers."""
    if value is None:
        if checked.tables:
            raise refuse(_("tables without a seating"), path)
        return
    seating = as_list(value, path)
    if len(seating) != parties:
        raise refuse(_("one seating per party is expected"), path)
    sizes = [checked.tables[n]["size"] for n in sorted(checked.tables)]
    if sorted(checked.tables) != list(range(1, len(sizes) + 1)):
        raise refuse(_("the tables are not numbered from 1"), "tables")
    for index, party in enumerate(seating):
        where = f"{path}[{index}]"
        tables = as_list(party, where)
        if [len(as_list(t, f"{where}[{n}]")) for n, t in enumerate(tables)] != sizes:
            raise refuse(_("the tables of this party are not the tournament's"), where)
        seated = [as_int(p, where, 1, SMALL) for table in tables for p in table]
        if sorted(seated) != sorted(checked.players):
            raise refuse(_("every player sits once in each party"), where)


def _check_result(raw: Any, path: str, checked: CheckedFreeDeal) -> dict[str, Any]:
    result = as_object(raw, path, RESULT_KEYS)
    values = checked.tournament
    party = as_int(result["party"], f"{path}.party", 1, values["parties"])
    table = as_int(result["table"], f"{path}.table", 1, SMALL)
    if table not in checked.tables or values["seating"] is None:
        raise refuse(_("no table has this number"), f"{path}.table")
    as_int(result["deal"], f"{path}.deal", 1, values["deals_per_party"])
    seated = tuple(values["seating"][party - 1][table - 1])
    if as_int(result["dealer"], f"{path}.dealer", 1, SMALL) not in seated:
        raise refuse(_("the dealer does not sit at this table"), f"{path}.dealer")
    as_bool(result["passed"], f"{path}.passed")
    as_int(result["taker"], f"{path}.taker", 1, SMALL, null=True)
    as_int(result["partner"], f"{path}.partner", 1, SMALL, null=True)
    as_text(result["contract"], f"{path}.contract", 16)
    as_int(result["value"], f"{path}.value", -POSITIVE - 1, POSITIVE)
    as_text(result["entered_by"], f"{path}.entered_by", 120)
    result["created_at"] = as_moment(result["created_at"], f"{path}.created_at")
    result["updated_at"] = as_moment(result["updated_at"], f"{path}.updated_at")
    if result["passed"]:
        data: dict[str, Any] = {"contract": result["contract"]}
    else:
        if not isinstance(result["outcome"], dict) or result["taker"] is None:
            raise refuse(_("a played result needs its outcome"), path)
        data = {**result["outcome"], "taker": result["taker"], "partner": result["partner"]}
    stub = FreeDealTournament(ruleset=values["ruleset"])
    if len(seated) == 5 and result["partner"] is None and ruleset_of(stub).calls_king:
        data["partner"] = result["taker"]  # he called his own King
    try:
        scored = outcome_score(stub, seated, data)
    except DomainError as error:
        raise refuse(error.describe(), path) from None
    if any(result[key] != scored[key] for key in SCORED):
        raise refuse(_("the value or the marks are not those of the outcome"), path)
    return result


def check_free_deal(document: Any, at: str = "") -> CheckedFreeDeal:
    """Check a parsed free-deal archive entirely; nothing is written."""
    top = check_envelope(
        document,
        schema=SCHEMA,
        version=VERSION,
        keys=("tournament", "players", "tables", "results", "history", "ranking"),
        not_this_kind=_("This file is not a duplitarot free-deal tournament archive."),
        path=at,
    )
    values = as_object(top["tournament"], "tournament", TOURNAMENT_KEYS)
    as_name(values["name"], "tournament.name", 200, _("the tournament needs a name"))
    club = as_object(values["club"], "tournament.club", ("name", "city"))
    as_text(club["name"], "tournament.club.name", 120)
    as_text(club["city"], "tournament.club.city", 120)
    values["date"] = as_date(values["date"], "tournament.date")
    as_choice(values["status"], "tournament.status", FreeDealTournament.Status.values)
    as_bool(values["public"], "tournament.public")
    try:
        stored = clean_ruleset(values["ruleset"])
    except DomainError as error:
        raise refuse(error.describe(), "tournament.ruleset") from None
    except (TypeError, ValueError, AttributeError):
        stored = None
    if stored != values["ruleset"]:
        raise refuse(_("this is not a ruleset as this server stores it"), "tournament.ruleset")
    parties = as_int(values["parties"], "tournament.parties", 1, MAX_PARTIES)
    as_int(values["deals_per_party"], "tournament.deals_per_party", 1, MAX_DEALS_PER_PARTY)
    as_int(values["seed"], "tournament.seed", 0, 2**63 - 1)
    as_choice(values["tie_break"], "tournament.tie_break", FreeDealTournament.TieBreak.values)
    as_int(values["closed_parties"], "tournament.closed_parties", 0, parties)
    checked = CheckedFreeDeal(values, {}, {}, {}, [], None)

    licences: set[str] = set()
    for index, raw in enumerate(as_list(top["players"], "players")):
        where = f"players[{index}]"
        entry = as_object(raw, where, ("number", "player"))
        number = as_int(entry["number"], f"{where}.number", 1, SMALL)
        if number in checked.players:
            raise appears_twice(number, f"{where}.number")
        player = check_player(entry["player"], f"{where}.player")
        if player["licence"] is not None:
            if player["licence"] in licences:
                raise appears_twice(player["licence"], f"{where}.player.licence")
            licences.add(player["licence"])
        checked.players[number] = player
    if sorted(checked.players) != list(range(1, len(checked.players) + 1)):
        raise refuse(_("the players are not numbered from 1 without gaps"), "players")

    for index, raw in enumerate(as_list(top["tables"], "tables")):
        where = f"tables[{index}]"
        table = as_object(raw, where, ("number", "size", "code"))
        number = as_int(table["number"], f"{where}.number", 1, SMALL)
        if number in checked.tables:
            raise appears_twice(number, f"{where}.number")
        as_int(table["size"], f"{where}.size", 3, 5)
        as_name(table["code"], f"{where}.code", 32, _("a table code is expected"))
        checked.tables[number] = table
    _check_seating(values["seating"], "tournament.seating", checked, parties)

    for index, raw in enumerate(as_list(top["results"], "results")):
        where = f"results[{index}]"
        result = _check_result(raw, where, checked)
        key = (result["party"], result["table"], result["deal"])
        if key in checked.results:
            raise refuse(_("a second result for this deal and table"), where)
        checked.results[key] = result

    for index, raw in enumerate(as_list(top["history"], "history")):
        where = f"history[{index}]"
        change = as_object(raw, where, HISTORY_KEYS)
        key = (as_int(change["party"], f"{where}.party", 1, SMALL),
               as_int(change["table"], f"{where}.table", 1, SMALL),
               as_int(change["deal"], f"{where}.deal", 1, SMALL))  # fmt: skip
        if key not in checked.results:
            raise refuse(_("no result for this deal and table"), where)
        as_choice(change["action"], f"{where}.action", FreeDealChange.Action.values)
        as_text(change["by"], f"{where}.by", 120)
        change["at"] = as_moment(change["at"], f"{where}.at")
        as_text(change["reason"], f"{where}.reason", TEXT)
        for side in ("before", "after"):
            if change[side] is not None and not isinstance(change[side], dict):
                raise refuse(_("an object or null is expected"), f"{where}.{side}")
        checked.history.append(change)
    checked.ranking = as_object(top["ranking"], "ranking", ("parties", "rows"))
    return checked


# =============================================================================== restore


@dataclass
class FreeDealRestoreReport:
    tournament: FreeDealTournament
    results: int = 0
    tables: int = 0
    players_matched: int = 0
    players_created: int = 0
    codes_kept: bool = False
    verified: bool | None = None
    differences: list[str] = field(default_factory=list)


def restore_checked_free_deal(
    checked: CheckedFreeDeal, *, club: Club, keep_codes: bool = False
) -> FreeDealRestoreReport:
    """Store a checked free-deal archive into ``club`` (inside a transaction) and verify it."""
    if keep_codes:
        codes = [table["code"] for table in checked.tables.values()]
        if FreeDealTable.objects.filter(code__in=codes).exists() or len(set(codes)) != len(codes):
            raise refuse(
                _("These table codes are already used on this server: restore with new codes.")
            )
    values = checked.tournament
    tournament = FreeDealTournament.objects.create(
        club=club, **{key: values[key] for key in TOURNAMENT_KEYS if key != "club"}
    )
    report = FreeDealRestoreReport(tournament=tournament, codes_kept=keep_codes)
    matcher = PlayerMatcher(club)
    matcher.begin(list(checked.players.values()))
    FreeDealPlayer.objects.bulk_create(
        FreeDealPlayer(tournament=tournament, number=number, player=matcher.resolve(data))
        for number, data in sorted(checked.players.items())
    )
    report.players_matched, report.players_created = matcher.matched, matcher.created
    tables = {
        table.number: table
        for table in FreeDealTable.objects.bulk_create(
            FreeDealTable(
                tournament=tournament,
                number=number,
                size=table["size"],
                code=table["code"] if keep_codes else new_phone_code(),
            )
            for number, table in sorted(checked.tables.items())
        )
    }
    report.tables = len(tables)
    ordered = sorted(checked.results.items())
    # The director's entries: a reason on the line that wrote them (a table gives none).
    reasoned = {
        (change["party"], change["table"], change["deal"]): bool(change["reason"])
        for change in checked.history
    }
    rows = FreeDealResult.objects.bulk_create(
        FreeDealResult(
            tournament=tournament,
            table=tables[table],
            party=party,
            deal=deal,
            dealer=result["dealer"],
            entered_by_label=result["entered_by"],
            entered_via=(
                EnteredVia.ORGANISER
                if reasoned.get((party, table, deal), False)
                else EnteredVia.TABLE
            ),
            **{key: result[key] for key in SCORED},
        )
        for (party, table, deal), result in ordered
    )
    for row, (_key, result) in zip(rows, ordered, strict=True):
        row.created_at, row.updated_at = result["created_at"], result["updated_at"]
    FreeDealResult.objects.bulk_update(rows, ["created_at", "updated_at"], batch_size=1000)
    report.results = len(rows)
    by_key = {key: row for row, (key, _result) in zip(rows, ordered, strict=True)}
    changes = FreeDealChange.objects.bulk_create(
        FreeDealChange(
            tournament=tournament,
            result=by_key[(change["party"], change["table"], change["deal"])],
            action=change["action"],
            actor_label=change["by"],
            reason=change["reason"],
            before=change["before"],
            after=change["after"],
        )
        for change in checked.history
    )
    for change_row, change in zip(changes, checked.history, strict=True):
        change_row.at = change["at"]
    FreeDealChange.objects.bulk_update(changes, ["at"], batch_size=1000)
    if _ranking(tournament) != checked.ranking:
        report.differences = ["ranking"]
    report.verified = not report.differences
    return report
