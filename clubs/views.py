"""The club's pages (organisers of the club only; another club's is a 404): the club, its
player register (search, add, edit, deactivate, CSV import), its organisers (invite, revoke,
remove, pass the ownership on); and the public page of an invitation link."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import invitations, register, selectors, services
from clubs.access import club_directed_or_404, clubs_directed_by
from clubs.errors import DomainError
from clubs.forms import (
    ClubForm,
    InvitationSignupForm,
    OwnerPassForm,
    RegisterAddForm,
    RegisterImportForm,
    RegisterLineForm,
    RegisterSearchForm,
    add_error,
)
from clubs.models import Club, Membership
from clubs.phone import public_base_url

#: Lines of the register shown at once (a search narrows it).
REGISTER_PAGE = 500


def _posted(request: HttpRequest) -> Any:
    """The data a form is bound to: the POST body (even empty) of a POST, else none."""
    return request.POST if request.method == "POST" else None


def _club_page(request: HttpRequest, club: Club, tab: str, template: str, **context: Any) -> Any:
    status = context.pop("status", 200)
    return render(request, template, {"club": club, "tab": tab, **context}, status=status)


@login_required
@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = list(clubs_directed_by(request.user))
    if len(clubs) == 1:
        return redirect("clubs:club", pk=clubs[0].pk)
    return render(request, "clubs/club_list.html", {"clubs": clubs})


@login_required
@require_http_methods(["GET", "POST"])
def club_home(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_directed_or_404(request, pk)
    form = ClubForm(_posted(request), initial={"name": club.name, "city": club.city})
    if request.method == "POST" and form.is_valid():
        try:
            services.club_update(club=club, **form.cleaned_data)
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("The club is saved."))
            return redirect("clubs:club", pk=club.pk)
    return _club_page(
        request,
        club,
        "club",
        "clubs/club.html",
        form=form,
        counts=selectors.register_counts(club),
        organisers=selectors.club_organisers(club),
        status=400 if form.errors else 200,
    )


# --------------------------------------------------------------------------- register


def _register_page(
    request: HttpRequest,
    club: Club,
    *,
    add_form: RegisterAddForm | None = None,
    status: int = 200,
    namesakes: list[Membership] | None = None,
) -> HttpResponse:
    search = RegisterSearchForm(request.GET or None)
    lines = selectors.register_lines(club, query=search.query(), active=search.active_filter())
    shown = list(lines[: REGISTER_PAGE + 1])
    return _club_page(
        request,
        club,
        "register",
        "clubs/register.html",
        search=search,
        lines=shown[:REGISTER_PAGE],
        more=len(shown) > REGISTER_PAGE,
        add_form=add_form or RegisterAddForm(),
        counts=selectors.register_counts(club),
        namesakes=namesakes,
        status=status,
    )


@login_required
@require_GET
def register_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _register_page(request, club_directed_or_404(request, pk))


@login_required
@require_POST
def register_add(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_directed_or_404(request, pk)
    form = RegisterAddForm(request.POST)
    if form.is_valid():
        data = form.names_data()
        namesakes = [] if form.cleaned_data["confirm_new"] else register.register_namesakes(
            club=club, first_name=data["first_name"], last_name=data["last_name"],
            licence=data["licence"],
        )  # fmt: skip
        if namesakes:
            return _register_page(request, club, add_form=form, namesakes=namesakes)
        try:
            added = register.register_player_add(club=club, **data)
        except DomainError as error:
            add_error(form, error)
        else:
            player = added.player
            if added.outcome == register.LINKED:
                messages.success(
                    request,
                    _("Licence %(licence)s is known: %(player)s joins the register.")
                    % {"licence": player.licence, "player": player},
                )
            elif added.outcome == register.CREATED:
                messages.success(request, _("%(player)s added.") % {"player": player})
            else:
                messages.info(
                    request, _("%(player)s is already on the register.") % {"player": player}
                )
            if added.name_differs:
                messages.warning(
                    request,
                    _("The stored name %(player)s is kept (a licence names one player).")
                    % {"player": player},
                )
            if added.series_kept:
                messages.warning(
                    request,
                    _("%(player)s keeps his series: only his home club changes it.")
                    % {"player": player},
                )
            return redirect("clubs:register", pk=club.pk)
    return _register_page(request, club, add_form=form, status=400)


def _line_or_404(club: Club, line_pk: int) -> Membership:
    line = selectors.register_line(club, line_pk)
    if line is None:
        raise Http404
    return line


@login_required
@require_http_methods(["GET", "POST"])
def register_line(request: HttpRequest, pk: int, line_pk: int) -> HttpResponse:
    club = club_directed_or_404(request, pk)
    line = _line_or_404(club, line_pk)
    editable = register.register_line_name_editable(line)
    initial = {
        "last_name": line.player.last_name,
        "first_name": line.player.first_name,
        "series": line.player.series,
        "category": line.category,
        "active": line.active,
    }
    form = RegisterLineForm(_posted(request), initial=initial, name_editable=editable)
    if request.method == "POST" and form.is_valid():
        try:
            saved = register.register_line_update(membership=line, **form.cleaned_data)
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("%(player)s saved.") % {"player": saved.player})
            return redirect("clubs:register", pk=club.pk)
    return _club_page(
        request,
        club,
        "register",
        "clubs/register_line.html",
        line=line,
        form=form,
        name_editable=editable,
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def register_line_active(request: HttpRequest, pk: int, line_pk: int) -> HttpResponse:
    club = club_directed_or_404(request, pk)
    line = _line_or_404(club, line_pk)
    active = request.POST.get("active") == "1"
    register.register_line_activate(membership=line, active=active)
    if active:
        messages.success(request, _("%(player)s is active again.") % {"player": line.player})
    else:
        messages.success(
            request,
            _("%(player)s is no longer active: the competitions no longer offer him.")
            % {"player": line.player},
        )
    return redirect(request.POST.get("next") or reverse("clubs:register", args=[club.pk]))


@login_required
@require_http_methods(["GET", "POST"])
def register_import(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_directed_or_404(request, pk)
    posted = request.method == "POST"
    form = RegisterImportForm(_posted(request), request.FILES if posted else None)
    report = None
    if request.method == "POST" and form.is_valid():
        try:
            report = register.register_import_csv(club=club, file=form.cleaned_data["file"])
        except DomainError as error:
            add_error(form, error)
    return _club_page(
        request,
        club,
        "import",
        "clubs/register_import.html",
        form=form,
        report=report,
        status=400 if form.errors else 200,
    )


# --------------------------------------------------------------------------- organisers


def _organisers_page(
    request: HttpRequest,
    club: Club,
    *,
    link: str = "",
    owner_form: OwnerPassForm | None = None,
    status: int = 200,
) -> HttpResponse:
    organisers = selectors.club_organisers(club)
    others = [user for user in organisers if user.pk != club.owner_id]
    may_pass = bool(others) and (
        request.user.pk == club.owner_id or getattr(request.user, "is_superuser", False)
    )
    if owner_form is None and may_pass:
        owner_form = OwnerPassForm(organisers=others)
    return _club_page(
        request,
        club,
        "organisers",
        "clubs/organisers.html",
        organisers=organisers,
        owner_form=owner_form if may_pass else None,
        owner_changes=selectors.club_owner_changes(club),
        pending=selectors.club_pending_invitations(club),
        link=link,
        validity_days=invitations.VALIDITY.days,
        status=status,
    )


@login_required
@require_GET
def organisers_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _organisers_page(request, club_directed_or_404(request, pk))


@login_required
@require_POST
def organiser_invite(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_directed_or_404(request, pk)
    _invitation, token = invitations.organiser_invitation_create(club=club, by=request.user)
    # The room's address (as the table cards print it), not the organiser's own localhost.
    link = public_base_url(request) + reverse("clubs:invitation", args=[token])
    # Shown once, never stored: the page is answered directly (no redirect).
    return _organisers_page(request, club, link=link)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
    club = club_directed_or_404(request, pk)
    invitation = selectors.club_invitation(club, invitation_pk)
    if invitation is None:
        raise Http404
    try:
        invitations.organiser_invitation_revoke(invitation=invitation)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The invitation is withdrawn: its link no longer works."))
    return redirect("clubs:organisers", pk=club.pk)


@login_required
@require_POST
def organiser_remove(request: HttpRequest, pk: int, user_pk: int) -> HttpResponse:
    club = club_directed_or_404(request, pk)
    organiser = next((u for u in selectors.club_organisers(club) if u.pk == user_pk), None)
    if organiser is None:
        raise Http404
    try:
        services.club_organiser_remove(club=club, user=organiser)
    except DomainError as error:
        messages.error(request, error.message)
        return _organisers_page(request, club, status=409)
    messages.success(
        request, _("%(user)s no longer organises the club.") % {"user": organiser.get_username()}
    )
    if organiser.pk == request.user.pk:
        return redirect("organiser:home")
    return redirect("clubs:organisers", pk=club.pk)


@login_required
@require_POST
def owner_pass(request: HttpRequest, pk: int) -> HttpResponse:
    """Pass the club's ownership to another organiser (the owner, or the superuser)."""
    club = club_directed_or_404(request, pk)
    organisers = selectors.club_organisers(club)
    form = OwnerPassForm(request.POST, organisers=organisers)
    if form.is_valid():
        new = next(user for user in organisers if user.pk == form.cleaned_data["owner"])
        try:
            services.club_owner_pass(club=club, to=new, by=request.user)
        except DomainError as error:
            if error.code == "not_the_owner":
                messages.error(request, error.message)
                return _organisers_page(request, club, status=403)
            add_error(form, error)
        else:
            messages.success(
                request, _("%(user)s now owns the club.") % {"user": new.get_username()}
            )
            return redirect("clubs:organisers", pk=club.pk)
    return _organisers_page(request, club, owner_form=form, status=400)


