"""Chip-level tournaments through the services (the settings' own tests are in tests/rules): a
field of 30 played to the end: the thresholds at each level's end, a level played again by
those between, a rebuy, chips zero-sum among the players and the money reconciled."""

from __future__ import annotations

import random

import pytest
from django.test import Client, TestCase

from config.errors import Conflict, InvalidInput
from ledger.models import AccountKind, Posting, Quantity
from scoring.models import RulePreset
from tests.scoring.helpers import ledger_balanced
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.figures import chips_held, fees_collected_minor, prize_pool_minor
from tournaments.kinds.chips.levels import rules_of
from tournaments.kinds.chips.rebuys import entry_rebuy
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import tournament_view
from tournaments.services.setup import tournament_start

E = Entry.Status

REBUYS = {
    "starting_chips": 1000,
    "levels": [
        {"point_value": 5, "minimum": 800, "qualify": 1200},
        {"point_value": 10, "minimum": 1000, "qualify": 1400},
        {"point_value": 15, "minimum": 1200, "qualify": 1600},
        {"point_value": 20, "minimum": 1600, "qualify": 2000},
    ],
    "rebuys": 1,
    "rebuy_price_minor": 500,
    "rebuy_chips": 1000,
    "rebuy_until_level": 1,
}


# --- through the services ----------------------------------------------------------------------


def chip_tournament(standing, **options):
    params = {
        "name": "Chip levels",
        "kind": Tournament.Kind.CHIPS,
        "chip_levels": REBUYS,
        "entry_fee_minor": 1000,
        "club_fee_minor": 100,
        "payout": "by_field",
    }
    params.update(options)
    return new_tournament(standing, **params)


def test_only_a_points_preset_and_only_the_chips_kind_take_chip_levels(standing):
    pool = RulePreset.objects.filter(club=None, format="pool").first()
    assert pool is not None
    with pytest.raises(InvalidInput) as refused:
        chip_tournament(standing, preset=pool)
    assert refused.value.code == "chips_need_points"
    with pytest.raises(InvalidInput) as refused:
        new_tournament(standing, chip_levels=REBUYS)
    assert "chip_levels" in str(refused.value)
    with pytest.raises(InvalidInput) as refused:
        chip_tournament(standing, chip_levels={"levels": [{"point_value": 5}]})
    assert "chip_levels: levels[1]" in str(refused.value)


