"""The first-run page (``/setup/``): the club and its first organiser, with the setup code."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from clubs.errors import DomainError
from instance.forms import SetupForm
from instance.setup import SetupThrottled, instance_setup, setup_needed, setup_throttle_check


@never_cache
def setup(request: HttpRequest) -> HttpResponse:
    if not setup_needed():
        if request.user.is_authenticated:
            return redirect("organiser:home")
        messages.info(request, _("This duplitarot is already set up: log in."))
        return redirect("login")
    # The address the login throttle sees (``AXES_CLIENT_IP_CALLABLE``: behind trusted proxies too).
    address = get_client_ip_address(request) or ""
    form = SetupForm(request.POST or None)
    status = 200
    try:
        setup_throttle_check(address)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            user, club = instance_setup(
                code=data["setup_code"],
                address=address,
                club_name=data["club_name"],
                city=data["city"],
                username=data["username"],
                password=data["password1"],
            )
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                _("%(club)s is ready. Add its players, then create its first event.")
                % {"club": club.name},
            )
            return redirect("organiser:home")
        if request.method == "POST":
            status = 400
    except DomainError as error:
        form.add_error(error.field, error.message)
        status = 400
    except SetupThrottled as throttled:
        response = render(
            request,
            "instance/setup.html",
            {"form": form, "throttled": True, "retry_minutes": -(-throttled.retry_after // 60)},
            status=429,
        )
        response["Retry-After"] = str(throttled.retry_after)
        return response
    return render(request, "instance/setup.html", {"form": form}, status=status)