# --------------------------------------------------------------------------- invitation link


def _invalid(request: HttpRequest, error: DomainError) -> HttpResponse:
    status = 404 if error.code == "invitation_unknown" else 410
    return render(request, "clubs/invitation_invalid.html", {"error": error}, status=status)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Accept an invitation: logged in, join the club; else create an account that joins it."""
    try:
        found = invitations.invitation_check(invitations.invitation_by_token(token))
    except DomainError as error:
        return _invalid(request, error)
    club = found.club
    user = request.user
    signup = None if user.is_authenticated else InvitationSignupForm(_posted(request))
    if request.method == "POST":
        try:
            if user.is_authenticated:
                invitations.organiser_invitation_accept(token=token, user=user)
            elif signup is not None and signup.is_valid():
                new = invitations.organiser_invitation_accept_new_user(
                    token=token,
                    username=signup.cleaned_data["username"],
                    password=signup.cleaned_data["password1"],
                )
                login(request, new, backend="django.contrib.auth.backends.ModelBackend")
        except DomainError as error:
            if error.field and signup is not None:
                add_error(signup, error)
            else:
                return _invalid(request, error)
        if request.user.is_authenticated and (signup is None or not signup.errors):
            messages.success(
                request, _("You are now an organiser of %(club)s.") % {"club": club.name}
            )
            return redirect("clubs:club", pk=club.pk)
    return render(
        request,
        "clubs/invitation.html",
        {"club": club, "signup": signup, "invitation": found},
        status=400 if signup is not None and signup.errors else 200,
    )
