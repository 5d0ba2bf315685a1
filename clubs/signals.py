"""Signals of the kernel.

``milestone(sender=<competition class>, milestone=str, competition_id=int)`` is sent **on
commit** when a competition reaches a point a director would not want to lose: a round, a party
or a quarter closed (``round-closed``, ``party-closed``, ``quarter-closed``) or the competition
finished (``finished``). A club's instance backs its database up then (``instance.backups``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

milestone = Signal()


def milestone_reached(competition: Any, name: str) -> None:
    """Announce ``name`` for ``competition`` once the current transaction commits."""
    sender, pk = type(competition), competition.pk
    transaction.on_commit(lambda: milestone.send(sender=sender, milestone=name, competition_id=pk))
