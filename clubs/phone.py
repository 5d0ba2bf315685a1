"""The phone page skeleton every phone shares (duplicate tables, cup rooms, free-deal tables).

A phone page is a heading, notices, the players, then one **card per deal** (a
:class:`PhoneCard`), rendered by ``clubs/phone/page.html`` and ``clubs/phone/_card.html``. A
kind of phone gives the form of its deals (``fields_template``), the view that saves it
(``save_url``), the live preview of the marks (``preview_url``, an htmx fragment: the marks
computed by the server, or the errors naming their fields) and how a stored result shows
(``result_template``). The entry semantics behind every save are the kernel's
(:mod:`clubs.errors`): an identical resend is a replay (nothing written), another outcome for
an entered deal a conflict showing the stored result, a correction an explicit action
(``correct_url`` opens its form) kept in the history.

**Every save** (entry or correction) of every kind goes through :func:`phone_save`, given the
kind's :class:`PhoneEntry` (its stored keys, its late arrivals, how a result's state reads)
and the write to attempt. It honours the stored idempotency key (:mod:`clubs.idempotency`),
records a refused entry that waited offline (:mod:`clubs.late_arrivals`) and says what
happened in a :class:`SaveAnswer`; the view answers it as a page (or a redirect) as before,
or, to ``Accept: application/json``, as JSON (:func:`json_answer`) carrying the deal's card
rendered exactly as the page renders it now (``clubs/phone/_card.html``, so the publication
rule holds).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from clubs import idempotency, late_arrivals
from clubs.errors import DomainError, EntryConflict, EntryReplay
from clubs.models import EntryKey, LateArrival
from clubs.phone_codes import RefusalsThrottled, RefusalThrottle


@dataclass
class PhoneCard:
    """One deal on a phone page: its stored result, or its form (entry or correction)."""

    number: int  # the deal number: anchors deal-N, form-N, preview-N
    title: str  # "Deal 3"
    subtitle: str = ""  # "taker N", "dealer 3"
    done: bool = False  # entered (a ✓ in the heading)
    form: Any = None  # an open form: entry, or correction when ``correcting``
    correcting: bool = False
    save_url: str = ""  # where the form posts
    preview_url: str | None = None  # htmx: the marks this outcome would give
    fields_template: str = ""  # the form's fields
    hidden_inputs: dict[str, Any] = field(default_factory=dict)
    focus: str | None = None  # a refused entry: its first field in error (autofocused)
    result: Any = None  # the stored result the phone may read
    result_template: str | None = None  # how ``result`` shows
    hidden: bool = False  # entered, not shown yet (the publication rule)
    correct_url: str | None = None  # opens the correction form of the stored result
    cancel_url: str | None = None  # leaves the correction form
    extra_template: str | None = None  # what a kind adds below a stored result

    @property
    def refused(self) -> bool:
        return bool(self.form is not None and self.form.errors)


def public_base_url(request: Any) -> str:
    """Where phones (and co-organisers' phones) reach this server: the configured public URL
    (``settings.DUPLITAROT_PUBLIC_URL``, which ``duplitarot serve`` sets to the room's
    address), else the request's host."""
    from django.conf import settings

    configured = str(getattr(settings, "DUPLITAROT_PUBLIC_URL", "") or "").rstrip("/")
    return configured or str(request.build_absolute_uri("/")).rstrip("/")


# ------------------------------------------------------------------------------- the saves


def flash(request: HttpRequest, answer: SaveAnswer) -> None:
    """A stored (or replayed) save's message for the page it redirects to: a replay is said
    as news (info), a new entry as a success."""
    say = messages.info if answer.replayed else messages.success
    say(request, answer.message)


def wants_json(request: HttpRequest) -> bool:
    """Whether the phone asked for a JSON answer (``Accept: application/json``)."""
    return "application/json" in request.headers.get("Accept", "")


@dataclass
class SaveAnswer:
    """What a phone save came to: ``status`` ``stored`` (201), ``replayed`` (200),
    ``invalid`` (400 for a malformed header, 422 for a form error) or ``refused`` (403 or
    409); ``result`` the stored result when there is one; ``error`` why it was refused."""

    status: str
    deal: int
    http_status: int
    code: str = ""
    message: str = ""
    fix: str = ""
    corrected: bool = False
    errors: dict[str, list[str]] = field(default_factory=dict)
    result: Any = None
    error: DomainError | None = None
    key: str | None = None

    @property
    def replayed(self) -> bool:
        return self.status == "replayed"


@dataclass
class PhoneEntry:
    """One kind of phone as :func:`phone_save` needs it."""

    keys: type[EntryKey]  # the kind's stored idempotency keys
    late: type[LateArrival]  # the kind's late arrivals
    state: Callable[[Any], Any]  # a result's state (its digest tells a later correction)
    stored_now: Callable[[EntryKey], Any]  # the result a known key points to, as stored now
    refusal_status: Callable[[DomainError], int]  # 403 or 409 for a refusal
    competition: Callable[[Any], Any]  # the holder's competition (its start bounds kept-since)
    # Posted fields of the page that belong to the outcome besides the form's (``round``).
    context_fields: frozenset[str] = frozenset()


def _fix(status: str, code: str) -> str:
    """What to do about a refused or invalid entry (translated)."""
    if status == "invalid":
        return _("Check the fields marked, then save again.")
    if code == "result_exists":
        return _(
            "Another entry of this deal is stored: check it with the other players; to "
            "change it, use “Correct this entry” or ask the director."
        )
    if code == "idempotency_key_reused":
        return _("Reload the page and enter the deal again.")
    return _("Ask the director: he sees this entry and can enter or correct the deal.")


def form_errors(form: Any) -> dict[str, list[str]]:
    """A bound form's errors by field (``__all__`` for the form-wide ones), as text."""
    return {name: [str(e) for e in errors] for name, errors in form.errors.items()}


def phone_save(
    request: HttpRequest,
    entry: PhoneEntry,
    *,
    holder: Any,
    deal: int,
    form: Any,
    outcome: Callable[[], Mapping[str, Any]],
    write: Callable[[], Any],
    on_form: Callable[[DomainError], bool],
    saved: str,
    refusal: DomainError | None = None,
    late_scope: Mapping[str, Any] | None = None,
) -> SaveAnswer:
    """Save deal ``deal`` of ``holder`` from ``form`` with ``write`` (the kind's service).

    ``outcome()`` is the canonical outcome of the valid form (its digest identifies the
    entry with its key); ``on_form(error)`` attaches a service refusal to the form field it
    names (True) or not; ``saved`` is the success message (``%(deal)s``); ``refusal``, when
    given, refuses the save before anything is read (the kind's own pre-checks);
    ``late_scope`` the late arrival's fields besides holder and deal (a free-deal party). See
    the module docstring; nothing is written on a refusal but the late arrival it may record.
    Past :class:`RefusalThrottle`'s rate a refusal raises :class:`RefusalsThrottled` (429,
    nothing recorded; the code's next posts are answered 429 before they reach the view);
    a stored entry or a replay is never counted.
    """
    try:
        key = idempotency.key_of(request)
    except DomainError as error:  # a malformed key: nothing read, nothing recorded
        _count_refusal(request, holder, deal)
        return SaveAnswer(
            "invalid", deal, 400, code=error.code, message=error.message,
            fix=_fix("invalid", error.code), errors={"__all__": [error.message]}, error=error,
        )  # fmt: skip

    def refused(error: DomainError, status: int, result: Any = None, kind: str = "") -> SaveAnswer:
        kind = kind or ("invalid" if status in (400, 422) else "refused")
        _count_refusal(request, holder, deal)
        errors = form_errors(form) if kind == "invalid" else {}
        if late_arrivals.HEADER in request.headers:
            start = late_arrivals.competition_start(entry.competition(holder))
            kept = late_arrivals.kept_since_of(request, start)
            assert kept is not None
            fields = {form.add_prefix(name) for name in form.fields} if form is not None else set()
            late_arrivals.record(
                entry.late, holder, deal=deal, error=error, kept=kept, errors=errors,
                outcome=late_arrivals.outcome_sent(request.POST, fields | entry.context_fields),
                scope=late_scope,
            )  # fmt: skip
        return SaveAnswer(
            kind, deal, status, code=error.code, message=error.message,
            fix=_fix(kind, error.code), errors=errors, result=result, error=error, key=key,
        )  # fmt: skip

    if refusal is not None:
        return refused(refusal, entry.refusal_status(refusal))
    if not form.is_valid():
        message = _("Deal %(deal)s: check the fields marked.") % {"deal": deal}
        return refused(DomainError("invalid", message), 422)
    try:
        found = idempotency.check(entry.keys, holder, key, deal=deal, outcome=outcome())
    except idempotency.IdempotencyKeyReused as reused:
        # Answered as a conflict is: with the result the key stored, as stored now.
        if reused.record is not None:
            reused.stored = entry.stored_now(reused.record)
        return refused(reused, 409, result=reused.stored)
    if found is not None and found.record is not None:
        stored = entry.stored_now(found.record)
        if stored is not None:
            corrected = idempotency.corrected(found.record, entry.state(stored))
            return _replayed(deal, stored, corrected, key)
    try:
        result = write()
    except EntryReplay as replay:
        idempotency.remember(found, replay.stored, entry.state(replay.stored))
        return _replayed(deal, replay.stored, False, key, own=False)
    except EntryConflict as conflict:
        return refused(conflict, 409, result=conflict.stored)
    except DomainError as error:
        if on_form(error):
            return refused(error, 422)
        return refused(error, entry.refusal_status(error))
    idempotency.remember(found, result, entry.state(result))
    return SaveAnswer("stored", deal, 201, message=saved % {"deal": deal}, result=result, key=key)


def _count_refusal(request: HttpRequest, holder: Any, deal: int) -> None:
    """Count a refused post of ``holder``'s code; past the rate, :class:`RefusalsThrottled`
    (nothing recorded: the phone keeps the entry and sends it again after ``Retry-After``)."""
    throttle = RefusalThrottle(holder)
    if throttle.blocked(request):
        raise RefusalsThrottled(deal, throttle.retry_after())
    throttle.record_failure(request)


def _replayed(
    deal: int, stored: Any, corrected: bool, key: str | None, own: bool = True
) -> SaveAnswer:
    """A save answered with what is stored: ``own`` when it is this phone's own entry (its
    key known: the answer to its first send was lost), else the same outcome stored by
    another entry."""
    if corrected:
        message = _("Deal %(deal)s was already saved; the director has corrected it since.")
    elif own:
        message = _("Deal %(deal)s received.")
    else:
        message = _("Deal %(deal)s received: the same entry was already saved.")
    return SaveAnswer(
        "replayed", deal, 200, message=message % {"deal": deal}, corrected=corrected,
        result=stored, key=key,
    )  # fmt: skip


#: The JSON answer of a phone save (:func:`json_answer`) as a JSON Schema: the contract the
#: phone's script (``config/static/js/phone.js``) reads.
ANSWER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "PhoneSaveAnswer",
    "type": "object",
    "required": ["status", "code", "deal", "message", "fix", "corrected", "errors", "card_html"],
    "additionalProperties": False,
    "properties": {
        "status": {"enum": ["stored", "replayed", "invalid", "refused"]},
        "code": {"type": "string"},
        "deal": {"type": "integer"},
        "message": {"type": "string"},
        "fix": {"type": "string"},
        "corrected": {"type": "boolean"},
        "errors": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "card_html": {"type": "string"},
    },
}


def json_answer(answer: SaveAnswer, card_html: str) -> JsonResponse:
    """The JSON answer of a phone save (the contract's shape), ``card_html`` the deal's card
    as the page renders it now."""
    response = JsonResponse(
        {
            "status": answer.status,
            "code": answer.code,
            "deal": answer.deal,
            "message": answer.message,
            "fix": answer.fix,
            "corrected": answer.corrected,
            "errors": answer.errors,
            "card_html": card_html.strip(),
        },
        status=answer.http_status,
    )
    if answer.replayed:
        response[idempotency.REPLAYED_HEADER] = "true"
    if answer.key is not None:
        response[idempotency.HEADER] = answer.key
    return response
