"""Late arrivals: phone entries kept offline and refused when they arrived (every phone).

A phone that could not send an entry keeps it in its outbox and sends it later with the
header ``X-Entry-Kept-Since`` (an ISO 8601 instant, from the phone's own clock). When such a
save is refused (a conflict with another result, a round or party closed or not open, the
competition not running, an impossible outcome, a key reused), the refusal is recorded
(:func:`record`, a :class:`~clubs.models.LateArrival` of the kind) so that the director sees
what the table meant to enter; replays and stored entries are not recorded. The director's
control room of each kind lists the unhandled ones, 50 to a page (:func:`unhandled`,
:func:`late_list`, the kernel's ``clubs/_late_arrivals.html``) and marks one handled
(:func:`mark_handled`, a POST of its organisers only).

What a phone sends is bounded, whatever it sends:

- **the instant** never refuses a save (:func:`kept_since_of`): outside the competition's
  window (its start less a day, now plus five minutes) or unreadable, it is stored clamped
  into the window (now when unreadable) with the phone's text beside it (at most 64
  characters), so that no stored instant overflows when shown in local time;
- **the outcome** keeps only the kind's outcome fields, each at most
  :data:`VALUE_MAX` characters (:func:`outcome_sent`), and the message is capped;
- **one unhandled arrival per holder and deal** (and party, for a free-deal table): the
  latest replaces it (:func:`record`; a conditional unique constraint in the database).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import LateArrival
from clubs.outcomes import Contract, PoigneeSize, Seat, Side
from rules.errors import field_label

HEADER = "X-Entry-Kept-Since"

# The prefix of a deal's fields in the phones' forms (``d7-points``).
DEAL_PREFIX = re.compile(r"^d\d+-")

#: The longest value kept of a field sent, and of the phone's text of the header.
VALUE_MAX = 200
SENT_MAX = 64
#: The most values kept of a field sent several times, and the longest refusal message.
VALUES_MAX = 10
MESSAGE_MAX = 2000
#: How far before the competition's start and after now a kept-since instant may be.
BEFORE_START = timedelta(days=1)
AFTER_NOW = timedelta(minutes=5)
#: The director's list, to a page.
PAGE_SIZE = 50


# ------------------------------------------------------------------------------ the instant


@dataclass(frozen=True)
class KeptSince:
    """The instant an entry waited since, as stored: ``instant`` within the competition's
    window; ``sent`` the phone's text (at most 64 characters) when it was not used as is."""

    instant: datetime
    sent: str = ""


def competition_start(competition: Any) -> datetime:
    """When ``competition`` started, as far as the database knows: the earlier of its date
    (midnight, local time) and its creation."""
    created: datetime | None = getattr(competition, "created_at", None)
    starts: list[datetime] = [created] if created is not None else []
    try:
        day = datetime.combine(competition.date, time.min)
        starts.append(timezone.make_aware(day))
    except (AttributeError, TypeError, ValueError, OverflowError):
        pass
    return min(starts) if starts else timezone.now()


def _parse(text: str) -> datetime | None:
    """``text`` as an aware instant (a naive one taken as UTC), None when it is none."""
    try:
        parsed = parse_datetime(text)
        if parsed is None:
            return None
        if timezone.is_naive(parsed):
            parsed = parsed.replace(tzinfo=UTC)
        parsed.utcoffset()  # an offset of a day or more fails here
    except (ValueError, OverflowError, TypeError):
        return None
    return parsed


def kept_since_of(request: HttpRequest | Any, start: datetime) -> KeptSince | None:
    """The request's ``X-Entry-Kept-Since`` (None without it), never a refusal: an instant
    within [``start`` less a day, now plus five minutes] as sent (in UTC); another one
    clamped into that window, an unreadable one now, each with the phone's text."""
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    text = str(raw).strip()
    now = timezone.now()
    latest = now + AFTER_NOW
    try:
        earliest = min(start - BEFORE_START, latest)
    except OverflowError:
        earliest = min(start, latest)
    parsed = _parse(text)
    sent = text[:SENT_MAX]
    if parsed is None:
        return KeptSince(now, sent)
    # Comparing aware instants never overflows (Python compares them as if in UTC).
    if parsed < earliest:
        return KeptSince(earliest, sent)
    if parsed > latest:
        return KeptSince(latest, sent)
    return KeptSince(parsed.astimezone(UTC))


