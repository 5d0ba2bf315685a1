"""Form of a team: a name and its members among the event's players without a team."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entrant, Event


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=120)
    members = forms.ModelMultipleChoiceField(
        label=_("Members"), queryset=Entrant.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        members = self.fields["members"]
        assert isinstance(members, forms.ModelMultipleChoiceField)
        members.queryset = (
            Entrant.objects.filter(event=event, phantom=False, team__isnull=True)
            .select_related("player")
            .order_by("slot")
        )
