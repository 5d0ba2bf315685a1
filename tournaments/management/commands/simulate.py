"""``manage.py simulate``: deals played by the engine's heuristic players, as play records.

    python manage.py simulate --players 4 --count 10 --seed club [--out DIR]
                              [--ruleset fft|traditional|house] [--pousse-multiplier N]
                              [--flambeuse] [--indent N]

Each record is :mod:`rules.record`'s JSON, which ``manage.py play`` replays. Without ``--out``
stdout gets one JSON list of the records; with it, ``DIR/deal-001.json``... (the directory is
created). Deterministic: deal ``k`` of a seed is the same whatever ``--count``
(``rules.simulation.deal_for_simulation`` and ``simulate_deal`` draw from a generator seeded
with the seed, the player count, the ruleset and ``k``). The dealer rotates; the players bid
freely, and a deal everybody passes is played by the player after the dealer with the lowest
contract (so ``--count`` records are written). Under the house rules the dealer picks the chien
size with the same generator.

Bad arguments exit with code 2 and one line on stderr.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext, ngettext

from rules import RuleError
from rules.deal import next_seat
from rules.i18n import gettext_noop
from rules.record import record_to_json
from rules.ruleset import Ruleset, RulesetName, ruleset_from_choice
from rules.simulation import deal_for_simulation, simulate_deal
from tournaments.management.base import OneLineErrorCommand
from tournaments.management.commands.play import rule_error_line

MAX_COUNT = 10_000


def simulated_records(
    players: int, count: int, seed: str, ruleset: Ruleset
) -> list[dict[str, object]]:
    """``count`` play records for ``seed`` (see the module's doc)."""
    records: list[dict[str, object]] = []
    for number in range(1, count + 1):
        rng = random.Random(f"duplitarot-simulate:{players}:{ruleset.name.value}:{seed}:{number}")
        dealer = (number - 1) % players
        deal = deal_for_simulation(players, rng, dealer, ruleset)
        played = simulate_deal(deal, rng, ruleset=ruleset)
        if played.record is None:
            played = simulate_deal(
                deal, rng, taker_seat=next_seat(players, dealer), ruleset=ruleset
            )
        assert played.record is not None
        records.append(record_to_json(played.record, played.bids))
    return records


class Command(OneLineErrorCommand):
    help = "Simulate deals with the engine's players and write them as play records (JSON)."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=4, help="3, 4 or 5 (default 4).")
        parser.add_argument("--count", type=int, default=1, help="Number of deals (default 1).")
        parser.add_argument("--seed", required=True, help="Any text or number.")
        parser.add_argument("--out", default=None, help="Directory for one file per deal.")
        parser.add_argument(
            "--ruleset", default=RulesetName.FFT.value, help="fft (default), traditional or house."
        )
        parser.add_argument("--pousse-multiplier", type=int, default=None)
        parser.add_argument("--flambeuse", action="store_true")
        parser.add_argument("--indent", type=int, default=None)

    def _ruleset(self, options: dict[str, Any]) -> Ruleset:
        name = str(options["ruleset"]).strip().lower()
        ruleset = ruleset_from_choice({"name": name})
        multiplier, flambeuse = options["pousse_multiplier"], options["flambeuse"]
        if ruleset.name is not RulesetName.TRADITIONAL:
            if multiplier is not None or flambeuse:
                message = gettext(
                    "--pousse-multiplier and --flambeuse are options of the traditional ruleset"
                )
                raise CommandError(f"[invalid_arguments] ruleset: {message}", returncode=2)
            return ruleset
        data: dict[str, object] = {"name": name, "flambeuse": flambeuse}
        if multiplier is not None:
            data["pousse_multiplier"] = multiplier
        return ruleset_from_choice(data)

    def handle(self, *args: Any, **options: Any) -> None:
        players, count = options["players"], options["count"]
        try:
            ruleset = self._ruleset(options)
            if players not in (3, 4, 5):
                raise RuleError(
                    "unknown_player_count",
                    gettext_noop("%(players)s players is not supported (3, 4 or 5)"),
                    {"players": players},
                    field="players",
                )
            if not 1 <= count <= MAX_COUNT:
                message = gettext("--count must be between 1 and %(max)s") % {"max": MAX_COUNT}
                raise CommandError(f"[invalid_arguments] count: {message}", returncode=2)
            if players != 5 and ruleset.flambeuse:
                message = gettext("the flambeuse is played at 5 players")
                raise CommandError(f"[invalid_arguments] flambeuse: {message}", returncode=2)
            records = simulated_records(players, count, str(options["seed"]), ruleset)
        except RuleError as err:
            raise CommandError(rule_error_line(err), returncode=2) from None
        indent = options["indent"]
        if options["out"] is None:
            self.stdout.write(json.dumps(records, indent=indent, ensure_ascii=False))
            return
        directory = Path(options["out"])
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for number, record in enumerate(records, start=1):
                path = directory / f"deal-{number:03d}.json"
                path.write_text(
                    json.dumps(record, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8"
                )
        except OSError:
            message = gettext("cannot write to %(path)s") % {"path": str(directory)}
            raise CommandError(f"[unwritable_directory] out: {message}", returncode=2) from None
        self.stdout.write(
            ngettext(
                "%(count)s record written to %(path)s",
                "%(count)s records written to %(path)s",
                count,
            )
            % {"count": count, "path": directory}
        )
