"""The panel a game page shows for its format: pool scores with rejoins and split offers, deals
chips and the tie-breaker, a Rummikub match's totals and settlement; what was paid out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clubs.display import club_money, signed_number
from clubs.models import Club, Role
from clubs.pages import can, club_url
from scoring import figures, selectors
from scoring.formats import GameState, handler_for
from scoring.formats.deals import DealsState
from scoring.formats.pool import PoolState
from scoring.formats.rummikub import RummikubState
from scoring.models import Game


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _names(state: GameState) -> dict[int, str]:
    return {line.player: line.name for line in state.players}


def _paid(club: Club, game: Game, names: dict[int, str]) -> list[dict[str, str]]:
    """Who received what when the game paid out (prize, split or settlement)."""
    if game.status != Game.Status.FINISHED:
        return []
    payouts = figures.game_payouts(game=game)
    return [
        {"name": names.get(pid, "?"), "amount": club_money(club, amount, signed=True),
         "value": str(amount)}
        for pid, amount in sorted(payouts.items(), key=lambda item: -item[1])
    ]  # fmt: skip


SPLIT_LABELS = {
    "drops": ("Split by drops remaining", "each is first paid the entry fee for every drop "
              "they have left above the lowest, then the rest is shared equally"),
    "equal": ("Equal split", "the prize pool is shared equally"),
}  # fmt: skip


def rejoin_reason(code: str, message: str, details: dict[str, Any], names: dict) -> str:
    """A refused rejoin in words, naming the player the rules name by id."""
    if code == "rejoin_closed" and str(details.get("player", "")).isdigit():
        name = names.get(int(details["player"]), details["player"])
        return (
            f"no rejoin while {name} is at {details.get('score')}, above "
            f"{details.get('rejoin_below')}"
        )
    return message


def _pool_panel(club: Club, game: Game, state: PoolState, open_game: bool) -> dict[str, Any]:
    limit = state.limit
    names = _names(state)
    players = []
    for line in state.players:
        out = line.status == "eliminated"
        won = state.winner == line.player
        shared = game.end == "split" and not out
        words = "Winner" if won else ("Out" if out else ("Shared the prize" if shared else "In"))
        if line.rejoins:
            words += f", rejoined {_times(line.rejoins)}"
        players.append(
            {
                "player": line.player,
                "name": line.name,
                "score": line.score,
                "rejoins": line.rejoins,
                "drops_remaining": line.drops_remaining,
                "out": out,
                "won": won,
                "words": words,
                "percent": min(100, round(line.score * 100 / limit)) if limit else 0,
                "can_rejoin": open_game and line.can_rejoin and can(club, Role.ORGANISER),
                "no_rejoin": rejoin_reason(names=names, **line.no_rejoin)
                if open_game and line.no_rejoin
                else "",
            }
        )
    splits = []
    if open_game and state.split_offers:
        offer = selectors.pool_split_offer(game=game)
        remaining = [p for p in players if not p["out"]]
        for kind in offer["offers"]:
            shares = offer["shares_minor"][kind]
            label, how = SPLIT_LABELS.get(kind, (kind, ""))
            splits.append(
                {
                    "kind": kind,
                    "label": label,
                    "how": how,
                    "shares": [
                        {
                            "player": p["player"],
                            "name": p["name"],
                            "score": p["score"],
                            "drops": p["drops_remaining"],
                            "amount": club_money(club, shares.get(str(p["player"]), 0)),
                        }
                        for p in remaining
                    ],
                }
            )
    return {
        "state": state,
        "limit": limit,
        "players": players,
        "entry_fee": club_money(club, state.entry_fee_minor),
        "prize": club_money(club, state.prize_pool_minor),
        "club_fee": club_money(club, state.club_fee_minor),
        "pot": club_money(club, state.pot_minor),
        "winner": names.get(state.winner) if state.winner else "",
        "splits": splits,
        "paid": _paid(club, game, names),
    }


def _deals_panel(club: Club, game: Game, state: DealsState, open_game: bool) -> dict[str, Any]:
    names = _names(state)
    leaders = set(state.leaders)
    top = max((line.chips for line in state.players), default=0) or 1
    players = [
        {
            "player": line.player,
            "name": line.name,
            "chips": line.chips,
            "leads": line.player in leaders,
            "won": state.winner == line.player,
            "percent": round(line.chips * 100 / top),
        }
        for line in state.players
    ]
    return {
        "state": state,
        "players": players,
        "prize": club_money(club, state.prize_minor),
        "club_fee": club_money(club, state.club_fee_minor),
        "winner": names.get(state.winner) if state.winner else "",
        "tied": [names[pid] for pid in state.leaders] if state.tiebreaker_needed else [],
        "tiebreaker_url": club_url("deal-tiebreaker", club, game.pk)
        if open_game and state.tiebreaker_needed
        else "",
        "paid": _paid(club, game, names),
    }


def _rummikub_panel(
    club: Club, game: Game, state: RummikubState, open_game: bool
) -> dict[str, Any]:
    names = _names(state)
    leaders = set(state.leaders)
    settlement = state.settlement_minor
    players = [
        {
            "player": line.player,
            "name": line.name,
            "total": line.total,
            "total_text": signed_number(line.total),
            "leads": line.player in leaders and state.games_counted > 0,
            "settle": club_money(club, settlement[str(line.player)], signed=True)
            if str(line.player) in settlement
            else "",
            "settle_value": settlement.get(str(line.player), 0),
        }
        for line in state.players
    ]
    match = state.match
    ends = []
    if match.games:
        ends.append(f"after {match.games} games")
    if match.target_score:
        ends.append(f"when a total reaches {match.target_score}")
    ends.append("when the organiser finishes it")
    return {
        "state": state,
        "players": players,
        "variant": state.variant.capitalize(),
        "ends": ", ".join(ends[:-1]) + (" or " if len(ends) > 1 else "") + ends[-1],
        "leaders": [names[pid] for pid in state.leaders] if state.games_counted else [],
        "has_settlement": bool(settlement),
        "rate": club_money(club, game.point_value_minor),
        "paid": _paid(club, game, names),
    }


#: How a page lays out each kind of game state (the template comes from the format).
PANELS: dict[type, Callable[..., dict[str, Any]]] = {
    PoolState: _pool_panel,
    DealsState: _deals_panel,
    RummikubState: _rummikub_panel,
}


def game_panel(club: Club, game: Game, state: GameState, open_game: bool) -> dict[str, Any]:
    """The section of the game page for its format (empty for one that has none)."""
    template = handler_for(game).panel_template
    build = PANELS.get(type(state))
    if not template or build is None:
        return {"template": "", "state": state}
    return {"template": template, **build(club, game, state, open_game)}
