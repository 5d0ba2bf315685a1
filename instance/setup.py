"""The first run: who may create the club and its first organiser on a fresh instance.

A fresh instance has no account; the first page that anybody on the room's Wi-Fi opens would
let him claim it. So the serve command prints a **one-time setup code** in its terminal, beside
the first-run link (:func:`setup_code_issue`), and the first-run page asks for it:

- 16 characters of an alphabet without look-alikes (78 random bits), printed in groups of four;
  typed in any case, with or without the dashes;
- stored as a SHA-256 digest, single use: it dies when the club and its organiser are created,
  when any account exists, and is disabled after :data:`MAX_FAILURES` wrong tries: the page
  then says so, even to the right code, and how to get a new one (``duplitarot setup_code``,
  or a restart), and the server's terminal says it once;
- wrong tries are also throttled per client address and code (:data:`ADDRESS_FAILURES` per
  :data:`ADDRESS_WINDOW` seconds, then 429): a new code (a restart) lifts the lock.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.errors import DomainError
from clubs.models import Club
from clubs.services import club_create
from instance.models import SetupCode

logger = logging.getLogger(__name__)

ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 16
MAX_FAILURES = 20
ADDRESS_FAILURES = 5
ADDRESS_WINDOW = 600


def setup_needed() -> bool:
    """Whether the instance has no account yet (the first-run page is open)."""
    return not get_user_model().objects.exists()


def _normalise(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch not in " -\t")


def _digest(code: str) -> str:
    return hashlib.sha256(_normalise(code).encode()).hexdigest()


def setup_code_issue() -> str | None:
    """A new setup code (the previous one dies), None when an account exists already."""
    with transaction.atomic():
        SetupCode.objects.all().delete()
        if not setup_needed():
            return None
        raw = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        SetupCode.objects.create(digest=_digest(raw))
    return "-".join(raw[i : i + 4] for i in range(0, LENGTH, 4))


class SetupThrottled(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def _address_key(address: str) -> str:
    """The wrong tries of ``address`` against the current code: the cache (files in the data
    folder) outlives the server, a new code starts afresh."""
    issued = SetupCode.objects.values_list("created_at", flat=True).first()
    return f"instance-setup-failures:{issued.timestamp() if issued else 0}:{address}"


def setup_throttle_check(address: str) -> None:
    """Raise :class:`SetupThrottled` when ``address`` tried too many wrong codes lately."""
    now = time.time()
    history = [t for t in cache.get(_address_key(address), []) if t > now - ADDRESS_WINDOW]
    if len(history) >= ADDRESS_FAILURES:
        raise SetupThrottled(int(history[0] + ADDRESS_WINDOW - now) + 1)


def _record_failure(address: str) -> None:
    key = _address_key(address)
    now = time.time()
    history = [t for t in cache.get(key, []) if t > now - ADDRESS_WINDOW]
    cache.set(key, [*history, now], ADDRESS_WINDOW)


def _code_disabled() -> DomainError:
    return DomainError(
        "setup_code_disabled",
        ngettext(
            "The setup code was disabled after %(count)d wrong try. For a new one, run "
            "duplitarot setup_code in a terminal of this computer, or restart duplitarot.",
            "The setup code was disabled after %(count)d wrong tries. For a new one, run "
            "duplitarot setup_code in a terminal of this computer, or restart duplitarot.",
            MAX_FAILURES,
        )
        % {"count": MAX_FAILURES},
        field="setup_code",
    )


def _wrong_code() -> DomainError:
    return DomainError(
        "wrong_setup_code",
        _(
            "This is not the setup code. Copy it from the terminal where duplitarot was "
            "started (a new code is printed at every start)."
        ),
        field="setup_code",
    )


def instance_setup(
    *,
    code: str,
    address: str,
    club_name: str,
    city: str,
    username: str,
    password: str,
) -> tuple[User, Club]:
    """Create the club and its first organiser (an administrator of the instance), with the
    setup code; the code dies. Raises :class:`DomainError` (``already_set_up``,
    ``wrong_setup_code``, the club's refusals) or :class:`SetupThrottled`."""
    with transaction.atomic():
        if not setup_needed():
            raise DomainError(
                "already_set_up",
                _("This duplitarot is already set up: log in with an organiser's account."),
            )
        setup_throttle_check(address)
        stored = SetupCode.objects.select_for_update().first()
        if stored is not None and stored.failures >= MAX_FAILURES:
            raise _code_disabled()
        if stored is not None and hmac.compare_digest(stored.digest, _digest(code)):
            user = User.objects.create_superuser(username=username, email="", password=password)
            club = club_create(name=club_name, city=city, organiser=user)
            SetupCode.objects.all().delete()
            return user, club
        # A wrong code: counted (committed, although the request is refused).
        _record_failure(address)
        refusal = _wrong_code()
        if stored is not None:
            stored.failures += 1
            stored.save(update_fields=["failures"])
            if stored.failures >= MAX_FAILURES:
                # Kept, disabled: the next tries are told so, the right code included.
                refusal = _code_disabled()
                logger.warning("%s", refusal.message)
    raise refusal