def test_a_chip_level_tournament_of_30_runs_to_the_end_with_a_rebuy(standing):
    tournament = chip_tournament(standing)
    enter(standing, tournament, roster(standing, 30))
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = tournament_start(tournament=tournament, actor=standing.organiser)
    assert first.level == 1 and len(first.draw["tables"]) == 5
    held = chips_held(tournament=tournament)
    assert len(held) == 30 and set(held.values()) == {1000}

    rng = random.Random(5)
    played = play_round(standing, tournament, rng)
    assert played.status == Round.Status.COMPLETE
    rules = rules_of(tournament)
    level = rules.level(1)
    chips = chips_held(tournament=tournament)
    assert sum(chips.values()) == 30 * 1000  # zero-sum among the players
    by_status = {e.player_id: e.status for e in tournament.entries.all()}
    for player, count in chips.items():
        if count < level.minimum:
            assert by_status[player] == E.ELIMINATED
        else:
            assert by_status[player] == E.ACTIVE
    qualified = {p for p, c in chips.items() if c >= level.qualify}
    between = {p for p, c in chips.items() if level.minimum <= c < level.qualify}
    out = [e for e in tournament.entries.all() if e.status == E.ELIMINATED]
    assert qualified and between and out
    # A player's own line on the public page says what they went out with, in words.
    standing.club.public_standings = True
    standing.club.save(update_fields=["public_standings"])
    public = Client()
    url = f"/p/{standing.club.slug}/tournaments/{tournament.pk}/"
    gone = [e for e in tournament_view(tournament=tournament).entries if e.status == E.ELIMINATED]
    out_with = {e.chips: e for e in gone if e.chips is not None}
    assert out_with
    for count, entry in out_with.items():
        body = public.get(url, {"player": entry.player_id}).content.decode()
        said = f"went out in round {entry.out_in_round} with {count} chip"
        assert said + ("." if count == 1 else "s.") in body
    replay = tournament.round_set.get(number=2)
    assert replay.level == 1 and replay.status == Round.Status.DRAFT  # those between again
    seated = {e for t in replay.draw["tables"] for e in t}
    player_of = dict(tournament.entries.values_list("pk", "player_id"))
    assert {player_of[e] for e in seated} == between

    # A player knocked out buys back in and is seated in the draft.
    rebuyer = out[0]
    entry_rebuy(tournament=tournament, actor=standing.organiser, entry_id=rebuyer.pk)
    rebuyer.refresh_from_db()
    assert rebuyer.status == E.ACTIVE and rebuyer.rebuys == 1
    assert chips_held(tournament=tournament)[rebuyer.player_id] == chips[rebuyer.player_id] + 1000
    replay = tournament.round_set.get(number=2)
    assert rebuyer.pk in {e for t in replay.draw["tables"] for e in t}
    with pytest.raises(Conflict) as refused:  # one rebuy a player, and only for the knocked out
        entry_rebuy(tournament=tournament, actor=standing.organiser, entry_id=rebuyer.pk)
    assert refused.value.code == "rebuy_closed"

    for _ in range(30):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        play_round(standing, tournament, rng)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    rounds = list(tournament.round_set.order_by("number"))
    assert rounds[-1].stage == Round.Stage.FINAL
    assert max(r.level or 0 for r in rounds) >= 2

    # Chips: zero-sum among the players beyond what the purse gave (the stacks and the rebuy).
    assert sum(chips_held(tournament=tournament).values()) == 30 * 1000 + 1000
    purse_chips = Posting.objects.filter(book=tournament.purse, quantity=Quantity.CHIPS)
    assert sum(p.amount for p in purse_chips) == 0
    # Money: the fees and the rebuy in, the prizes and the club's fee out, nothing left.
    assert fees_collected_minor(tournament=tournament) == 30 * 1000 + 500
    pool = 30 * (1000 - 100) + 500
    assert prize_pool_minor(tournament=tournament) == pool
    entries = tournament_view(tournament=tournament).entries
    assert sum(e.prize_won_minor for e in entries) == pool
    money = Posting.objects.filter(book=tournament.purse, quantity=Quantity.MONEY)
    assert sum(p.amount for p in money.filter(account=AccountKind.BOOK)) == 0
    assert sum(p.amount for p in money.filter(account=AccountKind.CLUB)) == 30 * 100
    assert ledger_balanced()
    # Everyone placed; the winner has the most chips of the final table.
    places = {e.player_id: e.place for e in entries}
    assert all(places.values())
    final_players = {player_of[e] for t in rounds[-1].draw["tables"] for e in t}
    final_chips = {p: chips_held(tournament=tournament)[p] for p in final_players}
    best = max(final_chips.values())
    assert all(places[p] == 1 for p, c in final_chips.items() if c == best)


def test_a_rebuy_is_refused_where_the_rules_allow_none(standing):
    tournament = chip_tournament(standing, chip_levels={**REBUYS, "rebuys": 0})
    enter(standing, tournament, roster(standing, 12))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
    play_round(standing, tournament, random.Random(3))
    out = tournament.entries.filter(status=E.ELIMINATED).first()
    assert out is not None
    with pytest.raises(Conflict) as refused:
        entry_rebuy(tournament=tournament, actor=standing.organiser, entry_id=out.pk)
    assert refused.value.code == "rebuy_not_allowed"


def test_a_late_entrant_gets_the_starting_stack(standing):
    tournament = chip_tournament(standing)
    players = roster(standing, 13)
    enter(standing, tournament, players[:12])
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
    enter(standing, tournament, players[12:])
    assert chips_held(tournament=tournament)[players[12].pk] == 1000
    draft = tournament.round_set.get(number=1)
    late = tournament.entries.get(player=players[12])
    assert late.pk in {e for t in draft.draw["tables"] for e in t}


@pytest.mark.parametrize(
    ("levels", "said"),
    [("5/800", "point value/minimum/qualifying chips"), ("5/900/800", "qualify (800)")],
)
def test_the_create_form_refuses_bad_levels_naming_them(standing, levels, said):
    organiser = Client()
    organiser.force_login(standing.organiser)
    before = Tournament.objects.count()
    page = organiser.post("/clubs/home/tournaments/", {
        "name": "Chips", "kind": "chips",
        "preset": RulePreset.objects.get(club=None, key="points").pk, "table_max": 6,
        "table_min": 3, "advance_per_table": 2, "rounds": 0, "cut": 0, "entry_fee": "5",
        "club_fee": "0", "payout": "by_field", "seeding": "random", "late_entry_until_round": 1,
        "levels": levels,
    })  # fmt: skip
    assert page.status_code == 400 and said in page.content.decode()
    assert Tournament.objects.count() == before
