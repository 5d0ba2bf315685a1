"""What every form of the app shares: attaching a refused operation, uploads, reasons.

A service refuses with a :class:`~tournaments.errors.TournamentError`; :func:`add_error` puts
its message on the form field it names (a form may translate service field names with a
``field_for_error`` method), else form-wide, and its details as further form-wide lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from rules.duplicate import DUPLICATE_CONTRACTS
from tournaments.errors import TournamentError
from tournaments.models import Contract
from tournaments.services import uploads

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
#: Characters of one line of a deals file (a hand of 18 to 24 cards takes a few dozen).
MAX_TEXT_LINE_CHARS = 1_000
#: Lines of a deals file (a deal takes a handful; 200 deals at most).
MAX_TEXT_LINES = 20_000


def error_field(form: forms.Form, field: str | None) -> str | None:
    """The field of ``form`` where an error on the service input ``field`` belongs, or None."""
    if not field:
        return None
    translate = getattr(form, "field_for_error", None)
    name = translate(field) if translate is not None else field
    return name if name in form.fields else None


def add_error(form: forms.Form, error: TournamentError) -> None:
    """Attach ``error`` to ``form`` (see the module docstring)."""
    form.add_error(error_field(form, error.field), error.message)
    for line in error.details:
        form.add_error(None, line)


def checked_upload(file: Any, max_bytes: int = MAX_UPLOAD_BYTES) -> Any:
    """``file`` unless it is larger than ``max_bytes`` (the message names the limit)."""
    if file.size > max_bytes:
        raise ValidationError(uploads.too_large(max_bytes).message, code="file_too_large")
    return file


def uploaded_text(file: Any, max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """The text of an uploaded file (UTF-8 with or without BOM, UTF-16, Windows-1252), or a
    ``ValidationError`` with the clear message of :mod:`tournaments.services.uploads`."""
    checked_upload(file, max_bytes)
    try:
        return uploads.decode_text(file, max_bytes=max_bytes)
    except TournamentError as error:
        raise ValidationError(error.message, code=error.code) from error


def reason_field() -> forms.CharField:
    """The reason a director gives for a decision (kept in the history)."""
    return forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=1000
    )


def contract_choices() -> list[tuple[str, StrOrPromise]]:
    """The contracts a duplicate deal is played at (``rules.duplicate``), with their labels."""
    return [(c.value, Contract(c.value).label) for c in DUPLICATE_CONTRACTS]
