"""What every form shares: attaching a refused operation, the reason of a decision.

A service refuses with a :class:`~clubs.errors.DomainError`; :func:`add_error` puts its
message on the form field it names (a form may translate service field names with a
``field_for_error`` method), else form-wide, and its details as further form-wide lines.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.errors import DomainError


def error_field(form: forms.Form, field: str | None) -> str | None:
    """The field of ``form`` where an error on the service input ``field`` belongs, or None."""
    if not field:
        return None
    translate = getattr(form, "field_for_error", None)
    name = translate(field) if translate is not None else field
    return name if name in form.fields else None


def add_error(form: forms.Form, error: DomainError) -> None:
    """Attach ``error`` to ``form`` (see the module docstring)."""
    form.add_error(error_field(form, error.field), error.message)
    for line in error.details:
        form.add_error(None, line)


def reason_field() -> forms.CharField:
    """The reason a director gives for a decision (kept in the history)."""
    return forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=1000
    )
