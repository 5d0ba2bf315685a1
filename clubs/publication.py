"""What a viewer may see of a competition's results now: one shape for every kind.

Every kind of competition states its publication rule in its own ``publication`` module, as a
function returning a :class:`Publication` for a competition and a viewer:

- duplicate events (``tournaments.publication.deals_hidden_from``: the deals withheld): a
  deal's outcomes are withheld while some scheduled table (of any section of a simultaneous)
  has still to play it;
- team-match cups (``teammatch.publication.match_publication``): a deal counts once it is
  entered in both rooms (the other room plays the same cards);
- free-deal tournaments (``freedeal.publication.free_deal_publication``): nobody else plays a
  table's deals, so every entered result shows at once.

In every kind the competition's directors see everything (``everything``), and figures are
*provisional* until the competition is finished (``Competition.provisional``). Pages, exports,
APIs and phones ask the kind's function; none of them re-derives the rule.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Publication:
    """What one viewer may see of one competition's results now."""

    provisional: bool  # published figures may still change (the competition is not finished)
    everything: bool = False  # a director: every entered outcome, deals in play included
    withheld: frozenset[Hashable] = field(default_factory=frozenset)  # deals kept back

    def shows(self, deal: Hashable) -> bool:
        """Whether the outcomes of ``deal`` (the kind's key for a deal) may be shown."""
        return self.everything or deal not in self.withheld
