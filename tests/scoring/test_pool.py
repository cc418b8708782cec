"""Pool rummy (formats.md): elimination, drops by pool size, rejoin, prize pool, split."""

from __future__ import annotations

import pytest

from config.errors import Conflict
from ledger.models import AccountKind, LedgerEntry, Posting
from scoring import figures
from scoring.formats.pool.moves import pool_rejoin, pool_split, pool_split_offer
from tests.scoring.helpers import by_name, correct, new_game, play, results, state

THREE = ["Asha", "Bilal", "Chitra"]


def test_elimination_exactly_at_101_and_100_stays_in(standing):
    """formats.md Pool: a total reaching the limit (>= 101) is out; 100 stays in."""
    game, ids = new_game(standing, "pool-101", THREE)
    play(standing, game, results(ids, Asha="winner", Bilal=80, Chitra=80))
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=21))
    now = state(game)
    assert by_name(now, "score") == {"Asha": 0, "Bilal": 100, "Chitra": 101}
    assert by_name(now, "status") == {"Asha": "active", "Bilal": "active", "Chitra": "eliminated"}
    # The next deal is between the players still in: Chitra must not appear.
    third = play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=5), expect="rejected")
    assert [r["code"] for r in third.reasons] == ["not_seated"]
    fixed = correct(standing, third.deal, results(ids, Asha="winner", Bilal=1))
    assert fixed.status == "accepted" and fixed.version == 2
    final = state(game)
    assert final["status"] == "finished" and final["winner"] == ids["Asha"]


def test_201_pool_drop_values_25_and_50(standing):
    """indian-rummy.md / formats.md: 201 pool first drop 25, middle drop 50."""
    game, ids = new_game(standing, "pool-201", THREE)
    submission = play(
        standing, game, results(ids, Asha="winner", Bilal="first_drop", Chitra="middle_drop")
    )
    against = {line["name"]: line["against"] for line in submission.result["players"]}
    assert against == {"Asha": 0, "Bilal": 25, "Chitra": 50}
    # Given up to the pot: signed, as the ledger moves them.
    points = {line["name"]: line["points"] for line in submission.result["players"]}
    assert points == {"Asha": 0, "Bilal": -25, "Chitra": -50}
    assert by_name(state(game), "score") == {"Asha": 0, "Bilal": 25, "Chitra": 50}


def _eliminate_chitra_with_bilal_at(standing, game, ids, bilal: int) -> None:
    play(standing, game, results(ids, Asha="winner", Bilal=bilal, Chitra=80))
    play(standing, game, results(ids, Asha="winner", Bilal=0, Chitra=30))


def test_rejoin_refused_when_someone_is_above_79(standing):
    """formats.md Rejoin: allowed only while no active score is above 79."""
    game, ids = new_game(standing, "pool-101", THREE, entry_fee_minor=2500)
    _eliminate_chitra_with_bilal_at(standing, game, ids, 80)
    with pytest.raises(Conflict) as refused:
        pool_rejoin(game=game, actor=standing.organiser, player=game.seats.get(position=3).player)
    assert refused.value.code == "rejoin_closed"
    assert "80" in refused.value.message and "79" in refused.value.message
    assert not LedgerEntry.objects.filter(book__game=game, kind="rejoin").exists()


def test_rejoin_allowed_at_79_with_highest_plus_one_and_fee_into_the_pot(standing):
    """formats.md Rejoin: at 79 the player rejoins at highest active score + 1, paying again."""
    game, ids = new_game(standing, "pool-101", THREE, entry_fee_minor=2500)
    _eliminate_chitra_with_bilal_at(standing, game, ids, 79)
    chitra = game.seats.get(position=3).player
    score = pool_rejoin(game=game, actor=standing.organiser, player=chitra)
    assert score == 80
    now = state(game)
    assert by_name(now, "score") == {"Asha": 0, "Bilal": 79, "Chitra": 80}
    assert by_name(now, "rejoins") == {"Asha": 0, "Bilal": 0, "Chitra": 1}
    assert now["entries"] == 4 and now["pot_minor"] == 4 * 2500


def test_rejoin_switched_off_or_capped(standing):
    game, ids = new_game(
        standing, "pool-101", THREE, params={"pool": {"limit": 101, "max_rejoins": 0}}
    )
    _eliminate_chitra_with_bilal_at(standing, game, ids, 10)
    with pytest.raises(Conflict) as refused:
        pool_rejoin(game=game, actor=standing.organiser, player=game.seats.get(position=3).player)
    assert refused.value.code == "rejoin_limit"


