"""What every kind of archive shares (``docs/archive-format.md``): the envelope, reading a file
safely, writing one, and the checkers of values.

- The **envelope**: every archive is one JSON object whose first keys are ``schema`` (the
  kind's schema name, ``duplitarot-<kind>-archive``), ``version`` (an integer) and
  ``exported_at``; :func:`check_envelope` checks them and the document's keys.
- **Reading**: :func:`parse_archive` reads at most ``max_bytes``, decodes it as every imported
  file is (:func:`clubs.uploads.decode_bytes`: UTF-8, UTF-16 with or without its mark; a byte
  that cannot be read is named with its line), refuses what is not JSON, NUL characters,
  unreadable numbers (``NaN``, thousands of digits) and nesting deeper than
  :data:`MAX_DEPTH`, before any kind looks at the document.
- **Writing**: :func:`dumps` writes a document with its keys in order, one row per line, so
  archiving a restored competition gives the same text.
- **Checkers** (``as_int``, ``as_text``, ``as_bool``, ``as_choice``, ``as_decimal``,
  ``as_date``, ``as_moment``, ``as_object``, ``as_list``, ``unique``): each returns the value
  checked or raises :class:`ArchiveError` naming the place (``cup.matches[3].winner: ...``).

Nothing here touches the database: a file is checked entirely before a kind writes anything.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import IO, Any

from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.uploads import decode_bytes

#: The largest archive read (the web form has its own, smaller limit).
MAX_BYTES = 256 * 1024 * 1024
#: No archive nests deeper than a poignée inside an outcome inside a history line inside an
#: embedded event of a series (about 14).
MAX_DEPTH = 32

SMALL = 32_767
POSITIVE = 2_147_483_647
BIG = 2**63 - 1
TEXT = 10_000  # reasons, cards: far more than any real one


class ArchiveError(DomainError):
    """A file that is not a restorable archive; nothing was written."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__("archive_invalid", f"{path}: {message}" if path else message)


def refuse(message: str, path: str = "") -> ArchiveError:
    return ArchiveError(message, path)


# ============================================================================== writing


def iso(value: dt.datetime | None) -> str | None:
    return None if value is None else value.astimezone(dt.UTC).isoformat()


