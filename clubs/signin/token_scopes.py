"""The scope check every API route makes (``DEFAULT_PERMISSION_CLASSES``): a token acts only
within its scopes, and what only the person signed in may do. It imports no DRF views, so the
settings can name it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from clubs.signin import scopes as app_scopes
from config.errors import NotAllowed


def scope_for_method(view: Any, method: str) -> str:
    """The scope ``method`` needs on ``view`` (see ``required_scope``)."""
    if method.upper() in SAFE_METHODS:
        return getattr(view, "read_scope", app_scopes.READ)
    return getattr(view, "write_scope", app_scopes.MANAGE)


def required_scope(view: Any, request: Request) -> str:
    """The scope a request needs: the view's ``read_scope`` for safe methods (``read`` unless it
    says otherwise), its ``write_scope`` for the others (``manage`` unless it says otherwise), so
    a route that declares nothing needs the most."""
    return scope_for_method(view, request.method or "GET")


class TokenScopePermission(BasePermission):
    """A request with a token needs the route's scope (a browser session has every scope)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        grant = app_scopes.token_grant(request.auth)
        if grant is None:
            return True
        needed = required_scope(view, request)
        if needed not in grant.scopes:
            values = {"scopes": " ".join(sorted(grant.scopes)), "needed": repr(needed)}
            raise NotAllowed(
                (
                    _(
                        "this token's scopes (%(scopes)s) do not include %(needed)s, which this "
                        "needs"
                    )
                    if grant.scopes
                    else _("this token's scopes (none) do not include %(needed)s, which this needs")
                )
                % values,
                code="insufficient_scope",
                details={"required_scope": needed},
            )
        return True


def refuse_token_auth(request: Request, what: str) -> None:
    """A token is for a score app: it cannot mint more tokens or revoke its siblings (a stolen
    key must not outlive its own revocation); that takes the person, signed in. So for an
    OAuth2 app's token."""
    if app_scopes.token_grant(request.auth) is not None:
        sentences = {
            "create tokens": _("a token cannot create tokens; sign in with a password to do that"),
            "revoke tokens": _("a token cannot revoke tokens; sign in with a password to do that"),
            "accept an invitation": _(
                "a token cannot accept an invitation; sign in with a password to do that"
            ),
        }
        raise NotAllowed(
            sentences.get(what, f"a token cannot {what}; sign in with a password to do that"),
            code="token_not_allowed",
        )
