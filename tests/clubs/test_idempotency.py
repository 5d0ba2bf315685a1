"""The kernel's stored-key service and late-arrival headers (clubs.idempotency,
clubs.late_arrivals): key validation, the canonical outcome digest, the kept-since instant."""

from __future__ import annotations

import datetime
import hashlib

import pytest
from django.test import RequestFactory
from django.utils import timezone

from clubs import idempotency, late_arrivals
from clubs.errors import DomainError


def test_the_digest_is_the_sha256_of_the_sorted_compact_json() -> None:
    outcome = {"points": 46, "contract": "garde", "chelem": {"made_by": None, "announced": ""}}
    text = '{"chelem":{"announced":"","made_by":null},"contract":"garde","points":46}'
    assert idempotency.outcome_digest(outcome) == hashlib.sha256(text.encode()).hexdigest()
    reordered = {"contract": "garde", "chelem": {"announced": "", "made_by": None}, "points": 46}
    assert idempotency.outcome_digest(reordered) == idempotency.outcome_digest(outcome)
    assert idempotency.outcome_digest({**outcome, "points": 47}) != idempotency.outcome_digest(
        outcome
    )


@pytest.mark.parametrize("key", ["a", "~" * 255, "8f14e45f-ceea-167a 5a36", "0" * 32])
def test_a_key_of_1_to_255_printable_ascii_characters_is_valid(key: str) -> None:
    assert idempotency.valid_key(key) == key


@pytest.mark.parametrize("key", ["", "x" * 256, "clé", "a\nb", "\x7f"])
def test_any_other_key_is_refused_invalid(key: str) -> None:
    with pytest.raises(DomainError) as refused:
        idempotency.valid_key(key)
    assert refused.value.code == "invalid" and "Idempotency-Key" in refused.value.message


def test_the_header_wins_over_the_form_field() -> None:
    factory = RequestFactory()
    both = factory.post("/", {"idempotency_key": "field"}, HTTP_IDEMPOTENCY_KEY="header")
    assert idempotency.key_of(both) == "header"
    assert idempotency.key_of(factory.post("/", {"idempotency_key": "field"})) == "field"
    assert idempotency.key_of(factory.post("/", {})) is None


UTC = datetime.UTC
NOW = timezone.now()
START = NOW - datetime.timedelta(hours=2)  # the competition's start
EARLIEST = START - datetime.timedelta(days=1)
LATEST_SLACK = datetime.timedelta(minutes=5)


def kept(raw: str) -> late_arrivals.KeptSince | None:
    request = RequestFactory().post("/", {}, HTTP_X_ENTRY_KEPT_SINCE=raw)
    return late_arrivals.kept_since_of(request, START)


def iso(instant: datetime.datetime, offset_hours: int = 0) -> str:
    zone = datetime.timezone(datetime.timedelta(hours=offset_hours))
    return instant.astimezone(zone).isoformat()


@pytest.mark.parametrize("offset", [0, 1, -14, 14])
def test_a_kept_since_inside_the_window_is_kept_as_sent_in_utc(offset: int) -> None:
    instant = NOW - datetime.timedelta(minutes=37, microseconds=250000)
    got = kept(iso(instant, offset))
    assert got == late_arrivals.KeptSince(instant, "")
    assert got is not None and got.instant.utcoffset() == datetime.timedelta(0)


def test_a_naive_kept_since_is_taken_as_utc() -> None:
    instant = (NOW - datetime.timedelta(hours=1)).replace(microsecond=0)
    got = kept(instant.replace(tzinfo=None).isoformat())
    assert got == late_arrivals.KeptSince(instant, "")


def test_no_header_no_kept_since() -> None:
    assert late_arrivals.kept_since_of(RequestFactory().post("/", {}), START) is None


@pytest.mark.parametrize(
    "raw",
    ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59-14:00", "9999-12-31T23:59:59.999999+14:00"],
)
def test_a_kept_since_in_the_future_is_clamped_to_now_plus_five_minutes(raw: str) -> None:
    got = kept(raw)
    assert got is not None and got.sent == raw
    assert NOW + LATEST_SLACK <= got.instant <= timezone.now() + LATEST_SLACK


@pytest.mark.parametrize(
    "raw", ["0001-01-01T00:00:00+01:00", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00-14:00"]
)
def test_a_kept_since_before_the_competition_is_clamped_to_its_start_less_a_day(
    raw: str,
) -> None:
    assert kept(raw) == late_arrivals.KeptSince(EARLIEST, raw)


@pytest.mark.parametrize(
    "raw", ["yesterday", "", "2026-13-45T99:00:00Z", "2026-11-27T19:02:11+25:00", "x" * 500]
)
def test_an_unreadable_kept_since_is_now_with_the_phones_text(raw: str) -> None:
    got = kept(raw)
    assert got is not None and got.sent == raw[:64] and len(got.sent) <= 64
    assert NOW <= got.instant <= timezone.now()


def test_an_instant_local_time_cannot_show_is_shown_in_utc() -> None:
    far = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)
    assert late_arrivals.shown(far) == "9999-12-31T23:59:59+00:00"
    assert late_arrivals.shown(datetime.datetime(2026, 11, 27, 19, 2, 11, tzinfo=UTC))


def test_the_outcome_sent_keeps_the_kinds_fields_only_each_capped() -> None:
    posted = {
        "csrfmiddlewaretoken": "t", "idempotency_key": "k", "d1-points": "4" * 5000,
        "round": "1", "d1-contract": ["garde"] * 50, **{f"junk{n}": "x" * 100 for n in range(900)},
    }  # fmt: skip
    request = RequestFactory().post("/", posted)
    fields = {"d1-points", "d1-contract", "d1-oudlers", "round"}
    sent = late_arrivals.outcome_sent(request.POST, fields)
    assert sent == {"d1-points": "4" * 200, "round": "1", "d1-contract": ["garde"] * 10}
