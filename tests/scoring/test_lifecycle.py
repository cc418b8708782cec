"""The formats behind one protocol and the one game lifecycle: every format in the registry, every
way a game ends (its last deal, by hand, a split, a refunded pot, the night closing), the finishing
order they leave, and the announcement after commit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import TestCase

from config.errors import Conflict
from ledger.models import AccountKind, LedgerEntry, Posting
from rules.indian.deal import outcome_options
from scoring import figures, selectors
from scoring.deals import deal_create
from scoring.formats import HANDLERS, GameEnd, handler_for
from scoring.formats.pool.moves import pool_rejoin, pool_split
from scoring.games import game_finish
from scoring.lifecycle import game_finished, game_finishing_order
from scoring.models import Deal, Game, GameFormat
from scoring.nights import session_close
from scoring.preset_rules import game_rules
from scoring.undo import deal_void
from tests.scoring.helpers import enter_deal, ledger_balanced, new_game, play, results

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]
TEMPLATES = Path(settings.BASE_DIR) / "templates"


def sample_deal(game: Game, ids: dict[str, int]) -> dict[str, Any]:
    """A valid first deal of any format: Asha wins, the others lose a little."""
    if game.preset.format == "okey":
        return {"okey": {"indicator": "R7", "finisher": ids["Asha"]}}
    if handler_for(game).entered_as == "racks":
        payload: dict[str, Any] = {
            "racks": {
                str(ids["Asha"]): [],
                **{
                    str(ids[n]): [tile]
                    for n, tile in zip(FOUR[1:], ["R5", "B5", "K5"], strict=True)
                },
            },
            "winner": ids["Asha"],
        }
        if game_rules(game.preset).rummikub.variant == "international":  # type: ignore[union-attr]
            payload |= {"win": "open", "melded": {str(ids[n]): True for n in FOUR[1:]}}
        return payload
    return results(ids, Asha="winner", Bilal=10, Chitra=20, Dev=30)


def test_every_format_is_in_the_registry_with_the_whole_protocol():
    assert sorted(HANDLERS) == sorted(GameFormat.values)
    for key, handler in HANDLERS.items():
        assert handler.format == key
        assert handler.words.unit and handler.words.deal_note
        assert handler.columns and handler.columns[-1].key == "money"
        for template in (handler.entry_template, handler.result_template, handler.panel_template):
            assert not template or (TEMPLATES / template).exists()
        assert handler.family in ("indian", "rummikub", "okey")
        assert handler.variants and handler.preset_sections
        for member in (
            "outcomes", "game_opened", "deal_check_can_start", "correction_check",
            "deal_players", "next_deal_players", "submission_check", "deal_lines",
            "game_decided", "state", "endings", "end_entries", "finishing_order",
            "preset_rules",
        ):  # fmt: skip
            assert callable(getattr(handler, member)), (key, member)


BUILTIN = [
    "points", "points-10-30", "pool-101", "pool-201", "pool-61", "deals-2", "deals-3",
    "deals-6", "sabra", "american", "international", "okey", "okey-countdown-20",
]  # fmt: skip


@pytest.mark.parametrize("key", BUILTIN)
def test_each_builtin_preset_walks_the_whole_lifecycle(standing, key):
    """Open a game of the preset, play a deal, read its state, end it every way the organiser
    may (or play it out), and read its finishing order: the same path for every format."""
    game, ids = new_game(standing, key, FOUR, entry_fee_minor=1000, point_value_minor=10)
    handler = handler_for(game)
    rules = game_rules(game.preset)
    offered = handler.outcomes(rules=rules)
    if handler.entered_as == "hands":
        assert offered == outcome_options(rules.indian)  # type: ignore[arg-type]
        assert ("first_drop" in {o.code for o in offered}) == rules.indian.drops_allowed  # type: ignore[union-attr]
    else:
        assert offered == ()
    play(standing, game, sample_deal(game, ids))
    state = selectors.game_state(game=game).as_dict()
    assert state["format"] == game.format and state["status"] == "open"
    assert {line["player"] for line in state["players"]} == set(ids.values())
    endings = selectors.game_endings(game=game)
    assert endings, "every open game can be ended by hand one way or another"
    with TestCase.captureOnCommitCallbacks(execute=True):
        ended = game_finish(game=game, actor=standing.organiser, end=endings[0].end)
    assert ended.status == "finished" and ended.end == endings[0].end
    assert ledger_balanced(game)
    pot = sum(
        p.amount
        for p in Posting.objects.filter(book__game=game, account=AccountKind.BOOK, quantity="money")
    )
    assert pot == 0, "an ended game holds no pot"
    order = game_finishing_order(game=ended)
    if ended.end == GameEnd.ABANDONED:
        assert order is None
    else:
        assert order is not None and set(order) == set(ids.values())
        assert min(order.values()) == 1


def test_the_end_is_announced_once_after_commit_not_before(standing):
    heard: list[tuple[int, str]] = []

    def listener(sender: Any, game_id: int, end: str, **kwargs: Any) -> None:
        heard.append((game_id, end))

    game_finished.connect(listener)
    try:
        game, ids = new_game(standing, "points", FOUR)
        play(standing, game, sample_deal(game, ids))
        with TestCase.captureOnCommitCallbacks(execute=False) as pending:
            game_finish(game=game, actor=standing.organiser)
        assert heard == []  # nothing before the commit
        for callback in pending:
            callback()
        assert heard == [(game.pk, "by_organiser")]
    finally:
        game_finished.disconnect(listener)


def test_a_pool_played_out_pays_and_ranks_by_elimination_a_rejoin_keeping_the_last(standing):
    """The last player standing first; then the reverse order of elimination, players out in
    the same deal by their scores (lower first); a player who rejoined is ranked by the
    elimination that counted last."""
    game, ids = new_game(standing, "pool-101", FOUR, entry_fee_minor=1000)
    play(standing, game, results(ids, Asha="winner", Bilal=80, Chitra=30, Dev=40))
    play(standing, game, results(ids, Asha="winner", Bilal=30, Chitra=20, Dev=10))  # Bilal out
    bilal = game.seats.get(player_id=ids["Bilal"]).player
    assert pool_rejoin(game=game, actor=standing.organiser, player=bilal) == 51
    play(standing, game, results(ids, Asha="winner", Bilal=80, Chitra=20, Dev=60))  # 131, 110
    play(standing, game, results(ids, Asha="winner", Chitra=80))  # Chitra out: Asha wins
    game.refresh_from_db()
    assert game.status == "finished" and game.end == GameEnd.PLAYED_OUT
    order = game_finishing_order(game=game)
    assert order == {ids["Asha"]: 1, ids["Chitra"]: 2, ids["Dev"]: 3, ids["Bilal"]: 4}
    paid = figures.game_payouts(game=game)
    assert paid == {ids["Asha"]: 5000}  # 4 entries and one rejoin, no fee


def test_a_split_ends_the_game_through_the_lifecycle(standing):
    game, ids = new_game(standing, "pool-101", ["Asha", "Bilal", "Chitra"], entry_fee_minor=2500)
    play(standing, game, results(ids, Asha="winner", Bilal=60, Chitra=80))
    play(standing, game, results(ids, Bilal="winner", Asha=60, Chitra=30))  # Chitra out
    players = [game.seats.get(player_id=ids[n]).player for n in ("Asha", "Bilal")]
    with TestCase.captureOnCommitCallbacks(execute=True):
        shares = pool_split(game=game, actor=standing.organiser, kind="drops",
                                     agreed=players)  # fmt: skip
    game.refresh_from_db()
    assert game.end == GameEnd.SPLIT and shares == {ids["Asha"]: 3750, ids["Bilal"]: 3750}
    assert game_finishing_order(game=game) == {ids["Asha"]: 1, ids["Bilal"]: 1, ids["Chitra"]: 3}


def test_deals_rank_by_chips_after_the_tiebreaker(standing):
    game, ids = new_game(standing, "deals-2", ["Asha", "Bilal", "Chitra"])
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30))
    play(standing, game, results(ids, Bilal="winner", Asha=35, Chitra=0))  # Asha = Bilal, 175
    assert selectors.game_state(game=game).tiebreaker_needed  # type: ignore[union-attr]
    play(standing, game, results(ids, Bilal="winner", Asha=5), tiebreaker=True)
    game.refresh_from_db()
    assert game.end == GameEnd.PLAYED_OUT
    assert game_finishing_order(game=game) == {ids["Bilal"]: 1, ids["Asha"]: 2, ids["Chitra"]: 3}


def test_a_points_table_ranks_by_net_points_equal_ones_sharing(standing):
    game, ids = new_game(standing, "points", FOUR)
    play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=10, Dev=30))
    game_finish(game=game, actor=standing.organiser)
    game.refresh_from_db()
    assert game_finishing_order(game=game) == {
        ids["Asha"]: 1, ids["Bilal"]: 2, ids["Chitra"]: 2, ids["Dev"]: 4,
    }  # fmt: skip


def test_a_pool_cannot_be_finished_by_hand_but_can_be_abandoned_with_its_pot_refunded(standing):
    game, ids = new_game(standing, "pool-101", FOUR, entry_fee_minor=1000)
    play(standing, game, results(ids, Asha="winner", Bilal=80, Chitra=30, Dev=40))
    with pytest.raises(Conflict) as refused:
        game_finish(game=game, actor=standing.organiser)
    assert refused.value.code == "cannot_finish" and "abandoned" in refused.value.message
    bilal = game.seats.get(player_id=ids["Bilal"]).player
    play(standing, game, results(ids, Asha="winner", Bilal=30, Chitra=20, Dev=10))
    pool_rejoin(game=game, actor=standing.organiser, player=bilal)  # pays again
    game_finish(game=game, actor=standing.organiser, end=GameEnd.ABANDONED)
    game.refresh_from_db()
    assert game.end == GameEnd.ABANDONED and game_finishing_order(game=game) is None
    money = {
        pid: sum(p.amount for p in Posting.objects.filter(book__game=game, player_id=pid,
                                                         quantity="money"))
        for pid in ids.values()
    }  # fmt: skip
    assert set(money.values()) == {0}, "every fee paid, rejoin included, went back"
    refund = LedgerEntry.objects.get(book__game=game, kind=LedgerEntry.Kind.REFUND)
    assert {p.player_id: p.amount for p in refund.postings.filter(account="player")}[
        ids["Bilal"]
    ] == 2000


# --- closing a night ---------------------------------------------------------------------------


def test_closing_a_night_with_an_open_pool_refuses_with_the_action_and_then_closes(standing):
    game, ids = new_game(standing, "pool-101", FOUR, entry_fee_minor=1000)
    play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=20, Dev=30))
    session = game.table.session
    # The pot is held: the settle-up shows it as a party, and sums to zero.
    board = figures.session_scoreboard(session=session)
    assert [(pot.game_id, pot.amount_minor) for pot in board.pots] == [(game.pk, 4000)]
    transfers = figures.session_settlement(session=session, scoreboard=board)
    assert sum(t.amount_minor for t in transfers) == 4000
    assert {t.payee for t in transfers} == {board.pots[0].label}
    with pytest.raises(Conflict) as refused:
        session_close(session=session, actor=standing.organiser)
    blockers = refused.value.details["blockers"]
    assert [(b["kind"], b["game_id"], b["actions"]) for b in blockers] == [
        ("game_open", game.pk, ["abandoned"])
    ]
    session.refresh_from_db()
    assert session.status == "open" and Game.objects.get(pk=game.pk).status == "open"
    game_finish(game=game, actor=standing.organiser, end=GameEnd.ABANDONED)
    session_close(session=session, actor=standing.organiser)
    session.refresh_from_db()
    assert session.status == "closed" and ledger_balanced(game)
    assert figures.session_scoreboard(session=session).pots == []


def test_closing_a_night_with_waiting_deals_lists_them_and_voiding_resolves(standing):
    game, ids = new_game(standing, "points", FOUR)
    play(standing, game, sample_deal(game, ids))
    open_deal = deal_create(game=game, actor=standing.scorer)  # never played
    session = game.table.session
    with pytest.raises(Conflict) as refused:
        session_close(session=session, actor=standing.organiser)
    (blocker,) = refused.value.details["blockers"]
    assert blocker["kind"] == "deal_waiting" and blocker["deal_id"] == open_deal.pk
    assert blocker["actions"] == ["enter_result", "void"]
    deal_void(deal=open_deal, actor=standing.organiser)
    with pytest.raises(Conflict):  # a voided deal cannot be voided again, nor get a result
        deal_void(deal=open_deal, actor=standing.organiser)
    with TestCase.captureOnCommitCallbacks(execute=True):
        session_close(session=session, actor=standing.organiser)
    game.refresh_from_db()
    assert game.status == "finished" and game.end == GameEnd.BY_ORGANISER
    assert Deal.objects.get(pk=open_deal.pk).status == Deal.Status.VOID


def test_closing_a_night_waits_for_a_result_to_confirm(standing):
    standing.club.requires_confirmation = True
    standing.club.save()
    game, ids = new_game(standing, "points", FOUR)
    _, waiting = enter_deal(game, standing.scorer, sample_deal(game, ids))
    assert waiting is not None
    with pytest.raises(Conflict) as refused:
        session_close(session=game.table.session, actor=standing.organiser)
    (blocker,) = refused.value.details["blockers"]
    assert blocker["actions"] == ["confirm"]


def test_closing_a_night_finishes_an_international_match_and_settles_it(standing):
    game, ids = new_game(standing, "international", ["Asha", "Bilal", "Chitra"],
                         point_value_minor=10)  # fmt: skip
    play(standing, game, {
        "racks": {str(ids["Asha"]): [], str(ids["Bilal"]): ["R5"], str(ids["Chitra"]): ["B9"]},
        "winner": ids["Asha"], "win": "open",
        "melded": {str(ids["Bilal"]): True, str(ids["Chitra"]): True},
    })  # fmt: skip
    settlement = selectors.game_state(game=game).settlement_minor  # type: ignore[union-attr]
    with TestCase.captureOnCommitCallbacks(execute=True):
        session_close(session=game.table.session, actor=standing.organiser)
    game.refresh_from_db()
    assert game.end == GameEnd.BY_ORGANISER
    entry = LedgerEntry.objects.get(book__game=game, kind=LedgerEntry.Kind.SETTLEMENT)
    assert {str(p.player_id): p.amount for p in entry.postings.all()} == settlement
    assert sum(settlement.values()) == 0 and any(settlement.values())
    transfers = figures.session_settlement(session=game.table.session)
    assert sum(t.amount_minor for t in transfers) == sum(v for v in settlement.values() if v > 0)
