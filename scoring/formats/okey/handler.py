"""Games of Okey: each deal entered as its indicator tile, who finished and how (melds or seven
pairs, by discarding the okey), who showed the indicator's twin, and optionally the finisher's
tiles, which the rules engine checks finish as said.

Scores are points on the game's scale, higher better (``rules.okey.scoring``): under **loss**
each other player loses the finish's worth; under **countdown** the finisher gains it, and the
game is over when a total reaches the target (a count of 0). A deal's scores do not sum to zero:
the game's book takes the rest, so every quantity of the entry still does. A loss game is ended
by the organiser; its highest total wins. Money moves once, when the game ends: each player pays
every player ahead of them the difference of their totals at the game's rate (as International
Rummikub settles), so no money is left in the book."""

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
from rules.okey import check_copies, deal_scores, game_winners, okey_of, parse_tile, parse_tiles
from rules.okey.hands import HAND_SIZE, Finish, FinishKind, melds_finish, pairs_finish
from rules.okey.preset import OkeyPreset
from rules.okey.scoring import book_share, counts_left, finish_worth
from rules.okey.tiles import Tile
from rules.ranking import competition_ranks
from scoring.formats.base import (
    MONEY,
    Checked,
    Column,
    EndEntry,
    Ending,
    EntryForm,
    FormatBase,
    GameEnd,
    GameState,
    Initial,
    Words,
    refused,
    require_open_game,
)
from scoring.formats.okey import pages
from scoring.formats.okey.forms import OkeyEntryForm
from scoring.formats.okey.payload import payload_fields
from scoring.formats.okey.preset import SECTIONS, okey_preview, okey_rules
from scoring.formats.okey.schema import (
    FORMAT,
    OUTCOMES,
    VARIANTS,
    OkeyPayloadOutput,
    OkeyResultOutput,
    OkeyStateOutput,
)
from scoring.formats.okey.state import OkeyPlayer, OkeyState
from scoring.formats.reads import (
    deals_counted,
    require_latest_deal,
    require_no_deal_waiting,
    seated_balances,
    seated_players,
    settled_by_difference,
)
from scoring.formats.sections import PresetPreview, PresetSection
from scoring.models import Deal, Game, Submission
from scoring.presets import FormatRules, GameRules

SCORE = Column("points", gettext_noop("Score"), Quantity.POINTS, gettext_noop("Okey score"))


class _Refused(Exception):
    """A deal as entered that the rules refuse: the reason, blaming a player or the deal."""

    def __init__(self, reason: Reason[int]) -> None:
        self.reason = reason


def _player(value: object, players: dict[int, str], field: str) -> int:
    """A seated player's id as given in ``field``; refused naming the field otherwise."""
    if isinstance(value, int) and not isinstance(value, bool) and value in players:
        return value
    raise _Refused(
        Reason(None, "not_seated", f"{field}: player {value!r} has no seat in this game", field)
    )


def _rules_error(exc: RuleViolation, field: str, player: int | None = None) -> _Refused:
    """A rules engine's refusal of ``field``, named: the tile it names, else the field."""
    return _Refused(
        Reason(player, exc.code, f"{field}: {exc.message}", exc.token or field, exc.details)
    )


def _indicator(deal: dict[str, Any]) -> tuple[Tile, Tile]:
    """The indicator and the okey it makes."""
    if deal.get("indicator") in (None, ""):
        raise _Refused(
            Reason(None, "missing_field", "indicator: the tile turned face up", "indicator")
        )
    try:
        indicator = parse_tile(deal["indicator"])
        return indicator, okey_of(indicator)
    except RuleViolation as exc:
        raise _rules_error(exc, "indicator") from None


def _finish(deal: dict[str, Any]) -> FinishKind:
    """How the deal says the hand finished (the API's choices: melds by default)."""
    return "pairs" if deal.get("finish") == "pairs" else "melds"


def _hand(
    deal: dict[str, Any], finisher: int, preset: OkeyPreset, indicator: Tile, okey: Tile
) -> Finish:
    """The finisher's tiles as the rules arrange them, the way the deal says it finished."""
    try:
        hand = parse_tiles(deal["hand"], field="hand")
        if len(hand) != HAND_SIZE:
            raise RuleViolation(
                "wrong_tile_count",
                f"a finished Okey hand shows {HAND_SIZE} tiles, not {len(hand)}",
                "hand",
                {"count": len(hand)},
            )
        # The okey discarded to finish is one of the game's tiles too.
        check_copies([*hand, okey] if deal.get("okey_discard") else hand, indicator)
    except RuleViolation as exc:
        raise _rules_error(exc, "hand", finisher) from None
    finish = _finish(deal)
    if finish == "pairs":
        groups = pairs_finish(hand, okey)
    else:
        groups = melds_finish(hand, okey, one_after_thirteen=preset.one_after_thirteen)
    if groups is None:
        how = "seven pairs" if finish == "pairs" else "melds"
        raise _Refused(
            Reason(
                finisher,
                "does_not_finish",
                f"hand: these {HAND_SIZE} tiles do not finish in {how} with okey {okey}",
                "hand",
            )
        )
    return Finish(finish, groups)


