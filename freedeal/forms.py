"""Forms of the freedeal pages: the tournament's settings, registration, a deal's outcome.

:class:`DealForm` adapts to the table (its players, its size) and the tournament's ruleset: the
contracts of ``Ruleset.contracts`` plus "everybody passed", the called King's partner at a
table of 5 (not in the flambeuse), the petit chelem under traditional rules, the chien size
under house rules. Its ``clean`` validates through ``freedeal.outcomes.outcome_score`` (nothing
stored: the live preview shows its marks) and puts the rules engine's translated message on the
field at fault.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.errors import DomainError
from clubs.forms import NewPlayerCheckForm, PlayersField, add_error, reason_field
from clubs.models import Player
from clubs.outcome_forms import named_error_lines, outcome_field_for_error
from freedeal import outcomes, selectors
from freedeal.models import MAX_DEALS_PER_PARTY, MAX_PARTIES, FreeDealTournament
from freedeal.seating import MAX_PLAYERS
from rules.enums import Contract, PoigneeSize, Side
from rules.ruleset import RulesetName

BLANK = ("", "—")
SIDES = [(Side.ATTACK.value, _("attack")), (Side.DEFENCE.value, _("defence"))]
SIZES = [(size.value, size.label) for size in PoigneeSize]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    rules = forms.ChoiceField(
        label=_("Rules"),
        choices=[(name.value, name.label) for name in RulesetName],
        initial=RulesetName.FFT.value,
    )
    pousse_multiplier = forms.IntegerField(
        label=_("Pousse multiplier (traditional rules)"), min_value=1, max_value=4, initial=2
    )
    flambeuse = forms.BooleanField(
        label=_("Flambeuse at tables of 5 (traditional rules)"), required=False
    )
    parties = forms.IntegerField(label=_("Parties"), min_value=1, max_value=MAX_PARTIES, initial=5)
    deals_per_party = forms.IntegerField(
        label=_("Deals per party"), min_value=1, max_value=MAX_DEALS_PER_PARTY, initial=4
    )
    tie_break = forms.ChoiceField(
        label=_("Tie-break"),
        choices=FreeDealTournament.TieBreak.choices,
        initial=FreeDealTournament.TieBreak.BEST_PARTY,
    )
    public = forms.BooleanField(label=_("Public"), required=False, initial=True)

    def __init__(self, *args: Any, clubs: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if clubs is not None:
            self.fields["club"] = forms.ModelChoiceField(label=_("Club"), queryset=clubs)
            self.order_fields(["club"])

    def ruleset(self) -> dict[str, object]:
        data = self.cleaned_data
        return outcomes.ruleset_choice(
            data["rules"], data.get("pousse_multiplier"), bool(data.get("flambeuse"))
        )

    @staticmethod
    def initial_of(tournament: FreeDealTournament) -> dict[str, Any]:
        stored = tournament.ruleset or {}
        return {
            "name": tournament.name,
            "date": tournament.date,
            "rules": stored.get("name", "fft"),
            "pousse_multiplier": stored.get("pousse_multiplier", 2),
            "flambeuse": stored.get("flambeuse", False),
            "parties": tournament.parties,
            "deals_per_party": tournament.deals_per_party,
            "tie_break": tournament.tie_break,
            "public": tournament.public,
        }


class RegisterForm(forms.Form):
    """Club players to register (one or several at once: ``player`` repeated)."""

    player = PlayersField(
        label=_("Club players"),
        queryset=Player.objects.none(),
        widget=forms.SelectMultiple(attrs={"size": 10}),
        help_text=_("Choose one or several (Ctrl-click on a computer)."),
        limit=MAX_PLAYERS,
    )

    def __init__(self, *args: Any, tournament: FreeDealTournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = selectors.free_deal_registrable_players(tournament)


class NewPlayerForm(NewPlayerCheckForm):
    first_name = forms.CharField(label=_("First name"), max_length=80)
    last_name = forms.CharField(label=_("Last name"), max_length=80)
    licence = forms.CharField(label=_("Licence number"), max_length=20, required=False)


def side_field(label: Any) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=[BLANK, *SIDES], required=False)


class DealForm(forms.Form):
    """One deal's outcome at a table (see the module docstring)."""

    taker = forms.ChoiceField(label=_("Taker"), required=False)
    partner = forms.ChoiceField(label=_("Called King held by"), required=False)
    contract = forms.ChoiceField(label=_("Contract"))
    oudlers = forms.ChoiceField(
        label=_("Oudlers"), choices=[(str(n), str(n)) for n in range(4)], required=False
    )
    points = forms.CharField(label=_("Points of the attack"), max_length=6, required=False)
    petit_au_bout = forms.ChoiceField(
        label=_("Petit au bout"), choices=[("", _("none")), *SIDES], required=False
    )
    poignee_1_side = side_field(_("Poignée 1"))
    poignee_1_size = forms.ChoiceField(label=_("size"), choices=[BLANK, *SIZES], required=False)
    poignee_2_side = side_field(_("Poignée 2"))
    poignee_2_size = forms.ChoiceField(label=_("size"), choices=[BLANK, *SIZES], required=False)
    chelem_announced = forms.BooleanField(label=_("Chelem announced"), required=False)
    chelem_made_by = side_field(_("Chelem made by"))
    petit_chelem_announced = forms.BooleanField(label=_("Petit chelem announced"), required=False)
    petit_chelem_made = forms.BooleanField(label=_("Petit chelem made"), required=False)
    chien = forms.ChoiceField(label=_("Chien"), required=False)

    COMPACT_FIELDS = ("taker", "partner", "contract", "oudlers", "points", "petit_au_bout", "chien")

    def __init__(
        self,
        *args: Any,
        tournament: FreeDealTournament,
        seated: tuple[int, ...],
        names: dict[int, str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.seated = seated
        self.scored: dict[str, Any] | None = None
        ruleset = outcomes.ruleset_of(tournament)
        size = len(seated)
        people = [(str(n), f"{n} · {names.get(n, '')}") for n in seated]
        self._choices("taker", people)
        contracts = [(c.value, Contract(c.value).label) for c in ruleset.contracts]
        self._choices("contract", [*contracts, (outcomes.PASSED, _("Everybody passed"))])
        self.fields["contract"].initial = Contract.GARDE.value
        if size == 5 and ruleset.calls_king:
            self._choices("partner", people)
        else:
            del self.fields["partner"]
        if not ruleset.petit_chelem:
            del self.fields["petit_chelem_announced"]
            del self.fields["petit_chelem_made"]
        chiens = ruleset.chien_sizes(size)
        if len(chiens) > 1:
            self._choices("chien", [(str(c), str(c)) for c in chiens])
            self.fields["chien"].initial = str(chiens[0])
        else:
            del self.fields["chien"]

    def _choices(self, name: str, choices: list[tuple[str, Any]]) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices

    def field_for_error(self, name: str) -> str:
        # the players of a deal are chosen with its contract (who took, who was called)
        return "contract" if name == "players" else outcome_field_for_error(name, self.fields)

    @staticmethod
    def initial_of(result: Any) -> dict[str, Any]:
        """The form's values showing a stored result."""
        if result is None:
            return {}
        if result.passed:
            return {"contract": outcomes.PASSED}
        outcome = result.outcome or {}
        initial: dict[str, Any] = {
            "taker": str(result.taker),
            "partner": str(result.partner or (result.taker if "partner" in outcome else "")),
            "contract": result.contract,
            "oudlers": str(outcome.get("oudlers", "")),
            "points": outcome.get("points", ""),
            "petit_au_bout": outcome.get("petit_au_bout") or "",
            "chelem_announced": (outcome.get("chelem") or {}).get("announced", False),
            "chelem_made_by": (outcome.get("chelem") or {}).get("made_by") or "",
            "petit_chelem_announced": (outcome.get("petit_chelem") or {}).get("announced", False),
            "petit_chelem_made": (outcome.get("petit_chelem") or {}).get("made", False),
        }
        if outcome.get("chien") is not None:
            initial["chien"] = str(outcome["chien"])
        for slot, poignee in enumerate(outcome.get("poignees") or [], start=1):
            if slot <= 2:
                initial[f"poignee_{slot}_side"] = poignee["side"]
                initial[f"poignee_{slot}_size"] = poignee["size"]
        return initial

    def values(self) -> dict[str, Any]:
        """The services' input shape."""
        data = self.cleaned_data
        poignees = []
        for slot in (1, 2):
            side, size = data.get(f"poignee_{slot}_side"), data.get(f"poignee_{slot}_size")
            if side or size:
                poignees.append({k: v for k, v in (("side", side), ("size", size)) if v})
        values: dict[str, Any] = {
            "taker": data.get("taker") or None,
            "partner": data.get("partner") or None,
            "contract": data.get("contract"),
            "oudlers": data.get("oudlers"),
            "points": data.get("points"),
            "petit_au_bout": data.get("petit_au_bout") or None,
            "poignees": poignees,
            "chelem": {
                "announced": bool(data.get("chelem_announced")),
                "made_by": data.get("chelem_made_by") or None,
            },
            "chien": data.get("chien") or None,
        }
        if "petit_chelem_announced" in self.fields:
            values["petit_chelem"] = {
                "announced": bool(data.get("petit_chelem_announced")),
                "made": bool(data.get("petit_chelem_made")),
            }
        return values

    def named_errors(self, *, required: bool = True) -> list[str]:
        """Every error as one line naming its field (the live preview's answer), with the
        language's colon; ``required=False`` leaves out the fields only left empty."""
        return named_error_lines(self, required=required)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            self.scored = outcomes.outcome_score(self.tournament, self.seated, self.values())
        except DomainError as error:
            add_error(self, error)
        return cleaned


class CorrectionForm(DealForm):
    reason = reason_field()


class ConfirmForm(forms.Form):
    confirm = forms.BooleanField(label=_("Close it anyway"), required=False)
