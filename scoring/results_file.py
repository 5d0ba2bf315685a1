"""The results file of a finished event, for the league and the federation (issue 24).

One document (``duplitarot-results/1``, ``docs/results-file.md``, its JSON Schema
``docs/results-file.schema.json``) written as JSON or as a CSV file of one row per ranked
player. It is made of the **published final rankings** as the ranking pages show them
(``scoring.selectors.ranking_rows``): nothing is ranked again here, the rows are only named
(licence, home club, category in a club's register, series: ``1`` to ``4`` or ``P``, a value
stored by an earlier version in another form read as :func:`clubs.register.series_code` does)
and put in a stable order (by rank; players or teams sharing a rank by name).

Only a finished event with up-to-date standings has a results file (:func:`results_file_problem`
says why another has none). A section of a simultaneous has none of its own: the league's
file is its simultaneous's, which covers every section.

Decimals (percentages, penalties, victory points) are written with exactly two places, as the
ranking shows them: JSON strings in the JSON document (``"52.35"``: no reader turns them into
binary floats), plain numbers with a dot in the CSV.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from decimal import Decimal
from importlib import metadata
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from clubs.exports import is_formula_like
from clubs.register import series_code
from clubs.selectors import club_names, register_categories
from scoring.models import RankingEntry
from scoring.selectors import (
    event_family,
    event_figures,
    ranking_rows,
    simultaneous_figures,
    standings_status,
)
from tournaments.models import Event

FORMAT_NAME = "duplitarot-results"
FORMAT_VERSION = 1
FORMAT_ID = f"{FORMAT_NAME}/{FORMAT_VERSION}"

#: The CSV columns, in order (fixed English identifiers, whatever the interface's language).
CSV_COLUMNS: tuple[str, ...] = (
    "format",
    "event_id",
    "event_name",
    "event_date",
    "event_format",
    "organising_club",
    "rank",
    "licence",
    "last_name",
    "first_name",
    "club",
    "category",
    "series",
    "percentage",
    "deals_played",
    "penalty",
    "section",
    "team",
    "team_number",
    "team_rank",
    "team_percentage",
    "team_points_de_match",
    "team_victory_points",
)

_DECIMAL_COLUMNS = ("percentage", "penalty", "team_percentage", "team_victory_points")

# Why an event has no results file (results_file_problem).
NOT_FINISHED = "not_finished"
SECTION = "section"
STANDINGS_PENDING = "standings_pending"

_TWO_PLACES = Decimal("0.01")


def software_version() -> str:
    """duplitarot's version: the installed package's, else the checkout's ``pyproject.toml``."""
    try:
        return metadata.version("duplitarot")
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(settings.BASE_DIR) / "pyproject.toml"
    try:
        with pyproject.open("rb") as stream:
            return str(tomllib.load(stream)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def results_file_problem(event: Event) -> str | None:
    """Why ``event`` has no results file (:data:`SECTION`, :data:`NOT_FINISHED`,
    :data:`STANDINGS_PENDING`: the final standings are still being computed), or None."""
    if event.is_section:
        return SECTION
    if event.status != Event.Status.FINISHED:
        return NOT_FINISHED
    if standings_status(event).behind:
        return STANDINGS_PENDING
    return None


def _decimal(value: Decimal | None) -> str | None:
    return None if value is None else str(Decimal(value).quantize(_TWO_PLACES))


def _club_dict(club: Any) -> dict[str, str] | None:
    return None if club is None else {"name": club.name, "city": club.city}


def results_document(event: Event, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """The results file of ``event`` (finished, not a section: :func:`results_file_problem`)
    as a JSON-ready dict."""
    family = event_family(event)
    simultaneous = family.is_simultaneous
    figures = simultaneous_figures(event) if simultaneous else event_figures(event)
    rounds = figures.deals // event.deals_per_round if simultaneous else len(event.schedule.rounds)
    teams, team_ranks = _team_ranking(event, simultaneous)
    club_of_section = {section.pk: section.club_id for section in family.sections}
    return {
        "format": FORMAT_ID,
        "generated_at": (now or timezone.now()).astimezone(dt.UTC).isoformat(),
        "software": {"name": "duplitarot", "version": software_version()},
        "event": {
            "id": event.pk,
            "name": event.name,
            "date": event.date.isoformat(),
            "format": event.format,
            "organising_club": _club_dict(event.club),
            "rounds": rounds,
            "deals": figures.deals,
            "tables": figures.tables,
            "simultaneous": simultaneous,
            "sections": [
                {"id": section.pk, "name": section.name, "club": _club_dict(section.club)}
                for section in family.sections
            ],
            "team_ranking_by": _team_basis(event),
        },
        "ranking": _player_ranking(event, simultaneous, club_of_section, team_ranks),
        "team_ranking": teams,
    }


def _team_basis(event: Event) -> str | None:
    """What the published standings rank the teams by (``percentage``, ``pm``, ``vp``), as
    the snapshot stores it; None for an individual event."""
    if not event.is_team_event:
        return None
    snapshot = standings_status(event).snapshot
    basis = (snapshot.data or {}).get("team_basis") if snapshot is not None else None
    return str(basis) if basis else None


def _team_ranking(event: Event, simultaneous: bool) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The team ranking's rows (none for an individual event) and each team's rank by id."""
    if not event.is_team_event:
        return [], {}
    rows = ranking_rows(event, RankingEntry.Kind.TEAM, sections=simultaneous)
    ranked = [(row, row.team) for row in rows if row.team is not None]  # in the ranking's order
    teams = [
        {
            "rank": row.rank,
            "number": team.number,
            "name": team.name,
            "section": getattr(row, "section_name", None) if simultaneous else None,
            "percentage": _decimal(row.percentage),
            "penalty": _decimal(row.penalty),
            "points_de_match": row.points_de_match,
            "victory_points": _decimal(row.victory_points),
            "members": [
                {
                    "licence": member.player.licence or None,
                    "last_name": member.player.last_name,
                    "first_name": member.player.first_name,
                }
                for member in team.members.all()
                if member.player is not None
            ],
        }
        for row, team in ranked
    ]
    return teams, {team.pk: row.rank for row, team in ranked}


def _player_ranking(
    event: Event, simultaneous: bool, club_of_section: dict[int, int], team_ranks: dict[int, int]
) -> list[dict[str, Any]]:
    """The individual ranking's rows in the ranking's order (rank, then equal ranks in French
    order of the names: ``scoring.core.tie_order``), a bounded number of queries."""
    rows = ranking_rows(event, RankingEntry.Kind.INDIVIDUAL, sections=simultaneous)
    ranked = [(row, row.entrant, row.entrant.player) for row in rows
              if row.entrant is not None and row.entrant.player is not None]  # fmt: skip
    # The club whose event (a simultaneous: whose section) each player played.
    played_in = {
        row.pk: club_of_section.get(getattr(row, "section_id", 0), event.club_id)
        for row, _, _ in ranked
    }
    home_club_ids = {player.club_id for _, _, player in ranked if player.club_id is not None}
    categories = register_categories(
        {player.pk for _, _, player in ranked}, home_club_ids | set(played_in.values())
    )
    home_clubs = club_names(home_club_ids)
    lines: list[dict[str, Any]] = []
    for row, entrant, player in ranked:
        category = categories.get((played_in[row.pk], player.pk), "") or categories.get(
            (player.club_id or 0, player.pk), ""
        )
        team = entrant.team
        line = {
            "rank": row.rank,
            "licence": player.licence or None,
            "last_name": player.last_name,
            "first_name": player.first_name,
            "club": home_clubs.get(player.club_id or 0),
            "category": category,
            "series": series_code(player.series) or "",
            "percentage": _decimal(row.percentage),
            "deals_played": row.deals_played,
            "penalty": _decimal(row.penalty),
            "section": getattr(row, "section_name", None) if simultaneous else None,
            "team": team.name if team is not None else None,
            "team_number": team.number if team is not None else None,
            "team_rank": team_ranks.get(team.pk) if team is not None else None,
        }
        lines.append(line)
    return lines


def _csv_cell(value: Any) -> Any:
    """A CSV cell: empty for null, formula-like text quoted (``clubs.exports``), else as is."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_formula_like(value):
        return "'" + value
    return value


def results_csv_rows(document: dict[str, Any]) -> list[list[Any]]:
    """The CSV rows of a results document (:data:`CSV_COLUMNS`), one per ranked player."""
    event = document["event"]
    organising = event["organising_club"]
    teams = {(team["section"], team["number"]): team for team in document["team_ranking"]}
    rows: list[list[Any]] = []
    for player in document["ranking"]:
        team = teams.get((player["section"], player["team_number"]))
        values = {
            "format": document["format"],
            "event_id": event["id"],
            "event_name": event["name"],
            "event_date": event["date"],
            "event_format": event["format"],
            "organising_club": organising["name"] if organising else None,
            **{key: player[key] for key in CSV_COLUMNS if key in player},
            "team_percentage": team["percentage"] if team else None,
            "team_points_de_match": team["points_de_match"] if team else None,
            "team_victory_points": team["victory_points"] if team else None,
        }
        for column in _DECIMAL_COLUMNS:  # numbers, never text a spreadsheet would quote
            if values[column] is not None:
                values[column] = Decimal(values[column])
        rows.append([_csv_cell(values[column]) for column in CSV_COLUMNS])
    return rows
