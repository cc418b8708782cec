"""How the game page shows a pool: each player's score against the limit, rejoins, the split
offers with what each pays, the entry fee, the prize and the pot."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from clubs.models import Club, Role
from clubs.page_kit.display import club_money, signed_number
from clubs.page_kit.pages import can
from scoring.formats.pool.state import PoolState
from scoring.models import Game


def pool_points(score: int | str) -> str:
    """A pool score as every page shows it, the ledger's way: 40 points taken read −40."""
    return signed_number(-int(score))


def _rejoined(n: int) -> str:
    if n == 1:
        return gettext("rejoined once")
    if n == 2:
        return gettext("rejoined twice")
    return ngettext("rejoined %(count)s time", "rejoined %(count)s times", n) % {"count": n}


SPLIT_LABELS = {
    "drops": (gettext_noop("Split by drops remaining"),
              gettext_noop("each is first paid the entry fee for every drop they have left above "
                           "the lowest, then the rest is shared equally")),
    "equal": (gettext_noop("Equal split"), gettext_noop("the prize pool is shared equally")),
}  # fmt: skip


def _status_words(*, won: bool, out: bool, shared: bool, rejoins: int) -> str:
    """Where a player stands in the pool, and how often they rejoined."""
    if won:
        words = gettext("Winner")
    elif out:
        words = gettext("Out")
    else:
        words = gettext("Shared the prize") if shared else gettext("In")
    if not rejoins:
        return words
    return gettext("%(status)s, %(rejoined)s") % {"status": words, "rejoined": _rejoined(rejoins)}


def rejoin_reason(code: str, message: str, details: dict[str, Any], names: dict[int, str]) -> str:
    """A refused rejoin in words, naming the player the rules name by id. The rules engine
    says why in English, by a code and values: the words are chosen here by the code."""
    if code == "rejoin_closed" and str(details.get("player", "")).isdigit():
        name = names.get(int(details["player"]), details["player"])
        return gettext("no rejoin while %(name)s is at %(score)s, past %(limit)s") % {
            "name": name,
            "score": pool_points(details["score"]),
            "limit": pool_points(details["rejoin_below"]),
        }
    if code == "rejoin_limit" and str(details.get("token", "")).isdigit():
        return gettext(
            "no more rejoins: this pool allows %(most)s a player, and this player has had %(used)s"
        ) % {"most": details["max_rejoins"], "used": details["token"]}
    if code == "not_eliminated" and isinstance(details.get("score"), int):
        return gettext("this player is still in, at %(score)s") % {
            "score": pool_points(details["score"])
        }
    fixed = {
        "rejoin_off": gettext("this pool does not allow rejoining"),
        "game_over": gettext("fewer than two players are still in: the pool is decided, no rejoin"),
        "not_seated": gettext("this player has no seat in this game"),
        "game_finished": gettext("this game has finished"),
    }
    return fixed.get(code, message)


def panel(
    club: Club,
    game: Game,
    state: PoolState,
    open_game: bool,
    offers: dict[str, dict[int, int]],
) -> dict[str, Any]:
    """The pool's scores against its limit, who is out and may rejoin, the split offers (each
    with what it pays, ``offers``) and the pot."""
    limit = state.limit
    names = {line.player: line.name for line in state.players}
    still_in = [line.score for line in state.players if line.status != "eliminated"]
    players: list[dict[str, Any]] = []
    for line in state.players:
        out = line.status == "eliminated"
        won = state.winner == line.player
        shared = game.end == "split" and not out
        words = _status_words(won=won, out=out, shared=shared, rejoins=line.rejoins)
        players.append(
            {
                "player": line.player,
                "name": line.name,
                "score": pool_points(line.score),
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
    if open_game and offers:
        remaining = [p for p in players if not p["out"]]
        for kind, shares in offers.items():
            label, how = SPLIT_LABELS.get(kind, (kind, ""))
            label, how = gettext(label), gettext(how) if how else ""
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
                            "amount": club_money(club, shares.get(p["player"], 0)),
                        }
                        for p in remaining
                    ],
                }
            )
    return {
        "state": state,
        "limit": limit,
        "limit_shown": pool_points(limit),
        # Where a rejoin brings a player back: one point past the highest score still in.
        "rejoin_at": pool_points(max(still_in) + 1) if still_in else "",
        "players": players,
        "entry_fee": club_money(club, state.entry_fee_minor),
        "prize": club_money(club, state.prize_pool_minor),
        "club_fee": club_money(club, state.club_fee_minor),
        "pot": club_money(club, state.pot_minor),
        "winner": names.get(state.winner) if state.winner else "",
        "splits": splits,
    }
