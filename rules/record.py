"""Play records as JSON: a complete deal as played, to replay and check card by card.

A director settles a dispute with it (``manage.py play FILE.json``); the simulator writes such
records (``manage.py simulate``). Pure: no Django, every fault a :class:`RuleError` with a stable
code, a translatable template and the field path at fault (``tricks[3][2]``: the third card,
0-based, of the fourth trick; paths are 0-based, messages count tricks from 1).

Format (one JSON object; optional keys in brackets)::

    {
      ["format": "duplitarot-play-record", "version": 1,]
      ["ruleset": "fft" | {"name": "traditional", "pousse_multiplier": 2, "flambeuse": false},]
      "players": 4,
      "dealer": "N",
      "hands": {"N": "S1 S5 ... T21", "E": "...", "S": "...", "W": "..."},
      "chien": "H3 ... C12",
      ["bids": ["pass", "garde", "pass", "pass"],]
      "taker": "E",
      "contract": "garde",
      ["called_card": "H14",]
      ["ecart": "S2 S3 ...",]
      ["poignees": [{"seat": "E", "size": "simple"}],]
      ["chelem_announced": false,]
      ["petit_chelem_announced": false,]
      "tricks": [["S1", "S7", "S9", "S11"], ...],
      ["passes": [{"after_trick": 4, "cards": {"N": ["S3", "T2"], "E": [...], ...}}]]
    }

- ``hands``/``chien``/``dealer`` may be replaced by ``"deal"``: the deal's text form
  (:func:`rules.deal.deal_to_text`). Cards are codes (``S14`` King of spades, ``T21``, ``EX``),
  as a space-separated string or a list of strings; ``ecart`` and ``called_card`` likewise.
- ``ruleset``: the FFT's when absent (:func:`rules.ruleset.ruleset_from_dict`); without
  ``"version"`` the rules of version 1 (older records replay as they did).
- ``bids``: every player once, in speaking order (the player after the dealer first; under the
  house rules of version 2 the player on his left), ``"pass"``
  or a contract; checked with :mod:`rules.bidding` and against ``taker`` and ``contract``.
  Absent: the auction is not checked (a duplicate deal's imposed contract).
- ``tricks``: each trick's cards in play order, from its leader; the leaders follow from the
  rules (the player after the dealer, or the chelem announcer, then each trick's winner).
- ``passes`` (**[house]** ``trump_trick_pass``): after each trick made only of trumps, but the
  last, every player passes cards to the player on his right (the next to play);
  ``after_trick`` is the trick's index in ``tricks`` (0-based). Each passes the ruleset's number
  of cards (2), or every card he has left when he holds fewer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from rules.bidding import Bid, bidding_result
from rules.cards import Card, format_cards, parse_card
from rules.deal import SEAT_NAMES, Deal, deal_from_text, seat_index, validate_deal
from rules.enums import PLAYER_COUNTS, Contract, PoigneeSize
from rules.errors import RuleError
from rules.i18n import gettext_noop
from rules.play import (
    CardPass,
    PlayRecord,
    PoigneeShown,
    Trick,
    first_leader,
    led_card,
    trick_winner,
    validate_play,
)
from rules.ruleset import FFT, Ruleset, ruleset_from_dict

RECORD_FORMAT: Final = "duplitarot-play-record"
RECORD_VERSION: Final = 1
PASS: Final = "pass"

_KNOWN_KEYS: Final = frozenset(
    {
        "format",
        "version",
        "ruleset",
        "players",
        "dealer",
        "hands",
        "chien",
        "deal",
        "bids",
        "taker",
        "contract",
        "called_card",
        "ecart",
        "poignees",
        "chelem_announced",
        "petit_chelem_announced",
        "tricks",
        "passes",
    }
)


# ---------------------------------------------------------------------------------- writing


def record_to_json(record: PlayRecord, bids: Sequence[Bid] | None = None) -> dict[str, object]:
    """The JSON object of ``record`` (and its auction, when given); see the module's doc."""
    deal = record.deal
    names = SEAT_NAMES[deal.players]
    data: dict[str, object] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "ruleset": record.ruleset.to_dict(),
        "players": deal.players,
        "dealer": names[deal.dealer],
        "hands": {name: format_cards(hand) for name, hand in zip(names, deal.hands, strict=True)},
        "chien": format_cards(deal.chien),
    }
    if bids is not None:
        data["bids"] = [PASS if bid is None else bid.value for bid in bids]
    data["taker"] = names[record.taker]
    data["contract"] = record.contract.value
    if record.called_card is not None:
        data["called_card"] = record.called_card.code
    data["ecart"] = " ".join(card.code for card in record.ecart)
    data["poignees"] = [
        {"seat": names[shown.seat], "size": shown.size.value} for shown in record.poignees
    ]
    data["chelem_announced"] = record.chelem_announced
    if record.petit_chelem_announced or record.ruleset.petit_chelem:
        data["petit_chelem_announced"] = record.petit_chelem_announced
    data["tricks"] = [[card.code for card in trick.cards] for trick in record.tricks]
    if record.passes:
        data["passes"] = [
            {
                "after_trick": card_pass.after_trick,
                "cards": {
                    name: [card.code for card in cards]
                    for name, cards in zip(names, card_pass.cards, strict=True)
                },
            }
            for card_pass in record.passes
        ]
    return data


