"""Rummikub matches: Sabra and American games scored zero-sum from the racks left; International
hands (Open, Foot, Closed wins, the closed hand classified from its tiles) settled pairwise at the
end of the match. A match ends after its number of games, when a total reaches its target score,
or when the organiser finishes it.

Each game of the match is one ``Deal``. Sabra and American scores post to the players (they sum
to zero); International scores do not sum to zero per hand, so the game account balances them,
and the settlement at the end moves ``money`` by pairwise difference at the game's rate (its
``point_value_minor``): ``net_i = rate x (n x score_i - sum)``."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from rest_framework import serializers

from clubs.models import Club
from clubs.page_kit.forms import initial_for_players
from config.errors import Conflict
from ledger.models import LedgerEntry, Quantity
from ledger.writer import Line
from rules.errors import RuleViolation
from rules.families import Family
from rules.indian.deal import DealEvaluation, OutcomeOption, PlayerScore, Reason
from rules.ranking import competition_ranks
from rules.rummikub import game_scores, international_scores, match_leaders
from rules.rummikub.closed_hands import ClosedHand
from rules.rummikub.preset import RummikubPreset, preset_for
from rules.rummikub.scoring import book_share
from rules.rummikub.tiles import parse_tile
from scoring.formats.base import (
    MONEY,
    POINTS_CONCEDED,
    Checked,
    Column,
    EndEntry,
    Ending,
    EntryForm,
    FormatBase,
    GameEnd,
    GameState,
    Initial,
    Tally,
    Words,
    refused,
    require_open_game,
)
from scoring.formats.reads import (
    deals_counted,
    require_latest_deal,
    require_no_deal_waiting,
    seated_balances,
    seated_players,
    settled_by_difference,
)
from scoring.formats.rummikub import pages
from scoring.formats.rummikub.forms import RummikubEntryForm
from scoring.formats.rummikub.payload import payload_fields
from scoring.formats.rummikub.preset import SECTIONS, rummikub_preview
from scoring.formats.rummikub.schema import (
    OUTCOMES,
    VARIANTS,
    RummikubPayloadOutput,
    RummikubResultOutput,
    RummikubStateOutput,
)
from scoring.formats.rummikub.state import MatchLimits, RummikubPlayer, RummikubState
from scoring.formats.sections import PresetPreview, PresetSection
from scoring.models import Deal, Game, Submission
from scoring.presets import (
    FormatRules,
    GameRules,
    MatchRules,
    base_not_variant,
    invalid_setting,
    preset_replace,
    preset_section,
    preset_whole,
    unknown_base,
    unknown_setting,
)

SCORE = Column("points", gettext_noop("Score"), Quantity.POINTS, gettext_noop("Rummikub score"))
INTERNATIONAL_FIELDS = (
    "win", "melded", "closed_hand", "first_turn", "original_hand", "is_first_player",
    "final_discard_joker", "trump_holders",
)  # fmt: skip


INTERNATIONAL = "international"
NO_WINNER = "no_winner"  # a game's outcome for everyone when the pool ran out


def _international(rules: GameRules) -> bool:
    """International scores per hand without summing to zero, and settles at the match's end."""
    return rules.rummikub is not None and rules.rummikub.variant == INTERNATIONAL


def _racks_read(
    racks_in: dict[Any, Any], players: dict[int, str]
) -> tuple[dict[str, list[str]], list[Reason[int]]]:
    """Every seated player's rack by their id (as text), and what is wrong with the racks given:
    a player not seated, a rack that is no list of tiles, a seated player without one."""
    reasons: list[Reason[int]] = []
    racks: dict[str, list[str]] = {}
    given = {}
    for raw, tiles in racks_in.items():
        key = _key(raw)
        if key is None or int(key) not in players:
            reasons.append(
                Reason(
                    int(key) if key is not None else None,
                    "not_seated",
                    f"player {raw!r} has no seat in this game",
                    str(raw),
                )
            )
            continue
        if not isinstance(tiles, list):
            reasons.append(Reason(int(key), "bad_tiles", f"{players[int(key)]}: a rack is a list"))
            continue
        reasons += _rack_problems(int(key), players[int(key)], tiles)
        given[int(key)] = tiles
    for pid, name in players.items():
        if pid in given:
            racks[str(pid)] = given[pid]
        elif not any(r.code == "not_seated" for r in reasons):
            reasons.append(Reason(pid, "missing_player", f"{name} has no rack in this game"))
    return racks, reasons


