"""A person's own account page: their clubs, password, and API tokens (listed, created with the
key shown once, revoked). Writes go through ``clubs.services``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs import selectors
from clubs.page_kit.pages import GET, error_context
from clubs.signin import scopes as app_scopes
from clubs.signin import selectors as signin_selectors
from clubs.signin import services as signin_services
from config.errors import ServiceError


def _account(
    request: HttpRequest, *, new_key: str = "", error: dict | None = None, status: int = 200
) -> HttpResponse:
    tokens = list(signin_selectors.api_token_list(user=request.user))  # type: ignore[arg-type]
    clubs = list(selectors.club_list_for_user(user=request.user))
    names = {club.pk: club.name for club in clubs}
    for token in tokens:
        grant = app_scopes.TokenGrant.parse(token.scope)
        token.scope_names = [s for s in app_scopes.ALL_SCOPES if s in grant.scopes]  # type: ignore[attr-defined]
        # A scope is typed as it is (its name is the API's), not put into words.
        token.scope_codes = format_html_join(
            ", ", "<code>{}</code>", ((s,) for s in token.scope_names)
        )  # type: ignore[attr-defined]
        token.club_names = [names[c] for c in sorted(grant.club_ids) if c in names]  # type: ignore[attr-defined]
    scopes = {name: gettext(text) for name, text in app_scopes.SCOPES.items()}
    return render(request, "pages/account.html", {
        "tokens": tokens, "new_key": new_key, "error": error, "scopes": scopes,
        "clubs": clubs,
        "api_base": request.build_absolute_uri("/api/v1/"),
    }, status=status)  # fmt: skip


#: The session key under which a new token's key waits for the one page that shows it.
NEW_KEY = "account.new_token_key"


@login_required
@GET
def account_page(request: HttpRequest) -> HttpResponse:
    response = _account(request, new_key=request.session.pop(NEW_KEY, ""))
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    """A new token: its key waits in the session for the next account page, which shows it once
    (it is never stored; the redirect keeps a reload from making another token)."""
    try:
        # The form ticks scopes and clubs; a post without them (``choose`` absent) gets all.
        choose = "choose" in request.POST
        _token, key = signin_services.api_token_create(
            user=request.user,
            name=request.POST.get("name", ""),
            scopes=request.POST.getlist("scopes") if choose else None,
            club_slugs=request.POST.getlist("clubs") if choose else None,
        )
    except ServiceError as exc:
        return _account(request, error=error_context(exc, {"name", "scopes", "clubs"}), status=400)
    request.session[NEW_KEY] = key
    return redirect("account")


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = signin_selectors.api_token_list(user=request.user).filter(pk=token_id).first()  # type: ignore[arg-type]
    if token is None:
        messages.error(request, gettext("No such token of yours."))
    else:
        signin_services.api_token_revoke(token=token, actor=request.user)
        messages.success(
            request,
            gettext("The token “%(name)s” is revoked: it no longer works.") % {"name": token.name},
        )
    return redirect("account")


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change; the new password also ends the person's tokens."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        signin_services.tokens_revoke_on_password_change(user=form.user)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's reset by the mailed link; the new password also ends the person's tokens."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        signin_services.tokens_revoke_on_password_change(user=form.user)
        return response