# ---------------------------------------------------------------------------------- reading


def _missing(field: str) -> RuleError:
    return RuleError("missing_field", gettext_noop("this field is required"), {}, field=field)


def _expected(field: str, template: str, value: object) -> RuleError:
    return RuleError("invalid_type", template, {"value": _short(value)}, field=field)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _card(value: object, field: str) -> Card:
    if not isinstance(value, str):
        raise _expected(field, gettext_noop("expected a card code, got %(value)s"), value)
    try:
        return parse_card(value)
    except RuleError as err:
        raise RuleError(err.code, err.template, err.params, field=field) from None


def _cards(value: object, field: str) -> tuple[Card, ...]:
    """A space-separated string of codes or a list of codes."""
    if isinstance(value, str):
        codes: Sequence[object] = value.split()
    elif isinstance(value, list):
        codes = value
    else:
        raise _expected(
            field, gettext_noop("expected card codes (a string or a list), got %(value)s"), value
        )
    return tuple(_card(code, f"{field}[{index}]") for index, code in enumerate(codes))


def _seat(value: object, players: int, field: str) -> int:
    if not isinstance(value, str):
        raise RuleError(
            "unknown_seat",
            gettext_noop("expected a seat name (%(seats)s), got %(value)s"),
            {"seats": " ".join(SEAT_NAMES[players]), "value": _short(value)},
            field=field,
        )
    try:
        return seat_index(players, value.strip())
    except RuleError as err:
        raise RuleError(err.code, err.template, err.params, field=field) from None


