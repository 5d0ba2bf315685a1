"""Reading an uploaded file (a players' or results' CSV or Excel workbook, a movement or results
JSON, deals text, an archive): the one place where the bytes of an imported file become text.

Every way a file can be unreadable is one :class:`~clubs.errors.DomainError` with
``field="file"`` and a clear translated message, raised before anything is stored; nothing a
file holds can make the caller fail otherwise (no ``UnicodeDecodeError``, ``csv.Error``,
``RecursionError``, workbook error or integer-conversion ``ValueError`` escapes):

- :func:`decode_bytes` (the encodings, below) and :func:`decode_text`: at most ``max_bytes``;
  no NUL byte or other control character of a binary file; not empty; a spreadsheet workbook
  (``.xlsx``, ``.xls``, ``.ods``) is refused with "save it as CSV";
- :func:`check_lines`: at most ``max_lines`` lines of at most ``max_line_chars`` characters;
- :func:`csv_delimiter` and :func:`csv_rows`: ``;``, ``,`` or tab, detected on the header line;
  a row that the csv module cannot read names its line;
- :func:`table_rows`: the rows of a CSV file or of the first sheet of an Excel workbook
  (``.xlsx``), bounded alike (the workbook also by its unpacked size);
- :func:`bounded_json_loads` (no Django, also used by the API's parser) and :func:`load_json`:
  JSON nested at most ``max_depth`` levels, numbers of at most ``max_digits`` digits, no
  ``NaN``/``Infinity``.

**Encodings** (:func:`decode_bytes`). A byte-order mark decides: UTF-8, or UTF-16 (little or
big endian), read strictly. Without one, UTF-16 is recognised by its zero bytes (a French text
has a zero high byte in almost every character; a text file has no NUL character). Otherwise
the file is UTF-8 when it decodes as UTF-8. When it does not:

- if no line holds a UTF-8 sequence, the file is Windows-1252 (what French spreadsheets save);
- else the file is UTF-8 and each line that is not is read alone: as Windows-1252 when it
  holds no UTF-8 sequence either (a line pasted from another file), else refused naming the
  line and the byte (a line mixing both would be stored garbled either way).

A byte that Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) is refused naming its
line. So no text is ever stored as mojibake (UTF-8 read as Windows-1252 or the reverse).
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import json
import math
import re
import zipfile
from collections.abc import Iterator, Mapping
from typing import IO, Any

import openpyxl
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


#: How a workbook starts: a ZIP archive (``.xlsx``, ``.ods``) or an OLE2 file (``.xls``).
_ZIP_MAGIC = b"PK\x03\x04"
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: The bytes Windows-1252 leaves undefined.
_CP1252_UNDEFINED = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")
#: A non-ASCII character of a text decoded with ``surrogateescape``, but for the escaped bytes
#: (U+DC80 to U+DCFF: a byte that is not UTF-8).
_UTF8_CHARACTER = re.compile("[\u0080-\udc7f\udd00-\U0010ffff]")


def _byte_error(line: int, reason: str) -> DomainError:
    return file_error(
        "file_encoding", _("Line %(line)s: %(reason)s") % {"line": line, "reason": reason}
    )


def _not_utf8(line: int, byte: int, column: int) -> DomainError:
    return _byte_error(
        line,
        _(
            "the byte 0x%(byte)02X (character %(column)s) is not UTF-8 text, while the rest of "
            'the line is: save the file again as UTF-8 text ("CSV UTF-8" in Excel).'
        )
        % {"byte": byte, "column": column},
    )


def _cp1252(raw: bytes, first_line: int) -> str:
    """``raw`` (lines from ``first_line``) read as Windows-1252; an undefined byte refused."""
    undefined = _CP1252_UNDEFINED.search(raw)
    if undefined is not None:
        raise _byte_error(
            first_line + raw.count(b"\n", 0, undefined.start()),
            _("the byte 0x%(byte)02X is neither UTF-8 nor Windows-1252 text.")
            % {"byte": raw[undefined.start()]},
        )
    return raw.decode("cp1252")


def _utf8_sequences(text: str) -> bool:
    """Whether ``text`` (decoded with ``surrogateescape``) holds a non-ASCII UTF-8 character."""
    return _UTF8_CHARACTER.search(text) is not None


def _utf8_or_lines(raw: bytes) -> str:
    """``raw`` without a byte-order mark, read as the module docstring says."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if not _utf8_sequences(raw.decode("utf-8", "surrogateescape")):
        return _cp1252(raw, 1)
    parts: list[str] = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        try:
            parts.append(line.decode("utf-8"))
            continue
        except UnicodeDecodeError as exc:
            bad = exc.start
        escaped = line.decode("utf-8", "surrogateescape")
        if _utf8_sequences(escaped):
            column = len(line[:bad].decode("utf-8", "surrogateescape")) + 1
            raise _not_utf8(number, line[bad], column)
        parts.append(_cp1252(line, number))
    return "\n".join(parts)


