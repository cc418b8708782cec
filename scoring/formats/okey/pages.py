"""What the pages show of a game of Okey: a deal's finish and scores on the deal page (a
rejected version's tiles with the ones the reasons name marked), the game page's panel, and
what the entry page's script reads from the rules engine."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from clubs.models import Club
from clubs.page_kit.display import club_money, signed_number
from rules.okey.hands import HAND_SIZE
from rules.okey.preset import OkeyPreset
from rules.okey.tiles import COLOUR_NAMES, FALSE_JOKER, NUMBER_TILES
from scoring.formats.cards import OKEY_TILE_COLOURS, tiles_view
from scoring.formats.okey.state import OkeyState
from scoring.models import Game, Submission


def _outcome_words() -> dict[str, str]:
    return {
        "finisher": gettext("Finished"),
        "other": gettext("Did not finish"),
        "no_finisher": gettext("Tiles ran out"),
    }


def _finish_words(result: dict[str, Any]) -> str:
    if result.get("finisher") is None:
        return gettext("Nobody finished: the tiles ran out")
    words = gettext("Seven pairs") if result.get("finish") == "pairs" else gettext("In melds")
    if result.get("okey_discard"):
        words += " · " + gettext("by discarding the okey")
    return words + " · " + gettext("worth %(worth)s") % {"worth": result.get("worth", 0)}


def tiles(tokens: Any, bad: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    return tiles_view(tokens, bad, OKEY_TILE_COLOURS)


def result_view(
    club: Club, game: Game, submission: Submission, names: dict[int, str]
) -> dict[str, Any]:
    """A deal of Okey as the deal page shows it: the indicator and okey, how it finished, each
    player's score; a rejected version's tiles with the tile the reasons name marked."""
    result = submission.result or {}
    payload = submission.payload or {}
    view: dict[str, Any] = {}
    words = _outcome_words()
    if result:
        view["indicator"] = tiles([result.get("indicator")])
        view["okey"] = tiles([result.get("okey")])
        view["finish"] = _finish_words(result)
        view["hand"] = [tiles(group) for group in result.get("hand") or []]
        view["players"] = [
            {
                "name": line.get("name") or names.get(line.get("player"), "?"),
                "outcome": words.get(line.get("outcome"), line.get("outcome")),
                "won": line.get("outcome") == "finisher",
                "shown": bool(line.get("indicator_shown")),
                "points": signed_number(line.get("points")),
                "points_value": line.get("points") or 0,
            }
            for line in result.get("players", [])
        ]
    elif submission.reasons:
        bad = {str(r.get("token")).upper() for r in submission.reasons if r.get("token")}
        entered = payload.get("okey")
        deal: dict[str, Any] = entered if isinstance(entered, dict) else {}
        if isinstance(deal.get("indicator"), str):
            view["indicator_entered"] = tiles([deal["indicator"]], bad)
        if isinstance(deal.get("hand"), list):
            view["hand_entered"] = tiles(deal["hand"], bad)
    return view


def panel(club: Club, game: Game, state: OkeyState) -> dict[str, Any]:
    """The game's totals, who leads (or, under countdown, who reached 0) and each count left."""
    top = max((line.total for line in state.players), default=0)
    winners = set(state.winners)
    settle = state.settlement_minor
    leads = {
        line.player
        for line in state.players
        if state.deals_counted and (line.player in winners or (not winners and line.total == top))
    }
    players = [
        {
            "player": line.player,
            "name": line.name,
            "total": line.total,
            "total_text": signed_number(line.total),
            "left": line.left,
            "leads": line.player in leads,
            "settle": club_money(club, settle[str(line.player)], signed=True)
            if str(line.player) in settle
            else "",
            "settle_value": settle.get(str(line.player), 0),
        }
        for line in state.players
    ]
    return {
        "state": state,
        "players": players,
        "countdown": state.target is not None,
        "leaders": [line["name"] for line in players if line["leads"]],
        "has_settlement": bool(settle) and not club.points_only,
        "rate": club_money(club, game.point_value_minor),
    }


def entry_rules(preset: OkeyPreset) -> dict[str, Any]:
    """Every tile spelling the engine reads (upper case), with its colour, number and name, and
    the size of a finished hand; a tile left counts nothing in Okey."""
    spelled: dict[str, Any] = {
        str(tile): {
            "colour": tile.colour,
            "number": tile.number,
            "name": f"{COLOUR_NAMES[tile.colour or '']} {tile.number}",
            "value": 0,
        }
        for tile in NUMBER_TILES
    }
    spelled[str(FALSE_JOKER)] = {"colour": None, "number": None, "name": "false joker", "value": 0}
    return {"tiles": spelled, "hand_size": HAND_SIZE, "joker_code": str(FALSE_JOKER)}


def entry_context(preset: OkeyPreset) -> dict[str, Any]:
    return {"scoring": preset.scoring, "entry_rules": entry_rules(preset)}
