"""What the forms of duplicate events share: uploads and the contracts of a duplicate deal
(attaching a refused operation and a director's reason: :mod:`clubs.forms`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError

from clubs import uploads
from clubs.errors import DomainError

if TYPE_CHECKING:
    pass

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
#: Characters of one line of a deals file (a hand of 18 to 24 cards takes a few dozen).
MAX_TEXT_LINE_CHARS = 1_000
#: Lines of a deals file (a deal takes a handful; 200 deals at most).
MAX_TEXT_LINES = 20_000


def checked_upload(file: Any, max_bytes: int = MAX_UPLOAD_BYTES) -> Any:
    """``file`` unless it is larger than ``max_bytes`` (the message names the limit)."""
    if file.size > max_bytes:
        raise ValidationError(uploads.too_large(max_bytes).message, code="file_too_large")
    return file


def uploaded_text(file: Any, max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """The text of an uploaded file (UTF-8 with or without BOM, UTF-16, Windows-1252), or a
    ``ValidationError`` with the clear message of :mod:`clubs.uploads`."""
    checked_upload(file, max_bytes)
    try:
        return uploads.decode_text(file, max_bytes=max_bytes)
    except DomainError as error:
        raise ValidationError(error.message, code=error.code) from error