def _bool(data: Mapping[str, object], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise _expected(key, gettext_noop("expected true or false, got %(value)s"), value)
    return value


def _list(value: object, field: str) -> list[object]:
    if not isinstance(value, list):
        raise _expected(field, gettext_noop("expected a list, got %(value)s"), value)
    return value


def _object(value: object, field: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise _expected(field, gettext_noop("expected an object, got %(value)s"), value)
    return value


def _contract(value: object, field: str, ruleset: Ruleset) -> Contract:
    if isinstance(value, str):
        try:
            contract = Contract(value.strip())
        except ValueError:
            pass
        else:
            ruleset.check_contract(contract, field)
            return contract
    raise RuleError(
        "unknown_contract",
        gettext_noop("%(value)s is not one of %(choices)s"),
        {"value": _short(value), "choices": ", ".join(c.value for c in ruleset.contracts)},
        field=field,
    )


def _ruleset(data: Mapping[str, object]) -> Ruleset:
    raw = data.get("ruleset")
    if raw is None:
        return FFT
    if not isinstance(raw, str | Mapping):
        raise _expected(
            "ruleset", gettext_noop("expected a ruleset name or object, got %(value)s"), raw
        )
    return ruleset_from_dict(raw)


def _deal(data: Mapping[str, object], ruleset: Ruleset) -> Deal:
    if "deal" in data:
        text = data["deal"]
        if not isinstance(text, str):
            raise _expected("deal", gettext_noop("expected the deal's text, got %(value)s"), text)
        try:
            deal = deal_from_text(text, ruleset)
        except RuleError as err:
            where = f"deal ({err.field})" if err.field else "deal"
            raise RuleError(err.code, err.template, err.params, field=where) from None
        if "players" in data and data["players"] != deal.players:
            raise RuleError(
                "players_mismatch",
                gettext_noop("players says %(players)s but the deal has %(count)s hands"),
                {"players": _short(data["players"]), "count": deal.players},
                field="players",
            )
        return deal
    for key in ("players", "dealer", "hands", "chien"):
        if key not in data:
            raise _missing(key)
    players = data["players"]
    if isinstance(players, bool) or players not in PLAYER_COUNTS:
        raise RuleError(
            "unknown_player_count",
            gettext_noop("%(players)s players is not supported (3, 4 or 5)"),
            {"players": _short(players)},
            field="players",
        )
    assert isinstance(players, int)
    names = SEAT_NAMES[players]
    dealer = _seat(data["dealer"], players, "dealer")
    raw_hands = _object(data["hands"], "hands")
    unknown = [str(key) for key in raw_hands if key not in names]
    if unknown:
        raise RuleError(
            "unknown_seat",
            gettext_noop("%(seat)s is not a seat at %(players)s players (%(seats)s)"),
            {"seat": unknown[0], "players": players, "seats": " ".join(names)},
            field=f"hands.{unknown[0]}",
        )
    hands: list[tuple[Card, ...]] = []
    for name in names:
        if name not in raw_hands:
            raise _missing(f"hands.{name}")
        hands.append(_cards(raw_hands[name], f"hands.{name}"))
    deal = Deal(
        players=players,
        hands=tuple(hands),
        chien=_cards(data["chien"], "chien"),
        dealer=dealer,
    )
    validate_deal(deal, ruleset)
    return deal


def _bids(value: object, players: int, ruleset: Ruleset) -> tuple[Bid, ...]:
    bids: list[Bid] = []
    for index, raw in enumerate(_list(value, "bids")):
        where = f"bids[{index}]"
        if (isinstance(raw, str) and raw.strip() == PASS) or raw is None:
            bids.append(None)
        else:
            bids.append(_contract(raw, where, ruleset))
    return tuple(bids)


def _poignees(value: object, players: int) -> tuple[PoigneeShown, ...]:
    shown: list[PoigneeShown] = []
    for index, raw in enumerate(_list(value, "poignees")):
        where = f"poignees[{index}]"
        item = _object(raw, where)
        for key in ("seat", "size"):
            if key not in item:
                raise _missing(f"{where}.{key}")
        size = item["size"]
        try:
            poignee_size = PoigneeSize(size) if isinstance(size, str) else None
        except ValueError:
            poignee_size = None
        if poignee_size is None:
            raise RuleError(
                "unknown_poignee",
                gettext_noop("%(value)s is not one of %(choices)s"),
                {"value": _short(size), "choices": ", ".join(s.value for s in PoigneeSize)},
                field=f"{where}.size",
            )
        shown.append(PoigneeShown(_seat(item["seat"], players, f"{where}.seat"), poignee_size))
    return tuple(shown)


def _trick_cards(value: object) -> list[tuple[Card, ...]]:
    tricks: list[tuple[Card, ...]] = []
    for number, raw in enumerate(_list(value, "tricks")):
        where = f"tricks[{number}]"
        if isinstance(raw, str):
            raw = raw.split()
        tricks.append(
            tuple(_card(code, f"{where}[{index}]") for index, code in enumerate(_list(raw, where)))
        )
    return tricks


def _passes(value: object, players: int, tricks: int) -> tuple[CardPass, ...]:
    names = SEAT_NAMES[players]
    passes: list[CardPass] = []
    for index, raw in enumerate(_list(value, "passes")):
        where = f"passes[{index}]"
        item = _object(raw, where)
        for key in ("after_trick", "cards"):
            if key not in item:
                raise _missing(f"{where}.{key}")
        after = item["after_trick"]
        if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after < tricks:
            raise RuleError(
                "invalid_pass",
                gettext_noop("expected the index of a trick (0..%(last)s), got %(value)s"),
                {"last": max(tricks - 1, 0), "value": _short(after)},
                field=f"{where}.after_trick",
            )
        cards = _object(item["cards"], f"{where}.cards")
        unknown = [str(key) for key in cards if key not in names]
        if unknown:
            raise RuleError(
                "unknown_seat",
                gettext_noop("%(seat)s is not a seat at %(players)s players (%(seats)s)"),
                {"seat": unknown[0], "players": players, "seats": " ".join(names)},
                field=f"{where}.cards.{unknown[0]}",
            )
        passed = tuple(_cards(cards.get(name, []), f"{where}.cards.{name}") for name in names)
        passes.append(CardPass(after_trick=after, cards=passed))
    return tuple(passes)


def _leaders(record: PlayRecord, tricks: Sequence[tuple[Card, ...]]) -> list[int]:
    """Each trick's leader by the rules: the first leader, then each trick's winner.

    Only a trick's winner matters, not the last trick's (no trick follows it), so the Excuse
    winning a chelem's last trick never changes a leader. A trick without a card that sets the
    suit keeps its leader for the next one (:func:`rules.play.validate_play` refuses it).
    """
    players = record.deal.players
    leader = first_leader(record)
    leaders: list[int] = []
    for cards in tricks:
        leaders.append(leader)
        if led_card(cards) is not None:
            leader = (leader - trick_winner(cards)) % players
    return leaders


def record_from_json(data: object) -> tuple[PlayRecord, tuple[Bid, ...] | None]:
    """Read a play record (the module's format): the record and its bids (``None`` when the
    record has none). Only the shape and the deal are checked here; :func:`validate_record`
    checks the auction and every card."""
    record_data = _object(data, "record")
    unknown = sorted(str(key) for key in record_data if key not in _KNOWN_KEYS)
    if unknown:
        raise RuleError(
            "unknown_field",
            gettext_noop("unknown key %(key)s"),
            {"key": unknown[0]},
            field=unknown[0],
        )
    if "format" in record_data and record_data["format"] != RECORD_FORMAT:
        raise RuleError(
            "unknown_format",
            gettext_noop("expected the format %(format)s, got %(value)s"),
            {"format": RECORD_FORMAT, "value": _short(record_data["format"])},
            field="format",
        )
    if "version" in record_data and record_data["version"] != RECORD_VERSION:
        raise RuleError(
            "unknown_version",
            gettext_noop("version %(value)s is not supported (expected %(version)s)"),
            {"value": _short(record_data["version"]), "version": RECORD_VERSION},
            field="version",
        )
    ruleset = _ruleset(record_data)
    deal = _deal(record_data, ruleset)
    players = deal.players
    for key in ("taker", "contract", "tricks"):
        if key not in record_data:
            raise _missing(key)
    bids = None
    if record_data.get("bids") is not None:
        bids = _bids(record_data["bids"], players, ruleset)
    taker = _seat(record_data["taker"], players, "taker")
    contract = _contract(record_data["contract"], "contract", ruleset)
    called = record_data.get("called_card")
    tricks = _trick_cards(record_data["tricks"])
    record = PlayRecord(
        deal=deal,
        taker=taker,
        contract=contract,
        tricks=(),
        ecart=_cards(record_data.get("ecart", ""), "ecart"),
        called_card=None if called is None else _card(called, "called_card"),
        poignees=_poignees(record_data.get("poignees", []), players),
        chelem_announced=_bool(record_data, "chelem_announced"),
        petit_chelem_announced=_bool(record_data, "petit_chelem_announced"),
        passes=_passes(record_data.get("passes", []), players, len(tricks)),
        ruleset=ruleset,
    )
    leaders = _leaders(record, tricks)
    record = replace(
        record,
        tricks=tuple(
            Trick(leader=leader, cards=cards) for leader, cards in zip(leaders, tricks, strict=True)
        ),
    )
    return record, bids


# ------------------------------------------------------------------------------- checking


def validate_record(record: PlayRecord, bids: Sequence[Bid] | None = None) -> None:
    """Check the auction (when given) against the taker and contract, then every step of the
    play (:func:`rules.play.validate_play`); a card's fault names its place ``tricks[t][p]``."""
    deal = record.deal
    names = SEAT_NAMES[deal.players]
    if bids is not None:
        result = bidding_result(deal.players, deal.dealer, bids, ruleset=record.ruleset)
        if result.taker is None or result.contract is None:
            raise RuleError(
                "passed_out",
                gettext_noop("every player passed: the deal was not played"),
                {},
                field="bids",
            )
        if result.taker != record.taker or result.contract is not record.contract:
            raise RuleError(
                "bids_mismatch",
                gettext_noop(
                    "the bids make %(seat)s the taker in %(contract)s, not %(taker)s in "
                    "%(record_contract)s"
                ),
                {
                    "seat": names[result.taker],
                    "contract": result.contract.value,
                    "taker": names[record.taker]
                    if 0 <= record.taker < deal.players
                    else record.taker,
                    "record_contract": record.contract.value,
                },
                field="bids",
            )
    try:
        validate_play(record)
    except RuleError as err:
        position = err.params.get("position")
        if err.field is not None and err.field.startswith("tricks[") and position is not None:
            raise RuleError(
                err.code, err.template, err.params, field=f"{err.field}[{position}]"
            ) from None
        raise
