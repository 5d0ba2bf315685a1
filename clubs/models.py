"""Clubs, their player register, and what every competition of a club shares.

- :class:`Club`: a club and its organisers (the accounts that direct its competitions), one
  of them its owner; :class:`ClubOwnerChange`: the record of every change of owner.
- :class:`Player`: a player of the register; a licence number identifies one player across
  clubs (unique when given); a player without one (a guest) still plays; his series
  (:class:`PlayerSeries`) is the federation's, one per player like his name. His folded names and
  his sort key (:mod:`rules.names`) are stored beside his names and kept in step by every write
  (``save``, ``bulk_create``, ``bulk_update``; ``update`` refuses to change a name): searches
  and lists use them in the database.
- :class:`Competition`: the abstract base of every kind of competition (duplicate events,
  team-match cups, free-deal tournaments): club, name, date, public flag and a status that only
  moves along :data:`Competition.TRANSITIONS` (``clubs.services.competition_status_change``).
- :class:`ChangeRecord`: the abstract line of an append-only history of result changes;
  :class:`EnteredBy`: who last wrote a result (account, name, :class:`EnteredVia` path), the
  same fields on every kind's result. :mod:`clubs.history` writes both.
- :class:`EntryKey`: the abstract stored idempotency key of a phone save (one per holder and
  key: a table, a cup room, a free-deal table); :mod:`clubs.idempotency` reads and writes it.
- :class:`LateArrival`: the abstract record of a phone entry kept offline and refused when it
  arrived (the director's control room lists it until he marks it handled).

The tables keep the names they had in the ``tournaments`` app until migration 0002 renames
them (``clubs/migrations``): moving the models kept every row.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules import names as name_rules


class Club(models.Model):
    """A club: its organisers direct its competitions; one of them, the *owner*, cannot be
    removed by the others and passes the ownership on before he may leave
    (``clubs.services``: every change of owner is a :class:`ClubOwnerChange`)."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="clubs", blank=True, verbose_name=_("organisers")
    )
    #: One of the organisers; None only when his account was deleted (the instance's
    #: superuser then passes the ownership to another organiser).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="owned_clubs",
        verbose_name=_("owner"),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class PlayerSeries(models.TextChoices):
    """A licensed player's series in the federation's classification, as stored (the forms a
    file may write are read by ``clubs.register.series_code``); ``""``: none."""

    FIRST = "1", _("1st series")
    SECOND = "2", _("2nd series")
    THIRD = "3", _("3rd series")
    FOURTH = "4", _("4th series")
    PROMOTION = "P", _("Promotion")


#: The names a player is written with, and the columns derived from them.
NAME_FIELDS = frozenset({"first_name", "last_name"})
DERIVED_NAME_FIELDS = ("last_name_folded", "first_name_folded", "name_sort_key")