def _hand_scores(
    preset: RummikubPreset,
    payload: dict[str, Any],
    racks: dict[str, list[str]],
    winner: str | None,
) -> tuple[dict[str, int], ClosedHand | None]:
    """The rules engine's scores of a game of the match (by player id as text), and the winner's
    closed hand of an International Closed win. Raises ``RuleViolation``."""
    melded = {
        key: bool(value)
        for raw, value in (payload.get("melded") or {}).items()
        if (key := _key(raw)) is not None
    }
    if preset.variant == INTERNATIONAL:
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
        return outcome.scores, outcome.closed_hand
    asked: tuple[str, ...] = INTERNATIONAL_FIELDS
    if preset.never_opened_penalty:  # who had opened decides who pays the penalty
        asked = tuple(name for name in asked if name != "melded")
    extra = [name for name in asked if payload.get(name) is not None]
    if extra:
        raise RuleViolation(
            "bad_field", f"{extra[0]} is for International Rummikub only", token=extra[0]
        )
    last_mover = _key(payload.get("last_mover"))
    scores = game_scores(racks, winner, preset, last_mover=last_mover, melded=melded or None)
    return scores, None


def _closed_hand_shown(closed: ClosedHand) -> dict[str, Any]:
    return {
        "type": closed.type,
        "name": closed.name,
        "value": closed.value,
        "jokers": closed.jokers,
        "arrangement": [[str(t) for t in meld] for meld in closed.arrangement],
    }


def _key(value: object) -> str | None:
    """Player ids travel as JSON object keys (strings) or numbers; the engine uses strings."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.isdigit():
        return value
    return None


def _player_of(token: str | None, players: dict[int, str]) -> int | None:
    if token is not None and token.isdigit() and int(token) in players:
        return int(token)
    return None


def _rack_problems(player: int, name: str, tiles: list[Any]) -> list[Reason[int]]:
    """Each tile of a player's rack that is not a tile, named with its place on the rack."""
    problems: list[Reason[int]] = []
    for index, tile in enumerate(tiles):
        try:
            parse_tile(tile)
        except RuleViolation as exc:
            details = {**exc.details, "position": index}
            problems.append(Reason(player, exc.code, f"{name}: {exc.message}", exc.token, details))
    return problems


def _copy_over(token: str, racks: dict[str, list[str]]) -> int | None:
    """The player whose rack holds the copy of ``token``'s tile that is one too many: the last,
    in seat order, holding one."""
    code = parse_tile(token).code
    holders = [
        key for key, tiles in racks.items() if any(parse_tile(t).code == code for t in tiles)
    ]
    return int(holders[-1]) if holders else None


def _named(message: str, players: dict[int, str]) -> str:
    """The engine names players by key (``'12'``); say their names instead."""
    for pid, name in players.items():
        message = message.replace(f"'{pid}'", name)
    return message


