"""Rummikub matches: Sabra and American games scored zero-sum from the racks left; International
hands (Open, Foot, Closed wins, the closed hand classified from its tiles) settled pairwise at the
end of the match. A match ends after its number of games, when a total reaches its target score,
or when the organiser closes it.

Each game of the match is one ``Deal``. Sabra and American scores post to the players (they sum
to zero); International scores do not sum to zero per hand, so the game account balances them,
and the settlement at the end moves ``money`` by pairwise difference at the game's rate (its
``point_value_minor``): ``net_i = rate x (n x score_i - sum)``."""

from __future__ import annotations

from typing import Any

from config.errors import Conflict
from rules.deal import DealEvaluation, PlayerScore, Reason
from rules.errors import RuleViolation
from rules.rummikub import game_scores, international_scores, match_leaders, settle_session
from rules.rummikub.tiles import parse_tile
from scoring.formats.common import (
    Checked,
    FormatBase,
    game_mark_finished,
    player_balances,
    reason_dicts,
    require_latest_deal,
    require_open_game,
    seated_balances,
    seated_players,
)
from scoring.ledger import Line, ledger_entry_create
from scoring.models import Deal, Game, LedgerEntry, Quantity, Submission
from scoring.presets import GameRules

INTERNATIONAL_FIELDS = (
    "win", "melded", "closed_hand", "first_turn", "original_hand", "is_first_player",
    "final_discard_joker", "trump_holders",
)  # fmt: skip


