"""Writes of the kernel: clubs and their organisers, and a competition's status changes.

:func:`club_create` makes a club with its first organiser, its owner; :func:`club_update`
renames it; :func:`club_organiser_remove` removes a co-organiser, never the owner (organisers
join through an invitation: ``clubs.invitations``); :func:`club_owner_pass` passes the
ownership to another organiser: the owner may, and the instance's superuser for any club (the
way out when the owner is gone). Every change of owner is recorded (``ClubOwnerChange``).

:func:`competition_status_change` is the one state machine of every kind of competition
(``Competition.TRANSITIONS``): draft → running (start), running → finished (finish), finished →
running (reopen). Each kind's start, finish and reopen services check what is theirs (a
movement ready, every match finished, every party closed...) on the locked row, then call it.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club, ClubOwnerChange, Competition, CompetitionStatus
from clubs.signals import milestone_reached

C = TypeVar("C", bound=Competition)


def competition_lock(competition: C) -> C:
    """``competition`` read again and locked for update (call inside a transaction)."""
    model = type(competition)
    locked: C = model._default_manager.select_for_update(of=("self",)).get(pk=competition.pk)
    return locked


def _not_in(competition: Competition, status: str) -> DomainError:
    """The refusal of an action that needs ``competition`` to be in ``status``."""
    prefix = competition.code_prefix
    if status == CompetitionStatus.DRAFT:
        return DomainError(f"{prefix}_not_draft", _("It has already started."))
    if status == CompetitionStatus.RUNNING:
        return DomainError(f"{prefix}_not_running", _("It is not running."))
    return DomainError(f"{prefix}_not_finished", _("It is not finished."))


def competition_require(competition: Competition, status: str) -> None:
    """Refuse (:class:`DomainError` ``<kind>_not_<status>``) unless ``competition`` is in
    ``status``: the guard of every action that needs a status (entry needs running...)."""
    if competition.status != status:
        raise _not_in(competition, status)


def _refusal(competition: Competition, to: str) -> DomainError:
    # The status each action starts from: start from draft, finish from running, reopen from
    # finished (a running competition asked to run again "has already started").
    if to == CompetitionStatus.FINISHED:
        return _not_in(competition, CompetitionStatus.RUNNING)
    if competition.status == CompetitionStatus.RUNNING:
        return _not_in(competition, CompetitionStatus.DRAFT)
    return _not_in(competition, CompetitionStatus.FINISHED)


def competition_status_change(*, competition: C, to: str) -> C:
    """Move ``competition`` (locked by the caller, :func:`competition_lock`) to status ``to``
    along ``Competition.TRANSITIONS``, else :class:`DomainError` (``<kind>_not_draft``,
    ``<kind>_not_running``, ``<kind>_not_finished``, ``<kind>_finished``)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("competition_status_change runs inside the caller's transaction")
    if (competition.status, to) not in competition.TRANSITIONS:
        raise _refusal(competition, to)
    competition.status = to
    fields = ["status"]
    if any(f.name == "updated_at" for f in competition._meta.concrete_fields):
        fields.append("updated_at")
    competition.save(update_fields=fields)
    if to == CompetitionStatus.FINISHED:
        milestone_reached(competition, "finished")
    return competition


# --------------------------------------------------------------------------- clubs


def _club_fields(name: str, city: str) -> tuple[str, str]:
    name, city = name.strip(), city.strip()
    if not name:
        raise DomainError("club_name_required", _("Give the club's name."), field="name")
    if len(name) > 120 or len(city) > 120:
        raise DomainError(
            "club_name_too_long", _("The name and the city are at most 120 characters."), "name"
        )
    return name, city


def _name_taken(name: str, exclude: int | None = None) -> bool:
    clubs = Club.objects.filter(name__iexact=name)
    if exclude is not None:
        clubs = clubs.exclude(pk=exclude)
    return clubs.exists()


def _club_name_taken(name: str) -> DomainError:
    return DomainError(
        "club_name_taken",
        _("A club named %(name)s already exists.") % {"name": name},
        field="name",
    )


