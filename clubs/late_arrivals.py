"""Late arrivals: phone entries kept offline and refused when they arrived (every phone).

A phone that could not send an entry keeps it in its outbox and sends it later with the
header ``X-Entry-Kept-Since`` (an ISO 8601 instant). When such a save is refused (a conflict
with another result, a round or party closed or not open, the competition not running, an
impossible outcome, a key reused), the refusal is recorded (:func:`record`, a
:class:`~clubs.models.LateArrival` of the kind) so that the director sees what the table
meant to enter; replays and stored entries are not recorded. The director's control room of
each kind lists the unhandled ones (:func:`unhandled`, the kernel's
``clubs/_late_arrivals.html``) and marks one handled (:func:`mark_handled`, a POST of its
organisers only).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest
from django.utils.dateparse import parse_datetime
from django.utils.timezone import is_naive, make_aware
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.idempotency import FIELD as KEY_FIELD
from clubs.models import LateArrival
from rules.errors import field_label

HEADER = "X-Entry-Kept-Since"

# The prefix of a deal's fields in the phones' forms (``d7-points``).
DEAL_PREFIX = re.compile(r"^d\d+-")

# Form fields that are not the outcome (never kept with a late arrival).
NOT_OUTCOME = frozenset({"csrfmiddlewaretoken", KEY_FIELD})


def kept_since_of(request: HttpRequest | Any) -> datetime | None:
    """The request's ``X-Entry-Kept-Since`` (None without it); :class:`DomainError`
    ``invalid`` when it is not an ISO 8601 instant (a naive one is taken as UTC)."""
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    try:
        parsed = parse_datetime(str(raw).strip())
    except ValueError:
        parsed = None
    if parsed is None:
        raise DomainError(
            "invalid",
            _("%(header)s: expected an ISO 8601 instant, such as 2026-11-27T20:15:00Z")
            % {"header": HEADER},
        )
    return make_aware(parsed, UTC) if is_naive(parsed) else parsed


def outcome_sent(data: Mapping[str, Any]) -> dict[str, Any]:
    """The posted fields of an entry as sent (the CSRF token and the key left out)."""
    getlist = getattr(data, "getlist", None)
    sent: dict[str, Any] = {}
    for name in data:
        if name in NOT_OUTCOME:
            continue
        values = getlist(name) if getlist is not None else [data[name]]
        sent[str(name)] = values[0] if len(values) == 1 else list(values)
    return sent


def record(
    model: type[LateArrival],
    holder: Any,
    *,
    deal: int,
    outcome: Mapping[str, Any],
    error: DomainError,
    kept_since: datetime,
    errors: Mapping[str, list[str]] | None = None,
) -> LateArrival:
    """Record a refused late entry (one INSERT); ``errors`` (a form's, by field) are added
    to the refusal's message."""
    lines = [error.message, *error.details]
    for field, messages in (errors or {}).items():
        label = "" if field == "__all__" else field_label(field, _)
        lines.extend(f"{label}: {message}" if label else message for message in messages)
    manager: Any = model._default_manager  # ``holder`` is each kind's own foreign key
    created: LateArrival = manager.create(
        holder=holder,
        deal=deal,
        outcome=dict(outcome),
        code=error.code[:60],
        message=" ".join(lines),
        kept_since=kept_since,
    )
    return created


def unhandled(model: type[LateArrival], **holders: Any) -> list[Any]:
    """The late arrivals not handled yet, oldest first, of the holders ``holders`` selects
    (``holder__event=event``...), their holder loaded."""
    manager: Any = model._default_manager  # ``holder`` is each kind's own foreign key
    queryset = manager.filter(handled=False, **holders).select_related("holder")
    return list(queryset.order_by("arrived_at", "pk"))


def mark_handled(model: type[LateArrival], pk: int, **holders: Any) -> bool:
    """Mark late arrival ``pk`` handled, if it belongs to the holders ``holders`` selects;
    False when there is no such one (the view answers 404)."""
    manager: Any = model._default_manager
    return bool(manager.filter(pk=pk, **holders).update(handled=True))


@dataclass(frozen=True)
class LateRow:
    """A line of the control room's list: the arrival, where it came from, the page where the
    director enters or corrects that deal, and the URL of its "handled" button."""

    arrival: Any
    where: str
    fix_url: str
    handled_url: str

    @property
    def fields(self) -> list[tuple[str, str]]:
        """The outcome sent as (field, value) pairs, for the director to read: the fields
        named as the messages name them (the form's deal prefix left out), empty ones
        skipped."""
        outcome = self.arrival.outcome or {}
        labels = {"round": _("Round"), "party": _("Party"), "taker": _("Taker")}
        pairs = []
        for name, value in outcome.items():
            if value in ("", None, []):
                continue
            field = DEAL_PREFIX.sub("", str(name))
            label = labels.get(field) or field_label(field, _)
            pairs.append((label.replace("_", " "), str(value)))
        return pairs