def test_prize_pool_with_rejoins_goes_to_the_last_player_less_the_fee(standing):
    """formats.md: prize pool = entry fee x entries (rejoins included) - club fee."""
    game, ids = new_game(
        standing, "pool-101", THREE, entry_fee_minor=2500,
        params={"pool": {"limit": 101}, "fee": {"kind": "percent", "percent": "10"}},
    )  # fmt: skip
    _eliminate_chitra_with_bilal_at(standing, game, ids, 0)
    pool_rejoin(game=game, actor=standing.organiser, player=game.seats.get(position=3).player)
    assert state(game)["prize_pool_minor"] == 4 * 2500 - 1000
    play(standing, game, results(ids, Asha="winner", Bilal=80, Chitra=80))
    play(standing, game, results(ids, Asha="winner", Bilal=80, Chitra=80))
    final = state(game)
    assert final["status"] == "finished" and final["winner"] == ids["Asha"]
    money = dict(
        Posting.objects.filter(book__game=game, quantity="money", entry__kind="payout")
        .values_list("account", "amount")
        .order_by("account")
    )
    assert money == {"club": 1000, "game": -10000, "player": 9000}
    board = figures.session_scoreboard(session=game.table.session)
    assert {line.name: line.money_minor for line in board.lines} == {
        "Asha": 9000 - 2500, "Bilal": -2500, "Chitra": -5000,
    }  # fmt: skip


def _split_table(standing, **pool):
    names = ["P1", "P2", "P3", "P4", "P5", "P6"]
    game, ids = new_game(
        standing, "pool-101", names, entry_fee_minor=2500,
        params={"pool": {"limit": 101, **pool}},
    )  # fmt: skip
    play(standing, game, results(ids, P1="winner", P2=79, P3=80, P4=80, P5=80, P6=80))
    play(standing, game, results(ids, P1="winner", P2=0, P3=10, P4=21, P5=21, P6=21))
    play(standing, game, results(ids, P2="winner", P1=40, P3=0))
    return game, ids


def test_split_by_drops_remaining_pays_91_67_41_67_16_66(standing):
    """formats.md Split (RummyCircle example): pool 150, entry 25, drops remaining 3, 1, 0 pays
    91.67, 41.67 and 16.66: exactly 150.00."""
    game, ids = _split_table(standing)
    now = state(game)
    assert by_name(now, "score")["P1"] == 40 and by_name(now, "score")["P3"] == 90
    assert {n: d for n, d in by_name(now, "drops_remaining").items() if n in "P1P2P3"} == {
        "P1": 3, "P2": 1, "P3": 0,
    }  # fmt: skip
    assert now["split_offers"] == ["drops"]  # no equal split: the preset does not offer it
    offer = pool_split_offer(game=game)
    expected = {str(ids["P1"]): 9167, str(ids["P2"]): 4167, str(ids["P3"]): 1666}
    assert offer["shares_minor"]["drops"] == expected
    remaining = [game.seats.get(player_id=ids[n]).player for n in ("P1", "P2", "P3")]
    shares = pool_split(game=game, actor=standing.organiser, kind="drops", agreed=remaining)
    assert {str(k): v for k, v in shares.items()} == expected
    assert sum(shares.values()) == 15000
    assert state(game)["status"] == "finished"
    assert (
        Posting.objects.filter(
            book__game=game, account=AccountKind.BOOK, quantity="money"
        ).aggregate(__import__("django.db.models", fromlist=["Sum"]).Sum("amount"))["amount__sum"]
        == 0
    )  # the pot is empty


def test_split_is_recorded_only_when_every_remaining_player_agrees(standing):
    game, ids = _split_table(standing)
    two = [game.seats.get(player_id=ids[n]).player for n in ("P1", "P2")]
    with pytest.raises(Conflict) as refused:
        pool_split(game=game, actor=standing.organiser, kind="drops", agreed=two)
    assert refused.value.code == "split_not_agreed" and "P3" in refused.value.message
    assert state(game)["status"] == "open"
    assert not LedgerEntry.objects.filter(book__game=game, kind="payout").exists()


def test_equal_split_offered_only_when_everyone_has_80(standing):
    """formats.md: the equal split (a preset) needs every remaining player at 80 or more."""
    game, ids = _split_table(standing, equal_split_preset=True)
    assert state(game)["split_offers"] == ["drops"]  # P1 has 40
    remaining = [game.seats.get(player_id=ids[n]).player for n in ("P1", "P2", "P3")]
    with pytest.raises(Conflict) as refused:
        pool_split(game=game, actor=standing.organiser, kind="equal", agreed=remaining)
    assert refused.value.code == "split_not_offered"
    play(standing, game, results(ids, P3="winner", P1=40, P2=1))
    assert by_name(state(game), "score")["P1"] == 80
    assert state(game)["split_offers"] == ["drops", "equal"]
    shares = pool_split(game=game, actor=standing.organiser, kind="equal", agreed=remaining)
    assert sorted(shares.values()) == [5000, 5000, 5000]


def test_only_the_latest_pool_deal_can_be_corrected(standing):
    game, ids = new_game(standing, "pool-101", THREE)
    first = play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=10))
    play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=10))
    with pytest.raises(Conflict) as refused:
        correct(standing, first.deal, results(ids, Asha="winner", Bilal=20, Chitra=10))
    assert refused.value.code == "not_latest_deal"
