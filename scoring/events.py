"""The scoring app's webhook events, written in the transaction of the change (the deal counted,
rejected or corrected, the game finished, the night closed). Their data carries ids and the API
URLs (absolute) of what changed, as the API names them; a deal's events share its order key, so a
correction never reaches a receiver before the score it corrects."""

from __future__ import annotations

from typing import Any

from live.bus import publish as live_publish
from scoring.models import Deal, Game, Session, Submission
from webhooks.services import (
    api_url,
    endpoints_listening,
    event_emit,
    live_topics,
    standings_changed,
)

# A player's line of a deal event: ``points`` signed as the ledger moves them; ``against`` the
# points the rules counted against the player (Indian rummy); ``chips`` in deals rummy.
DEAL_PLAYER_KEYS = ("player", "name", "outcome", "points", "against", "chips")


def _club_api(slug: str) -> str:
    return api_url(f"/api/v1/clubs/{slug}")


def deal_event(*, deal: Deal, submission: Submission | None, name: str) -> None:
    """``deal.scored`` (its first counted version), ``deal.corrected`` (a later version
    counted, or the deal voided), ``deal.rejected``."""
    game = deal.game
    club = game.table.session.club
    api = _club_api(club.slug)
    data: dict[str, Any] = {
        "deal": deal.pk,
        "number": deal.number,
        "status": deal.status,
        "game": game.pk,
        "session": game.table.session_id,
        "url": f"{api}/deals/{deal.pk}/",
        "game_url": f"{api}/games/{game.pk}/",
    }
    if submission is not None:
        data.update(submission=submission.pk, version=submission.version)
        if submission.status == Submission.Status.REJECTED:
            data["reasons"] = submission.reasons
        else:
            data["players"] = [
                {key: line[key] for key in DEAL_PLAYER_KEYS if key in line}
                for line in (submission.result or {}).get("players", [])
            ]
    endpoints = endpoints_listening(club=club)
    event_emit(club=club, name=name, data=data, order_key=f"deal:{deal.pk}", endpoints=endpoints)
    if name != "deal.rejected":
        standings_changed(club=club, endpoints=endpoints)


def deal_waiting_announce(*, deal: Deal) -> None:
    """A deal's entry now waits: for another player's confirmation, or for the director after a
    dispute. No webhook event names that, but the screens following the deal (the desk's grid,
    the table's page) hear of it after the commit."""
    game = deal.game
    data = {"session": game.table.session_id, "game": game.pk, "deal": deal.pk}
    live_publish(live_topics(club=game.table.session.club, data=data))


def game_finished_event(*, game: Game) -> None:
    club = game.table.session.club
    api = _club_api(club.slug)
    event_emit(
        club=club,
        name="game.finished",
        data={
            "game": game.pk,
            "format": game.format,
            "end": game.end,
            "session": game.table.session_id,
            "url": f"{api}/games/{game.pk}/",
            "state_url": f"{api}/games/{game.pk}/state/",
        },
    )


def session_closed_event(*, session: Session) -> None:
    api = _club_api(session.club.slug)
    event_emit(
        club=session.club,
        name="session.closed",
        data={
            "session": session.pk,
            "name": session.name,
            "url": f"{api}/sessions/{session.pk}/",
            "settlement_url": f"{api}/sessions/{session.pk}/settlement/",
        },
    )