def dec(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _compact(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(v, dict | list) for v in value)


def _write(value: Any, indent: int, out: list[str]) -> None:
    """Pretty JSON whose lists of scalars (and rows of hands) stay on one line."""
    pad = " " * indent
    if isinstance(value, dict) and value:
        out.append("{\n")
        for index, (key, item) in enumerate(value.items()):
            out.append(f"{pad} {json.dumps(key, ensure_ascii=False)}: ")
            _write(item, indent + 1, out)
            out.append(",\n" if index < len(value) - 1 else "\n")
        out.append(pad + "}")
    elif isinstance(value, list) and value and not _compact(value):
        rows = all(_compact(item) for item in value)
        out.append("[\n")
        for index, item in enumerate(value):
            out.append(f"{pad} ")
            if rows:
                out.append(json.dumps(item, ensure_ascii=False))
            else:
                _write(item, indent + 1, out)
            out.append(",\n" if index < len(value) - 1 else "\n")
        out.append(pad + "]")
    else:
        out.append(json.dumps(value, ensure_ascii=False))


def dumps(document: Mapping[str, Any]) -> str:
    """The archive as text: keys in the document's order, one row per line, UTF-8 safe."""
    out: list[str] = []
    _write(document, 0, out)
    out.append("\n")
    return "".join(out)


def filename(date: dt.date | None, name: str, default: str) -> str:
    """A file name for an archive: ``<date>-<name>.duplitarot.json`` (ASCII)."""
    stem = "".join(c if c.isascii() and c.isalnum() else "-" for c in name).strip("-")
    while "--" in stem:
        stem = stem.replace("--", "-")
    prefix = f"{date:%Y-%m-%d}-" if date is not None else ""
    return f"{prefix}{stem[:60] or default}.duplitarot.json"


# ============================================================================== reading


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _check_tree(data: Any) -> None:
    """Nesting no deeper than :data:`MAX_DEPTH`, and no text the database cannot store (NUL
    characters, lone surrogates), keys included. Iterative: any depth is walked safely."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise refuse(_("The file holds a number that cannot be read."))
        if isinstance(item, str):
            texts: Iterable[str] = (item,)
        elif isinstance(item, dict):
            texts = item.keys()
        else:
            texts = ()
        for text in texts:
            if "\x00" in text:
                raise refuse(_("The file contains NUL bytes: it is not a text file."))
            if not text.isascii():
                try:
                    text.encode("utf-8")
                except UnicodeEncodeError:
                    raise refuse(_("The file holds text that is not valid Unicode.")) from None
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise refuse(
                    _("The file is nested too deeply (at most %(depth)s levels).")
                    % {"depth": MAX_DEPTH}
                )
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def parse_archive(file: IO[bytes] | bytes | str, *, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON value of an archive file, or :class:`ArchiveError` (too large, not text, NUL
    characters, not JSON, a number too long, nested too deeply)."""
    raw: bytes | str = file if isinstance(file, bytes | str) else file.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise refuse(
            _("The file is larger than %(size)s MB.") % {"size": max_bytes // (1024 * 1024)}
        )
    try:
        text = decode_bytes(raw) if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
    except DomainError as error:
        raise refuse(error.message) from None
    if "\x00" in text:
        raise refuse(_("The file contains NUL bytes: it is not a text file."))
    if not text.strip():
        raise refuse(_("The file is empty."))
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise refuse(
            _("The file is not valid JSON (line %(line)s, column %(column)s).")
            % {"line": exc.lineno, "column": exc.colno}
        ) from None
    except RecursionError:
        raise refuse(_("The file is nested too deeply.")) from None
    except ValueError:  # NaN / Infinity, or an integer of thousands of digits
        raise refuse(_("The file holds a number that cannot be read.")) from None
    _check_tree(data)
    return data


def schema_of(document: Any) -> str | None:
    """The document's schema name (None when it has none)."""
    if isinstance(document, dict) and isinstance(document.get("schema"), str):
        return str(document["schema"])[:80]
    return None


def check_envelope(
    document: Any,
    *,
    schema: str,
    version: int,
    keys: Sequence[str],
    not_this_kind: str,
    path: str = "",
) -> dict[str, Any]:
    """The document as an object of ``keys`` whose schema, version and ``exported_at`` are
    this kind's (``not_this_kind``: the message when the schema is another)."""
    if schema_of(document) != schema:
        raise refuse(not_this_kind, path)
    found = document.get("version")
    if found != version:
        raise refuse(
            _("This archive has version %(version)s; this server reads version %(supported)s.")
            % {"version": json.dumps(found)[:20], "supported": version},
            path,
        )
    top = as_object(document, path, ("schema", "version", "exported_at", *keys))
    as_moment(top["exported_at"], f"{path}.exported_at" if path else "exported_at")
    return top


# --------------------------------------------------------------------------- values


def as_object(value: Any, path: str, keys: Sequence[str]) -> dict[str, Any]:
    """``value`` as an object holding exactly ``keys``."""
    if not isinstance(value, dict):
        raise refuse(_("an object is expected"), path)
    for key in value:
        if key not in keys:
            raise refuse(_("unknown key"), f"{path}.{key}" if path else str(key))
    for key in keys:
        if key not in value:
            raise refuse(_("this key is missing"), f"{path}.{key}" if path else key)
    return value


def as_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise refuse(_("a list is expected"), path)
    return value


def as_int(value: Any, path: str, low: int, high: int, *, null: bool = False) -> Any:
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refuse(
            _("a whole number from %(min)s to %(max)s is expected") % {"min": low, "max": high},
            path,
        )
    return value


def as_text(value: Any, path: str, max_length: int | None = None, *, null: bool = False) -> Any:
    if value is None and null:
        return None
    if not isinstance(value, str) or (max_length is not None and len(value) > max_length):
        raise refuse(
            _("text of at most %(max)s characters is expected") % {"max": max_length or "∞"},
            path,
        )
    return value


def as_name(value: Any, path: str, max_length: int, message: str) -> str:
    """Text that is not blank (``message`` when it is)."""
    text = as_text(value, path, max_length)
    if not text.strip():
        raise refuse(message, path)
    return str(text)


def as_bool(value: Any, path: str, *, null: bool = False) -> Any:
    if value is None and null:
        return None
    if not isinstance(value, bool):
        raise refuse(_("true or false is expected"), path)
    return value


def as_choice(value: Any, path: str, choices: Sequence[str], *, blank: bool = False) -> str:
    allowed = [*choices, *([""] if blank else [])]
    if not isinstance(value, str) or value not in allowed:
        raise refuse(
            _("one of %(choices)s is expected")
            % {"choices": ", ".join(json.dumps(c) for c in allowed)},
            path,
        )
    return value


def as_decimal(value: Any, path: str, digits: int, *, null: bool = False) -> Decimal | None:
    """A decimal given as text with at most 2 places and ``digits`` digits in all."""
    if value is None and null:
        return None
    number: Decimal | None = None
    if isinstance(value, str) and len(value) <= 20:
        try:
            number = Decimal(value)
        except InvalidOperation:
            number = None
    limit = Decimal(10) ** (digits - 2)
    if (
        number is None
        or not number.is_finite()
        or abs(number) >= limit
        or (number != number.quantize(Decimal("0.01")))
    ):
        raise refuse(
            _("a decimal number in text, with at most 2 decimals and below %(limit)s, is expected")
            % {"limit": limit},
            path,
        )
    return number.quantize(Decimal("0.01"))


def as_date(value: Any, path: str) -> dt.date:
    if isinstance(value, str) and len(value) == 10:
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise refuse(_("a date (YYYY-MM-DD) is expected"), path)


def as_moment(value: Any, path: str, *, null: bool = False) -> dt.datetime | None:
    if value is None and null:
        return None
    moment: dt.datetime | None = None
    if isinstance(value, str) and len(value) <= 40:
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            moment = None
    if moment is None or moment.tzinfo is None:
        raise refuse(_("a date and time with its time zone (ISO 8601) is expected"), path)
    return moment


def unique(values: Iterable[Any], path: str) -> None:
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            raise refuse(_("%(value)s appears twice") % {"value": json.dumps(value)}, path)
        seen.add(value)


def appears_twice(value: Any, path: str) -> ArchiveError:
    return refuse(_("%(value)s appears twice") % {"value": value}, path)
