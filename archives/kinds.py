"""The kinds of archive, and restoring any of them by its schema.

:data:`KINDS` names each kind (``event``, ``cup``, ``free-deal``, ``series``) with its model,
schema, writer and restorer. :func:`archive_document` writes the archive of a competition of
a kind; :func:`restore_document` reads a file, picks the kind from its ``schema`` and restores
it (one transaction, everything checked before anything is written); :class:`Restored` is
what any restore reports, for the command line and the restore page alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import models, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from archives import cups, events, free_deals, series
from archives.format import MAX_BYTES, parse_archive, refuse, schema_of
from clubs.models import Club
from freedeal.models import FreeDealTournament
from series.models import Series
from teammatch.models import Cup
from tournaments.models import Event


@dataclass(frozen=True)
class Kind:
    name: str
    schema: str
    model: type[models.Model]
    archive: Callable[[Any], dict[str, Any]]
    filename: Callable[[Any], str]
    check: Callable[[Any], Any]
    restore: Callable[[Any, Club, bool], Restored]


@dataclass
class Restored:
    """What a restore did, whatever the kind: the object created (and its organiser page),
    what it holds, whether codes were kept, and the verification."""

    kind: str
    obj: models.Model
    url: str
    counts: dict[str, int] = field(default_factory=dict)
    codes_kept: bool = False
    verified: bool | None = None
    differences: list[str] = field(default_factory=list)


def _event(checked: Any, club: Club, keep: bool) -> Restored:
    report = events.restore_checked(checked, club=club, keep_table_codes=keep)
    return Restored(
        "event",
        report.event,
        reverse("organiser:event", kwargs={"pk": report.event.pk}),
        {
            "sections": report.sections,
            "tables": report.tables,
            "results": report.results,
            "players_matched": report.players_matched,
            "players_created": report.players_created,
        },
        report.table_codes_kept,
        report.verified,
        list(report.differences or []),
    )


def _cup(checked: Any, club: Club, keep: bool) -> Restored:
    report = cups.restore_checked_cup(checked, club=club, keep_codes=keep)
    return Restored(
        "cup",
        report.cup,
        reverse("teammatch:organiser_cup", kwargs={"cup_id": report.cup.pk}),
        {
            "matches": report.matches,
            "results": report.results,
            "players_matched": report.players_matched,
            "players_created": report.players_created,
        },
        report.codes_kept,
        report.verified,
        report.differences,
    )


def _free_deal(checked: Any, club: Club, keep: bool) -> Restored:
    report = free_deals.restore_checked_free_deal(checked, club=club, keep_codes=keep)
    return Restored(
        "free-deal",
        report.tournament,
        reverse("freedeal:organiser_detail", kwargs={"pk": report.tournament.pk}),
        {
            "tables": report.tables,
            "results": report.results,
            "players_matched": report.players_matched,
            "players_created": report.players_created,
        },
        report.codes_kept,
        report.verified,
        report.differences,
    )


def _series(checked: Any, club: Club, keep: bool) -> Restored:
    report = series.restore_checked_series(checked, club=club, keep_codes=keep)
    return Restored(
        "series",
        report.series,
        reverse("series:organiser_edit", kwargs={"series_pk": report.series.pk}),
        {
            "events": report.events,
            "results": report.results,
            "players_matched": report.players_matched,
            "players_created": report.players_created,
        },
        report.codes_kept,
        report.verified,
        report.differences,
    )


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("event", events.SCHEMA, Event, events.archive_event, events.archive_filename,
             events.check_archive, _event),
        Kind("cup", cups.SCHEMA, Cup, cups.archive_cup, cups.cup_filename, cups.check_cup, _cup),
        Kind("free-deal", free_deals.SCHEMA, FreeDealTournament, free_deals.archive_free_deal,
             free_deals.free_deal_filename, free_deals.check_free_deal, _free_deal),
        Kind("series", series.SCHEMA, Series, series.archive_series, series.series_filename,
             series.check_series, _series),
    )
}  # fmt: skip
BY_SCHEMA = {kind.schema: kind for kind in KINDS.values()}


def kind_of(document: Any, allowed: Sequence[str] | None = None) -> Kind:
    """The kind a parsed document says it is (its ``schema``), among ``allowed`` kinds."""
    kind = BY_SCHEMA.get(schema_of(document) or "")
    if kind is None or (allowed is not None and kind.name not in allowed):
        if allowed is not None and len(allowed) == 1:
            # the old commands and messages: "This file is not a duplitarot event archive."
            KINDS[allowed[0]].check(document)
        raise refuse(
            _(
                "This file is not a duplitarot archive (an event, a cup, a free-deal "
                "tournament or a series)."
            )
        )
    return kind


def restore_document(
    file: IO[bytes] | bytes | str,
    *,
    club: Club,
    keep_codes: bool = False,
    max_bytes: int = MAX_BYTES,
    allowed: Sequence[str] | None = None,
) -> Restored:
    """Restore an archive of any kind into ``club``: read, check entirely, then write in one
    transaction. :class:`~archives.format.ArchiveError` on any fault, with nothing written."""
    document = parse_archive(file, max_bytes=max_bytes)
    kind = kind_of(document, allowed)
    checked = kind.check(document)
    with transaction.atomic():
        return kind.restore(checked, club, keep_codes)


def restored_summary(restored: Restored) -> str:
    """One translated sentence: what was restored, the codes, the verification."""
    counts = restored.counts
    what = {
        "event": _("Event restored: %(results)s results, %(tables)s tables"),
        "cup": _("Cup restored: %(matches)s matches, %(results)s room results"),
        "free-deal": _("Free-deal tournament restored: %(results)s results, %(tables)s tables"),
        "series": _("Series restored with %(events)s events (%(results)s results)"),
    }[restored.kind] % counts
    players = _("%(matched)s players matched by licence, %(created)s created") % {
        "matched": counts.get("players_matched", 0),
        "created": counts.get("players_created", 0),
    }
    codes = (
        _("the phone codes were kept")
        if restored.codes_kept
        else _("every table or room has a new code: print the cards again")
    )
    if restored.verified is None:
        check = _("The archive holds no standings.")
    elif restored.verified:
        check = _("Figures verified: recomputed from the results, they equal the archived ones.")
    else:
        check = _(
            "The archived figures differ from a recompute of the results (%(what)s); they "
            "were restored as archived."
        ) % {"what": ", ".join(restored.differences)}
    return f"{what} ({players}; {codes}). {check}"
