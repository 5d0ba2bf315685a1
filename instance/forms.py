from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.utils.translation import gettext_lazy as _


class SetupForm(forms.Form):
    """The first run: the setup code, the club, its first organiser."""

    setup_code = forms.CharField(
        label=_("Setup code"),
        max_length=40,
        help_text=_(
            "Printed in the terminal where duplitarot was started, e.g. ABCD-EFGH-JKMN-PQRS."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
    club_name = forms.CharField(label=_("Club name"), max_length=120)
    city = forms.CharField(label=_("City"), max_length=120, required=False)
    username = forms.CharField(
        label=_("Your username"),
        max_length=150,
        help_text=_("Letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"].strip()
        user_model = get_user_model()
        field = user_model._meta.get_field("username")
        for validator in field.validators:
            validator(username)
        return username

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            try:
                password_validation.validate_password(
                    first, get_user_model()(username=cleaned.get("username", ""))
                )
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned
