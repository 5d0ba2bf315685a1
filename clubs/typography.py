"""The language's typography in what the server writes: French sets a narrow no-break space
before ``:`` and ``%``."""

from __future__ import annotations

from django.utils.translation import get_language

NARROW_NBSP = "\u202f"


def french_typography() -> bool:
    """Whether the active language sets a space before ``%`` and ``:`` (French)."""
    return (get_language() or "").split("-")[0] == "fr"


def colon() -> str:
    """The colon after a label: preceded by a narrow no-break space in French."""
    return f"{NARROW_NBSP}:" if french_typography() else ":"
