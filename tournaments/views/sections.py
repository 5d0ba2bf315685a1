"""Organiser screens of simultaneous tournaments, and the import of a results file.

- the simultaneous's page (``organiser:event`` of a simultaneous): its sections (club, status,
  tables, results entered of expected), the form adding a section, its deals;
- the simultaneous's deals: generated or imported (the sections get copies), frozen once a
  section has started;
- a section's page (``organiser:event`` of a section): the usual event dashboard (every other
  step — players, movement, start, entry, finish — is the usual organiser page), plus the
  simultaneous it belongs to, the section's own start problems and the results import;
- the results import (any started event but a simultaneous): the per-line report.

Thin views like :mod:`tournaments.views.organiser`: forms parse, services decide, selectors
read (``tournaments.selectors.sections``), a refusal re-renders the page with status 400 and
nothing stored changes. ``organiser:event`` dispatches
here first: a plain event gets the usual dashboard.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.access import (
    clubs_directed_by,
    directed_or_404,
    directs,
    user_directs,
    user_directs_a_club,
)
from clubs.errors import DomainError
from clubs.forms import add_error
from tournaments import forms, selectors, services
from tournaments.models import Event
from tournaments.views import organiser

#: At most this many error lines are listed on the page (the report holds them all).
REPORT_LINES_SHOWN = 1000


# --- dispatch ------------------------------------------------------------------------------


@login_required
@directs(Event)
def event_home(request: HttpRequest, event: Event) -> HttpResponse:
    """``organiser:event``: a simultaneous's page, a section's dashboard, or the usual one."""
    if event.is_section:
        return _section_dashboard(request, event)
    if services.is_simultaneous(event):
        return _simultaneous_page(request, event)
    return organiser.event_dashboard(request, pk=event.pk)


def _simultaneous_page(
    request: HttpRequest,
    event: Event,
    *,
    section_form: forms.SectionCreateForm | None = None,
    status: int = 200,
) -> HttpResponse:
    rows = selectors.section_rows(event)
    context = {
        "event": event,
        "rounds": services.simultaneous_rounds(event),
        "deal_count": selectors.event_deal_count(event),
        "sections": rows,
        "finished": sum(1 for row in rows if row.event.status == Event.Status.FINISHED),
        "entered": sum(row.entered for row in rows),
        "expected": sum(row.expected for row in rows),
        "section_form": section_form or forms.SectionCreateForm(),
        "can_add": event.status != Event.Status.FINISHED,
    }
    return render(request, "tournaments/organiser/simultaneous.html", context, status=status)


def _section_dashboard(request: HttpRequest, event: Event) -> HttpResponse:
    problems: list[str] = []
    if event.status == Event.Status.DRAFT:
        problems = selectors.event_start_problems(event) + services.section_start_problems(event)
    parent = selectors.simultaneous_of(event)
    tables = [
        {"table": table, "entry_url": f"/table/{table.code}/"}
        for table in (selectors.event_tables(event) if event.movement else [])
    ]
    return organiser._render(
        request,
        "tournaments/organiser/section_dashboard.html",
        event,
        "start",
        {
            "problems": problems,
            "tables": tables,
            "simultaneous": parent,
            "directs_simultaneous": user_directs(request.user, parent),
            "rounds": services.simultaneous_rounds(parent),
        },
    )


def _simultaneous_or_404(request: HttpRequest, pk: int) -> Event:
    """The simultaneous ``pk`` if the visitor directs it, else 404."""
    event = directed_or_404(request, Event, pk)
    if event.is_section or not services.is_simultaneous(event):
        raise Http404("not a simultaneous")
    return event


# --- the simultaneous ----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def simultaneous_create(request: HttpRequest) -> HttpResponse:
    clubs = clubs_directed_by(request.user)
    form = forms.SimultaneousCreateForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.simultaneous_create(**form.cleaned_data)
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(
                request, _("Simultaneous created with its deals. Now add its sections.")
            )
            return redirect("organiser:event", pk=event.pk)
    return render(
        request,
        "tournaments/organiser/simultaneous_form.html",
        {"form": form, "has_clubs": user_directs_a_club(request.user)},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def section_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _simultaneous_or_404(request, pk)
    form = forms.SectionCreateForm(request.POST)
    if form.is_valid():
        try:
            section = services.section_create(simultaneous=event, **form.cleaned_data)
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(
                request,
                _("Section %(name)s added: register its players, then its movement.")
                % {"name": section.name},
            )
            return redirect("organiser:event", pk=event.pk)
    return _simultaneous_page(request, event, section_form=form, status=400)


@login_required
@require_POST
@directs(Event)
def section_delete(request: HttpRequest, event: Event) -> HttpResponse:
    parent_pk = event.simultaneous_id
    try:
        services.section_delete(section=event)
    except DomainError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("organiser:event", pk=parent_pk or event.pk)
    messages.success(request, _("Section %(name)s removed.") % {"name": event.name})
    return redirect("organiser:event", pk=parent_pk)


def _deals_page(
    request: HttpRequest,
    event: Event,
    generate: forms.SimultaneousDealsGenerateForm | None = None,
    import_form: forms.SimultaneousDealsImportForm | None = None,
    status: int = 200,
) -> HttpResponse:
    rounds = services.simultaneous_rounds(event)
    context = {
        "event": event,
        "rounds": rounds,
        "deals": selectors.event_deals(event),
        "is_draft": event.status == Event.Status.DRAFT,
        "sections": selectors.section_count(event),
        "generate_form": generate
        or forms.SimultaneousDealsGenerateForm(initial={"seed": event.seed, "rounds": rounds}),
        "import_form": import_form or forms.SimultaneousDealsImportForm(),
    }
    return render(request, "tournaments/organiser/simultaneous_deals.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def simultaneous_deals(request: HttpRequest, pk: int) -> HttpResponse:
    """The simultaneous's deals; POST generates them (:func:`simultaneous_deals_import`
    imports them)."""
    event = _simultaneous_or_404(request, pk)
    if request.method == "GET":
        return _deals_page(request, event)
    form = forms.SimultaneousDealsGenerateForm(request.POST)
    if form.is_valid():
        try:
            created = services.event_deals_generate(event=event, **form.cleaned_data)
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(
                request,
                _("%(count)s deals generated and copied to every section.")
                % {"count": len(created)},
            )
            return redirect("organiser:event", pk=event.pk)
    return _deals_page(request, event, generate=form, status=400)


@login_required
@require_POST
def simultaneous_deals_import(request: HttpRequest, pk: int) -> HttpResponse:
    event = _simultaneous_or_404(request, pk)
    form = forms.SimultaneousDealsImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            created = services.event_deals_import(
                event=event,
                text=form.cleaned_data["file"],
                imposed_contract=form.cleaned_data["imposed_contract"],
                rounds=form.cleaned_data["rounds"],
            )
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(
                request,
                _("%(count)s deals imported and copied to every section.")
                % {"count": len(created)},
            )
            return redirect("organiser:event", pk=event.pk)
    return _deals_page(request, event, import_form=form, status=400)


# --- results import ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def results_import(request: HttpRequest, event: Event) -> HttpResponse:
    """Import a section's results from a CSV or JSON file and show the per-line report."""
    if services.is_simultaneous(event):
        messages.info(request, _("Results are imported into each section, not the simultaneous."))
        return redirect("organiser:event", pk=event.pk)
    form = forms.ResultsImportForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"form": form}
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                report = services.section_results_import(
                    section=event, file=form.cleaned_data["file"], actor=request.user
                )
            except DomainError as error:
                add_error(form, error)
            else:
                context["report"] = report
                context["errors_shown"] = report.errors[:REPORT_LINES_SHOWN]
                context["errors_hidden"] = max(0, len(report.errors) - REPORT_LINES_SHOWN)
                if report.ok:
                    status = 200
                    context["form"] = forms.ResultsImportForm()
    return organiser._render(
        request,
        "tournaments/organiser/results_import.html",
        event,
        "start",
        {**context, "simultaneous": event.simultaneous},
        status=status,
    )
