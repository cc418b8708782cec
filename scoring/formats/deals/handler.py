"""Deals rummy (best of 2, 3, 6): everyone starts with 80 chips a deal; each deal the winner takes
each loser's points (capped at 80) in chips; after the last deal the most chips wins the prize,
and players level at the top play a tie-breaker deal.

In the ledger the opening chips come from the game's bank (``chips``: player +start, game
-total), so a player's ``chips`` balance is their chip count and the table's total never changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from rest_framework import serializers

from clubs.models import Club
from config.errors import Conflict
from ledger.models import AccountKind, LedgerEntry, Quantity
from ledger.writer import Line
from rules.indian import deals as deals_rules
from rules.indian.preset import IndianPreset
from rules.money import prize_pool
from rules.ranking import competition_ranks
from scoring.formats.base import (
    CHIPS,
    MONEY,
    Checked,
    Column,
    EndEntry,
    Ending,
    FormatBase,
    GameEnd,
    GameState,
    Running,
    Words,
    require_open_game,
)
from scoring.formats.deals import pages
from scoring.formats.deals.schema import DealsPayloadOutput, DealsResultOutput, DealsStateOutput
from scoring.formats.deals.state import DealsPlayer, DealsState
from scoring.formats.indian.deal import IndianDeal, house_rules, indian_rules
from scoring.formats.indian.preset import INDIAN_SECTIONS, indian_preview
from scoring.formats.pot import entry_fee_lines, payout_entry, pot_checked, refund_entry
from scoring.formats.reads import (
    account_balance,
    deals_counted,
    require_latest_deal,
    require_no_deal_waiting,
    seated_balances,
    seated_players,
)
from scoring.formats.sections import PresetPreview, PresetSection
from scoring.models import Deal, Game
from scoring.presets import (
    FormatRules,
    GameRules,
    invalid_setting,
    preset_section_rules,
)


def chip_counts(game: Game, *, excluding_deal: Deal | None = None) -> dict[int, int]:
    return seated_balances(game, Quantity.CHIPS, excluding_deal=excluding_deal)


class DealsFormat(IndianDeal, FormatBase):
    format: ClassVar[str] = "deals"
    result_output: ClassVar[type[serializers.Serializer[Any]]] = DealsResultOutput
    payload_output: ClassVar[type[serializers.Serializer[Any]]] = DealsPayloadOutput
    state_output: ClassVar[type[serializers.Serializer[Any]]] = DealsStateOutput
    words: ClassVar[Words] = Words(
        unit="deal",
        finish="",
        finished=gettext_noop("The game is over."),
        deal_note=gettext_noop(
            "Points each player counted in the deal; the winner (★) counts 0 and takes them in "
            "chips."
        ),
    )
    columns: ClassVar[tuple[Column, ...]] = (CHIPS, MONEY)
    panel_template: ClassVar[str] = "scoring/formats/deals/panel.html"
    imports_results: ClassVar[bool] = True
    preset_sections: ClassVar[tuple[PresetSection, ...]] = (
        *INDIAN_SECTIONS,
        PresetSection("deals", serializers.DictField(required=False)),
    )

    def panel(
        self, *, club: Club, game: Game, rules: GameRules, state: GameState, open_game: bool
    ) -> dict[str, Any]:
        assert isinstance(state, DealsState)
        return pages.panel(club, game, state, open_game)

    def running(self, *, rules: GameRules, held: Mapping[str, int]) -> Running:
        """The chips held, unsigned as the chips panel shows them."""
        return Running(str(held.get(Quantity.CHIPS, 0)), "chips")

    def tiebreaker_due(self, *, state: GameState) -> bool:
        return isinstance(state, DealsState) and state.tiebreaker_needed

    def preset_preview(self, *, rules: GameRules) -> PresetPreview:
        deals = rules.deals
        assert deals is not None
        return indian_preview(
            rules,
            summary=gettext(
                "%(deals)s deals, %(chips)s chips a deal, a loser pays at most %(cap)s."
            )
            % {"deals": deals.deals, "chips": deals.chips_per_deal, "cap": deals.loser_cap},
        )

    def preset_rules(self, *, variant: str, params: dict[str, Any]) -> FormatRules:
        deals = preset_section_rules(params, "deals", "deals", 3, deals_rules.DealsRules.best_of)
        base = IndianPreset.for_deals(deals.deals, drops_allowed=deals.drops_allowed)
        indian = indian_rules(base, params)
        if indian.drops_allowed != deals.drops_allowed:
            raise invalid_setting(
                "indian", gettext("drops_allowed must agree with the deals section")
            )
        return FormatRules(2, 6, indian=indian, deals=deals, house_rules=house_rules(params))

    def game_opened(self, *, game: Game, rules: GameRules) -> list[EndEntry]:
        assert rules.deals is not None
        seated = list(seated_players(game))
        start = deals_rules.starting_chips(seated, rules.deals)
        lines = [Line.player(Quantity.CHIPS, pid, chips) for pid, chips in start.items()]
        lines.append(Line.book(Quantity.CHIPS, -sum(start.values())))
        if game.entry_fee_minor:
            for pid in seated:
                lines += entry_fee_lines(pid, game.entry_fee_minor)
        return [EndEntry(LedgerEntry.Kind.OPENING, lines, "opening chips")]

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        assert rules.deals is not None
        require_open_game(game)
        require_no_deal_waiting(game)
        regular = game.deals.filter(is_tiebreaker=False).exclude(status=Deal.Status.VOID).count()
        if not is_tiebreaker and regular >= rules.deals.deals:
            raise Conflict(
                gettext("all %(count)s deals are played; only a tie-breaker deal can follow")
                % {"count": rules.deals.deals},
                code="deals_complete",
            )
        if is_tiebreaker and (
            regular < rules.deals.deals
            or not deals_rules.deals_standing(chip_counts(game)).tie_break
        ):
            raise Conflict(
                gettext(
                    "a tie-breaker deal is played only after the last deal, between players "
                    "level on chips at the top"
                ),
                code="no_tiebreaker",
            )

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        require_latest_deal(deal, "deals game")

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        seated = seated_players(deal.game)
        if not deal.is_tiebreaker:
            return seated
        standing = deals_rules.deals_standing(chip_counts(deal.game, excluding_deal=deal))
        return {pid: seated[pid] for pid in standing.leaders}

    def next_deal_players(
        self, *, game: Game, rules: GameRules, is_tiebreaker: bool
    ) -> dict[int, str]:
        seated = seated_players(game)
        if not is_tiebreaker:
            return seated
        standing = deals_rules.deals_standing(chip_counts(game))
        return {pid: seated[pid] for pid in standing.leaders}

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        assert rules.deals is not None
        evaluation = checked.evaluation
        assert evaluation.winner is not None
        moves = deals_rules.chip_transfer(evaluation.points(), evaluation.winner, rules.deals)
        lines = [Line.player(Quantity.CHIPS, pid, amount) for pid, amount in moves.items()]
        return lines, {"chips": {str(pid): amount for pid, amount in moves.items()}}

    def game_decided(self, *, game: Game, rules: GameRules) -> bool:
        assert rules.deals is not None
        if deals_counted(game, tiebreakers=False) < rules.deals.deals:
            return False
        return deals_rules.deals_standing(chip_counts(game)).winner is not None

    def state(self, *, game: Game, rules: GameRules) -> DealsState:
        assert rules.deals is not None
        chips = chip_counts(game)
        seated = seated_players(game)
        counted = deals_counted(game, tiebreakers=False)
        standing = deals_rules.deals_standing(chips)
        done = counted >= rules.deals.deals
        prize, club_fee = prize_pool(len(seated), game.entry_fee_minor, rules.fee)
        finished = game.status == Game.Status.FINISHED and game.end != GameEnd.ABANDONED
        return DealsState(
            format=self.format,
            status=game.status,
            deals=rules.deals.deals,
            deals_counted=counted,
            drops_allowed=rules.deals.drops_allowed,
            starting_chips=rules.deals.starting_chips,
            table_chips=sum(chips.values()),
            pot_minor=account_balance(game, Quantity.MONEY, AccountKind.BOOK),
            prize_minor=prize,
            club_fee_minor=club_fee,
            players=[DealsPlayer(pid, name, chips[pid]) for pid, name in seated.items()],
            leaders=list(standing.leaders),
            tiebreaker_needed=done and standing.tie_break and game.status == Game.Status.OPEN,
            winner=standing.winner if finished else None,
        )

    def endings(self, *, game: Game, rules: GameRules) -> list[Ending]:
        if game.entry_fee_minor:
            explains = gettext(
                "A deals game ends after its last deal (and any tie-breaker); stopping it now "
                "gives every entry fee back."
            )
        else:
            explains = gettext(
                "A deals game ends after its last deal (and any tie-breaker); stopping it now ends "
                "it with no winner."
            )
        return [Ending(GameEnd.ABANDONED, gettext("Stop the game and refund the pot"), explains)]

    def end_entries(
        self, *, game: Game, rules: GameRules, end: GameEnd, shares: dict[int, int] | None
    ) -> list[EndEntry]:
        require_open_game(game)
        if end == GameEnd.ABANDONED:
            require_no_deal_waiting(game)
            return refund_entry(game)
        if end != GameEnd.PLAYED_OUT or not self.game_decided(game=game, rules=rules):
            raise Conflict(
                gettext(
                    "a deals game ends after its last deal and any tie-breaker, or abandoned "
                    "with its pot refunded"
                ),
                code="cannot_finish",
            )
        winner = deals_rules.deals_standing(chip_counts(game)).winner
        assert winner is not None
        pot, prize, club_fee = pot_checked(game, entries=len(seated_players(game)), fee=rules.fee)
        return payout_entry(pot, club_fee, {winner: prize}, "deals won")

    def finishing_order(self, *, game: Game, rules: GameRules) -> dict[int, int] | None:
        return competition_ranks(chip_counts(game))
