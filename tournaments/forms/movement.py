"""Forms of the movement: the generator's parameters (and the previewed document), an import."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs import uploads
from clubs.errors import DomainError
from tournaments.forms.base import uploaded_text

#: A movement document nests 5 levels (rounds, a round, its tables, a table, its seats).
MAX_MOVEMENT_DEPTH = 16
#: The largest count a movement's header may give (the generator makes at most 200 tables and
#: 60 rounds): the validator builds lists of that size.
MAX_MOVEMENT_COUNT = 1000
MOVEMENT_COUNTS = ("tables", "rounds", "deal_sets", "copies")


class MovementForm(forms.Form):
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=200, required=False)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=60, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=0, initial=0, required=False)
    # Quadrettes with fewer rounds than a round robin (tournaments.services.swiss); empty: the
    # default (live when it applies).
    swiss = forms.ChoiceField(
        label=_("Swiss pairing"),
        choices=[
            ("live", _("Live: each round paired from the standings at the close of the last")),
            ("prepaired", _("Pre-paired: every round paired at the start")),
        ],
        initial="live",
        required=False,
    )
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
        text = uploaded_text(self.cleaned_data["file"])
        try:
            document = uploads.load_json(text, max_depth=MAX_MOVEMENT_DEPTH)
        except DomainError as error:
            if isinstance(error.__cause__, json.JSONDecodeError):
                raise ValidationError(
                    _("The file is not a JSON document."), code=error.code
                ) from error
            raise ValidationError(error.message, code=error.code) from error
        if not isinstance(document, dict):
            raise ValidationError(_("The file is not a movement document."))
        for key in MOVEMENT_COUNTS:
            value = document.get(key)
            if isinstance(value, int) and not 1 <= value <= MAX_MOVEMENT_COUNT:
                raise ValidationError(
                    _("The movement's %(key)s must be a whole number from 1 to %(max)s.")
                    % {"key": key, "max": MAX_MOVEMENT_COUNT}
                )
        return document
