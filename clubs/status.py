"""The computer's status box: what a director must know about the machine that serves.

One box on the director's pages of every kind (the duplicate control room, the cup's organiser
page, the free-deal organiser page): the partial ``clubs/_computer_status.html``, filled by
``{% computer_status %}`` (``clubs.templatetags.computer_status``) from :func:`computer_status`,
the one selector that gathers the lines.

The kernel knows no source itself: whoever knows something about the computer registers a
*source* with :func:`status_source`, a function of no argument returning the lines it has to say
now (none when all is well, or when it has nothing to say on this kind of instance). A club's
instance (``instance.health``) says whether a serving process died, whether the disk is full and
when and where the last backup was taken; a hosted server registers nothing and shows no box
(its operator watches the machine). A source that fails is logged and left out: the box never
breaks the page it sits on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

logger = logging.getLogger(__name__)

#: The levels of a line, the most urgent first (the box lists them in this order).
LEVELS = ("error", "warning", "info")


@dataclass(frozen=True)
class StatusLine:
    """One line of the box: ``level`` (one of :data:`LEVELS`), ``key`` (what it is about, a
    stable name for the page's anchors and the tests: ``process``, ``disk``, ``backup``...) and
    ``text``, in the reader's language."""

    level: str
    key: str
    text: str

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown status level {self.level!r}")


Source = Callable[[], Iterable[StatusLine]]

_sources: list[Source] = []


def status_source(source: Source) -> Source:
    """Register ``source`` (once, however often it is called); usable as a decorator."""
    if source not in _sources:
        _sources.append(source)
    return source


def computer_status() -> list[StatusLine]:
    """Every registered source's lines, the errors first, then the warnings, then the rest."""
    lines: list[StatusLine] = []
    for source in list(_sources):
        try:
            lines.extend(source())
        except Exception:
            logger.exception("status box: the source %s failed", getattr(source, "__name__", ""))
    return sorted(lines, key=lambda line: LEVELS.index(line.level))