def _bomless_utf16(raw: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` when ``raw`` looks like UTF-16 without a byte-order mark:
    an even length, a zero byte in at least half the characters of its first 4 KB, all on the
    same side."""
    sample = raw[:4096]
    if len(raw) % 2 or len(sample) < 4:
        return None
    pairs = len(sample) // 2
    high_le, high_be = sample[1::2].count(0), sample[0::2].count(0)
    if 2 * high_le >= pairs and high_be == 0:
        return "utf-16-le"
    if 2 * high_be >= pairs and high_le == 0:
        return "utf-16-be"
    return None


def _utf16(raw: bytes, encoding: str) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].decode(encoding, "replace").count("\n") + 1
        raise _byte_error(
            line,
            _("the bytes at offset %(offset)s are not UTF-16 text (the file starts as UTF-16).")
            % {"offset": exc.start},
        ) from exc


def decode_bytes(raw: bytes) -> str:
    """The text of an imported file's bytes (the encodings of the module docstring), or a
    file error naming the line and the byte that cannot be read."""
    if raw.startswith(codecs.BOM_UTF8):
        return _utf8_or_lines(raw[len(codecs.BOM_UTF8) :])
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _utf16(raw, "utf-16")
    encoding = _bomless_utf16(raw)
    if encoding is not None:
        return _utf16(raw, encoding).removeprefix("\ufeff")
    return _utf8_or_lines(raw)


def workbook_kind(raw: bytes | str) -> str | None:
    """``xlsx`` for an Excel workbook, ``workbook`` for another spreadsheet file (``.xls``,
    ``.ods``) or ZIP archive, None for anything else."""
    if isinstance(raw, str):
        return None
    if raw.startswith(_ZIP_MAGIC):
        try:
            with zipfile.ZipFile(io.BytesIO(raw)) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError, ValueError):
            return "workbook"
        return "xlsx" if "xl/workbook.xml" in names else "workbook"
    return "workbook" if raw.startswith(_OLE2_MAGIC) else None


def save_as_csv() -> DomainError:
    return file_error(
        "file_workbook",
        _(
            "This is a spreadsheet workbook, not a text file: save it as CSV (in Excel: File, "
            'Save as, "CSV UTF-8") and import the CSV file.'
        ),
    )


def decode_text(file: IO[bytes] | IO[str] | bytes | str, *, max_bytes: int) -> str:
    """The text of ``file``; see the module docstring."""
    raw = read_bytes(file, max_bytes)
    if workbook_kind(raw) is not None:
        raise save_as_csv()
    text = decode_bytes(raw) if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
    return checked_text(text)


def checked_text(text: str) -> str:
    """``text`` unless it holds what no text file holds (NUL, control characters) or is empty."""
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


#: An Excel workbook is at most this large once unpacked (a 20,000-line register takes ~15 MB).
MAX_WORKBOOK_UNPACKED = 64 * 1024 * 1024
#: The columns of a workbook that are read (those further right are not).
MAX_WORKBOOK_COLUMNS = 100


def _cell_text(value: Any) -> str:
    """A workbook cell as the text a CSV file would hold (a whole number without ``.0``, a
    date as ``YYYY-MM-DD``)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return str(value)


def _workbook_rows(
    raw: bytes, *, max_lines: int, max_line_chars: int
) -> list[tuple[int, list[str]]]:
    """(row number, cells) of the first sheet of an Excel workbook, bounded as a CSV file."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise _unreadable_workbook() from exc
    if unpacked > MAX_WORKBOOK_UNPACKED:
        raise file_error(
            "file_too_large",
            _(
                "The workbook holds more than %(size)s MB once unpacked: save its sheet as CSV "
                "and import the CSV file."
            )
            % {"size": _megabytes(MAX_WORKBOOK_UNPACKED)},
        )
    rows: list[tuple[int, list[str]]] = []
    try:
        book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        try:
            sheet = book.worksheets[0]
            # Blank rows past the limit are read over, up to as many again: a sheet longer
            # than that is refused whatever it holds.
            numbered = enumerate(
                sheet.iter_rows(
                    max_row=2 * max_lines, max_col=MAX_WORKBOOK_COLUMNS, values_only=True
                ),
                start=1,
            )
            for number, values in numbered:
                cells = [_cell_text(value) for value in values]
                while cells and not cells[-1].strip():
                    cells.pop()
                if number > max_lines:
                    if cells or number == 2 * max_lines:
                        raise file_error(
                            "file_too_long",
                            _("The workbook has more than %(max)s lines; at most %(max)s are "
                              "imported at once.") % {"max": max_lines},
                        )  # fmt: skip
                    continue
                if len(";".join(cells)) > max_line_chars:
                    raise file_error(
                        "line_too_long",
                        _("Line %(line)s has more than %(max)s characters.")
                        % {"line": number, "max": max_line_chars},
                    )
                rows.append((number, cells))
        finally:
            book.close()
    except DomainError:
        raise
    except Exception as exc:  # a damaged workbook: openpyxl and the XML parser raise many kinds
        raise _unreadable_workbook() from exc
    while rows and not rows[-1][1]:
        rows.pop()
    return rows


def _unreadable_workbook() -> DomainError:
    return file_error(
        "file_workbook",
        _("The Excel workbook cannot be read: save it again, or save it as CSV and import that."),
    )


def table_rows(
    file: IO[bytes] | IO[str] | bytes | str, *, max_bytes: int, max_lines: int, max_line_chars: int
) -> list[tuple[int, list[str]]]:
    """(line, cells) of every row of a CSV file (:func:`decode_text`, :func:`check_lines`,
    :func:`csv_rows`) or of the first sheet of an Excel workbook (``.xlsx``; at most
    :data:`MAX_WORKBOOK_UNPACKED` unpacked, :data:`MAX_WORKBOOK_COLUMNS` columns read); the
    first row is the header. Another workbook (``.xls``, ``.ods``) is refused with "save it as
    CSV", an empty file or one whose first line is blank as empty."""
    raw = read_bytes(file, max_bytes)
    kind = workbook_kind(raw)
    if kind == "xlsx":
        assert isinstance(raw, bytes)
        rows = _workbook_rows(raw, max_lines=max_lines, max_line_chars=max_line_chars)
        if not rows or not any(cell.strip() for cell in rows[0][1]):
            raise file_error("file_empty", _("The file is empty."))
        return rows
    if kind is not None:
        raise save_as_csv()
    text = checked_text(decode_bytes(raw) if isinstance(raw, bytes) else raw.removeprefix("\ufeff"))
    lines = check_lines(text, max_lines=max_lines, max_line_chars=max_line_chars)
    if not lines or not lines[0].strip():
        raise file_error("file_empty", _("The file is empty."))
    return list(csv_rows(text, csv_delimiter(lines[0])))


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
