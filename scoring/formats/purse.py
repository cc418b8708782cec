"""A tournament's purse: the game whose pot holds the entry fees of a tournament and pays its
prizes, so that fees, refunds and prizes go through the same ledger as every deal (balanced,
in the players' money and standings, in the night's settle-up as a pot held). It has no deals;
its seats are the entrants. It ends when the tournament pays its prizes (``shares``, with the
club's fee) or is cancelled (every fee back)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from config.errors import Conflict
from rules.indian.deal import OutcomeOption
from rules.money import require_int
from scoring.formats.base import (
    MONEY,
    Checked,
    Column,
    EndEntry,
    Ending,
    FormatBase,
    GameEnd,
    GameState,
    Words,
    require_open_game,
)
from scoring.formats.pot import refund_entry
from scoring.formats.reads import account_balance, player_paid_in, seated_players
from scoring.ledger import Line
from scoring.models import AccountKind, Deal, Game, LedgerEntry, Quantity, Submission
from scoring.presets import FormatRules, GameRules


@dataclass
class PurseState(GameState):
    pot_minor: int = 0
    paid_in: dict[str, int] = field(default_factory=dict)


class PurseFormat(FormatBase):
    format: ClassVar[str] = "purse"
    family: ClassVar[str] = ""  # not a game: never rated
    words: ClassVar[Words] = Words(
        unit="entry",
        finish="",
        finished="The prizes are paid.",
        deal_note="A tournament's entry fees and prizes.",
        wild=False,
    )
    columns: ClassVar[tuple[Column, ...]] = (MONEY,)
    has_deals: ClassVar[bool] = False
    variants: ClassVar[frozenset[str]] = frozenset()
    preset_sections: ClassVar[frozenset[str]] = frozenset()

    def preset_rules(self, *, variant: str, params: dict[str, Any]) -> FormatRules:
        raise Conflict("a purse has no preset of its own", code="bad_preset")

    def outcomes(self, *, rules: GameRules) -> tuple[OutcomeOption, ...]:
        return ()

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        raise Conflict("a tournament's purse has no deals", code="no_deals")

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        raise Conflict("a tournament's purse has no deals", code="no_deals")

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        raise Conflict("a tournament's purse has no deals", code="no_deals")

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        return {}

    def state(self, *, game: Game, rules: GameRules) -> PurseState:
        paid = player_paid_in(game, Quantity.MONEY)
        return PurseState(
            format=self.format,
            status=game.status,
            players=[{"player": pid, "name": name} for pid, name in seated_players(game).items()],
            pot_minor=account_balance(game, Quantity.MONEY, AccountKind.GAME),
            paid_in={str(pid): amount for pid, amount in paid.items()},
        )

    def endings(self, *, game: Game, rules: GameRules) -> list[Ending]:
        return []  # the tournament ends it: prizes paid, or cancelled

    def end_entries(
        self, *, game: Game, rules: GameRules, end: GameEnd, shares: dict[int, int] | None
    ) -> list[EndEntry]:
        require_open_game(game)
        if end == GameEnd.ABANDONED:
            return refund_entry(game)
        if end != GameEnd.PLAYED_OUT or shares is None:
            raise Conflict("a purse ends by paying its prizes", code="cannot_finish")
        pot = account_balance(game, Quantity.MONEY, AccountKind.GAME)
        lines = self.prize_lines(pot_minor=pot, shares=shares)
        return [EndEntry(LedgerEntry.Kind.PAYOUT, lines, "tournament prizes")] if pot else []

    def prize_lines(self, *, pot_minor: int, shares: dict[int, int]) -> list[Line]:
        """The whole purse paid out: each prize to its player, the rest (the club's fee and what
        no place won) to the club."""
        paid = sum(shares.values())
        if paid > pot_minor:
            raise Conflict(f"the prizes ({paid}) are more than the purse holds ({pot_minor})")
        lines = [Line.game(Quantity.MONEY, -pot_minor), Line.club(Quantity.MONEY, pot_minor - paid)]
        return lines + [Line.player(Quantity.MONEY, pid, amount) for pid, amount in shares.items()]

    def finishing_order(self, *, game: Game, rules: GameRules) -> dict[int, int] | None:
        return None  # the tournament places its entrants

    def fee_lines(self, *, player_id: int, fee_minor: int) -> list[Line]:
        """An entry fee paid into the purse."""
        fee = require_int(fee_minor, "entry fee (minor units)", minimum=0, code="bad_amount")
        return [Line.player(Quantity.MONEY, player_id, -fee), Line.game(Quantity.MONEY, fee)]

    def refund_lines(self, *, game: Game, player_id: int) -> list[Line]:
        """What one entrant paid in, back to them (a withdrawal before the start)."""
        paid = player_paid_in(game, Quantity.MONEY).get(player_id, 0)
        return [
            Line.game(Quantity.MONEY, -paid),
            Line.player(Quantity.MONEY, player_id, paid),
        ]
