"""What every form shares: attaching a refused operation, the reason of a decision; and the
forms of the club's pages (the club, its register, its import, an invitee's account).

A service refuses with a :class:`~clubs.errors.DomainError`; :func:`add_error` puts its
message on the form field it names (a form may translate service field names with a
``field_for_error`` method), else form-wide, and its details as further form-wide lines.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.errors import DomainError
from clubs.models import PlayerSeries
from clubs.register import MAX_IMPORT_BYTES
from clubs.uploads import too_large


def error_field(form: forms.BaseForm, field: str | None) -> str | None:
    """The field of ``form`` where an error on the service input ``field`` belongs, or None."""
    if not field:
        return None
    translate = getattr(form, "field_for_error", None)
    name = translate(field) if translate is not None else field
    return name if name in form.fields else None


def add_error(form: forms.BaseForm, error: DomainError) -> None:
    """Attach ``error`` to ``form`` (see the module docstring)."""
    form.add_error(error_field(form, error.field), error.message)
    for line in error.details:
        form.add_error(None, line)


def reason_field() -> forms.CharField:
    """The reason a director gives for a decision (kept in the history)."""
    return forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=1000
    )


def series_field(stored: str = "") -> forms.ChoiceField:
    """A player's series (:class:`~clubs.models.PlayerSeries`), or none; and ``stored`` as it
    is when it was stored before a series had one form (so that saving the line keeps it)."""
    choices: list[tuple[str, Any]] = [("", "—"), *PlayerSeries.choices]
    if stored and stored not in PlayerSeries.values:
        choices.append((stored, stored))
    return forms.ChoiceField(label=_("Series"), choices=choices, required=False)


# --------------------------------------------------------------------------- the club's pages


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    city = forms.CharField(label=_("City"), max_length=120, required=False)


class OwnerPassForm(forms.Form):
    """The organiser who becomes the club's owner (one of ``organisers``)."""

    owner = forms.TypedChoiceField(label=_("New owner"), coerce=int)

    def __init__(self, *args: Any, organisers: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["owner"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(user.pk, user.get_username()) for user in organisers]


class RegisterSearchForm(forms.Form):
    ACTIVE_CHOICES = [
        ("", pgettext_lazy("players", "All")),
        ("1", pgettext_lazy("players", "Active")),
        ("0", pgettext_lazy("players", "Inactive")),
    ]

    q = forms.CharField(label=_("Name or licence"), max_length=80, required=False)
    active = forms.ChoiceField(label=_("Players"), choices=ACTIVE_CHOICES, required=False)

    def active_filter(self) -> bool | None:
        value = self.cleaned_data.get("active") if self.is_valid() else ""
        return None if not value else value == "1"

    def query(self) -> str:
        return str(self.cleaned_data.get("q") or "") if self.is_valid() else ""


class PlayersField(forms.ModelMultipleChoiceField):
    """Several players ticked at once, at most ``limit`` (refused before any query beyond)."""

    def __init__(self, *args: Any, limit: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limit = limit

    def clean(self, value: Any) -> Any:
        if value and len(value) > self.limit:
            raise forms.ValidationError(
                _("At most %(max)s players at once.") % {"max": self.limit}, code="too_many"
            )
        return super().clean(value)


class NewPlayerCheckForm(forms.Form):
    """A new player typed by hand. ``confirm_new``: the director saw the register's lines of
    the same names (``clubs.register.register_namesakes``) and still wants a new guest."""

    confirm_new = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def names_data(self) -> dict[str, Any]:
        """The cleaned data but ``confirm_new`` (what the services take)."""
        return {k: v for k, v in self.cleaned_data.items() if k != "confirm_new"}


class RegisterAddForm(NewPlayerCheckForm):
    last_name = forms.CharField(label=_("Last name"), max_length=80)
    first_name = forms.CharField(label=_("First name"), max_length=80)
    licence = forms.CharField(
        label=_("Licence number"),
        max_length=20,
        required=False,
        help_text=_("Empty for a guest. A licence already known adds that player."),
    )
    category = forms.CharField(label=_("Category"), max_length=40, required=False)
    series = series_field()


class RegisterLineForm(forms.Form):
    last_name = forms.CharField(label=_("Last name"), max_length=80)
    first_name = forms.CharField(label=_("First name"), max_length=80)
    series = series_field()
    category = forms.CharField(label=_("Category"), max_length=40, required=False)
    active = forms.BooleanField(label=_("Active"), required=False)

    def __init__(self, *args: Any, name_editable: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["series"] = series_field(str(self.initial.get("series", "")))
        if not name_editable:
            for name in ("last_name", "first_name", "series"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Only the player's home club may change it.")


class RegisterImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV or Excel file"),
        help_text=_(
            "Columns: Last name, First name, Licence, Category, Series, Active (yes/no), in "
            "French or English (other columns are not read); a CSV file separated by ';' or ',', "
            "or an Excel workbook (.xlsx, its first sheet); at most 20,000 lines and 2 MB."
        ),
    )

    def clean_file(self) -> Any:
        file = self.cleaned_data["file"]
        if file.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(too_large(MAX_IMPORT_BYTES).message, code="file_too_large")
        return file


class InvitationSignupForm(UserCreationForm):
    """The account an invitee creates: a username and a password typed twice (Django's
    password validators apply)."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)
