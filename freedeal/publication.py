"""What a viewer may see of a free-deal tournament's results: the kind's publication rule.

Nobody else plays a table's deals (each table plays its own random deals), so there is nothing
to withhold: every entered result shows at once, in the ranking, the player cards, the API and
on the table phone. The figures are provisional until the tournament is finished. Pages and the
API ask :func:`free_deal_publication`; none of them re-derives the rule.
"""

from __future__ import annotations

from clubs.publication import Publication
from freedeal.models import FreeDealTournament


def free_deal_publication(tournament: FreeDealTournament, *, directs: bool) -> Publication:
    """What a viewer (``directs``: one of the tournament's directors) may see now."""
    return Publication(provisional=tournament.provisional, everything=directs)
