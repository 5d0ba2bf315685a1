"""Writes of the kernel: a competition's status changes.

:func:`competition_status_change` is the one state machine of every kind of competition
(``Competition.TRANSITIONS``): draft → running (start), running → finished (finish), finished →
running (reopen). Each kind's start, finish and reopen services check what is theirs (a
movement ready, every match finished, every party closed...) on the locked row, then call it.
"""

from __future__ import annotations

from typing import TypeVar

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club, Competition, CompetitionStatus
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


@transaction.atomic
def club_create(*, name: str, city: str = "", organiser: User) -> Club:
    """A new club, directed by ``organiser`` (club names are unique)."""
    name, city = name.strip(), city.strip()
    if not name:
        raise DomainError("club_name_required", _("Give the club's name."), field="name")
    if Club.objects.filter(name__iexact=name).exists():
        raise DomainError(
            "club_name_taken",
            _("A club named %(name)s already exists.") % {"name": name},
            field="name",
        )
    club = Club.objects.create(name=name[:120], city=city[:120])
    club.organisers.add(organiser)
    return club
