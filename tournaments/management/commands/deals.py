"""``manage.py deals``: print reproducible deals (text or JSON) for a seed.

    python manage.py deals --players 4 --count 24 --seed club-2026-11 [--format text|json]
                           [--dealer N] [--keep-petit-sec]

The same seed always prints the same deals (see ``rules.deal.generate_deals``); deal ``k`` does
not depend on ``--count``. Text: a ``# deal k`` header, then ``rules.deal.deal_to_text`` (the
``dealer:`` line, one ``SEAT: codes`` line per hand, the ``chien:`` line), a blank line between
deals. JSON: a list of ``{number, dealer, hands: {seat: [codes]}, chien: [codes], text}`` where
``dealer`` is the dealer's seat name. ``--dealer`` (seat name or index) fixes the dealer of
every deal; by default it rotates.

Bad arguments exit with code 2 and one line on stderr.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser

from rules import SEAT_NAMES, RuleError, deal_to_text, format_cards, generate_deals
from tournaments.management.base import OneLineErrorCommand

MAX_COUNT = 10_000


class Command(OneLineErrorCommand):
    help = "Print reproducible deals for a seed, as text or JSON."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=4, help="3, 4 or 5 (default 4).")
        parser.add_argument("--count", type=int, default=24, help="Number of deals (default 24).")
        parser.add_argument("--seed", required=True, help="Any text or number.")
        parser.add_argument("--format", choices=["text", "json"], default="text")
        parser.add_argument(
            "--dealer", default=None, help="Dealer of every deal: seat name or index."
        )
        parser.add_argument(
            "--keep-petit-sec",
            action="store_true",
            help="Keep deals with a petit sec (rejected and redealt by default).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players: int = options["players"]
        count: int = options["count"]
        if players not in SEAT_NAMES:
            raise CommandError(
                f"[unknown_player_count] players: {players} is not supported (3, 4 or 5)",
                returncode=2,
            )
        if not 1 <= count <= MAX_COUNT:
            raise CommandError(
                f"[invalid_count] count: {count} is outside 1..{MAX_COUNT}", returncode=2
            )
        dealer = self._dealer(options["dealer"], players)
        try:
            deals = generate_deals(
                players,
                count,
                options["seed"],
                reject_petit_sec=not options["keep_petit_sec"],
                dealer=dealer,
            )
        except RuleError as err:
            raise CommandError(err.describe(), returncode=2) from None
        if options["format"] == "json":
            payload = [
                {
                    "number": number,
                    "dealer": deal.seats[deal.dealer],
                    "hands": {
                        seat: format_cards(hand).split()
                        for seat, hand in zip(deal.seats, deal.hands, strict=True)
                    },
                    "chien": format_cards(deal.chien).split(),
                    "text": deal_to_text(deal),
                }
                for number, deal in enumerate(deals, start=1)
            ]
            self.stdout.write(json.dumps(payload, indent=2))
            return
        blocks = [
            f"# deal {number}\n{deal_to_text(deal)}" for number, deal in enumerate(deals, start=1)
        ]
        self.stdout.write("\n\n".join(blocks))

    @staticmethod
    def _dealer(raw: str | None, players: int) -> int | None:
        if raw is None:
            return None
        seats = SEAT_NAMES[players]
        text = raw.strip()
        if text.upper() in seats:
            return seats.index(text.upper())
        if text.isdigit() and int(text) < players:
            return int(text)
        raise CommandError(
            f"[invalid_dealer] dealer: {raw!r} is not a seat ({' '.join(seats)}) "
            f"nor an index 0..{players - 1}",
            returncode=2,
        )