def shown(instant: datetime | None, fmt: str = "j b, H:i:s") -> str:
    """``instant`` in local time for the director's list; an instant local time cannot
    show (stored before it was clamped) in UTC, as ISO 8601."""
    if instant is None:
        return ""
    try:
        return date_format(timezone.localtime(instant), fmt)
    except (OverflowError, ValueError):
        return instant.isoformat()


# ------------------------------------------------------------------------------ the outcome


def _capped(value: Any) -> str:
    return str(value)[:VALUE_MAX]


def outcome_sent(data: Mapping[str, Any], fields: Collection[str]) -> dict[str, Any]:
    """The posted ``fields`` of an entry as sent (any other one dropped), each value at most
    :data:`VALUE_MAX` characters (at most :data:`VALUES_MAX` values of a field sent several
    times)."""
    getlist = getattr(data, "getlist", None)
    sent: dict[str, Any] = {}
    for name in fields:
        if name not in data:
            continue
        values = getlist(name) if getlist is not None else [data[name]]
        if len(values) == 1:
            sent[str(name)] = _capped(values[0])
        else:
            sent[str(name)] = [_capped(value) for value in values[:VALUES_MAX]]
    return sent


def cap_stored(outcome: Any, fields_max: int = 40) -> dict[str, Any]:
    """An outcome stored before the caps, capped (migrations): at most ``fields_max`` fields
    of short names, each value as :func:`outcome_sent` keeps it; a deal's own fields
    (``d3-contract``...) first, then by name, whatever order the database keeps the keys in
    (PostgreSQL's jsonb sorts them by length)."""
    capped: dict[str, Any] = {}
    if not isinstance(outcome, dict):
        return capped
    ordered = sorted(
        outcome.items(), key=lambda item: (DEAL_PREFIX.match(str(item[0])) is None, str(item[0]))
    )
    for name, value in ordered:
        if len(capped) >= fields_max:
            break
        if len(str(name)) > SENT_MAX:
            continue
        if isinstance(value, list):
            capped[str(name)] = [_capped(v) for v in value[:VALUES_MAX]]
        else:
            capped[str(name)] = _capped(value)
    return capped


# ------------------------------------------------------------------------------ the records


def record(
    model: type[LateArrival],
    holder: Any,
    *,
    deal: int,
    outcome: Mapping[str, Any],
    error: Any,
    kept: KeptSince,
    errors: Mapping[str, list[str]] | None = None,
    scope: Mapping[str, Any] | None = None,
) -> None:
    """Record a refused late entry: the holder's unhandled arrival of that deal (and
    ``scope``, a free-deal table's party) replaced by this one, or a new one; race-safe (the
    database keeps one, a concurrent insert is turned into a replacement). ``errors`` (a
    form's, by field) are added to the refusal's message."""
    lines = [error.message, *error.details]
    for field, messages in (errors or {}).items():
        label = "" if field == "__all__" else field_label(field, _)
        lines.extend(f"{label}: {message}" if label else message for message in messages)
    values = {
        "outcome": dict(outcome),
        "code": error.code[:60],
        "message": " ".join(str(line) for line in lines)[:MESSAGE_MAX],
        "kept_since": kept.instant,
        "kept_since_sent": kept.sent[:SENT_MAX],
    }
    manager: Any = model._default_manager  # ``holder`` is each kind's own foreign key
    lookup = {"holder": holder, "deal": deal, "handled": False, **(scope or {})}
    for _attempt in range(3):
        if manager.filter(**lookup).update(arrived_at=timezone.now(), **values):
            return
        try:
            with transaction.atomic():
                manager.create(**lookup, **values)
            return
        except IntegrityError:
            continue  # another request recorded it meanwhile: replace that one
    raise RuntimeError("late arrival: neither replaced nor inserted")


def bound_stored(model: Any, party: bool = False) -> None:
    """Migrations: cap the outcomes stored before the caps, clamp instants local time cannot
    show, give a free-deal arrival its party (``party``), and keep one unhandled arrival per
    holder and deal (the latest; the others marked handled, never deleted)."""
    manager = model._default_manager
    low = datetime(2, 1, 1, tzinfo=UTC)
    high = datetime(9998, 12, 31, tzinfo=UTC)
    latest: dict[tuple[Any, ...], int] = {}
    older: list[int] = []
    pks = list(manager.order_by("arrived_at", "pk").values_list("pk", flat=True))
    for start in range(0, len(pks), 200):  # a flood's fat outcomes, 200 at a time
        batch = manager.in_bulk(pks[start : start + 200])
        for pk in pks[start : start + 200]:
            _bound_row(batch[pk], low, high, party, latest, older)
    for start in range(0, len(older), 500):
        manager.filter(pk__in=older[start : start + 500]).update(handled=True)