def _scored(
    deal: dict[str, Any], preset: OkeyPreset, players: dict[int, str]
) -> tuple[dict[str, Any], dict[int, int]]:
    """The deal's result record and each player's score; ``_Refused`` names what is wrong."""
    indicator, okey = _indicator(deal)
    raw = deal.get("finisher")
    finisher = None if raw is None else _player(raw, players, "finisher")
    shown = [_player(pid, players, "indicator_shown") for pid in deal.get("indicator_shown") or []]
    finish = _finish(deal)
    okey_discard = bool(deal.get("okey_discard"))
    arranged: Finish | None = None
    if deal.get("hand") is not None:
        if finisher is None:
            raise _Refused(Reason(None, "bad_field", "hand: nobody finished this deal", "hand"))
        arranged = _hand(deal, finisher, preset, indicator, okey)
    try:
        scores = deal_scores(
            [str(pid) for pid in players],
            None if finisher is None else str(finisher),
            preset,
            finish=finish,
            okey_discard=okey_discard,
            indicator_shown=[str(pid) for pid in shown],
        )
    except RuleViolation as exc:
        raise _rules_error(exc, exc.token or "okey") from None
    by_id = {pid: scores[str(pid)] for pid in players}
    result = {
        "variant": preset.scoring,
        "indicator": str(indicator),
        "okey": str(okey),
        "finisher": finisher,
        "finish": None if finisher is None else finish,
        "okey_discard": okey_discard,
        "worth": 0 if finisher is None else finish_worth(preset, finish, okey_discard),
        "hand": None
        if arranged is None
        else [[str(tile) for tile in group] for group in arranged.groups],
        "players": [
            {
                "player": pid,
                "name": name,
                "outcome": _outcome(pid, finisher),
                "points": by_id[pid],
                "indicator_shown": pid in shown,
            }
            for pid, name in players.items()
        ],
    }
    return result, by_id


def _as_json_keys(by_player: dict[int, int]) -> dict[str, int]:
    return {str(pid): amount for pid, amount in by_player.items()}


def _outcome(pid: int, finisher: int | None) -> str:
    if finisher is None:
        return "no_finisher"
    return "finisher" if pid == finisher else "other"


