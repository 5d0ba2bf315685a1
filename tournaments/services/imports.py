"""A section's results imported from a file: all lines stored, or none.

Two file forms (documented in ``docs/results-import-format.md``):

- **JSON**: the ``score_event`` format (``docs/score-event-format.md``); its tables are the
  section's table numbers, its ``deals`` must name the section's étuis (same taker seats), its
  ``results`` give an ``outcome`` (played) or ``artificial`` percentages, ``seats`` naming the
  players with ids of the file's own: they must seat the players as the section's movement does
  (one file id is one entrant throughout). ``penalties`` are not imported (the director records
  them); ``teams``, ``matches``, ``options`` and ``title`` are read over.
- **CSV**: one line per (table, deal) with the outcome (contract, oudlers, points, petit au
  bout, poignées, chelem, director flag), a header row naming the columns in French or English
  (the messages name them in the interface's language, :data:`CSV_LABELS`),
  separated by ``;`` (the French spreadsheet default), ``,`` or a tab.

Invariants:

- every line is checked like a table entry: the deal is scheduled at that table in the
  section's movement and the table does not sit out that round (``results._scheduled_play``),
  the outcome is legal for the étui (``clubs.outcomes.outcome_score``), a (deal, table)
  appears once; a line for a (deal, table) already stored is an error unless it is identical
  (then it is left as it is and counted ``unchanged``);
- the report names every error with its line number (the line where the entry starts) and a
  translated message; when any line has an error **nothing** is stored; otherwise every row is
  stored in one transaction (director-entered: ``entered_via="import"``, confirmed, entered by
  the actor, one history line each as ``clubs.history`` writes it, in bulk) and the scoring
  version is bumped once
  (``results._commit_version``) for the whole file;
- a file that cannot be read (see :mod:`clubs.uploads`: binary, empty, a spreadsheet
  workbook, larger than :data:`MAX_BYTES`; a byte that is neither UTF-8, UTF-16 nor
  Windows-1252 as its encoding rules read it; more than :data:`MAX_LINES`
  lines or :data:`MAX_RESULTS` results; a CSV line longer than :data:`MAX_CSV_LINE_CHARS`,
  wrong columns; not JSON, JSON nested deeper than :data:`MAX_JSON_DEPTH` or with a number of
  thousands of digits) raises :class:`~tournaments.errors.DomainError` (``field="file"``)
  with one clear message.

Results are imported into a running or finished section (or a plain event), never into a
simultaneous (its sections hold the results) nor into a draft.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import IO, Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.errors import DomainError
from clubs.history import Author, EnteredVia, entered_by_set, history_line
from clubs.outcomes import outcome_score
from clubs.uploads import (
    check_lines,
    csv_delimiter,
    decode_text,
    load_json,
    small_int,
)
from rules.errors import RuleError
from rules.numbers import as_decimal, percentage_hundredths
from tournaments.models import (
    SEATS,
    Deal,
    Entrant,
    Event,
    ResultChange,
    Table,
    TableResult,
)
from tournaments.movements import TablePlay
from tournaments.services.common import is_simultaneous
from tournaments.services.registration import ImportLineError
from tournaments.services.results import (
    _commit_version,
    _scheduled_play,
    _seat_fields,
    result_state,
)

MAX_LINES = 20_000
MAX_RESULTS = 20_000
MAX_BYTES = 8 * 1024 * 1024
MAX_CSV_LINE_CHARS = 1_000
#: A score_event document nests 6 levels (results, a result, its outcome, poignées, one).
MAX_JSON_DEPTH = 16
ENTERED_VIA = EnteredVia.IMPORT

User = Any


# ------------------------------------------------------------------------------ report


@dataclass
class ResultsImportReport:
    """The outcome of an import: stored rows, or every line in error (then nothing stored)."""

    kind: str  # "json" or "csv"
    lines: int = 0  # result lines read
    stored: list[TableResult] = field(default_factory=list)
    unchanged: int = 0  # lines identical to a result already stored
    errors: list[ImportLineError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class _Line:
    """One result line of the file, read but not yet checked against the section."""

    line: int
    where: str  # how the message names the entry ("results[3]" in JSON, "" in CSV)
    deal: int
    table: int
    outcome: dict[str, Any] | None = None
    artificial: dict[str, Decimal] | None = None
    director: bool = False
    seats: dict[str, str] | None = None  # JSON: the file's id at each seat


class _LineError(Exception):
    """A line-level refusal: its translated message."""


def _file_error(code: str, message: str) -> DomainError:
    return DomainError(code, message, field="file")


# ------------------------------------------------------------------------------ reading


def _read_text(file: IO[bytes] | IO[str] | bytes | str) -> str:
    text = decode_text(file, max_bytes=MAX_BYTES)
    count = text.count("\n") + (0 if text.endswith("\n") else 1)
    if count > MAX_LINES:
        raise _file_error(
            "file_too_long",
            _("The file has %(count)s lines; at most %(max)s are imported at once.")
            % {"count": count, "max": MAX_LINES},
        )
    return text


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


_WHITESPACE = " \t\n\r"


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _array_lines(text: str, keys: Sequence[str]) -> dict[str, list[int]]:
    """The line where each element of the top-level arrays ``keys`` starts.

    The text is known to decode; this walks the top-level object with ``raw_decode``.
    """
    decoder = json.JSONDecoder()
    found: dict[str, list[int]] = {key: [] for key in keys}
    index = _skip(text, 0) + 1  # after "{"
    while True:
        index = _skip(text, index)
        if index >= len(text) or text[index] == "}":
            return found
        if text[index] == ",":
            index += 1
            continue
        key, index = decoder.raw_decode(text, index)
        index = _skip(text, index) + 1  # after ":"
        index = _skip(text, index)
        if key in found and text.startswith("[", index):
            positions: list[int] = []
            index += 1
            while True:
                index = _skip(text, index)
                if text[index] == "]":
                    index += 1
                    break
                if text[index] == ",":
                    index += 1
                    continue
                positions.append(index)
                _value, index = decoder.raw_decode(text, index)
            found[key] = [_line_of(text, position) for position in positions]
        else:
            _value, index = decoder.raw_decode(text, index)


def _positive_int(value: object, name: str) -> int:
    if isinstance(value, str) and small_int(value) is not None:
        value = small_int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _LineError(
            _("%(field)s: %(value)s is not a positive whole number")
            % {"field": name, "value": json.dumps(value, ensure_ascii=False)}
        )
    return value


def _rule_message(error: RuleError, prefix: str = "") -> str:
    message = DomainError.from_rule(error).describe()
    return f"{prefix}{message}"


def _artificial(raw: object) -> dict[str, Decimal]:
    if not isinstance(raw, Mapping) or set(raw) != set(SEATS):
        raise _LineError(_("artificial: give a percentage for each of N, E, S, W"))
    values: dict[str, Decimal] = {}
    for seat in SEATS:
        try:
            values[seat] = as_decimal(percentage_hundredths(raw[seat], field=f"artificial.{seat}"))
        except RuleError as error:
            raise _LineError(_rule_message(error)) from error
    return values


TOP_LEVEL_KEYS = {"title", "entrants", "deals", "results", "penalties", "teams", "matches",
                  "options"}  # fmt: skip
RESULT_KEYS = {"deal", "table", "seats", "outcome", "artificial", "director"}


class _JsonFile:
    """The ``score_event`` file, read entry by entry (errors collected with their lines)."""

    def __init__(self, text: str, errors: list[ImportLineError]) -> None:
        self.errors = errors
        data = load_json(text, max_depth=MAX_JSON_DEPTH)
        if not isinstance(data, dict):
            raise _file_error(
                "file_not_event", _("The file is not a score_event document (a JSON object).")
            )
        unknown = sorted(set(data) - TOP_LEVEL_KEYS)
        if unknown:
            raise _file_error(
                "file_unknown_key",
                _("The file has an unknown key %(key)s (keys of the score_event format: %(keys)s).")
                % {"key": json.dumps(unknown[0]), "keys": ", ".join(sorted(TOP_LEVEL_KEYS))},
            )
        for key in ("deals", "results"):
            if not isinstance(data.get(key), list):
                raise _file_error(
                    "file_missing_key",
                    _("The file has no %(key)s list (required by the score_event format).")
                    % {"key": key},
                )
        for key in ("entrants", "penalties"):
            if key in data and not isinstance(data[key], list):
                raise _file_error("file_not_list", _("%(key)s must be a list.") % {"key": key})
        if len(data["results"]) > MAX_RESULTS:
            raise _file_error(
                "file_too_long",
                _("The file has %(count)s results; at most %(max)s are imported at once.")
                % {"count": len(data["results"]), "max": MAX_RESULTS},
            )
        self.data = data
        self.lines = _array_lines(text, ("deals", "results", "penalties", "entrants"))
        self.listed_deals: set[int] = set()

    def _error(self, line: int, where: str, message: str) -> None:
        self.errors.append(ImportLineError(line, f"{where}: {message}"))

    def entrant_ids(self) -> set[str] | None:
        if "entrants" not in self.data:
            return None
        known: set[str] = set()
        for index, raw in enumerate(self.data["entrants"]):
            ident = raw.get("id") if isinstance(raw, dict) else None
            if isinstance(ident, bool) or not isinstance(ident, str | int) or not str(ident):
                self._error(
                    self.lines["entrants"][index],
                    f"entrants[{index}]",
                    _("id is required (a non-empty string)"),
                )
                continue
            known.add(str(ident))
        return known

    def deal_takers(self) -> list[tuple[int, str, int, object]]:
        """(line, where, number, taker_seat) of every well-formed deal."""
        takers = []
        for index, raw in enumerate(self.data["deals"]):
            line, where = self.lines["deals"][index], f"deals[{index}]"
            if not isinstance(raw, dict):
                self._error(line, where, _("expected an object"))
                continue
            try:
                number = _positive_int(raw.get("number"), "number")
            except _LineError as error:
                self._error(line, where, str(error))
                continue
            self.listed_deals.add(number)
            takers.append((line, where, number, raw.get("taker_seat")))
        return takers

    def penalties(self) -> None:
        for index, _raw in enumerate(self.data.get("penalties", [])):
            self._error(
                self.lines["penalties"][index],
                f"penalties[{index}]",
                _("penalties are not imported: record them on the penalties page"),
            )

    def results(self, known: set[str] | None) -> Iterator[_Line]:
        for index, raw in enumerate(self.data["results"]):
            line, where = self.lines["results"][index], f"results[{index}]"
            try:
                yield self._result(raw, line, where, known)
            except _LineError as error:
                self._error(line, where, str(error))

    def _result(self, raw: object, line: int, where: str, known: set[str] | None) -> _Line:
        if not isinstance(raw, dict):
            raise _LineError(_("expected an object"))
        unknown = sorted(set(raw) - RESULT_KEYS)
        if unknown:
            raise _LineError(_("unknown key %(key)s") % {"key": json.dumps(unknown[0])})
        deal = _positive_int(raw.get("deal"), "deal")
        table = _positive_int(raw.get("table"), "table")
        if deal not in self.listed_deals:
            raise _LineError(_("deal %(deal)s is not listed in deals") % {"deal": deal})
        seats_raw = raw.get("seats")
        if not isinstance(seats_raw, dict) or set(seats_raw) != set(SEATS):
            raise _LineError(_("seats: give the entrant id at each of N, E, S, W"))
        seats: dict[str, str] = {}
        for seat in SEATS:
            ident = seats_raw[seat]
            if isinstance(ident, bool) or not isinstance(ident, str | int) or not str(ident):
                raise _LineError(_("seats.%(seat)s: not an entrant id") % {"seat": seat})
            if known is not None and str(ident) not in known:
                raise _LineError(
                    _("seats.%(seat)s: %(id)s is not listed in entrants")
                    % {"seat": seat, "id": ident}
                )
            seats[seat] = str(ident)
        if len(set(seats.values())) != 4:
            raise _LineError(_("seats: an entrant holds two seats"))
        director = raw.get("director", False)
        if not isinstance(director, bool):
            raise _LineError(_("director must be true or false"))
        if ("outcome" in raw) == ("artificial" in raw):
            raise _LineError(_("give either an outcome or artificial percentages"))
        result = _Line(
            line=line, where=where, deal=deal, table=table, director=director, seats=seats
        )
        if "outcome" in raw:
            if not isinstance(raw["outcome"], dict):
                raise _LineError(_("outcome: expected an object"))
            result.outcome = dict(raw["outcome"])
        else:
            result.artificial = _artificial(raw["artificial"])
        return result


# ------------------------------------------------------------------------------ CSV


def _normal(text: str) -> str:
    """Lower case, no accents, words joined by ``_``: ``Poignée défense`` → ``poignee_defense``."""
    plain = unicodedata.normalize("NFKD", text.strip().lower())
    plain = "".join(char for char in plain if not unicodedata.combining(char))
    words = "".join(char if char.isalnum() else " " for char in plain).split()
    return "_".join(words)


#: Column → accepted header names (compared after :func:`_normal`).
CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "table": ("table", "table_number", "numero_table", "no_table", "n_table"),
    "deal": ("deal", "deal_number", "donne", "numero_donne", "no_donne", "n_donne"),
    "contract": ("contract", "contrat"),
    "oudlers": ("oudlers", "bouts"),
    "points": ("points", "points_attack", "points_attaque", "points_preneur"),
    "petit_au_bout": ("petit_au_bout", "petit"),
    "poignee_attack": ("poignee_attack", "poignee_attaque", "poignee_preneur", "attack_poignee"),
    "poignees_defence": (
        "poignees_defence", "poignee_defence", "poignees_defense", "poignee_defense",
        "defence_poignees", "defence_poignee",
    ),
    "chelem_announced": ("chelem_announced", "chelem_annonce"),
    "chelem_made_by": ("chelem_made_by", "chelem_realise", "chelem_realise_par", "chelem"),
    "director": ("director", "arbitre"),
}  # fmt: skip
CSV_REQUIRED = ("table", "deal", "contract", "oudlers", "points")
#: How the messages name the columns, in the active language (each a header name accepted).
CSV_LABELS = {
    "table": gettext_lazy("Table"),
    "deal": gettext_lazy("Deal"),
    "contract": gettext_lazy("Contract"),
    "oudlers": gettext_lazy("Oudlers"),
    "points": gettext_lazy("Points"),
    "petit_au_bout": gettext_lazy("Petit au bout"),
    "poignee_attack": gettext_lazy("Attack poignée"),
    "poignees_defence": gettext_lazy("Defence poignées"),
    "chelem_announced": gettext_lazy("Chelem announced"),
    "chelem_made_by": gettext_lazy("Chelem made by"),
    "director": gettext_lazy("Director"),
}


def _labels(columns: Sequence[str]) -> str:
    return ", ".join(str(CSV_LABELS[column]) for column in columns)


_CONTRACTS = {
    "g": "garde", "garde": "garde",
    "gs": "garde_sans", "garde_sans": "garde_sans",
    "gc": "garde_contre", "garde_contre": "garde_contre",
    "p": "prise", "prise": "prise", "petite": "prise",
}  # fmt: skip
_SIDES = {
    "attack": "attack", "attaque": "attack", "a": "attack", "att": "attack",
    "preneur": "attack", "taker": "attack",
    "defence": "defence", "defense": "defence", "d": "defence", "def": "defence",
}  # fmt: skip
_NONE = {"", "0", "non", "no", "n", "none", "aucun", "aucune", "sans", "false", "faux"}
_YES = {"1", "oui", "o", "yes", "y", "true", "vrai", "x"}
_SIZES = {
    "simple": "simple", "s": "simple", "1": "simple",
    "double": "double", "d": "double", "2": "double",
    "triple": "triple", "t": "triple", "3": "triple",
}  # fmt: skip


def _csv_header(row: Sequence[str]) -> dict[str, int]:
    aliases = {alias: column for column, names in CSV_COLUMNS.items() for alias in names}
    columns: dict[str, int] = {}
    unknown: list[str] = []
    for index, name in enumerate(row):
        key = _normal(name)
        if not key:
            continue
        column = aliases.get(key)
        if column is None:
            unknown.append(name.strip())
        elif column in columns:
            raise _file_error(
                "csv_header",
                _("Line 1 names the column %(name)s twice.") % {"name": name.strip()},
            )
        else:
            columns[column] = index
    expected = _labels(list(CSV_COLUMNS))
    if unknown:
        raise _file_error(
            "csv_header",
            _("Line 1 names unknown columns: %(unknown)s (columns: %(columns)s).")
            % {"unknown": ", ".join(unknown), "columns": expected},
        )
    missing = [column for column in CSV_REQUIRED if column not in columns]
    if missing:
        raise _file_error(
            "csv_header",
            _(
                "Line 1 must be a header naming the columns %(required)s (missing: "
                "%(missing)s; optional: %(optional)s)."
            )
            % {
                "required": _labels(CSV_REQUIRED),
                "missing": _labels(missing),
                "optional": _labels([c for c in CSV_COLUMNS if c not in CSV_REQUIRED]),
            },
        )
    return columns


def _choice(value: str, choices: Mapping[str, str], name: str) -> str | None:
    key = _normal(value)
    if key in _NONE and key not in choices:
        return None
    if key in choices:
        return choices[key]
    raise _LineError(
        _("%(field)s: %(value)s is not understood")
        % {"field": CSV_LABELS[name], "value": value.strip()}
    )


def _yes(value: str, name: str) -> bool:
    key = _normal(value)
    if key in _YES:
        return True
    if key in _NONE:
        return False
    raise _LineError(
        _("%(field)s: %(value)s is not yes or no")
        % {"field": CSV_LABELS[name], "value": value.strip()}
    )


def _csv_outcome(values: Mapping[str, str]) -> dict[str, Any]:
    contract = _normal(values["contract"])
    outcome: dict[str, Any] = {
        "contract": _CONTRACTS.get(contract, contract),
        "oudlers": values["oudlers"].strip(),
        "points": values["points"].strip().replace(",", "."),
        "petit_au_bout": _choice(values.get("petit_au_bout", ""), _SIDES, "petit_au_bout"),
    }
    oudlers = small_int(outcome["oudlers"])
    if oudlers is not None:
        outcome["oudlers"] = oudlers
    poignees = []
    attack = _choice(values.get("poignee_attack", ""), _SIZES, "poignee_attack")
    if attack is not None:
        poignees.append({"side": "attack", "size": attack})
    defence = values.get("poignees_defence", "")
    for token in defence.replace("+", " ").replace("/", " ").split():
        size = _choice(token, _SIZES, "poignees_defence")
        if size is not None:
            poignees.append({"side": "defence", "size": size})
    outcome["poignees"] = poignees
    outcome["chelem"] = {
        "announced": _yes(values.get("chelem_announced", ""), "chelem_announced"),
        "made_by": _choice(values.get("chelem_made_by", ""), _SIDES, "chelem_made_by"),
    }
    return outcome


def _csv_lines(text: str, errors: list[ImportLineError]) -> list[_Line]:
    check_lines(text, max_lines=MAX_LINES, max_line_chars=MAX_CSV_LINE_CHARS)
    first = text.split("\n", 1)[0]
    delimiter = csv_delimiter(first)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    try:
        header = next(reader)
    except (StopIteration, csv.Error) as exc:
        raise _file_error("csv_header", _("Line 1 must be the header row.")) from exc
    columns = _csv_header(header)
    lines: list[_Line] = []
    start = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise _file_error(
                "csv_unreadable",
                _("Line %(line)s cannot be read as CSV (an unclosed quote?).") % {"line": start},
            ) from exc
        line, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        try:
            if any(cell.strip() for cell in row[len(header) :]):
                raise _LineError(
                    _("this line has %(cells)s cells but the header names %(columns)s columns")
                    % {"cells": len(row), "columns": len(header)}
                )
            values = {key: (row[i] if i < len(row) else "") for key, i in columns.items()}
            lines.append(
                _Line(
                    line=line,
                    where="",
                    deal=_positive_int(values["deal"].strip(), str(CSV_LABELS["deal"])),
                    table=_positive_int(values["table"].strip(), str(CSV_LABELS["table"])),
                    outcome=_csv_outcome(values),
                    director=_yes(values.get("director", ""), "director"),
                )
            )
        except _LineError as error:
            errors.append(ImportLineError(line, str(error)))
    return lines


# ------------------------------------------------------------------------------ checking


_COMPARED = (
    "kind", "taker_seat", "contract", "oudlers", "points_half", "petit_au_bout",
    "chelem_announced", "chelem_made_by",
    "artificial_n", "artificial_e", "artificial_s", "artificial_w",
)  # fmt: skip


def _same(stored: TableResult, fresh: TableResult) -> bool:
    def poignees(result: TableResult) -> list[tuple[str, str]]:
        return sorted((p["side"], p["size"]) for p in result.poignees or [])

    return all(getattr(stored, name) == getattr(fresh, name) for name in _COMPARED) and (
        poignees(stored) == poignees(fresh)
    )


class _Checker:
    """Checks lines against the section, building the rows to store."""

    def __init__(self, event: Event, errors: list[ImportLineError]) -> None:
        self.event = event
        self.errors = errors
        self.deals = {deal.number: deal for deal in Deal.objects.filter(event=event)}
        self.tables = {table.number: table for table in Table.objects.filter(event=event)}
        self.stored = {
            (result.deal_id, result.table_id): result
            for result in TableResult.objects.filter(event=event)
        }
        self.plays: dict[tuple[int, int], tuple[TablePlay, dict[str, Entrant]] | str] = {}
        self.seen: dict[tuple[int, int], int] = {}
        self.id_to_entrant: dict[str, tuple[int, int]] = {}  # file id -> (entrant pk, line)
        self.entrant_to_id: dict[int, tuple[str, int]] = {}
        self.rows: list[tuple[_Line, TableResult]] = []
        self.unchanged = 0

    def fail(self, line: _Line, message: str) -> None:
        where = f"{line.where}, " if line.where else ""
        prefix = _("%(where)sdeal %(deal)s, table %(table)s") % {
            "where": where,
            "deal": line.deal,
            "table": line.table,
        }
        self.errors.append(ImportLineError(line.line, f"{prefix}: {message}"))

    def taker(self, line: int, where: str, number: int, seat: object) -> None:
        deal = self.deals.get(number)
        if deal is None:
            message = _("deal %(deal)s is not a deal of this event") % {"deal": number}
        elif seat != deal.taker_seat:
            message = _("the étui of deal %(deal)s names %(seat)s as taker seat, not %(given)s") % {
                "deal": number,
                "seat": deal.taker_seat,
                "given": json.dumps(seat),
            }
        else:
            return
        self.errors.append(ImportLineError(line, f"{where}: {message}"))

    def _play(self, table: Table, deal: Deal) -> tuple[TablePlay, dict[str, Entrant]]:
        key = (table.number, deal.deal_set)
        if key not in self.plays:
            try:
                self.plays[key] = _scheduled_play(self.event, table, deal)
            except DomainError as error:
                self.plays[key] = error.message
        found = self.plays[key]
        if isinstance(found, str):
            # The refusal names the first deal of the set it was found for: say it again.
            try:
                _scheduled_play(self.event, table, deal)
            except DomainError as error:
                raise _LineError(error.message) from error
            raise AssertionError("a deal set's play changed")
        return found

    def _seats(self, line: _Line, seated: Mapping[str, Entrant]) -> None:
        """The file's ids must seat the players as the movement does."""
        if line.seats is None:
            return
        for seat in SEATS:
            ident, entrant = line.seats[seat], seated[seat]
            known = self.id_to_entrant.get(ident)
            if known is not None and known[0] != entrant.pk:
                raise _LineError(
                    _(
                        "seats.%(seat)s: the movement seats %(entrant)s here, but %(id)s "
                        "named another player on line %(line)s"
                    )
                    % {"seat": seat, "entrant": entrant, "id": ident, "line": known[1]}
                )
            other = self.entrant_to_id.get(entrant.pk)
            if other is not None and other[0] != ident:
                raise _LineError(
                    _(
                        "seats.%(seat)s: the movement seats %(entrant)s here, whom line "
                        "%(line)s names %(other)s, not %(id)s"
                    )
                    % {
                        "seat": seat,
                        "entrant": entrant,
                        "line": other[1],
                        "other": other[0],
                        "id": ident,
                    }
                )
        for seat in SEATS:
            self.id_to_entrant.setdefault(line.seats[seat], (seated[seat].pk, line.line))
            self.entrant_to_id.setdefault(seated[seat].pk, (line.seats[seat], line.line))

    def check(self, line: _Line) -> None:
        try:
            self._check(line)
        except _LineError as error:
            self.fail(line, str(error))

    def _check(self, line: _Line) -> None:
        deal = self.deals.get(line.deal)
        if deal is None:
            raise _LineError(_("deal %(deal)s is not a deal of this event") % {"deal": line.deal})
        table = self.tables.get(line.table)
        if table is None:
            raise _LineError(
                _("table %(table)s is not a table of this event") % {"table": line.table}
            )
        key = (deal.pk, table.pk)
        if key in self.seen:
            raise _LineError(
                _("this deal and table are already on line %(line)s") % {"line": self.seen[key]}
            )
        self.seen[key] = line.line
        play, seated = self._play(table, deal)
        self._seats(line, seated)
        row = TableResult(
            event=self.event,
            deal=deal,
            table=table,
            round_number=play.round,
            director_assigned=line.director,
            confirmed=True,
            entered_via=ENTERED_VIA,
            **_seat_fields(seated),
        )
        if line.outcome is not None:
            try:
                scored = outcome_score(deal=deal, outcome=line.outcome)
            except DomainError as error:
                raise _LineError(error.describe()) from error
            row.kind = TableResult.Kind.PLAYED
            for name, value in scored.fields.items():
                setattr(row, name, value)
        else:
            assert line.artificial is not None
            row.kind = TableResult.Kind.ARTIFICIAL
            row.director_assigned = True
            row.artificial_n, row.artificial_e = line.artificial["N"], line.artificial["E"]
            row.artificial_s, row.artificial_w = line.artificial["S"], line.artificial["W"]
        stored = self.stored.get(key)
        if stored is not None:
            if _same(stored, row):
                self.unchanged += 1
                return
            raise _LineError(_("a different result is already stored for this deal and table"))
        self.rows.append((line, row))


