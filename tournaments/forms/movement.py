"""Forms of the movement: the generator's parameters (and the previewed document), an import."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.forms.base import checked_upload


class MovementForm(forms.Form):
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=200, required=False)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=60, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=0, initial=0, required=False)
    document = forms.JSONField(required=False, widget=forms.HiddenInput)

    def clean_document(self) -> dict[str, Any] | None:
        document = self.cleaned_data.get("document")
        if document in (None, ""):
            return None
        if not isinstance(document, dict):
            raise ValidationError(_("The movement is not a document."))
        return document


class MovementImportForm(forms.Form):
    file = forms.FileField(
        label=_("Movement file (JSON)"),
        help_text=_("A document of schema duplitarot-movement/1, e.g. from 'manage.py movement'."),
    )

    def clean_file(self) -> dict[str, Any]:
        file = checked_upload(self.cleaned_data["file"])
        try:
            document = json.loads(file.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ValidationError(_("The file is not a JSON document.")) from exc
        if not isinstance(document, dict):
            raise ValidationError(_("The file is not a movement document."))
        return document
