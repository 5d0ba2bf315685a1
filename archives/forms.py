"""Forms of the archive pages: the organiser's restore (a club he organises, a file).

The archive itself is judged by :func:`archives.kinds.restore_document` (its refusals land on
the form); the form checks only the size of the upload.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club

#: The largest archive the restore page takes (the command takes larger ones).
UPLOAD_MAX_BYTES = 32 * 1024 * 1024


class RestoreForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=gettext_lazy("Club"))
    file = forms.FileField(
        label=gettext_lazy("Archive file"),
        help_text=gettext_lazy(
            "A file written by 'Download the archive' or 'manage.py archive' (an event, a cup, "
            "a free-deal tournament or a series; JSON, at most 32 MB)."
        ),
    )

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = clubs
        only = list(clubs[:2])
        if len(only) == 1:
            field.initial = only[0].pk

    def clean_file(self) -> Any:
        file = self.cleaned_data["file"]
        if file.size > UPLOAD_MAX_BYTES:
            raise ValidationError(
                _("The file is larger than %(size)s MB.")
                % {"size": UPLOAD_MAX_BYTES // (1024 * 1024)}
            )
        return file
