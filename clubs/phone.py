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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