def _bound_row(
    row: Any,
    low: datetime,
    high: datetime,
    party: bool,
    latest: dict[tuple[Any, ...], int],
    older: list[int],
) -> None:
    """One stored arrival bounded (:func:`bound_stored`); its key noted for the duplicates."""
    changed = []
    capped = cap_stored(row.outcome)
    if capped != row.outcome:
        row.outcome = capped
        changed.append("outcome")
    if not low <= row.kept_since <= high:
        row.kept_since_sent = row.kept_since.isoformat()[:SENT_MAX]
        row.kept_since = row.arrived_at
        changed += ["kept_since", "kept_since_sent"]
    if party:
        raw = str(capped.get("party", "")).strip()
        row.party = int(raw) if raw.isdigit() and len(raw) < 6 else 0
        changed.append("party")
    if changed:
        row.save(update_fields=changed)
    if not row.handled:
        key = (row.holder_id, getattr(row, "party", 0), row.deal)
        if key in latest:
            older.append(latest[key])
        latest[key] = row.pk


def unhandled(model: type[LateArrival], **holders: Any) -> Any:
    """The late arrivals not handled yet, oldest first, of the holders ``holders`` selects
    (``holder__event=event``...), their holder loaded (a queryset)."""
    manager: Any = model._default_manager  # ``holder`` is each kind's own foreign key
    queryset = manager.filter(handled=False, **holders).select_related("holder")
    return queryset.order_by("arrived_at", "pk")


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
    def kept_since(self) -> str:
        return shown(self.arrival.kept_since)

    @property
    def arrived_at(self) -> str:
        return shown(self.arrival.arrived_at)

    @property
    def fields(self) -> list[tuple[str, str]]:
        """The outcome sent as (field, value) pairs, for the director to read: the fields
        named as the messages name them (the form's deal prefix left out), empty ones
        skipped (an outcome stored before the caps shown capped)."""
        outcome = cap_stored(self.arrival.outcome or {})
        labels = {"round": _("Round"), "party": _("Party"), "taker": _("Taker")}
        pairs = []
        for name, value in outcome.items():
            if value in ("", None, []):
                continue
            field = DEAL_PREFIX.sub("", str(name))
            label = labels.get(field) or field_label(field, _)
            text = str(value)
            pairs.append((label.replace("_", " "), str(choice_labels().get(text, text))))
        return pairs


@dataclass(frozen=True)
class LateList:
    """One page of the director's list: its rows, how many arrivals wait in all, and the
    addresses of the previous and next pages (None at either end)."""

    rows: list[LateRow]
    total: int
    number: int
    pages: int
    previous_url: str | None
    next_url: str | None


def late_list(
    arrivals: Any,
    page: Any,
    row: Callable[[Any], LateRow],
    url: Callable[[int], str],
) -> LateList:
    """Page ``page`` (any text: the first page unless a page number) of the queryset
    ``arrivals``, :data:`PAGE_SIZE` to a page, each arrival made a row by ``row``; ``url(n)``
    the address of page ``n``."""
    paginator = Paginator(arrivals, PAGE_SIZE)
    current = paginator.get_page(page)
    rows = [row(arrival) for arrival in current.object_list]
    return LateList(
        rows=rows,
        total=paginator.count,
        number=current.number,
        pages=paginator.num_pages,
        previous_url=url(current.number - 1) if current.has_previous() else None,
        next_url=url(current.number + 1) if current.has_next() else None,
    )


def page_param(request: HttpRequest) -> str:
    """The page of the director's list a request asks for (``?late=n``)."""
    return str(request.GET.get("late") or "")


def choice_labels() -> dict[str, Any]:
    """The words a director reads for the values an outcome's choices are sent as
    (``garde_sans``: « Garde sans », ``W``: « Ouest »...), in the active language."""
    labels: dict[str, Any] = {}
    for choices in (Contract, Side, PoigneeSize, Seat):
        labels.update(dict(choices.choices))
    return labels
