"""Pure French tarot rules (FFT): cards, deals, bidding, legal play, counting, deal scoring.

Imports nothing from Django or the apps; errors are :class:`RuleError` with stable codes and
translatable message templates.
"""

from rules.enums import (
    CHIEN_SIZE,
    HAND_SIZE,
    PLAYER_COUNTS,
    POIGNEE_THRESHOLDS,
    TOTAL_HALF_POINTS,
    Contract,
    PoigneeSize,
    Side,
)
from rules.errors import RuleError
from rules.i18n import gettext_noop
from rules.scoring import (
    Chelem,
    DealScore,
    Marks,
    Outcome,
    Poignee,
    format_half_points,
    outcome_from_dict,
    outcome_to_dict,
    score_deal,
    seat_marks,
    validate_outcome,
)

__all__ = [
    "CHIEN_SIZE",
    "HAND_SIZE",
    "PLAYER_COUNTS",
    "POIGNEE_THRESHOLDS",
    "TOTAL_HALF_POINTS",
    "Chelem",
    "Contract",
    "DealScore",
    "Marks",
    "Outcome",
    "Poignee",
    "PoigneeSize",
    "RuleError",
    "Side",
    "format_half_points",
    "gettext_noop",
    "outcome_from_dict",
    "outcome_to_dict",
    "score_deal",
    "seat_marks",
    "validate_outcome",
]