class PlayerQuerySet(models.QuerySet["Player"]):
    """Writes in bulk keep the derived name columns in step with the names."""

    def bulk_create(  # type: ignore[override]
        self, objs: Iterable[Player], *args: Any, **kwargs: Any
    ) -> list[Player]:
        players = list(objs)
        for player in players:
            player.names_derive()
        # (django-stubs leaves the subclass's model unbound in these two calls)
        return super().bulk_create(players, *args, **kwargs)  # type: ignore[arg-type,return-value]

    def bulk_update(  # type: ignore[override]
        self, objs: Iterable[Player], fields: Sequence[str], *args: Any, **kwargs: Any
    ) -> int:
        players, fields = list(objs), list(fields)
        if NAME_FIELDS.intersection(fields):
            for player in players:
                player.names_derive()
            fields += [name for name in DERIVED_NAME_FIELDS if name not in fields]
        return super().bulk_update(players, fields, *args, **kwargs)  # type: ignore[arg-type]

    def update(self, **kwargs: Any) -> int:
        # bulk_update() comes here with the derived columns; nothing else may change a name.
        if NAME_FIELDS.intersection(kwargs) and not set(DERIVED_NAME_FIELDS) <= kwargs.keys():
            raise TypeError("a player's names change through save() or bulk_update()")
        return super().update(**kwargs)


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    licence = models.CharField(
        _("licence number"), max_length=20, unique=True, null=True, blank=True
    )
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
    series = models.CharField(_("series"), max_length=20, blank=True, choices=PlayerSeries.choices)
    # Derived from the names (rules.names), never written by hand: see names_derive().
    last_name_folded = models.CharField(max_length=name_rules.FOLD_LENGTH, editable=False)
    first_name_folded = models.CharField(max_length=name_rules.FOLD_LENGTH, editable=False)
    name_sort_key = models.CharField(max_length=name_rules.SORT_KEY_LENGTH, editable=False)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name_sort_key", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [
            models.Index(fields=["name_sort_key"], name="clubs_player_sort_key_idx"),
            models.Index(
                fields=["last_name_folded", "first_name_folded"], name="clubs_player_folded_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.last_name.upper()} {self.first_name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.names_derive()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and NAME_FIELDS.intersection(update_fields):
            kwargs["update_fields"] = {*update_fields, *DERIVED_NAME_FIELDS}
        super().save(*args, **kwargs)

    def names_derive(self) -> None:
        """Fill the folded names and the sort key from the names."""
        self.last_name_folded = name_rules.fold(self.last_name)
        self.first_name_folded = name_rules.fold(self.first_name)
        self.name_sort_key = name_rules.sort_key(self.last_name, self.first_name)


class DirectedByClub:
    """What ``clubs.access`` asks of anything a club's organisers direct (a competition, a
    series): which rows the organisers of some clubs direct, and which clubs direct a row. A
    kind may widen both (a section of a simultaneous: ``tournaments.models.Event``)."""

    club_id: int

    @classmethod
    def directed_by_clubs(cls, clubs: Any) -> Q:
        """The rows directed by the organisers of ``clubs`` (a queryset of club ids)."""
        return Q(club__in=clubs)

    def director_club_ids(self) -> list[int]:
        """The clubs whose organisers direct this row."""
        return [self.club_id]


class CompetitionStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Competition(DirectedByClub, models.Model):
    """What every kind of competition has: a club, a name, a date, a public flag, a status.

    The status moves only along :attr:`TRANSITIONS` (draft → running → finished, and a
    finished competition reopened to running), through
    :func:`clubs.services.competition_status_change`, which every kind's start, finish and
    reopen services call after their own checks.

    Access (``clubs.access``): a competition is directed by the organisers of its club
    (:meth:`directed_by_clubs`, which a kind may widen: a section of a simultaneous is also
    directed by the simultaneous's club) and seen by everybody once public.
    """

    Status = CompetitionStatus

    #: Allowed status changes and the action each one is.
    TRANSITIONS: ClassVar[dict[tuple[str, str], str]] = {
        (CompetitionStatus.DRAFT, CompetitionStatus.RUNNING): "start",
        (CompetitionStatus.RUNNING, CompetitionStatus.FINISHED): "finish",
        (CompetitionStatus.FINISHED, CompetitionStatus.RUNNING): "reopen",
    }
    #: The stem of the error codes of refused changes (``event_not_running``...).
    code_prefix: ClassVar[str] = "competition"

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="%(class)ss", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=CompetitionStatus.choices,
        default=CompetitionStatus.DRAFT,
    )
    public = models.BooleanField(_("public"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    @property
    def running(self) -> bool:
        return self.status == CompetitionStatus.RUNNING

    @property
    def finished(self) -> bool:
        return self.status == CompetitionStatus.FINISHED

    @property
    def provisional(self) -> bool:
        """Whether its published figures may still change (anything but finished)."""
        return self.status != CompetitionStatus.FINISHED


class ChangeRecord(models.Model):
    """A line of an append-only history of result changes: who (a user, or a label such as a
    table), when, why, and the result before and after. Each history (duplicate results, room
    results of a team match, free-deal results) adds its result and its actions."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor_label = models.CharField(_("by"), max_length=120, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        abstract = True


class EnteredVia(models.TextChoices):
    """By which path a result was last written (``EnteredBy.entered_via``)."""

    TABLE = "table", _("table's phone")
    API = "api", _("API")
    ORGANISER = "organiser", _("director")
    IMPORT = "import", _("import")


class EnteredBy(models.Model):
    """Who last wrote a result, the same for every kind (a duplicate table's result, a cup
    room's, a free-deal deal's): the account when one signed in (the director), the name shown
    (the account's name, or the phone's label: "table 3", "Open room phone") and the path
    (:class:`EnteredVia`). Written only through :mod:`clubs.history`."""

    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_by_label = models.CharField(_("entered by"), max_length=120, blank=True)
    entered_via = models.CharField(
        _("entered via"), max_length=12, choices=EnteredVia.choices, blank=True
    )

    class Meta:
        abstract = True

    @property
    def entered_by_director(self) -> bool:
        """Written on the director's screens (his entry or correction, his decision)."""
        return self.entered_via == EnteredVia.ORGANISER


class EntryKey(models.Model):
    """A phone save's ``Idempotency-Key`` as stored for its holder (a table, a cup room, a
    free-deal table; each kind adds ``holder``, a foreign key deleted with it, unique with
    ``key``): the deal, the SHA-256 of the canonical outcome sent, the result stored and its
    state's digest then (to tell a replay whose result the director corrected since). Written
    and read by :mod:`clubs.idempotency` only."""

    key = models.CharField(max_length=255)
    deal = models.PositiveIntegerField()
    digest = models.CharField(max_length=64)
    result_pk = models.BigIntegerField(null=True, blank=True)
    result_digest = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        constraints = [
            models.UniqueConstraint(
                fields=["holder", "key"], name="%(app_label)s_%(class)s_unique_key"
            )
        ]


class LateArrival(models.Model):
    """A phone entry that waited in the phone's outbox (``X-Entry-Kept-Since``) and was refused
    when it arrived: the deal, the outcome as sent (the kind's outcome fields only, each
    capped), why it was refused, when it was kept and when it arrived. Each kind adds
    ``holder`` (its table or room, deleted with it); at most one unhandled arrival per holder
    and deal. The director lists the unhandled ones and marks them handled
    (:mod:`clubs.late_arrivals`)."""

    deal = models.PositiveIntegerField(_("deal"))
    outcome = models.JSONField(_("outcome sent"), default=dict)
    code = models.CharField(_("refusal"), max_length=60)
    message = models.TextField(_("reason"), blank=True)
    kept_since = models.DateTimeField(_("kept since"))
    # The phone's own text of ``X-Entry-Kept-Since`` when it was not used as is (an instant
    # outside the competition's window, clamped into it, or no instant at all); else empty.
    kept_since_sent = models.CharField(
        _("kept since, as the phone said"), max_length=64, blank=True
    )
    arrived_at = models.DateTimeField(_("arrived at"), auto_now_add=True)
    handled = models.BooleanField(_("handled"), default=False)

    class Meta:
        abstract = True
        ordering = ["arrived_at", "pk"]
        # One unhandled arrival per holder and deal: the latest replaces it
        # (``clubs.late_arrivals.record``).
        constraints = [
            models.UniqueConstraint(
                fields=["holder", "deal"],
                condition=models.Q(handled=False),
                name="%(app_label)s_%(class)s_one_unhandled",
            )
        ]


class Membership(models.Model):
    """A line of a club's player register: the player, his category in the club, and whether
    he is an active member (only active ones are offered by the competitions' pickers).

    A player may be on several clubs' registers (his licence identifies him across clubs); his
    home club is ``Player.club``. Written through ``clubs.register``.
    """

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    category = models.CharField(_("category"), max_length=40, blank=True)
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("added on"), auto_now_add=True)

    class Meta:
        ordering = ["player__name_sort_key", "pk"]
        verbose_name = _("register line")
        verbose_name_plural = _("register lines")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="clubs_membership_unique")
        ]
        indexes = [models.Index(fields=["club", "active"], name="clubs_membership_active_idx")]

    def __str__(self) -> str:
        return f"{self.player} ({self.club})"