# ------------------------------------------------------------------------------ service


def _require_importable(event: Event) -> None:
    if event.simultaneous_id is None and is_simultaneous(event):
        raise DomainError(
            "simultaneous_results",
            _("Results are entered on the sections of a simultaneous, not on the simultaneous."),
        )
    if event.status == Event.Status.DRAFT:
        raise DomainError(
            "event_not_started", _("the event has not started: no result can be recorded yet")
        )


def _store(event: Event, rows: list[tuple[_Line, TableResult]], actor: User) -> list[TableResult]:
    author = Author(user=actor, label=_("import"), via=EnteredVia.IMPORT)
    for _entry, row in rows:
        entered_by_set(row, author)
    with transaction.atomic():
        try:
            with transaction.atomic():
                results = TableResult.objects.bulk_create(
                    [row for _entry, row in rows], batch_size=1000
                )
        except IntegrityError as exc:
            raise DomainError(
                "result_exists",
                _(
                    "Results of this event were entered while the file was read: nothing was "
                    "imported; import the file again."
                ),
            ) from exc
        # The history lines ``clubs.history`` writes, one per row, written in bulk (one
        # INSERT per row took half the time of a 20,000-line import).
        ResultChange.objects.bulk_create(
            [
                history_line(
                    ResultChange,
                    result=result,
                    action=(
                        ResultChange.Action.ARTIFICIAL
                        if result.kind == TableResult.Kind.ARTIFICIAL
                        else ResultChange.Action.CREATE
                    ),
                    author=author,
                    reason=_("Imported from a file (line %(line)s).") % {"line": line.line},
                    after=result_state(result),
                    event_id=result.event_id,
                )
                for (line, _row), result in zip(rows, results, strict=True)
            ],
            batch_size=1000,
        )
        _commit_version(event, running_only=False, results=results)
    return results


