"""Pool rummy (101, 201, 61): scores accumulate; at the pool limit a player is out; the last one
in wins the prize pool. Rejoins and agreed splits.

In the ledger, a deal posts each loser's points as a negative ``points`` amount against the game
account (the winner adds nothing), so a player's pool score is minus their ``points`` balance.
Entry fees (and rejoin fees) move ``money`` from the player to the game's pot; the payout moves the
pot to the winner (or to the players of a split) and the club's fee to the club."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop, ngettext
from rest_framework import serializers

from clubs.models import Club
from config.errors import Conflict
from ledger.models import AccountKind, LedgerEntry, Posting, Quantity
from ledger.writer import Line
from rules.errors import RuleViolation
from rules.indian import pool as pool_rules
from rules.indian.preset import IndianPreset
from rules.money import prize_pool
from scoring.formats.base import (
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
from scoring.formats.indian.deal import IndianDeal, house_rules, indian_rules
from scoring.formats.indian.preset import INDIAN_SECTIONS, indian_preview
from scoring.formats.pool import pages
from scoring.formats.pool.schema import PoolPayloadOutput, PoolResultOutput, PoolStateOutput
from scoring.formats.pool.state import PoolPlayer, PoolState
from scoring.formats.pot import entry_fee_lines, payout_entry, pot_checked, refund_entry
from scoring.formats.reads import (
    account_balance,
    entries_of_kind,
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
    preset_section_rules,
)

# Shown as the ledger counts it, as on every other page: −40 is 40 points taken.
SCORE = Column(
    "score", gettext_noop("Pool score"), Quantity.POINTS, gettext_noop("pool points, − taken")
)


def pool_scores(game: Game, *, excluding_deal: Deal | None = None) -> dict[int, int]:
    """Every seated player's pool score (0 for one who has not lost a point yet)."""
    balances = seated_balances(game, Quantity.POINTS, excluding_deal=excluding_deal)
    return {pid: -balance for pid, balance in balances.items()}


def still_in(scores: dict[int, int], rules: pool_rules.PoolRules) -> dict[int, int]:
    return {pid: s for pid, s in scores.items() if not pool_rules.is_eliminated(s, rules)}


def entry_count(game: Game) -> int:
    """Entries into the pool: one per seat, plus one per rejoin."""
    rejoins = entries_of_kind(game, LedgerEntry.Kind.REJOIN)
    return len(seated_players(game)) + sum(rejoins.values())


def final_eliminations(game: Game, rules: pool_rules.PoolRules) -> dict[int, int]:
    """Each player out of the pool now, with the ledger entry that put them out for the last
    time (a rejoin undoes an elimination; a later one counts): one query, in entry order."""
    scores: dict[int, int] = dict.fromkeys(seated_players(game), 0)
    out: dict[int, int] = {}
    rows = (
        Posting.objects.filter(
            book_id=game.book_id, quantity=Quantity.POINTS, account=AccountKind.PLAYER
        )
        .order_by("entry_id", "id")
        .values_list("entry_id", "player_id", "amount")
    )
    for entry_id, player_id, amount in rows:
        scores[player_id] = scores.get(player_id, 0) - amount
        if pool_rules.is_eliminated(scores[player_id], rules):
            out.setdefault(player_id, entry_id)
        else:
            out.pop(player_id, None)
    return out


