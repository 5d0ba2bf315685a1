"""Models of free-deal tournaments (see the package docstring and docs/free-deal.md).

Invariants (kept by ``freedeal.services``, the only writer):

- players are numbered 1..N without gaps in a tournament, a club player at most once;
- ``seating`` is set once, at the start: ``seating[p - 1][t - 1]`` is the tuple of player
  numbers at table ``t`` in party ``p`` (``freedeal.seating.seat_parties``,
  largest tables first, so a table number keeps its size across the parties);
- parties 1..``closed_parties`` are closed; while running, party ``closed_parties + 1`` is
  the open one, the only one a table phone may enter or correct;
- a result's ``marks`` maps each player number of its table (as a string) to his mark, summing
  to 0; a passed deal (everybody passed) has no taker, no outcome and marks 0.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.models import ChangeRecord, Competition, EnteredBy, EntryKey, LateArrival, Player
from clubs.phone_codes import new_phone_code
from rules.enums import Contract
from rules.ruleset import FFT, ruleset_to_dict

MAX_PARTIES = 30
MAX_DEALS_PER_PARTY = 12


def default_ruleset() -> dict[str, object]:
    """The FFT's rules, as stored (``rules.ruleset_from_dict``), with the current rules version."""
    return ruleset_to_dict(FFT)


class FreeDealTournament(Competition):
    code_prefix = "free_deal"

    def get_status_display(self) -> str:  # type: ignore[no-redef]
        """A draft free-deal tournament is taking its players' registrations."""
        if self.status == Competition.Status.DRAFT:
            return str(_("Registration"))
        return str(Competition.Status(self.status).label)

    class TieBreak(models.TextChoices):
        BEST_PARTY = "best_party", _("The better best party, then shared")
        SHARED = "shared", _("Shared place")

    ruleset = models.JSONField(_("rules"), default=default_ruleset)
    parties = models.PositiveSmallIntegerField(
        _("parties"), default=5, validators=[MinValueValidator(1), MaxValueValidator(MAX_PARTIES)]
    )
    deals_per_party = models.PositiveSmallIntegerField(
        _("deals per party"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DEALS_PER_PARTY)],
    )
    seed = models.PositiveBigIntegerField(_("seating seed"), default=0)
    tie_break = models.CharField(
        _("tie-break"), max_length=12, choices=TieBreak.choices, default=TieBreak.BEST_PARTY
    )
    seating = models.JSONField(_("seating"), null=True, blank=True, editable=False)
    closed_parties = models.PositiveSmallIntegerField(_("parties closed"), default=0)

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = _("free-deal tournament")
        verbose_name_plural = _("free-deal tournaments")

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def open_party(self) -> int | None:
        """The party the tables are playing (None unless running and a party is left)."""
        if self.status != self.Status.RUNNING or self.closed_parties >= self.parties:
            return None
        return self.closed_parties + 1

    def table_players(self, party: int, table: int) -> tuple[int, ...]:
        """The player numbers at table ``table`` in party ``party`` (seat order)."""
        if not self.seating:
            return ()
        return tuple(self.seating[party - 1][table - 1])


class FreeDealPlayer(models.Model):
    tournament = models.ForeignKey(
        FreeDealTournament, on_delete=models.CASCADE, related_name="players"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="free_deal_entries", verbose_name=_("player")
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="freedeal_unique_player_number"
            ),
            models.UniqueConstraint(fields=["tournament", "player"], name="freedeal_unique_player"),
        ]
        verbose_name = _("registered player")
        verbose_name_plural = _("registered players")

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"


class FreeDealTable(models.Model):
    """A physical table; its secret ``code`` opens the table phone's entry page."""

    tournament = models.ForeignKey(
        FreeDealTournament, on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    size = models.PositiveSmallIntegerField(_("players"))
    code = models.CharField(_("entry code"), max_length=32, unique=True, default=new_phone_code)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="freedeal_unique_table_number"
            )
        ]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


class FreeDealResult(EnteredBy):
    """One deal of one table in one party, with each player's mark computed by ``rules``."""

    tournament = models.ForeignKey(
        FreeDealTournament, on_delete=models.CASCADE, related_name="results"
    )
    table = models.ForeignKey(FreeDealTable, on_delete=models.CASCADE, related_name="results")
    party = models.PositiveSmallIntegerField(_("party"))
    deal = models.PositiveSmallIntegerField(_("deal"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    passed = models.BooleanField(_("everybody passed"), default=False)
    taker = models.PositiveSmallIntegerField(_("taker"), null=True, blank=True)
    partner = models.PositiveSmallIntegerField(_("partner"), null=True, blank=True)
    contract = models.CharField(_("contract"), max_length=16, blank=True)
    # rules.scoring.outcome_to_dict of the validated outcome (None when everybody passed)
    outcome = models.JSONField(_("outcome"), null=True, blank=True)
    value = models.IntegerField(_("value"), default=0)
    marks = models.JSONField(_("marks"), default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "party", "table__number", "deal"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "party", "deal"], name="freedeal_unique_table_deal"
            )
        ]
        verbose_name = _("free-deal result")
        verbose_name_plural = _("free-deal results")

    def __str__(self) -> str:
        return f"P{self.party} T{self.table.number} D{self.deal}"

    @property
    def contract_label(self) -> str:
        """The contract's name in the active language ("Everybody passed" for a passed deal)."""
        if self.passed:
            return gettext("Everybody passed")
        return gettext(Contract(self.contract).label)

    def mark_of(self, number: int) -> int:
        return int(self.marks.get(str(number), 0))


class FreeDealChange(ChangeRecord):
    """Append-only history of every result entry and correction: who, when, why, before/after."""

    class Action(models.TextChoices):
        CREATE = "create", _("Entered")
        CORRECT = "correct", _("Corrected")

    tournament = models.ForeignKey(
        FreeDealTournament, on_delete=models.CASCADE, related_name="changes"
    )
    # PROTECT: a result with a history is never deleted (corrections are new lines).
    result = models.ForeignKey(FreeDealResult, on_delete=models.PROTECT, related_name="history")
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)

    class Meta:
        ordering = ["tournament", "at", "pk"]
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.actor_label or self.actor_id})"


class FreeDealEntryKey(EntryKey):
    """A free-deal table phone's stored idempotency key (``clubs.idempotency``)."""

    holder = models.ForeignKey(FreeDealTable, on_delete=models.CASCADE, related_name="entry_keys")


class FreeDealLateArrival(LateArrival):
    """A free-deal table's entry kept offline and refused when it arrived
    (``clubs.late_arrivals``)."""

    holder = models.ForeignKey(
        FreeDealTable, on_delete=models.CASCADE, related_name="late_arrivals"
    )
    # A party numbers its deals from 1 again: the party the phone sent (0 when none).
    party = models.PositiveIntegerField(_("party"), default=0)

    class Meta(LateArrival.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["holder", "party", "deal"],
                condition=models.Q(handled=False),
                name="freedeal_freedeallatearrival_one_unhandled",
            )
        ]
