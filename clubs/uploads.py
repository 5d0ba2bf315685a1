"""Reading an uploaded file (a players' or results' CSV, a movement or results JSON, deals text).

Every way a file can be unreadable is one :class:`~clubs.errors.DomainError` with
``field="file"`` and a clear translated message, raised before anything is stored; nothing a
file holds can make the caller fail otherwise (no ``UnicodeDecodeError``, ``csv.Error``,
``RecursionError`` or integer-conversion ``ValueError`` escapes):

- :func:`decode_text`: at most ``max_bytes``; UTF-8 with or without BOM, UTF-16 with its BOM
  (Excel's "Unicode text"), else Windows-1252 / Latin-1 as French spreadsheets save CSV;
  no NUL byte or other control character of a binary file; not empty;
- :func:`check_lines`: at most ``max_lines`` lines of at most ``max_line_chars`` characters;
- :func:`csv_delimiter` and :func:`csv_rows`: ``;``, ``,`` or tab, detected on the header line;
  a row that the csv module cannot read names its line;
- :func:`bounded_json_loads` (no Django, also used by the API's parser) and :func:`load_json`:
  JSON nested at most ``max_depth`` levels, numbers of at most ``max_digits`` digits, no
  ``NaN``/``Infinity``.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import math
import re
from collections.abc import Iterator, Mapping
from typing import IO, Any

from django.utils.translation import gettext as _

from clubs.errors import DomainError

#: Digits a number of an uploaded JSON document may have (a deal number, points, a seed...).
MAX_JSON_DIGITS = 30
#: Control characters that a text file never holds (tab, line breaks and form feeds allowed).
_BINARY = re.compile(r"[\x01-\x08\x0e-\x1f\x7f]")
_INTEGER = re.compile(r"[0-9]{1,18}")


def file_error(code: str, message: str) -> DomainError:
    return DomainError(code, message, field="file")


def _megabytes(size: int) -> str:
    megabytes = size / (1024 * 1024)
    return f"{megabytes:g}" if megabytes >= 1 else f"{megabytes:.2g}"


def too_large(max_bytes: int) -> DomainError:
    return file_error(
        "file_too_large",
        _("The file is larger than %(size)s MB.") % {"size": _megabytes(max_bytes)},
    )


def read_bytes(file: IO[bytes] | IO[str] | bytes | str, max_bytes: int) -> bytes | str:
    """The content of ``file`` (an uploaded file, bytes or text), at most ``max_bytes``."""
    if isinstance(file, bytes | str):
        raw = file
    else:
        if hasattr(file, "seek"):
            file.seek(0)
        raw = file.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise too_large(max_bytes)
    return raw


def _decode(raw: bytes) -> str:
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise file_error(
                "file_encoding", _("The file starts as UTF-16 text but is not UTF-16 text.")
            ) from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        # The five bytes cp1252 leaves undefined: Latin-1 reads every byte.
        return raw.decode("latin-1")


def decode_text(file: IO[bytes] | IO[str] | bytes | str, *, max_bytes: int) -> str:
    """The text of ``file``; see the module docstring."""
    raw = read_bytes(file, max_bytes)
    text = _decode(raw) if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
    if "\x00" in text:
        raise file_error("file_binary", _("The file contains NUL bytes: it is not a text file."))
    if _BINARY.search(text):
        raise file_error(
            "file_binary", _("The file contains control characters: it is not a text file.")
        )
    if not text.strip():
        raise file_error("file_empty", _("The file is empty."))
    return text


def check_lines(text: str, *, max_lines: int, max_line_chars: int) -> list[str]:
    """The lines of ``text``, refused when there are too many or one is too long."""
    count = text.count("\n") + (0 if text.endswith("\n") else 1)
    if count > max_lines:
        raise file_error(
            "file_too_long",
            _("The file has %(count)s lines; at most %(max)s are imported at once.")
            % {"count": count, "max": max_lines},
        )
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        if len(line) > max_line_chars:
            raise file_error(
                "line_too_long",
                _("Line %(line)s has %(length)s characters; a line has at most %(max)s.")
                % {"line": number, "length": len(line), "max": max_line_chars},
            )
    return lines


def csv_delimiter(header: str) -> str:
    """``;``, ``,`` or tab: the one the header line holds most (``;`` on a tie)."""
    return max((";", ",", "\t"), key=lambda sep: (header.count(sep), sep == ";"))


def csv_rows(text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """(line where the row starts, cells) of every row; an unreadable row is a file error."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    start = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise file_error(
                "csv_unreadable",
                _("Line %(line)s cannot be read as CSV (an unclosed quote?).") % {"line": start},
            ) from exc
        yield start, row
        start = reader.line_num + 1