class RummikubFormat(FormatBase):
    format: ClassVar[str] = "rummikub"
    result_output: ClassVar[type[serializers.Serializer[Any]]] = RummikubResultOutput
    payload_output: ClassVar[type[serializers.Serializer[Any]]] = RummikubPayloadOutput
    state_output: ClassVar[type[serializers.Serializer[Any]]] = RummikubStateOutput
    result_outcomes: ClassVar[tuple[str, ...]] = tuple(OUTCOMES)
    family: ClassVar[str] = Family.RUMMIKUB
    tiebreak_preset: ClassVar[str] = "sabra"
    words: ClassVar[Words] = Words(
        unit="game",
        finish=gettext_noop("Finish the match"),
        finished=gettext_noop("The match is over."),
        deal_note=gettext_noop(
            "Each game's score: the player who went out (★) gains what the others lose."
        ),
        signed_points=True,
        wild=False,
    )
    columns: ClassVar[tuple[Column, ...]] = (SCORE, MONEY)
    panel_template: ClassVar[str] = "scoring/formats/rummikub/panel.html"
    imports_results: ClassVar[bool] = True
    entry_template: ClassVar[str] = "scoring/formats/rummikub/entry.html"
    result_template: ClassVar[str] = "scoring/formats/rummikub/result.html"
    entered_as: ClassVar[str] = "racks"
    # The game page's deal rows name a game's winner and losers as Indian rummy's rows do.
    outcome_words: ClassVar[Mapping[str, str]] = {
        "winner": gettext_noop("Winner"),
        "loser": gettext_noop("Loser"),
    }
    payload_key: ClassVar[str] = "racks"
    variants: ClassVar[Collection[str]] = tuple(VARIANTS)
    preset_sections: ClassVar[tuple[PresetSection, ...]] = SECTIONS

    def preset_preview(self, *, rules: GameRules) -> PresetPreview:
        return rummikub_preview(rules)

    tallies: ClassVar[tuple[Tally, ...]] = (POINTS_CONCEDED,)

    def payload_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return payload_fields()

    def deal_tallies(self, *, outcome: str, points: int, won: bool) -> dict[str, int]:
        # A game nobody won (the pool ran out) concedes nothing but what a player lost.
        conceded = -points if points < 0 else (0 if won or outcome == NO_WINNER else points)
        return {"deals_played": 1, "deals_won": int(won), "points_conceded": conceded}

    def deal_money(self, *, game: Game, rules: GameRules) -> bool:
        return bool(game.point_value_minor) and not _international(rules)

    def deal_note(self, *, rules: GameRules) -> str:
        if _international(rules):
            return gettext_noop(
                "Each hand's scores as International counts them (they need not add up to "
                "zero); ★ went out."
            )
        return self.words.deal_note

    def entry_form(
        self, *, rules: GameRules, players: dict[int, str], data: Any, initial: Initial
    ) -> EntryForm:
        assert rules.rummikub is not None
        international = _international(rules)
        return RummikubEntryForm(
            data, seats=list(players.items()), initial=initial, international=international,
            trump=international and bool(rules.rummikub.trump_bonus),
            opening_asked=bool(rules.rummikub.never_opened_penalty),
        )  # fmt: skip

    def entry_initial(
        self, *, payload: dict[str, Any] | None, wild: str, aliases: dict[int, int]
    ) -> dict[str, Any]:
        initial = RummikubEntryForm.initial_from(payload, wild)
        return initial_for_players(initial, aliases, ("winner", "last_mover"))

    def entry_context(self, *, game: Game, rules: GameRules, form: EntryForm) -> dict[str, Any]:
        assert rules.rummikub is not None
        return pages.entry_context(rules.rummikub, _international(rules))

    def panel(
        self, *, club: Club, game: Game, rules: GameRules, state: GameState, open_game: bool
    ) -> dict[str, Any]:
        assert isinstance(state, RummikubState)
        return pages.panel(club, game, state)

    def result_view(
        self,
        *,
        club: Club,
        game: Game,
        rules: GameRules,
        submission: Submission,
        names: dict[int, str],
    ) -> dict[str, Any]:
        international = _international(rules)
        return pages.result_view(club, game, submission, names, international)

    def scores_balance(self, *, rules: GameRules) -> bool:
        return not _international(rules)

    def preset_rules(self, *, variant: str, params: dict[str, Any]) -> FormatRules:
        section = preset_section(params, "rummikub")
        base_name = section.pop("base", variant)
        try:
            base = preset_for(base_name)
        except (RuleViolation, KeyError, ValueError):
            raise invalid_setting("rummikub", unknown_base(base_name), base_name) from None
        if base.variant != variant:
            raise invalid_setting("rummikub", base_not_variant(base_name, variant), base_name)
        rummikub = preset_replace("rummikub", base, section)
        match_section = preset_section(params, "match")
        bad = sorted(set(match_section) - {"games", "target_score"})
        if bad:
            raise invalid_setting("match", unknown_setting(bad[0]), bad[0])
        games = match_section.get("games")
        target = match_section.get("target_score")
        match = MatchRules(
            games=None if games is None else preset_whole("match", "games", games, 1),
            target_score=None
            if target is None
            else preset_whole("match", "target_score", target, 1),
        )
        return FormatRules(
            rummikub.min_players, rummikub.max_players, rummikub=rummikub, match=match
        )

    def outcomes(self, *, rules: GameRules) -> tuple[OutcomeOption, ...]:
        return ()  # a game of the match is entered as racks, not outcomes

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        super().deal_check_can_start(game=game, rules=rules, is_tiebreaker=is_tiebreaker)
        require_no_deal_waiting(game, "game")

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
            return refused(players, [Reason(None, "missing_field", "give every player's rack")])
        racks, reasons = _racks_read(racks_in, players)
        winner = _key(payload.get("winner"))
        if payload.get("winner") is not None and winner is None:
            reasons.append(Reason(None, "bad_field", "winner must be a player id", "winner"))
        if reasons:
            return refused(players, reasons)
        try:
            scores, closed = _hand_scores(preset, payload, racks, winner)
        except RuleViolation as exc:
            player = _player_of(exc.token, players)
            if player is None and isinstance(exc.details.get("player"), str):
                player = _player_of(exc.details["player"], players)
            if player is None and exc.code == "too_many_copies" and exc.token is not None:
                player = _copy_over(exc.token, racks)
            return refused(
                players,
                [Reason(player, exc.code, _named(exc.message, players), exc.token, exc.details)],
            )
        winner_id = int(winner) if winner is not None else None
        player_scores = tuple(
            PlayerScore(
                pid,
                "winner" if pid == winner_id else ("loser" if winner_id else NO_WINNER),
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
        if preset.variant == INTERNATIONAL:
            result["win"] = payload.get("win")
            if closed is not None:
                result["closed_hand"] = _closed_hand_shown(closed)
        return Checked(evaluation, result, [])

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        assert rules.rummikub is not None
        scores = checked.evaluation.points()
        lines = [Line.player(Quantity.POINTS, pid, score) for pid, score in scores.items()]
        if _international(rules):
            lines.append(Line.book(Quantity.POINTS, -sum(scores.values())))
        elif game.point_value_minor:
            lines += [
                Line.player(Quantity.MONEY, pid, score * game.point_value_minor)
                for pid, score in scores.items()
            ]
        if rules.rummikub.winner_scores_zero and not _international(rules):
            # Decision: the winner scores 0, so the book takes what the losers pay (as the pot
            # of an Indian points game): every quantity of the deal still sums to zero.
            share = book_share(scores)
            lines.append(Line.book(Quantity.POINTS, share))
            if game.point_value_minor:
                lines.append(Line.book(Quantity.MONEY, share * game.point_value_minor))
        return lines, {}

    def game_decided(self, *, game: Game, rules: GameRules) -> bool:
        match = rules.match
        if match is None:
            return False
        totals = seated_balances(game, Quantity.POINTS)
        reached = match.target_score is not None and any(
            total >= match.target_score for total in totals.values()
        )
        return (match.games is not None and deals_counted(game) >= match.games) or reached

    def state(self, *, game: Game, rules: GameRules) -> RummikubState:
        assert rules.rummikub is not None
        seated = seated_players(game)
        totals = seated_balances(game, Quantity.POINTS)
        leaders = match_leaders({str(pid): total for pid, total in totals.items()})
        settlement: dict[str, int] = {}
        if _international(rules) and game.point_value_minor:
            net = settled_by_difference(game, totals)
            settlement = {str(pid): amount for pid, amount in net.items()}
        return RummikubState(
            format=self.format,
            status=game.status,
            variant=rules.rummikub.variant,
            games_counted=deals_counted(game),
            match=MatchLimits(
                rules.match.games if rules.match else None,
                rules.match.target_score if rules.match else None,
            ),
            players=[RummikubPlayer(pid, name, totals[pid]) for pid, name in seated.items()],
            leaders=[int(key) for key in leaders],
            settlement_minor=settlement,
        )

    def endings(self, *, game: Game, rules: GameRules) -> list[Ending]:
        assert rules.rummikub is not None
        international = _international(rules) and game.point_value_minor
        explains = gettext("The totals stand as they are.")
        if international:
            explains = gettext(
                "The totals stand as they are; the match settles pairwise by difference at the "
                "game's rate."
            )
        return [Ending(GameEnd.BY_ORGANISER, gettext("Finish the match"), explains)]

    def end_entries(
        self, *, game: Game, rules: GameRules, end: GameEnd, shares: dict[int, int] | None
    ) -> list[EndEntry]:
        assert rules.rummikub is not None
        if end not in (GameEnd.PLAYED_OUT, GameEnd.BY_ORGANISER):
            raise Conflict(
                gettext("a Rummikub match ends by its limits or by hand"), code="cannot_finish"
            )
        require_open_game(game)
        require_no_deal_waiting(game, "game")
        if not _international(rules) or not game.point_value_minor:
            return []
        net = settled_by_difference(game, seated_balances(game, Quantity.POINTS))
        lines = [Line.player(Quantity.MONEY, pid, amount) for pid, amount in net.items()]
        return [EndEntry(LedgerEntry.Kind.SETTLEMENT, lines, "match settlement")]

    def finishing_order(self, *, game: Game, rules: GameRules) -> dict[int, int] | None:
        return competition_ranks(seated_balances(game, Quantity.POINTS))
