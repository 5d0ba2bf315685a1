"""The first run: who may create the club and its first organiser on a fresh instance.

A fresh instance has no account; the first page that anybody on the room's Wi-Fi opens would
let him claim it. So the serve command prints a **one-time setup code** in its terminal, beside
the first-run link (:func:`setup_code_issue`), and the first-run page asks for it:

- 16 characters of an alphabet without look-alikes (78 random bits), printed in groups of four;
  typed in any case, with or without the dashes;
- stored as a SHA-256 digest, single use: it dies when the club and its organiser are created,
  when any account exists, and after :data:`MAX_FAILURES` wrong tries (the director then
  restarts the server, or runs ``duplitarot setup_code``, for a new one);
- wrong tries are also throttled per client address (:data:`ADDRESS_FAILURES` per
  :data:`ADDRESS_WINDOW` seconds, then 429).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club
from clubs.services import club_create
from instance.models import SetupCode

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
    return f"instance-setup-failures:{address}"


def setup_throttle_check(address: str) -> None:
    """Raise :class:`SetupThrottled` when ``address`` tried too many wrong codes lately."""
    now = time.time()
    history = [t for t in cache.get(_address_key(address), []) if t > now - ADDRESS_WINDOW]
    if len(history) >= ADDRESS_FAILURES:
        raise SetupThrottled(int(history[0] + ADDRESS_WINDOW - now) + 1)


def _record_failure(address: str) -> None:
    now = time.time()
    history = [t for t in cache.get(_address_key(address), []) if t > now - ADDRESS_WINDOW]
    cache.set(_address_key(address), [*history, now], ADDRESS_WINDOW)


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
        if stored is not None and hmac.compare_digest(stored.digest, _digest(code)):
            user = User.objects.create_superuser(username=username, email="", password=password)
            club = club_create(name=club_name, city=city, organiser=user)
            SetupCode.objects.all().delete()
            return user, club
        # A wrong code: counted (committed, although the request is refused).
        _record_failure(address)
        if stored is not None:
            stored.failures += 1
            if stored.failures >= MAX_FAILURES:
                stored.delete()
            else:
                stored.save(update_fields=["failures"])
    raise _wrong_code()
