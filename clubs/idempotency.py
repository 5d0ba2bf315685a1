"""Stored idempotency keys of phone saves (every phone: duplicate tables, cup rooms, free-deal
tables, and their APIs): the one service, and the only code that reads the
``Idempotency-Key`` header (a test checks it).

A phone makes one random key per entry and sends it with every attempt (``Idempotency-Key``
header, or the ``idempotency_key`` form field without the header). The server keeps one
:class:`~clubs.models.EntryKey` per (holder, key): the deal, the SHA-256 of the canonical
outcome (:func:`outcome_digest`: JSON with sorted keys of the outcome the form produced), the
stored result's pk and the digest of its state then.

- :func:`key_of`: the key of a request (None without one); a malformed key (not 1 to 255
  printable ASCII characters) is a :class:`~clubs.errors.DomainError` ``invalid`` (400).
- :func:`check`: before the save. A known key with the same deal and outcome is a **replay**
  (:attr:`KeyCheck.replay`): nothing is written, whatever happened since (a correction by the
  director included); the answer carries the result stored now, ``corrected`` when its state
  is no longer the one the key stored (:func:`corrected`). A known key with another deal or
  outcome raises :class:`IdempotencyKeyReused` (409 ``idempotency_key_reused``, never a
  replay). One query.
- :func:`remember`: after a save that stored the result (or found this very outcome already
  stored): one INSERT, a concurrent twin with the same key ignored.

Records live as long as their holder (a foreign key, deleted with it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import EntryKey

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
MAX_LENGTH = 255
REPLAYED_HEADER = "Idempotent-Replayed"


class IdempotencyKeyReused(DomainError):
    """A known key came with another deal or outcome: refused (409), nothing written.

    ``record`` is the stored key; ``stored`` the result it stored, as stored now (set by the
    save that reads it: :func:`clubs.phone.phone_save`), which the answer carries like any
    conflict's."""

    http_status = 409

    def __init__(self, deal: int, record: EntryKey | None = None) -> None:
        self.record = record
        self.stored: Any = None
        self.hidden = False
        super().__init__(
            "idempotency_key_reused",
            _(
                "this entry's key was already used for another outcome or deal: nothing was "
                "saved for deal %(deal)s"
            )
            % {"deal": deal},
            field="deal",
        )


def valid_key(key: str) -> str:
    """``key`` when it is 1 to 255 printable ASCII characters, else :class:`DomainError`."""
    if not 0 < len(key) <= MAX_LENGTH or not all(" " <= c <= "~" for c in key):
        raise DomainError(
            "invalid",
            _("%(header)s: expected 1 to %(max)s printable ASCII characters")
            % {"header": HEADER, "max": MAX_LENGTH},
        )
    return key


def header_key(request: HttpRequest | Any) -> str | None:
    """The request's ``Idempotency-Key`` header as sent, or None (the body is not read: an
    error answer echoes it whatever the body)."""
    key = request.headers.get(HEADER)
    return None if key is None else str(key)


def key_of(request: HttpRequest | Any) -> str | None:
    """The request's key: the ``Idempotency-Key`` header, else the ``idempotency_key`` form
    field (a form post); None without either. Raises :class:`DomainError` if malformed."""
    key = request.headers.get(HEADER)
    if key is None:
        posted = getattr(request, "POST", None)
        key = posted.get(FIELD) if posted is not None else None
    if key is None:
        return None
    return valid_key(str(key))


def outcome_digest(outcome: Mapping[str, Any] | None) -> str:
    """SHA-256 (hex) of the canonical JSON of ``outcome``: sorted keys, no spaces."""
    text = json.dumps(outcome, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class KeyCheck:
    """A save's key as :func:`check` found it: ``record`` is the stored one (a replay)."""

    model: type[EntryKey]
    holder: Model
    key: str
    deal: int
    digest: str
    record: EntryKey | None = None

    @property
    def replay(self) -> bool:
        return self.record is not None


def check(
    model: type[EntryKey],
    holder: Model,
    key: str | None,
    *,
    deal: int,
    outcome: Mapping[str, Any] | None,
) -> KeyCheck | None:
    """Look ``key`` up for ``holder`` (one query); None without a key. Raises
    :class:`IdempotencyKeyReused` when it is known with another deal or outcome."""
    if key is None:
        return None
    digest = outcome_digest(outcome)
    # ``holder`` is each kind's own foreign key (the abstract model has none).
    manager: Any = model._default_manager
    record = manager.filter(holder=holder, key=key).first()
    if record is not None and (record.deal != deal or record.digest != digest):
        raise IdempotencyKeyReused(deal, record)
    return KeyCheck(model=model, holder=holder, key=key, deal=deal, digest=digest, record=record)


def remember(found: KeyCheck | None, result: Model | None, state: Any) -> None:
    """Store the key of a save that stored ``result`` (or found it stored identical), with
    the digest of its ``state``: one INSERT; nothing without a key or for a replay."""
    if found is None or found.record is not None:
        return
    model: Any = found.model  # ``holder`` is each kind's own foreign key
    model._default_manager.bulk_create(
        [
            model(
                holder=found.holder,
                key=found.key,
                deal=found.deal,
                digest=found.digest,
                result_pk=result.pk if result is not None else None,
                result_digest=outcome_digest(state),
            )
        ],
        ignore_conflicts=True,
    )


def corrected(record: EntryKey, state_now: Any) -> bool:
    """Whether the result stored now (``state_now``) is no longer the one the key stored."""
    return bool(record.result_digest) and outcome_digest(state_now) != record.result_digest