class OrganiserInvitation(models.Model):
    """A single-use link that makes whoever opens it an organiser of ``club``.

    Only the SHA-256 of its random token is stored (the link is shown once to the organiser who
    creates it); it is valid until ``expires_at``, once (``accepted_at``), unless revoked.
    Written through ``clubs.invitations``.
    """

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created on"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires on"))
    accepted_at = models.DateTimeField(_("accepted on"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    revoked_at = models.DateTimeField(_("revoked on"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("organiser invitation")
        verbose_name_plural = _("organiser invitations")

    def __str__(self) -> str:
        return f"{self.club} ({self.created_at:%Y-%m-%d})"


class ClubOwnerChange(models.Model):
    """A line of the record of a club's owners: when, by whom, from whom to whom, and how
    (the club created, the owner given by the migration that brought owners in, passed on by
    the owner, or by the instance's administrator). The accounts' names are kept beside them:
    the line still reads the same after an account is deleted. Written by ``clubs.services``."""

    class Reason(models.TextChoices):
        CREATED = "created", _("club created")
        MIGRATION = "migration", _("owner given on upgrade")
        PASSED = "passed", _("passed on by the owner")
        ADMINISTRATOR = "administrator", _("passed on by the administrator")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="owner_changes", verbose_name=_("club")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.CharField(_("how"), max_length=20, choices=Reason.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by_name = models.CharField(_("by"), max_length=150, blank=True)
    previous = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    previous_name = models.CharField(_("previous owner"), max_length=150, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    owner_name = models.CharField(_("new owner"), max_length=150, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("change of owner")
        verbose_name_plural = _("changes of owner")

    def __str__(self) -> str:
        return f"{self.club}: {self.previous_name or '-'} -> {self.owner_name or '-'}"
