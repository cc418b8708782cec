"""What the scoring API's views share: a player of the club named in a request, a result's
payload as entered, and where a submission came from."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.request import Request

from clubs.models import Player
from config.errors import NotFoundError
from scoring.formats import payload_field_names
from scoring.models import Submission


def club_player(club: Any, player_id: int, field: str) -> Player:
    player = club.players.filter(pk=player_id).first()
    if player is None:
        raise NotFoundError(
            f"{field}: " + _("no player #%(id)s on this club's roster") % {"id": player_id},
            details={field: player_id},
        )
    return player


def result_payload(data: dict[str, Any]) -> dict[str, Any] | None:
    """The submission as entered, in plain JSON types (``None`` when no result was given)."""
    payload: dict[str, Any] = {}
    for name in payload_field_names():
        if name in data:
            value = data[name]
            if isinstance(value, list):
                value = [dict(item) if isinstance(item, Mapping) else item for item in value]
            payload[name] = value
    if not payload:
        return None
    if data.get("wild"):
        payload["wild"] = data["wild"]
    return payload


def submission_source(request: Request) -> str:
    return Submission.Source.API if request.auth is not None else Submission.Source.WEB
