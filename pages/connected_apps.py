"""A person's apps: the score apps and devices they signed in to with OAuth2 (scopes, clubs,
last use), each signed out with one button. Writes go through ``clubs.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs.page_kit.pages import GET
from clubs.signin import selectors, services
from config.errors import ServiceError


@login_required
@GET
def apps_page(request: HttpRequest) -> HttpResponse:
    rows = selectors.app_access_list_for_user(user=request.user)  # type: ignore[arg-type]
    return render(request, "pages/apps.html", {"apps": rows})


@login_required
@require_POST
def app_revoke(request: HttpRequest, application_id: int) -> HttpResponse:
    try:
        stopped = services.app_access_revoke(user=request.user, application_id=application_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("account-apps")
    if stopped:
        messages.success(request, gettext("Signed out: the app can no longer act as you."))
    else:
        messages.error(request, gettext("That app had no access left to take back."))
    return redirect("account-apps")
