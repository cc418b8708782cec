"""Club scoping for API views: every object is reached through a club the caller belongs to, and
a token (personal or OAuth2) acts only within its scopes and the clubs it is bound to."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Club, Role
from clubs.selectors import club_get_for_user
from clubs.signin import scopes as app_scopes
from config.money import money_withheld


class ClubScopedAPIView(APIView):
    """Resolves ``club_slug`` from the URL before the handler runs.

    Outsiders get 404 (the club's existence is not leaked), and so does a token not bound to the
    club; members below ``read_role`` (safe methods) or ``write_role`` (the others) get 403.
    Handlers read ``self.club`` and ``self.role``. A club that plays for points only answers
    every money field null (``config.money``)."""

    read_role: str = Role.PLAYER
    write_role: str = Role.ORGANISER
    club: Club
    role: str

    def required_role(self, request: Request) -> str:
        return self.read_role if request.method in SAFE_METHODS else self.write_role

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        grant = app_scopes.token_grant(request.auth)
        self.club = club_get_for_user(
            user=request.user,
            slug=kwargs["club_slug"],
            min_role=self.required_role(request),
            club_ids=None if grant is None else grant.club_ids,
        )
        self.role = self.club.caller_role  # type: ignore[attr-defined]

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        club = getattr(self, "club", None)
        if club is not None and club.points_only and isinstance(response, Response):
            response.data = money_withheld(response.data)
        return super().finalize_response(request, response, *args, **kwargs)