def small_int(text: str) -> int | None:
    """``text`` as a whole number of at most 18 ASCII digits, else None."""
    text = text.strip()
    return int(text) if _INTEGER.fullmatch(text) else None


# ------------------------------------------------------------------------------ JSON


class JSONLimitError(ValueError):
    """A JSON text beyond the limits: ``kind`` is ``depth``, ``digits`` or ``constant``."""

    def __init__(self, kind: str, limit: int = 0) -> None:
        self.kind = kind
        self.limit = limit
        super().__init__(kind)


def _parse_int(max_digits: int) -> Any:
    def parse(text: str) -> int:
        if len(text.lstrip("-")) > max_digits:
            raise JSONLimitError("digits", max_digits)
        return int(text)

    return parse


def _parse_float(max_digits: int) -> Any:
    def parse(text: str) -> float:
        mantissa = re.split("[eE]", text, maxsplit=1)[0]
        if sum(char.isdigit() for char in mantissa) > max_digits or len(text) > 2 * max_digits:
            raise JSONLimitError("digits", max_digits)
        value = float(text)
        if not math.isfinite(value):
            raise JSONLimitError("digits", max_digits)
        return value

    return parse


def _reject_constant(_name: str) -> Any:
    raise JSONLimitError("constant")


def depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists/objects more than ``limit`` levels (iterative)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def bounded_json_loads(text: str, *, max_depth: int, max_digits: int = MAX_JSON_DIGITS) -> Any:
    """``json.loads`` within limits: raises ``json.JSONDecodeError`` for malformed text and
    :class:`JSONLimitError` past the limits (deeper than ``max_depth``, an integer of more than
    ``max_digits`` digits, a float of more than ``max(max_digits, MAX_JSON_DIGITS)`` or out of
    the float range, ``NaN``/``Infinity``)."""
    try:
        data = json.loads(
            text,
            parse_int=_parse_int(max_digits),
            parse_float=_parse_float(max(max_digits, MAX_JSON_DIGITS)),
            parse_constant=_reject_constant,
        )
    except RecursionError as exc:
        raise JSONLimitError("depth", max_depth) from exc
    if depth_exceeds(data, max_depth):
        raise JSONLimitError("depth", max_depth)
    return data


def load_json(text: str, *, max_depth: int, max_digits: int = MAX_JSON_DIGITS) -> Any:
    """The document of an uploaded JSON file; any refusal is a file error."""
    try:
        return bounded_json_loads(text, max_depth=max_depth, max_digits=max_digits)
    except JSONLimitError as exc:
        if exc.kind == "depth":
            message = _("The file is nested too deeply (at most %(depth)s levels).") % {
                "depth": max_depth
            }
        elif exc.kind == "digits":
            message = _("The file holds a number of more than %(digits)s digits.") % {
                "digits": max_digits
            }
        else:
            message = _("The file holds NaN or Infinity, which are not JSON numbers.")
        raise file_error("file_not_json", message) from exc
    except json.JSONDecodeError as exc:
        raise file_error(
            "file_not_json",
            _("The file is not valid JSON (line %(line)s, column %(column)s).")
            % {"line": exc.lineno, "column": exc.colno},
        ) from exc
    except ValueError as exc:  # e.g. an integer past Python's digit limit
        raise file_error("file_not_json", _("The file is not a JSON document.")) from exc
