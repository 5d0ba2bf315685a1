"""The kernel's stored-key service and late-arrival headers (clubs.idempotency,
clubs.late_arrivals): key validation, the canonical outcome digest, the kept-since instant."""

from __future__ import annotations

import datetime
import hashlib

import pytest
from django.test import RequestFactory

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


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2026-11-27T19:02:11Z", datetime.datetime(2026, 11, 27, 19, 2, 11, tzinfo=datetime.UTC)),
        (
            "2026-11-27T19:02:11.250Z",
            datetime.datetime(2026, 11, 27, 19, 2, 11, 250000, tzinfo=datetime.UTC),
        ),
        (
            "2026-11-27T20:02:11+01:00",
            datetime.datetime(2026, 11, 27, 19, 2, 11, tzinfo=datetime.UTC),
        ),
        ("2026-11-27T19:02:11", datetime.datetime(2026, 11, 27, 19, 2, 11, tzinfo=datetime.UTC)),
    ],
)
def test_kept_since_is_an_iso_8601_instant(raw: str, expected: datetime.datetime) -> None:
    request = RequestFactory().post("/", {}, HTTP_X_ENTRY_KEPT_SINCE=raw)
    assert late_arrivals.kept_since_of(request) == expected


@pytest.mark.parametrize("raw", ["yesterday", "", "2026-13-45T99:00:00Z"])
def test_a_malformed_kept_since_is_refused_invalid(raw: str) -> None:
    request = RequestFactory().post("/", {}, HTTP_X_ENTRY_KEPT_SINCE=raw)
    with pytest.raises(DomainError) as refused:
        late_arrivals.kept_since_of(request)
    assert refused.value.code == "invalid"


def test_the_outcome_sent_leaves_out_the_token_and_the_key() -> None:
    request = RequestFactory().post(
        "/", {"csrfmiddlewaretoken": "t", "idempotency_key": "k", "d1-points": "46", "round": "1"}
    )
    assert late_arrivals.outcome_sent(request.POST) == {"d1-points": "46", "round": "1"}
