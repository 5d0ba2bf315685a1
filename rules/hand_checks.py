"""An entered outcome checked against the prepared hands of its deal (pure).

In duplicate the cards of every deal are known, so an outcome can be checked against them, not
only against the rules (:func:`rules.scoring.validate_outcome` knows no cards):

- :func:`hand_refusals` lists what **no real play of that deal** can produce: a poignée shown
  by a side that holds too few trumps for it, an attack with fewer oudlers (bouts) than it
  cannot lose or more than it can win, a chelem that the cards forbid, a petit au bout
  impossible for that deal. Each is a :class:`~rules.errors.RuleError` naming the hand;
  :func:`check_hands` raises the first one.
- :func:`simulated_range` and :func:`hand_flags` flag what is **possible but improbable**:
  an outcome far outside what seeded random legal plays of the deal give. A flag is for the
  director to look at, never a refusal.

Where each oudler can end (``_oudler_sides``), with the taker alone in the attack (3 and 4
players; at 5 players the partner is not known from the cards, so nothing is checked):

- the chien of a Garde sans counts for the attack and of a Garde contre for the defence, and
  is never played; in a Prise or a Garde the taker takes it, and an oudler may not go to the
  écart, so its oudlers are the taker's;
- the 21 wins every trick it is played in, except a last trick that the Excuse takes because
  the Excuse's side won every other trick (a chelem): outside a chelem it stays with its side;
  in a chelem of the other side it can only be captured that way (so that side needs the
  Excuse);
- the Excuse stays with its side in a chelem (the chelem side's wins the last trick, the other
  side's owner keeps it) and may change camp in the last trick outside a chelem [FFT];
- the Petit is captured only by a higher trump of the other side (or within a chelem): outside
  a chelem it stays with its side when the other side holds no trump at play.

These sets contain every real end (they may contain ends no play reaches: refusals are sound,
never over-refusing); the attack's oudlers must lie between the count of oudlers that can only
end with it and the count that can end with it. A petit au bout needs the Petit to be played
and its side to be one where the Petit can end.

Poignées: a poignée counts trumps held when play starts, the Excuse standing in for one. The
taker of a Prise or a Garde holds his hand and the chien less the écart, which may take a trump
only when unavoidable and never a King: he can keep ``min(trumps, hand size - Kings)`` of the
trumps and Excuse of his hand and the chien. Each defender shows at most one poignée, so the
defence's poignées, largest first, need defenders with that many trumps, most trumps first.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rules.cards import EXCUSE, PETIT, TWENTY_ONE, Card
from rules.deal import Deal
from rules.enums import HAND_SIZE, POIGNEE_THRESHOLDS, Contract, Side
from rules.errors import RuleError
from rules.i18n import PluralText, gettext_noop, ngettext_lazy
from rules.play import (
    PlayRecord,
    Trick,
    can_discard,
    excuse_takes_last_trick,
    legal_cards,
    outcome_from_play,
    trick_winner,
)
from rules.scoring import Outcome, format_half_points, outcome_from_dict

__all__ = [
    "FLAG_MARGIN_HALF",
    "FLAG_PLAYS",
    "SEAT_WORDS",
    "SimulatedRange",
    "check_hands",
    "fitting_outcome",
    "hand_flags",
    "hand_refusals",
    "random_play",
    "simulated_range",
]

# The word of each seat, translated with the message (``*_word`` parameters, rules.errors).
SEAT_WORDS: Final = {
    "N": gettext_noop("North"),
    "E": gettext_noop("East"),
    "S": gettext_noop("South"),
    "W": gettext_noop("West"),
}
# Oudlers by their name, the same in French and in English.
_OUDLER_NAMES: Final = {TWENTY_ONE: "21", PETIT: "Petit", EXCUSE: "Excuse"}
_OUDLERS: Final = (TWENTY_ONE, PETIT, EXCUSE)

# The flag rule: an outcome is flagged when its points lie more than FLAG_MARGIN_HALF
# half-points (10 points) outside the range of FLAG_PLAYS random legal plays of the deal with
# that taker and contract, or its oudlers outside the range those plays gave.
FLAG_PLAYS: Final = 200
FLAG_MARGIN_HALF: Final = 20


def _trumps_text(count: int) -> PluralText:
    return ngettext_lazy("%(number)s trump", "%(number)s trumps", count)


def _bouts_text(count: int) -> PluralText:
    return ngettext_lazy("%(number)s oudler", "%(number)s oudlers", count)


def _seat_word(deal: Deal, seat: int) -> str:
    return SEAT_WORDS.get(deal.seats[seat], deal.seats[seat])


def _names(cards: Sequence[Card]) -> str:
    return ", ".join(_OUDLER_NAMES[card] for card in _OUDLERS if card in cards)


# ----------------------------------------------------------------------------- holdings


@dataclass(frozen=True, slots=True)
class _Holdings:
    """Who holds what when play starts (the taker's cards may include the chien)."""

    deal: Deal
    taker: int
    contract: Contract

    @property
    def taker_takes_chien(self) -> bool:
        return self.contract.taker_sees_chien

    def taker_cards(self) -> tuple[Card, ...]:
        """The taker's hand, with the chien when he takes it (a superset of his play hand)."""
        hand = self.deal.hands[self.taker]
        return hand + self.deal.chien if self.taker_takes_chien else hand

    def defenders(self) -> list[int]:
        return [seat for seat in range(self.deal.players) if seat != self.taker]

    def side_of(self, card: Card) -> tuple[Side, bool, int | None]:
        """(side holding ``card``, whether it is played, seat holding it or None)."""
        if card in self.deal.chien and not self.taker_takes_chien:
            side = Side.ATTACK if self.contract.chien_to_attack else Side.DEFENCE
            return side, False, None
        if card in self.taker_cards():
            return Side.ATTACK, True, self.taker
        for seat in self.defenders():
            if card in self.deal.hands[seat]:
                return Side.DEFENCE, True, seat
        raise AssertionError(f"{card} is nowhere in the deal")  # a validated deal holds it

    def has_trump(self, side: Side, besides: Card) -> bool:
        """Whether ``side`` holds a trump other than ``besides`` when play starts."""
        if side is Side.ATTACK:
            cards: Sequence[Card] = self.taker_cards()
        else:
            cards = [card for seat in self.defenders() for card in self.deal.hands[seat]]
        return any(card.is_trump and card is not besides for card in cards)

    def poignee_trumps(self, seat: int) -> int:
        """The most trumps (the Excuse counted) ``seat`` can show when play starts."""
        if seat != self.taker or not self.taker_takes_chien:
            return _shown(self.deal.hands[seat])
        cards = self.taker_cards()
        kings = sum(1 for card in cards if card.is_king)
        return min(_shown(cards), HAND_SIZE[self.deal.players] - kings)


def _shown(cards: Sequence[Card]) -> int:
    return sum(1 for card in cards if card.is_trump or card.is_excuse)


# ----------------------------------------------------------------------------- refusals


def _poignee_refusal(holdings: _Holdings, outcome: Outcome) -> RuleError | None:
    deal = holdings.deal
    thresholds = POIGNEE_THRESHOLDS[deal.players]
    attack = sorted(
        (thresholds[p.size] for p in outcome.poignees if p.side is Side.ATTACK), reverse=True
    )
    if attack:
        held = holdings.poignee_trumps(holdings.taker)
        if held < attack[0]:
            template = (
                gettext_noop(
                    "%(seat_word)s, the taker, holds only %(trumps)s with the chien (the Excuse "
                    "counted): the attack cannot show a poignée of %(needed)s."
                )
                if holdings.taker_takes_chien
                else gettext_noop(
                    "%(seat_word)s, the taker, holds only %(trumps)s (the Excuse counted): the "
                    "attack cannot show a poignée of %(needed)s."
                )
            )
            return RuleError(
                "hand_poignee_too_few_trumps",
                template,
                {
                    "seat_word": _seat_word(deal, holdings.taker),
                    "trumps": _trumps_text(held),
                    "needed": attack[0],
                },
                field="poignees",
            )
    needs = sorted(
        (thresholds[p.size] for p in outcome.poignees if p.side is Side.DEFENCE), reverse=True
    )
    defenders = sorted(
        ((holdings.poignee_trumps(seat), seat) for seat in holdings.defenders()),
        key=lambda item: (-item[0], item[1]),
    )
    for index, needed in enumerate(needs[: len(defenders)]):
        held, seat = defenders[index]
        if held >= needed:
            continue
        if index == 0:
            return RuleError(
                "hand_poignee_too_few_trumps",
                gettext_noop(
                    "%(seat_word)s, the defender with the most trumps, holds only %(trumps)s "
                    "(the Excuse counted): the defence cannot show a poignée of %(needed)s."
                ),
                {
                    "seat_word": _seat_word(deal, seat),
                    "trumps": _trumps_text(held),
                    "needed": needed,
                },
                field="poignees",
            )
        able = sum(1 for count, _seat in defenders if count >= needed)
        return RuleError(
            "hand_poignee_too_few_trumps",
            gettext_noop(
                "each poignée is shown by a different player, and the defence has %(able)s "
                "with %(needed)s trumps or more (the Excuse counted): %(seat_word)s holds "
                "%(trumps)s."
            ),
            {
                "able": ngettext_lazy("%(number)s player", "%(number)s players", able),
                "needed": needed,
                "seat_word": _seat_word(deal, seat),
                "trumps": _trumps_text(held),
            },
            field="poignees",
        )
    return None


def _oudler_sides(holdings: _Holdings, card: Card, chelem: Side | None) -> frozenset[Side]:
    """The sides ``card`` can end with in a real play (see the module docstring)."""
    side, played, _seat = holdings.side_of(card)
    if not played or chelem is side:
        return frozenset({side})
    if chelem is not None:  # the other side won every trick
        if card is EXCUSE:
            return frozenset({side})  # its owner keeps it
        if card is TWENTY_ONE:
            excuse_side, excuse_played, _ = holdings.side_of(EXCUSE)
            if excuse_played and excuse_side is chelem:
                return frozenset({chelem})
            return frozenset()
        return frozenset({chelem})
    if card is TWENTY_ONE:
        return frozenset({side})
    if card is EXCUSE:
        return frozenset(Side)
    if holdings.has_trump(side.other, card):
        return frozenset(Side)
    return frozenset({side})


def _chelem_refusal(holdings: _Holdings, chelem: Side) -> RuleError:
    _side, _played, seat = holdings.side_of(TWENTY_ONE)
    assert seat is not None  # only a played 21 can make a chelem impossible
    return RuleError(
        "hand_chelem_impossible",
        gettext_noop(
            "%(seat_word)s holds the 21, which only the Excuse of a side that won every other "
            "trick can take, and the %(side)s does not hold the Excuse: it cannot win every "
            "trick."
        ),
        {"seat_word": _seat_word(holdings.deal, seat), "side": chelem.value},
        field="chelem",
    )


def _petit_refusal(holdings: _Holdings, outcome: Outcome, sides: frozenset[Side]) -> RuleError:
    _side, played, seat = holdings.side_of(PETIT)
    winner = outcome.petit_au_bout or Side.ATTACK
    if not played:
        return RuleError(
            "hand_petit_au_bout_impossible",
            gettext_noop(
                "the Petit is in the chien, which is not played in a %(contract)s: there is no "
                "petit au bout."
            ),
            {"contract": outcome.contract.label},
            field="petit_au_bout",
        )
    assert seat is not None and winner not in sides
    return RuleError(
        "hand_petit_au_bout_impossible",
        gettext_noop(
            "%(seat_word)s holds the Petit and the %(side)s holds no trump to take it: no petit "
            "au bout for the %(side)s."
        ),
        {"seat_word": _seat_word(holdings.deal, seat), "side": winner.value},
        field="petit_au_bout",
    )


def _bouts_refusal(
    holdings: _Holdings, outcome: Outcome, sides: dict[Card, frozenset[Side]]
) -> RuleError | None:
    deal = holdings.deal
    attack_only = [card for card in _OUDLERS if sides[card] == {Side.ATTACK}]
    defence_only = [card for card in _OUDLERS if sides[card] == {Side.DEFENCE}]
    minimum = len(attack_only)
    maximum = 3 - len(defence_only)
    chelem = outcome.chelem.made_by
    if outcome.oudlers < minimum:
        bouts = _bouts_text(minimum)
        if chelem is Side.ATTACK:
            return RuleError(
                "hand_bouts_too_few",
                gettext_noop(
                    "the attack won every trick, so with these hands it has at least %(bouts)s."
                ),
                {"bouts": bouts},
                field="oudlers",
            )
        held = [card for card in attack_only if holdings.side_of(card)[1]]
        in_chien = [card for card in attack_only if card not in held]
        params: dict[str, object] = {"bouts": bouts, "seat_word": _seat_word(deal, holdings.taker)}
        if held and in_chien:
            template = gettext_noop(
                "%(seat_word)s, the taker, holds %(cards)s, which the attack cannot lose here, "
                "and the chien of the Garde sans holds %(chien)s: the attack has at least "
                "%(bouts)s."
            )
        elif in_chien:
            template = gettext_noop(
                "the chien, which counts for the attack in a Garde sans, holds %(chien)s: the "
                "attack has at least %(bouts)s."
            )
        elif holdings.taker_takes_chien:
            template = gettext_noop(
                "%(seat_word)s, the taker, holds %(cards)s (with the chien), which the attack "
                "cannot lose here: the attack has at least %(bouts)s."
            )
        else:
            template = gettext_noop(
                "%(seat_word)s, the taker, holds %(cards)s, which the attack cannot lose here: "
                "the attack has at least %(bouts)s."
            )
        params.update(cards=_names(held), chien=_names(in_chien))
        return RuleError("hand_bouts_too_few", template, params, field="oudlers")
    if outcome.oudlers > maximum:
        bouts = _bouts_text(maximum)
        if chelem is Side.DEFENCE:
            return RuleError(
                "hand_bouts_too_many",
                gettext_noop(
                    "the defence won every trick, so with these hands the attack has at most "
                    "%(bouts)s."
                ),
                {"bouts": bouts},
                field="oudlers",
            )
        held = [card for card in defence_only if holdings.side_of(card)[1]]
        in_chien = [card for card in defence_only if card not in held]
        seats = sorted({seat for card in held if (seat := holdings.side_of(card)[2]) is not None})
        params = {"bouts": bouts, "cards": _names(held), "chien": _names(in_chien)}
        if seats:
            params["seat_word"] = _seat_word(deal, seats[0])
        if held and in_chien:
            template = gettext_noop(
                "the defence holds %(cards)s, which it cannot lose here, and the chien of the "
                "Garde contre holds %(chien)s: the attack has at most %(bouts)s."
            )
        elif in_chien:
            template = gettext_noop(
                "the chien, which counts for the defence in a Garde contre, holds %(chien)s: "
                "the attack has at most %(bouts)s."
            )
        elif len(seats) == 1:
            template = gettext_noop(
                "%(seat_word)s, a defender, holds %(cards)s, which the defence cannot lose "
                "here: the attack has at most %(bouts)s."
            )
        else:
            template = gettext_noop(
                "the defenders hold %(cards)s, which the defence cannot lose here: the attack "
                "has at most %(bouts)s."
            )
        return RuleError("hand_bouts_too_many", template, params, field="oudlers")
    return None


def hand_refusals(deal: Deal, taker: int, outcome: Outcome) -> list[RuleError]:
    """What the hands of ``deal`` make impossible in ``outcome`` (empty: nothing found).

    ``deal`` is a validated deal (:func:`rules.deal.validate_deal`), ``taker`` the taker's seat
    index and ``outcome`` a valid outcome of the same player count
    (:func:`rules.scoring.validate_outcome`). Codes: ``hand_poignee_too_few_trumps``,
    ``hand_chelem_impossible``, ``hand_petit_au_bout_impossible``, ``hand_bouts_too_few``,
    ``hand_bouts_too_many``. Nothing is checked at 5 players (the partner is not known) or
    when the player counts differ.
    """
    if deal.players != outcome.players or deal.players == 5 or not 0 <= taker < deal.players:
        return []
    holdings = _Holdings(deal=deal, taker=taker, contract=outcome.contract)
    refusals: list[RuleError] = []
    poignee = _poignee_refusal(holdings, outcome)
    if poignee is not None:
        refusals.append(poignee)
    chelem = outcome.chelem.made_by
    sides = {card: _oudler_sides(holdings, card, chelem) for card in _OUDLERS}
    if chelem is not None and not sides[TWENTY_ONE]:
        refusals.append(_chelem_refusal(holdings, chelem))
        return refusals
    if outcome.petit_au_bout is not None and chelem in (None, outcome.petit_au_bout):
        # (a petit au bout for the side losing every trick is refused by validate_outcome)
        if not holdings.side_of(PETIT)[1] or outcome.petit_au_bout not in sides[PETIT]:
            refusals.append(_petit_refusal(holdings, outcome, sides[PETIT]))
            return refusals
        sides[PETIT] = frozenset({outcome.petit_au_bout})
    bouts = _bouts_refusal(holdings, outcome, sides)
    if bouts is not None:
        refusals.append(bouts)
    return refusals


def check_hands(deal: Deal, taker: int, outcome: Outcome) -> None:
    """Raise the first of :func:`hand_refusals`, if any."""
    refusals = hand_refusals(deal, taker, outcome)
    if refusals:
        raise refusals[0]


def fitting_outcome(
    draw: Callable[[], Mapping[str, Any]], deal: Deal | None, taker: int, tries: int = 200
) -> dict[str, Any]:
    """An outcome from ``draw`` (the input shape of :func:`rules.scoring.outcome_from_dict`)
    that the hands of ``deal`` allow: drawn again until :func:`hand_refusals` finds nothing,
    at most ``tries`` times (RuleError ``no_fitting_outcome`` then). Without ``deal``, the
    first draw. For fixtures, demos and load tests entering random results on real deals.
    """
    for _ in range(max(1, tries)):
        outcome = dict(draw())
        if deal is None:
            return outcome
        parsed = outcome_from_dict({"players": deal.players, **outcome})
        if not hand_refusals(deal, taker, parsed):
            return outcome
    raise RuleError(
        "no_fitting_outcome",
        gettext_noop("no drawn outcome fits the hands of this deal"),
        {},
    )


# -------------------------------------------------------------------------------- flags


@dataclass(frozen=True, slots=True)
class SimulatedRange:
    """What ``plays`` random legal plays of a deal gave the attack (points in half-points)."""

    plays: int
    points_min_half: int
    points_max_half: int
    oudlers_min: int
    oudlers_max: int

    def to_dict(self) -> dict[str, int]:
        return {
            "plays": self.plays,
            "points_min_half": self.points_min_half,
            "points_max_half": self.points_max_half,
            "oudlers_min": self.oudlers_min,
            "oudlers_max": self.oudlers_max,
        }

    @classmethod
    def from_dict(cls, data: dict[str, int]) -> SimulatedRange:
        return cls(
            plays=int(data["plays"]),
            points_min_half=int(data["points_min_half"]),
            points_max_half=int(data["points_max_half"]),
            oudlers_min=int(data["oudlers_min"]),
            oudlers_max=int(data["oudlers_max"]),
        )


def _random_ecart(cards: Sequence[Card], size: int, rng: random.Random) -> tuple[Card, ...]:
    """A random legal écart: plain cards that are not Kings, trumps only when unavoidable."""
    plain = [card for card in cards if can_discard(card) and not card.is_trump]
    if len(plain) >= size:
        return tuple(rng.sample(plain, size))
    trumps = [card for card in cards if can_discard(card) and card.is_trump]
    return tuple(plain) + tuple(rng.sample(trumps, size - len(plain)))


def random_play(deal: Deal, taker: int, contract: Contract, rng: random.Random) -> Outcome:
    """One random legal play of ``deal`` (every card drawn among the legal ones, no poignée)."""
    players = deal.players
    ecart: tuple[Card, ...] = ()
    if contract.taker_sees_chien:
        ecart = _random_ecart(deal.hands[taker] + deal.chien, len(deal.chien), rng)
    hands = [list(hand) for hand in deal.hands]
    if contract.taker_sees_chien:
        hands[taker] = [card for card in hands[taker] + list(deal.chien) if card not in ecart]
    attack = frozenset({taker})
    leader = (deal.dealer - 1) % players
    tricks: list[Trick] = []
    sides: list[bool] = []
    count = len(hands[0])
    for number in range(count):
        cards: list[Card] = []
        seat = leader
        for _position in range(players):
            card = rng.choice(legal_cards(hands[seat], cards))
            hands[seat].remove(card)
            cards.append(card)
            seat = (seat - 1) % players
        trick = Trick(leader=leader, cards=tuple(cards))
        excuse_wins = excuse_takes_last_trick(trick, players, attack, sides, number == count - 1)
        leader = trick.seat_at(trick_winner(cards, excuse_wins), players)
        tricks.append(trick)
        sides.append(leader in attack)
    record = PlayRecord(
        deal=deal, taker=taker, contract=contract, tricks=tuple(tricks), ecart=ecart
    )
    return outcome_from_play(record, validate=False)


def simulated_range(
    deal: Deal, taker: int, contract: Contract, plays: int = FLAG_PLAYS, seed: str = ""
) -> SimulatedRange:
    """The attack's points and oudlers over ``plays`` seeded random legal plays of ``deal``.

    The random generator is seeded from the deal's cards, the taker, the contract and ``seed``:
    the same deal gives the same range on every run and machine.
    """
    text = "|".join(
        [" ".join(card.code for card in hand) for hand in (*deal.hands, deal.chien)]
        + [str(deal.dealer), str(taker), contract.value, seed]
    )
    rng = random.Random(hashlib.sha256(text.encode()).hexdigest())
    outcomes = [random_play(deal, taker, contract, rng) for _ in range(max(1, plays))]
    points = [outcome.points_half for outcome in outcomes]
    oudlers = [outcome.oudlers for outcome in outcomes]
    return SimulatedRange(
        plays=len(outcomes),
        points_min_half=min(points),
        points_max_half=max(points),
        oudlers_min=min(oudlers),
        oudlers_max=max(oudlers),
    )


def hand_flags(
    outcome: Outcome, seen: SimulatedRange, margin_half: int = FLAG_MARGIN_HALF
) -> list[RuleError]:
    """Why ``outcome`` is improbable for its deal, by the flag rule (never raised).

    Flagged: points more than ``margin_half`` half-points outside ``[min, max]`` of ``seen``
    (``hand_points_unusual``), oudlers outside the oudlers ``seen`` (``hand_oudlers_unusual``).
    The flags are RuleError values for their code and translated message; they are notices for
    the director, not refusals.
    """
    flags: list[RuleError] = []
    low, high = seen.points_min_half, seen.points_max_half
    if not low - margin_half <= outcome.points_half <= high + margin_half:
        flags.append(
            RuleError(
                "hand_points_unusual",
                gettext_noop(
                    "%(points)s for the attack: %(plays)s random plays of this deal gave it "
                    "%(minimum)s to %(maximum)s."
                ),
                {
                    "points": ngettext_lazy(
                        "%(number)s point",
                        "%(number)s points",
                        outcome.points_half // 2 if outcome.points_half % 2 == 0 else 2,
                        format_half_points(outcome.points_half),
                    ),
                    "plays": seen.plays,
                    "minimum": format_half_points(low),
                    "maximum": format_half_points(high),
                },
                field="points",
            )
        )
    if not seen.oudlers_min <= outcome.oudlers <= seen.oudlers_max:
        flags.append(
            RuleError(
                "hand_oudlers_unusual",
                gettext_noop(
                    "%(bouts)s for the attack: %(plays)s random plays of this deal gave it "
                    "%(minimum)s to %(maximum)s."
                ),
                {
                    "bouts": _bouts_text(outcome.oudlers),
                    "plays": seen.plays,
                    "minimum": seen.oudlers_min,
                    "maximum": seen.oudlers_max,
                },
                field="oudlers",
            )
        )
    return flags
