"""The page where a club's owner registers the OAuth2 apps they make
(``/account/apps/registered/``): name, public or confidential, the grant, the redirect URIs;
their apps listed with the client id, the redirect URIs edited, an app deleted. A confidential
app's secret is shown once. Writes go through ``clubs.services``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs.page_kit.pages import GET, error_context, service_status
from clubs.selectors import owns_a_club
from clubs.signin import selectors, services
from config.errors import NotFoundError, ServiceError

#: The session key under which a new app's secret waits for the one page that shows it.
NEW_SECRET = "oauth_apps.new_secret"
FIELDS = {"name", "client_type", "grant", "redirect_uris"}
GRANT_LABELS = {
    services.APP_GRANT_NAMES["authorization-code"]: "authorization code",
    services.APP_GRANT_NAMES["device"]: "device",
}


def _page(
    request: HttpRequest,
    *,
    new: dict[str, Any] | None = None,
    error: dict[str, Any] | None = None,
    editing: int | None = None,
    values: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    apps = list(selectors.oauth_apps_registered_by(user=request.user))  # type: ignore[arg-type]
    for app in apps:
        app.grant_label = GRANT_LABELS.get(app.authorization_grant_type, "")
        app.uses_redirects = (
            app.authorization_grant_type == services.APP_GRANT_NAMES["authorization-code"]
        )
    response = render(request, "oauth/registered_apps.html", {
        "apps": apps, "new": new, "error": error, "editing": editing,
        "values": values or {"client_type": "public", "grant": "authorization-code"},
        "may_register": owns_a_club(user=request.user),  # type: ignore[arg-type]
        "metadata_url": request.build_absolute_uri("/.well-known/oauth-authorization-server"),
    }, status=status)  # fmt: skip
    # The page may show a secret: never kept by a browser's or a proxy's cache.
    response["Cache-Control"] = "no-store"
    return response


def _own_app(request: HttpRequest, application_id: int) -> Any:
    try:
        return selectors.oauth_app_registered_by(
            user=request.user,  # type: ignore[arg-type]
            application_id=application_id,
        )
    except NotFoundError as exc:
        raise Http404(exc.message) from None


@login_required
@GET
def registered_apps_page(request: HttpRequest) -> HttpResponse:
    new = request.session.pop(NEW_SECRET, None)
    if new is not None:
        app = selectors.oauth_apps_registered_by(user=request.user).filter(pk=new["id"]).first()  # type: ignore[arg-type]
        new = {"app": app, "secret": new["secret"]} if app is not None else None
    return _page(request, new=new)


@login_required
@require_POST
def app_register(request: HttpRequest) -> HttpResponse:
    """A new app; a confidential app's secret waits in the session for the next page, which
    shows it once (the redirect keeps a reload from registering another app)."""
    values = {name: request.POST.get(name, "") for name in FIELDS}
    try:
        application, secret = services.oauth_app_register(
            user=request.user,  # type: ignore[arg-type]
            name=values["name"],
            client_type=values["client_type"],
            grant=values["grant"],
            redirect_uris=values["redirect_uris"],
        )
    except ServiceError as exc:
        return _page(
            request, error=error_context(exc, FIELDS), values=values, status=service_status(exc)
        )
    request.session[NEW_SECRET] = {"id": application.pk, "secret": secret}
    # To the new app's client id (and secret), not to the form the post came from.
    return redirect(reverse("oauth-app-registrations") + "#new-app")


@login_required
@require_POST
def app_redirect_uris_update(request: HttpRequest, application_id: int) -> HttpResponse:
    application = _own_app(request, application_id)
    redirect_uris = request.POST.get("redirect_uris", "")
    try:
        services.oauth_app_update_redirect_uris(
            application=application,
            actor=request.user,  # type: ignore[arg-type]
            redirect_uris=redirect_uris,
        )
    except ServiceError as exc:
        return _page(
            request, error=error_context(exc, {"redirect_uris"}), editing=application.pk,
            values={"edit_redirect_uris": redirect_uris}, status=service_status(exc),
        )  # fmt: skip
    messages.success(
        request, gettext("The redirect URIs of “%(app)s” are saved.") % {"app": application.name}
    )
    return redirect(reverse("oauth-app-registrations") + f"#app-{application.pk}")


@login_required
@require_POST
def app_delete(request: HttpRequest, application_id: int) -> HttpResponse:
    application = _own_app(request, application_id)
    services.oauth_app_delete(application=application, actor=request.user)  # type: ignore[arg-type]
    messages.success(
        request,
        gettext("“%(app)s” is deleted: everyone signed in with it is signed out.")
        % {"app": application.name},
    )
    return redirect("oauth-app-registrations")