def _key(value: object) -> str | None:
    """Player ids travel as JSON object keys (strings) or numbers; the engine uses strings."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.isdigit():
        return value
    return None


def _refused(players: dict[int, str], reasons: list[Reason[int]]) -> Checked:
    evaluation: DealEvaluation[int] = DealEvaluation((), tuple(reasons), None)
    return Checked(evaluation, None, reason_dicts(evaluation, players))


def _player_of(token: str | None, players: dict[int, str]) -> int | None:
    if token is not None and token.isdigit() and int(token) in players:
        return int(token)
    return None


def _named(message: str, players: dict[int, str]) -> str:
    """The engine names players by key (``'12'``); say their names instead."""
    for pid, name in players.items():
        message = message.replace(f"'{pid}'", name)
    return message


class RummikubFormat(FormatBase):
    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        super().deal_check_can_start(game=game, rules=rules, is_tiebreaker=is_tiebreaker)
        open_deal = game.deals.exclude(status=Deal.Status.FINAL).values_list("number", flat=True)
        if open_deal:
            raise Conflict(
                f"game {open_deal[0]} of the match has no counted result yet",
                code="previous_deal_open",
            )

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        require_latest_deal(deal, "match")

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        preset = rules.rummikub
        assert preset is not None
        payload = submission.payload
        racks_in = payload.get("racks")
        if not isinstance(racks_in, dict):
            return _refused(players, [Reason(None, "missing_field", "give every player's rack")])
        reasons: list[Reason[int]] = []
        racks: dict[str, list[str]] = {}
        given = {}
        for raw, tiles in racks_in.items():
            key = _key(raw)
            if key is None or int(key) not in players:
                reasons.append(
                    Reason(None, "not_seated", f"player {raw!r} has no seat in this game", str(raw))
                )
                continue
            if not isinstance(tiles, list):
                reasons.append(
                    Reason(int(key), "bad_tiles", f"{players[int(key)]}: a rack is a list")
                )
                continue
            given[int(key)] = tiles
        for pid, name in players.items():
            if pid in given:
                racks[str(pid)] = given[pid]
            elif not any(r.code == "not_seated" for r in reasons):
                reasons.append(Reason(pid, "missing_player", f"{name} has no rack in this game"))
        winner = _key(payload.get("winner"))
        if payload.get("winner") is not None and winner is None:
            reasons.append(Reason(None, "bad_field", "winner must be a player id"))
        last_mover = _key(payload.get("last_mover"))
        if reasons:
            return _refused(players, reasons)
        try:
            if preset.variant == "international":
                melded = {
                    key: bool(value)
                    for raw, value in (payload.get("melded") or {}).items()
                    if (key := _key(raw)) is not None
                }
                holders = [k for raw in payload.get("trump_holders") or [] if (k := _key(raw))]
                outcome = international_scores(
                    racks,
                    melded,
                    winner,
                    payload.get("win"),
                    closed_hand=payload.get("closed_hand"),
                    first_turn=bool(payload.get("first_turn")),
                    original_hand=bool(payload.get("original_hand")),
                    is_first_player=bool(payload.get("is_first_player")),
                    final_discard_joker=bool(payload.get("final_discard_joker")),
                    trump_holders=holders,
                    rules=preset,
                )
                scores = outcome.scores
                closed = outcome.closed_hand
            else:
                extra = [name for name in INTERNATIONAL_FIELDS if payload.get(name) is not None]
                if extra:
                    raise RuleViolation(
                        "bad_field",
                        f"{extra[0]} is for International Rummikub only",
                        token=extra[0],
                    )
                scores = game_scores(racks, winner, preset, last_mover=last_mover)
                closed = None
        except RuleViolation as exc:
            player = _player_of(exc.token, players)
            if player is None and isinstance(exc.details.get("player"), str):
                player = _player_of(exc.details["player"], players)
            return _refused(
                players,
                [Reason(player, exc.code, _named(exc.message, players), exc.token, exc.details)],
            )
        winner_id = int(winner) if winner is not None else None
        player_scores = tuple(
            PlayerScore(
                pid,
                "winner" if pid == winner_id else ("loser" if winner_id else "no_winner"),
                scores[str(pid)],
                None,
                "racks",
            )
            for pid in players
        )
        evaluation = DealEvaluation(player_scores, (), winner_id)
        result: dict[str, Any] = {
            "variant": preset.variant,
            "winner": winner_id,
            "players": [
                {
                    "player": pid,
                    "name": players[pid],
                    "outcome": score.outcome,
                    "points": score.points,
                    "rack": [str(parse_tile(t)) for t in racks[str(pid)]],
                }
                for pid, score in zip(players, player_scores, strict=True)
            ],
        }
        if preset.variant == "international":
            result["win"] = payload.get("win")
            if closed is not None:
                result["closed_hand"] = {
                    "type": closed.type,
                    "name": closed.name,
                    "value": closed.value,
                    "jokers": closed.jokers,
                    "arrangement": [[str(t) for t in meld] for meld in closed.arrangement],
                }
        return Checked(evaluation, result, [])

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        assert rules.rummikub is not None
        scores = checked.evaluation.points()
        lines = [Line.player(Quantity.POINTS, pid, score) for pid, score in scores.items()]
        if rules.rummikub.variant == "international":
            lines.append(Line.game(Quantity.POINTS, -sum(scores.values())))
        elif game.point_value_minor:
            lines += [
                Line.player(Quantity.MONEY, pid, score * game.point_value_minor)
                for pid, score in scores.items()
            ]
        return lines, {}

    def game_after_deal(self, *, game: Game, rules: GameRules) -> None:
        match = rules.match
        if match is None:
            return
        games = game.deals.filter(status=Deal.Status.FINAL).count()
        totals = player_balances(game, Quantity.POINTS)
        reached = match.target_score is not None and any(
            total >= match.target_score for total in totals.values()
        )
        if (match.games is not None and games >= match.games) or reached:
            rummikub_finish(game=game, rules=rules)

    def game_state(self, *, game: Game, rules: GameRules) -> dict[str, Any]:
        assert rules.rummikub is not None
        seated = seated_players(game)
        balances = player_balances(game, Quantity.POINTS)
        totals = {pid: balances.get(pid, 0) for pid in seated}
        leaders = match_leaders({str(pid): total for pid, total in totals.items()})
        state: dict[str, Any] = {
            "format": "rummikub",
            "variant": rules.rummikub.variant,
            "status": game.status,
            "games_counted": game.deals.filter(status=Deal.Status.FINAL).count(),
            "match": {
                "games": rules.match.games if rules.match else None,
                "target_score": rules.match.target_score if rules.match else None,
            },
            "players": [
                {"player": pid, "name": name, "total": totals[pid]} for pid, name in seated.items()
            ],
            "leaders": [int(key) for key in leaders],
        }
        if rules.rummikub.variant == "international" and game.point_value_minor:
            net = international_settlement(game, totals)
            state["settlement_minor"] = {str(pid): amount for pid, amount in net.items()}
        return state


def international_settlement(game: Game, totals: dict[int, int]) -> dict[int, int]:
    """Each player's net, in minor units, at the game's rate per point of difference."""
    net = settle_session({str(pid): total for pid, total in totals.items()}, game.point_value_minor)
    return {int(key): int(amount) for key, amount in net.items()}


def rummikub_finish(*, game: Game, rules: GameRules) -> None:
    """End the match: International settles pairwise; the game is finished."""
    require_open_game(game)
    assert rules.rummikub is not None
    if rules.rummikub.variant == "international" and game.point_value_minor:
        net = international_settlement(game, seated_balances(game, Quantity.POINTS))
        ledger_entry_create(
            game=game,
            kind=LedgerEntry.Kind.SETTLEMENT,
            lines=[Line.player(Quantity.MONEY, pid, amount) for pid, amount in net.items()],
            memo="match settlement",
        )
    game_mark_finished(game)