class OkeyFormat(FormatBase):
    format: ClassVar[str] = FORMAT
    result_output: ClassVar[type[serializers.Serializer[Any]]] = OkeyResultOutput
    payload_output: ClassVar[type[serializers.Serializer[Any]]] = OkeyPayloadOutput
    state_output: ClassVar[type[serializers.Serializer[Any]]] = OkeyStateOutput
    result_outcomes: ClassVar[tuple[str, ...]] = tuple(OUTCOMES)
    family: ClassVar[str] = Family.OKEY
    tiebreak_preset: ClassVar[str] = "okey"
    words: ClassVar[Words] = Words(
        unit="deal",
        finish=gettext_noop("Finish the game"),
        finished=gettext_noop("The game is over."),
        deal_note=gettext_noop(
            "Each deal's score: what the finish cost the others (loss) or gained the "
            "finisher (countdown); the game's book takes the rest."
        ),
        signed_points=True,
        wild=False,
    )
    columns: ClassVar[tuple[Column, ...]] = (SCORE, MONEY)
    panel_template: ClassVar[str] = "scoring/formats/okey/panel.html"
    entry_template: ClassVar[str] = "scoring/formats/okey/entry.html"
    result_template: ClassVar[str] = "scoring/formats/okey/result.html"
    entered_as: ClassVar[str] = "okey_deal"  # the indicator and the finish, not hands or racks
    outcome_words: ClassVar[Mapping[str, str]] = {
        "finisher": gettext_noop("Finished"),
        "other": gettext_noop("Other"),
    }
    payload_key: ClassVar[str] = "okey"
    variants: ClassVar[Collection[str]] = tuple(VARIANTS)
    preset_sections: ClassVar[tuple[PresetSection, ...]] = SECTIONS

    def scores_balance(self, *, rules: GameRules) -> bool:
        return False  # a deal's points do not sum to zero: the game's book takes the rest

    def preset_preview(self, *, rules: GameRules) -> PresetPreview:
        return okey_preview(rules)

    def payload_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return payload_fields()

    def preset_rules(self, *, variant: str, params: dict[str, Any]) -> FormatRules:
        okey = okey_rules(variant, params)
        return FormatRules(okey.min_players, okey.max_players, okey=okey)

    def outcomes(self, *, rules: GameRules) -> tuple[OutcomeOption, ...]:
        return ()  # a deal is entered as its finish, not as outcomes

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        super().deal_check_can_start(game=game, rules=rules, is_tiebreaker=is_tiebreaker)
        require_no_deal_waiting(game)

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        # A countdown's end follows its totals, so only its latest deal may change; a finished
        # game has settled its money on its totals, so none of its deals may.
        if rules.okey is not None and rules.okey.scoring == "countdown":
            require_latest_deal(deal, "game")
        require_open_game(deal.game)

    def entry_form(
        self, *, rules: GameRules, players: dict[int, str], data: Any, initial: Initial
    ) -> EntryForm:
        return OkeyEntryForm(data, seats=list(players.items()), initial=initial)

    def entry_initial(
        self, *, payload: dict[str, Any] | None, wild: str, aliases: dict[int, int]
    ) -> dict[str, Any]:
        return initial_for_players(OkeyEntryForm.initial_from(payload), aliases, ("winner",))

    def entry_context(self, *, game: Game, rules: GameRules, form: EntryForm) -> dict[str, Any]:
        assert rules.okey is not None
        return pages.entry_context(rules.okey)

    def panel(
        self, *, club: Club, game: Game, rules: GameRules, state: GameState, open_game: bool
    ) -> dict[str, Any]:
        assert isinstance(state, OkeyState)
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
        return pages.result_view(club, game, submission, names)

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        preset = rules.okey
        assert preset is not None
        deal = submission.payload.get("okey")
        if not isinstance(deal, dict):
            reason: Reason[int] = Reason(None, "missing_field", "give the deal under okey", "okey")
            return refused(players, [reason])
        try:
            result, scores = _scored(deal, preset, players)
        except _Refused as exc:
            return refused(players, [exc.reason])
        finisher = result["finisher"]
        evaluation = DealEvaluation(
            tuple(
                PlayerScore(pid, _outcome(pid, finisher), scores[pid], None, "entered")
                for pid in players
            ),
            (),
            finisher,
        )
        return Checked(evaluation, result, [])

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        scores = checked.evaluation.points()
        lines = [Line.player(Quantity.POINTS, pid, score) for pid, score in scores.items()]
        # Decision: the players' scores do not sum to zero; the game's book takes the rest.
        share = book_share({str(pid): score for pid, score in scores.items()})
        if share:
            lines.append(Line.book(Quantity.POINTS, share))
        return lines, {}

    def deal_money(self, *, game: Game, rules: GameRules) -> bool:
        return False  # money moves at the game's end, by difference of totals

    def _winners(self, game: Game, rules: GameRules) -> list[int]:
        assert rules.okey is not None
        totals = seated_balances(game, Quantity.POINTS)
        return [int(k) for k in game_winners({str(p): t for p, t in totals.items()}, rules.okey)]

    def game_decided(self, *, game: Game, rules: GameRules) -> bool:
        return bool(self._winners(game, rules))

    def state(self, *, game: Game, rules: GameRules) -> OkeyState:
        preset = rules.okey
        assert preset is not None
        totals = seated_balances(game, Quantity.POINTS)
        countdown = preset.scoring == "countdown"
        left = counts_left({str(p): t for p, t in totals.items()}, preset)
        return OkeyState(
            format=self.format,
            status=game.status,
            variant=preset.scoring,
            deals_counted=deals_counted(game),
            target=preset.target if countdown else None,
            players=[
                OkeyPlayer(pid, name, totals[pid], left[str(pid)] if countdown else None)
                for pid, name in seated_players(game).items()
            ],
            winners=self._winners(game, rules),
            settlement_minor={
                str(pid): net for pid, net in settled_by_difference(game, totals).items()
            }
            if game.point_value_minor
            else {},
        )

    def endings(self, *, game: Game, rules: GameRules) -> list[Ending]:
        explains = gettext("The totals stand as they are; the highest total wins.")
        if game.point_value_minor:
            explains = gettext(
                "The totals stand as they are; the highest total wins; the game settles by "
                "difference of totals at its rate."
            )
        return [Ending(GameEnd.BY_ORGANISER, gettext("Finish the game"), explains)]

    def end_entries(
        self, *, game: Game, rules: GameRules, end: GameEnd, shares: dict[int, int] | None
    ) -> list[EndEntry]:
        if end not in (GameEnd.PLAYED_OUT, GameEnd.BY_ORGANISER):
            raise Conflict(
                gettext("a game of Okey ends by its count or by hand"), code="cannot_finish"
            )
        require_open_game(game)
        require_no_deal_waiting(game)
        if not game.point_value_minor:
            return []
        net = settled_by_difference(game, seated_balances(game, Quantity.POINTS))
        lines = [Line.player(Quantity.MONEY, pid, amount) for pid, amount in net.items()]
        return [EndEntry(LedgerEntry.Kind.SETTLEMENT, lines, "game settlement")]

    def finishing_order(self, *, game: Game, rules: GameRules) -> dict[int, int] | None:
        return competition_ranks(seated_balances(game, Quantity.POINTS))