def section_results_import(
    *, section: Event, file: IO[bytes] | IO[str] | bytes | str, actor: User
) -> ResultsImportReport:
    """Import a section's results from a JSON (``score_event``) or CSV file; see the module
    docstring. Returns the report; raises :class:`DomainError` for an unreadable file."""
    event = Event.objects.get(pk=section.pk)
    _require_importable(event)
    text = _read_text(file)
    errors: list[ImportLineError] = []
    checker = _Checker(event, errors)
    if text.lstrip().startswith(("{", "[")):
        report = ResultsImportReport(kind="json")
        document = _JsonFile(text, errors)
        known = document.entrant_ids()
        for at, where, number, seat in document.deal_takers():
            checker.taker(at, where, number, seat)
        document.penalties()
        lines: Sequence[_Line] | Iterator[_Line] = document.results(known)
    else:
        report = ResultsImportReport(kind="csv")
        lines = _csv_lines(text, errors)
    for entry in lines:
        report.lines += 1
        checker.check(entry)
    if not report.lines and not errors:
        raise _file_error("file_no_results", _("The file holds no results."))
    report.errors = sorted(errors, key=lambda error: error.line)
    if report.errors:
        return report
    report.unchanged = checker.unchanged
    if checker.rows:
        report.stored = _store(event, checker.rows, actor)
    return report