class PoolFormat(IndianDeal, FormatBase):
    format: ClassVar[str] = "pool"
    result_output: ClassVar[type[serializers.Serializer[Any]]] = PoolResultOutput
    payload_output: ClassVar[type[serializers.Serializer[Any]]] = PoolPayloadOutput
    state_output: ClassVar[type[serializers.Serializer[Any]]] = PoolStateOutput
    words: ClassVar[Words] = Words(
        unit="deal",
        finish="",
        finished=gettext_noop("The game is over."),
        deal_note=gettext_noop(
            "Points each player counted in the deal; the winner (★) counts 0. The pool scores "
            "also count rejoins."
        ),
    )
    columns: ClassVar[tuple[Column, ...]] = (SCORE, MONEY)
    panel_template: ClassVar[str] = "scoring/formats/pool/panel.html"
    imports_results: ClassVar[bool] = True
    preset_sections: ClassVar[tuple[PresetSection, ...]] = (
        *INDIAN_SECTIONS,
        PresetSection("pool", serializers.DictField(required=False)),
    )

    def panel(
        self, *, club: Club, game: Game, rules: GameRules, state: GameState, open_game: bool
    ) -> dict[str, Any]:
        assert isinstance(state, PoolState)
        offers = self.split_offers(game=game, rules=rules) if open_game else {}
        return pages.panel(club, game, state, open_game, offers)

    def running(self, *, rules: GameRules, held: Mapping[str, int]) -> Running:
        """The score against the limit and the drops left, as the pool panel shows them."""
        assert rules.pool is not None
        score = -held.get(Quantity.POINTS, 0)
        unit = f"of {pages.pool_points(rules.pool.limit)}"
        if pool_rules.is_eliminated(score, rules.pool):
            return Running(pages.pool_points(score), unit, "out", out=True)
        drops = pool_rules.drops_remaining(score, rules.pool)
        note = ngettext("%(drops)s drop left", "%(drops)s drops left", drops) % {"drops": drops}
        return Running(pages.pool_points(score), unit, note)

    def preset_preview(self, *, rules: GameRules) -> PresetPreview:
        assert rules.pool is not None
        if rules.pool.rejoin_allowed:
            summary = gettext(
                "Pool: out at %(limit)s, rejoin while no one is above %(rejoin)s."
            ) % {"limit": rules.pool.limit, "rejoin": rules.pool.rejoin_below}
        else:
            summary = gettext("Pool: out at %(limit)s, no rejoins.") % {"limit": rules.pool.limit}
        return indian_preview(rules, summary=summary)

    def preset_rules(self, *, variant: str, params: dict[str, Any]) -> FormatRules:
        pool = preset_section_rules(params, "pool", "limit", 101, pool_rules.PoolRules.for_limit)
        # A pool's own drops and full count are the hand scoring's, unless ``indian`` says.
        base = dataclasses.replace(
            IndianPreset.points(),
            first_drop=pool.first_drop,
            middle_drop=pool.middle_drop,
            cap=pool.full_count,
            wrong_show=pool.full_count,
            late_declare=pool.full_count,
        )
        return FormatRules(
            2, 6, indian=indian_rules(base, params), pool=pool, house_rules=house_rules(params)
        )

    def game_opened(self, *, game: Game, rules: GameRules) -> list[EndEntry]:
        if not game.entry_fee_minor:
            return []
        lines: list[Line] = []
        for player_id in seated_players(game):
            lines += entry_fee_lines(player_id, game.entry_fee_minor)
        return [EndEntry(LedgerEntry.Kind.ENTRY_FEE, lines, "entry fees")]

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        super().deal_check_can_start(game=game, rules=rules, is_tiebreaker=is_tiebreaker)
        require_no_deal_waiting(game)

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        require_latest_deal(deal, "pool")

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        assert rules.pool is not None
        scores = still_in(pool_scores(deal.game, excluding_deal=deal), rules.pool)
        return {pid: name for pid, name in seated_players(deal.game).items() if pid in scores}

    def next_deal_players(
        self, *, game: Game, rules: GameRules, is_tiebreaker: bool
    ) -> dict[int, str]:
        assert rules.pool is not None
        scores = still_in(pool_scores(game), rules.pool)
        return {pid: name for pid, name in seated_players(game).items() if pid in scores}

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        evaluation = checked.evaluation
        lines = [
            Line.player(Quantity.POINTS, score.player, -score.points) for score in evaluation.scores
        ]
        lines.append(Line.book(Quantity.POINTS, sum(score.points for score in evaluation.scores)))
        return lines, {}

    def game_decided(self, *, game: Game, rules: GameRules) -> bool:
        assert rules.pool is not None
        return len(still_in(pool_scores(game), rules.pool)) <= _left_at_end(game)

    def state(self, *, game: Game, rules: GameRules) -> PoolState:
        assert rules.pool is not None
        scores = pool_scores(game)
        used = entries_of_kind(game, LedgerEntry.Kind.REJOIN)
        seated = seated_players(game)
        active = still_in(scores, rules.pool)
        entries = len(seated) + sum(used.values())
        pool_minor, fee_minor = prize_pool(entries, game.entry_fee_minor, rules.fee)
        players = []
        for pid, name in seated.items():
            score = scores[pid]
            out = pid not in active
            refusal = None
            if out and game.status == Game.Status.OPEN:
                refusal = rejoin_refusal(active, rules, used.get(pid, 0))
            players.append(
                PoolPlayer(
                    player=pid,
                    name=name,
                    score=score,
                    status="eliminated" if out else "active",
                    rejoins=used.get(pid, 0),
                    drops_remaining=0 if out else pool_rules.drops_remaining(score, rules.pool),
                    can_rejoin=out and game.status == Game.Status.OPEN and refusal is None,
                    no_rejoin=None
                    if refusal is None
                    else {
                        "code": refusal.code,
                        "message": refusal.message,
                        "details": refusal.details,
                    },
                )
            )
        offers = _split_kinds(game, rules.pool, active, len(seated))
        decided = (
            game.status == Game.Status.FINISHED
            and game.end != GameEnd.ABANDONED
            and len(active) == 1
        )
        return PoolState(
            format=self.format,
            status=game.status,
            limit=rules.pool.limit,
            entry_fee_minor=game.entry_fee_minor,
            entries=entries,
            pot_minor=account_balance(game, Quantity.MONEY, AccountKind.BOOK),
            prize_pool_minor=pool_minor,
            club_fee_minor=fee_minor,
            players=players,
            split_offers=offers,
            winner=next(iter(active)) if decided else None,
        )

    def endings(self, *, game: Game, rules: GameRules) -> list[Ending]:
        if game.qualifiers is not None:  # a knock-out table: no pot of its own to refund
            return []
        if game.entry_fee_minor:
            explains = gettext(
                "A pool ends when one player is left or the last ones split; stopping it now "
                "gives every entry fee back."
            )
        else:
            explains = gettext(
                "A pool ends when one player is left or the last ones split; stopping it now ends "
                "it with no winner."
            )
        return [Ending(GameEnd.ABANDONED, gettext("Stop the game and refund the pot"), explains)]

    def end_entries(
        self, *, game: Game, rules: GameRules, end: GameEnd, shares: dict[int, int] | None
    ) -> list[EndEntry]:
        assert rules.pool is not None
        require_open_game(game)
        if end == GameEnd.ABANDONED:
            require_no_deal_waiting(game)
            return refund_entry(game)
        active = still_in(pool_scores(game), rules.pool)
        if game.qualifiers is not None:
            if end != GameEnd.PLAYED_OUT or len(active) > game.qualifiers:
                raise Conflict(
                    gettext("a knock-out pool table ends when only %(count)s player(s) are left in")
                    % {"count": game.qualifiers},
                    code="cannot_finish",
                )
            return []  # it holds no money: the tournament's purse does
        pot, prize, club_fee = pot_checked(game, entries=entry_count(game), fee=rules.fee)
        if end == GameEnd.SPLIT:
            assert shares is not None
            return payout_entry(pot, club_fee, shares, "split")
        if end != GameEnd.PLAYED_OUT or len(active) != 1:
            raise Conflict(
                gettext(
                    "a pool game ends when one player is left, by an agreed split, or abandoned "
                    "with its pot refunded"
                ),
                code="cannot_finish",
            )
        return payout_entry(pot, club_fee, {next(iter(active)): prize}, "pool won")

    def finishing_order(self, *, game: Game, rules: GameRules) -> dict[int, int] | None:
        assert rules.pool is not None
        scores = pool_scores(game)
        eliminated = final_eliminations(game, rules.pool)
        # A knock-out table's survivors go on in order of score; a cash pool's share first.
        ranks = pool_rules.finishing_ranks(
            scores, eliminated, survivors_by_score=game.qualifiers is not None
        )
        return {pid: ranks[pid] for pid in seated_players(game)}

    def rejoin_lines(
        self, *, game: Game, rules: GameRules, player_id: int
    ) -> tuple[list[Line], int]:
        assert rules.pool is not None
        require_open_game(game)
        scores = pool_scores(game)
        if player_id not in scores:
            raise RuleViolation("not_seated", "this player has no seat in this game")
        old = scores[player_id]
        active = still_in(scores, rules.pool)
        if player_id in active:
            raise RuleViolation(
                "not_eliminated", f"this player is still in, at {old}", details={"score": old}
            )
        used = entries_of_kind(game, LedgerEntry.Kind.REJOIN).get(player_id, 0)
        new = pool_rules.rejoin_score(active, rules.pool, used)
        lines = [
            Line.player(Quantity.POINTS, player_id, old - new),
            Line.book(Quantity.POINTS, new - old),
        ]
        if game.entry_fee_minor:
            lines += entry_fee_lines(player_id, game.entry_fee_minor)
        return lines, new

    def split_offers(self, *, game: Game, rules: GameRules) -> dict[str, dict[int, int]]:
        assert rules.pool is not None
        active = still_in(pool_scores(game), rules.pool)
        offers: dict[str, dict[int, int]] = {}
        for kind in _split_kinds(game, rules.pool, active, len(seated_players(game))):
            try:
                offers[kind], _ = self.split_shares(game=game, rules=rules, kind=kind)
            except RuleViolation:
                continue
        return offers

    def split_shares(
        self, *, game: Game, rules: GameRules, kind: str
    ) -> tuple[dict[int, int], dict[int, int]]:
        assert rules.pool is not None
        require_open_game(game)
        if game.qualifiers is not None:
            raise Conflict(
                gettext(
                    "a knock-out table has no pot to split: the tournament's purse pays the prizes"
                ),
                code="no_split",
            )
        active = still_in(pool_scores(game), rules.pool)
        prize, _ = prize_pool(entry_count(game), game.entry_fee_minor, rules.fee)
        seats = len(seated_players(game))
        if kind == "drops":
            shares = pool_rules.split_by_drops(
                prize, game.entry_fee_minor, active, rules.pool, players_at_start=seats
            )
        elif kind == "equal":
            shares = pool_rules.split_equal(prize, active, rules.pool, players_at_start=seats)
        else:
            raise RuleViolation("bad_split", f"kind must be drops or equal, not {kind!r}", kind)
        return shares, active


def _split_kinds(
    game: Game, rules: pool_rules.PoolRules, active: dict[int, int], seats: int
) -> list[str]:
    """The kinds of split the rules offer the remaining players of an open pool now (none at a
    knock-out table: its pot is the tournament's)."""
    if game.status != Game.Status.OPEN or game.qualifiers is not None or len(active) < 2:
        return []
    try:
        return list(pool_rules.split_options(active, seats, rules))
    except RuleViolation:
        return []


def _left_at_end(game: Game) -> int:
    """How many players are left in when the pool ends: one, or a knock-out table's qualifiers
    (the table ends as soon as they are known)."""
    return game.qualifiers or 1


def rejoin_refusal(active: dict[int, int], rules: GameRules, used: int) -> RuleViolation | None:
    """Why a player out of the pool, who rejoined ``used`` times, cannot rejoin now."""
    assert rules.pool is not None
    try:
        pool_rules.rejoin_score(active, rules.pool, used)
    except RuleViolation as exc:
        return exc
    return None
