"""Bidding (enchères): who speaks when, which bids are legal, who takes.

Vocabulary: a *bid* is a :class:`~rules.enums.Contract` or ``None`` for a pass. Each player
speaks once, counter-clockwise, starting with the player after the dealer; a bid must be
strictly higher than the highest bid so far. The highest bidder is the taker; if everybody
passes the deal is *passed out* (redealt in free play). Duplicate events impose at least a Garde
(``min_contract``), and bids below it are illegal there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.deal import seats_from
from rules.enums import PLAYER_COUNTS, Contract
from rules.errors import RuleError
from rules.i18n import gettext_noop
from rules.ruleset import FFT, Ruleset

Bid = Contract | None


@dataclass(frozen=True, slots=True)
class BiddingResult:
    """The taker's seat index and contract, both ``None`` when the deal is passed out."""

    taker: int | None
    contract: Contract | None

    @property
    def passed_out(self) -> bool:
        return self.taker is None


def bidding_order(players: int, dealer: int, ruleset: Ruleset = FFT) -> list[int]:
    """Seat indexes in speaking order, counter-clockwise from the ruleset's first player: the
    player after the dealer (the dealer last), or under the house rules (version 2) the player
    on the dealer's left (:meth:`Ruleset.first_player`)."""
    if players not in PLAYER_COUNTS or not 0 <= dealer < players:
        raise RuleError(
            "invalid_dealer",
            gettext_noop("dealer %(dealer)s is not a seat number 0..%(last)s"),
            {"dealer": dealer, "last": players - 1},
            field="dealer",
        )
    return seats_from(players, ruleset.first_player(players, dealer))


def legal_bids(
    highest: Contract | None, min_contract: Contract | None = None, ruleset: Ruleset = FFT
) -> list[Contract]:
    """Contracts of ``ruleset`` a player may bid after ``highest`` (a pass is always legal)."""
    floor = -1 if highest is None else highest.rank
    minimum = 0 if min_contract is None else min_contract.rank
    return [
        contract
        for contract in ruleset.contracts
        if contract.rank > floor and contract.rank >= minimum
    ]


def bidding_result(
    players: int,
    dealer: int,
    bids: Sequence[Bid],
    min_contract: Contract | None = None,
    ruleset: Ruleset = FFT,
) -> BiddingResult:
    """Check a complete auction (``bids`` in speaking order) and return its result.

    A bid the ruleset does not offer (a pousse under the FFT's rules) is
    ``contract_not_in_ruleset``.
    """
    order = bidding_order(players, dealer, ruleset)
    if len(bids) != players:
        raise RuleError(
            "wrong_bid_count",
            gettext_noop("each of the %(players)s players speaks once; got %(count)s bids"),
            {"players": players, "count": len(bids)},
            field="bids",
        )
    highest: Contract | None = None
    taker: int | None = None
    for position, (seat, bid) in enumerate(zip(order, bids, strict=True)):
        if bid is None:
            continue
        if not isinstance(bid, Contract):
            raise RuleError(
                "unknown_contract",
                gettext_noop("%(value)s is not one of %(choices)s"),
                {"value": repr(bid), "choices": ", ".join(c.value for c in ruleset.contracts)},
                field=f"bids[{position}]",
            )
        ruleset.check_contract(bid, field=f"bids[{position}]")
        if bid not in legal_bids(highest, min_contract, ruleset):
            raise RuleError(
                "bid_too_low",
                gettext_noop("%(bid)s does not beat %(highest)s"),
                {
                    "bid": bid.value,
                    "highest": highest.value if highest else (min_contract or bid).value,
                },
                field=f"bids[{position}]",
            )
        highest, taker = bid, seat
    return BiddingResult(taker=taker, contract=highest)
