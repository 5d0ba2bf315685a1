"""What the archive commands share: one-line errors (exit code 2), the club argument, reading
and writing files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from django.utils.translation import gettext

from archives.format import MAX_BYTES, ArchiveError, dumps
from clubs.models import Club


def one_line(text: str) -> str:
    return " ".join(text.split())


def fail(code: str, message: str) -> CommandError:
    return CommandError(one_line(f"[{code}] {message}"), returncode=2)


def archive_failed(error: ArchiveError) -> CommandError:
    return fail(error.code, error.describe())


def club_named(value: str) -> Club:
    """The club of id or name (any case) ``value``."""
    club = None
    if value.strip().isdigit():
        club = Club.objects.filter(pk=int(value)).first()
    if club is None:
        club = Club.objects.filter(name__iexact=value.strip()).first()
    if club is None:
        raise fail(
            "club_not_found", gettext("no club has the id or the name %(club)s") % {"club": value}
        )
    return club


def read_file(name: str) -> bytes:
    path = Path(name)
    try:
        with path.open("rb") as stream:
            return stream.read(MAX_BYTES + 1)
    except OSError as error:
        message = gettext("cannot read the file (%(reason)s)") % {"reason": error.strerror}
        raise fail("file_error", f"{path}: {message}") from None


def write_document(command: Any, document: dict[str, Any], output: str | None) -> None:
    """The document as text to ``output`` (a file), or to the command's stdout."""
    text = dumps(document)
    if not output:
        command.stdout.write(text, ending="")
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        message = gettext("cannot write the file (%(reason)s)") % {"reason": error.strerror}
        raise fail("file_error", f"{output}: {message}") from None