def club_create(*, name: str, city: str = "", organiser: Any) -> Club:
    """A new club organised by ``organiser`` (refused: ``club_name_required``,
    ``club_name_too_long``, ``club_name_taken`` — names compare ignoring case)."""
    name, city = _club_fields(name, city)
    if _name_taken(name):
        raise _club_name_taken(name)
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, city=city, owner=organiser)
            club.organisers.add(organiser)
            _owner_recorded(club, ClubOwnerChange.Reason.CREATED, by=organiser, previous=None)
    except IntegrityError as exc:
        raise _club_name_taken(name) from exc
    return club


def club_update(*, club: Club, name: str, city: str) -> Club:
    """Rename ``club`` or change its city (refused as :func:`club_create`)."""
    name, city = _club_fields(name, city)
    if _name_taken(name, exclude=club.pk):
        raise _club_name_taken(name)
    try:
        with transaction.atomic():
            Club.objects.filter(pk=club.pk).update(name=name, city=city)
    except IntegrityError as exc:
        raise _club_name_taken(name) from exc
    club.name, club.city = name, city
    return club


def _owner_recorded(club: Club, reason: str, *, by: Any, previous: Any) -> None:
    def name(user: Any) -> str:
        return "" if user is None else str(user.get_username())

    ClubOwnerChange.objects.create(
        club=club,
        reason=reason,
        by=by,
        by_name=name(by),
        previous=previous,
        previous_name=name(previous),
        owner=club.owner,
        owner_name=name(club.owner),
    )


def club_organiser_remove(*, club: Club, user: Any) -> None:
    """Remove ``user`` from ``club``'s organisers (refused: ``not_an_organiser``;
    ``club_owner``: the owner is never removed, nor leaves, before he has passed the ownership
    on; ``last_organiser``: a club always keeps one)."""
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)  # serialise removals
        organisers = locked.organisers.all()
        if not organisers.filter(pk=user.pk).exists():
            raise DomainError("not_an_organiser", _("This account does not organise the club."))
        if locked.owner_id == user.pk:
            raise DomainError(
                "club_owner",
                _(
                    "The club's owner cannot be removed. To leave the club, he first passes "
                    "the ownership to another organiser."
                ),
            )
        if organisers.count() <= 1:
            raise DomainError(
                "last_organiser",
                _("The last organiser of a club cannot be removed: invite another one first."),
            )
        locked.organisers.remove(user)


def club_owner_pass(*, club: Club, to: Any, by: Any) -> Club:
    """Make ``to``, an organiser of ``club``, its owner; ``by`` is the owner, or the instance's
    superuser (for any club). Recorded. Refused: ``not_the_owner`` (``by`` may not),
    ``not_an_organiser`` (``to`` does not organise the club), ``already_owner``."""
    with transaction.atomic():
        locked = (
            Club.objects.select_for_update(of=("self",)).select_related("owner").get(pk=club.pk)
        )
        administrator = bool(getattr(by, "is_superuser", False))
        if locked.owner_id != by.pk and not administrator:
            raise DomainError(
                "not_the_owner",
                _(
                    "Only the club's owner, or the administrator of this duplitarot, may pass "
                    "the ownership on."
                ),
            )
        if not locked.organisers.filter(pk=to.pk).exists():
            raise DomainError(
                "not_an_organiser",
                _("The new owner must be an organiser of the club: invite him first."),
                field="owner",
            )
        if locked.owner_id == to.pk:
            raise DomainError(
                "already_owner", _("This account already owns the club."), field="owner"
            )
        previous = locked.owner
        locked.owner = to
        locked.save(update_fields=["owner"])
        reason = (
            ClubOwnerChange.Reason.PASSED
            if previous is not None and previous.pk == by.pk
            else ClubOwnerChange.Reason.ADMINISTRATOR
        )
        _owner_recorded(locked, reason, by=by, previous=previous)
    club.owner = to
    return club
