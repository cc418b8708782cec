"""Properties of the ledger over random valid deals (2 to 6 players)."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Player
from ledger.models import LedgerEntry, Posting
from rules.money import FeePolicy
from scoring import figures
from scoring.club_settings import preset_create
from scoring.deals import submission_create
from scoring.games import game_create, table_create
from scoring.models import RulePreset, Submission
from scoring.nights import session_create
from tests.scoring.helpers import enter_deal

FIXED = {"first_drop": 20, "middle_drop": 40, "missed_turns": 40, "wrong_show": 80,
         "late_declare": 80, "valid_not_declared": 2}  # fmt: skip


@st.composite
def deal_lines(draw, players: int):
    winner = draw(st.integers(0, players - 1))
    lines = []
    for seat in range(players):
        if seat == winner:
            lines.append({"outcome": "winner"})
            continue
        outcome = draw(st.sampled_from(["loser", "deal_show", *FIXED]))
        if outcome == "loser":
            lines.append({"outcome": "loser", "points": draw(st.integers(0, 80))})
        elif outcome == "deal_show":
            lines.append({"outcome": "deal_show", "points": draw(st.integers(2, 40))})
        else:
            lines.append({"outcome": outcome})
    return lines


@st.composite
def nights(draw):
    players = draw(st.integers(2, 6))
    deals = draw(st.lists(deal_lines(players), min_size=1, max_size=6))
    point_value = draw(st.sampled_from([0, 25, 100, 400]))
    fee = draw(
        st.sampled_from([None, {"kind": "percent", "percent": "10"}, {"kind": "percent",
                         "percent": "2.5"}, {"kind": "flat", "flat_minor": 500}])
    )  # fmt: skip
    corrections = draw(st.lists(st.integers(0, len(deals) - 1), max_size=2))
    return players, deals, point_value, fee, corrections


def expected_points(lines: list[dict]) -> dict[int, int]:
    points = {}
    for seat, line in enumerate(lines):
        if line["outcome"] == "winner":
            points[seat] = 0
        else:
            points[seat] = line.get("points", FIXED.get(line["outcome"], 0))
    return points


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(night=nights())
def test_random_nights_balance_and_settle(standing, night):
    players_count, deals, point_value, fee, corrections = night
    club = standing.club
    roster = [
        Player.objects.get_or_create(club=club, name=f"P{seat}")[0] for seat in range(players_count)
    ]
    preset = RulePreset.objects.get(club=None, key="points")
    if fee:
        preset = preset_create(
            club=club, actor=standing.owner, key="fee", name="Fee", format="points",
            variant="indian", params={"fee": fee},
        )  # fmt: skip
    session = session_create(club=club, actor=standing.owner, name="Random night")
    table = table_create(session=session, actor=standing.owner)
    game = game_create(
        table=table, actor=standing.owner, preset=preset, players=roster,
        point_value_minor=point_value,
    )  # fmt: skip
    counted: dict[int, list[dict]] = {}
    deal_ids = []
    for number, lines in enumerate(deals):
        payload = {"results": [{"player": roster[i].pk, **line} for i, line in enumerate(lines)]}
        deal, _ = enter_deal(game, standing.scorer, payload)
        deal_ids.append(deal.pk)
        counted[number] = lines
    for index in corrections:  # a correction: the same deal with the winner's neighbour winning
        lines = [dict(line) for line in deals[index]]
        winner = next(i for i, line in enumerate(lines) if line["outcome"] == "winner")
        lines[winner] = {"outcome": "loser", "points": 7}
        lines[(winner + 1) % players_count] = {"outcome": "winner"}
        payload = {"results": [{"player": roster[i].pk, **line} for i, line in enumerate(lines)]}
        with TestCase.captureOnCommitCallbacks(execute=True):
            from scoring.models import Deal

            submission_create(
                deal=Deal.objects.get(pk=deal_ids[index]), actor=standing.scorer, source="api",
                payload=payload,
            )  # fmt: skip
        counted[index] = lines

    assert (
        not Submission.objects.filter(deal__game=game)
        .exclude(status__in=["accepted", "superseded"])
        .exists()
    )

    # Every entry sums to zero per quantity.
    for entry in LedgerEntry.objects.filter(book__game=game).prefetch_related("postings"):
        totals: dict[str, int] = defaultdict(int)
        for posting in entry.postings.all():
            totals[posting.quantity] += posting.amount
        assert all(total == 0 for total in totals.values()), (entry.kind, dict(totals))

    # The scoreboard equals a recomputation from the deals as counted.
    policy = FeePolicy.no_fee()
    if fee and fee["kind"] == "percent":
        policy = FeePolicy.percentage(Decimal(fee["percent"]))
    elif fee:
        policy = FeePolicy.flat(fee["flat_minor"])
    points = defaultdict(int)
    money = defaultdict(int)
    club_money = 0
    for lines in counted.values():
        deal_points = expected_points(lines)
        total = sum(deal_points.values())
        winner = next(i for i, line in enumerate(lines) if line["outcome"] == "winner")
        fee_minor = policy.fee_minor(total * point_value) if point_value else 0
        for seat, value in deal_points.items():
            points[seat] += total if seat == winner else -value
            if point_value:
                money[seat] += (
                    total * point_value - fee_minor if seat == winner else -value * point_value
                )
        club_money += fee_minor
    board = figures.session_scoreboard(session=session)
    by_player = {line.player_id: line for line in board.lines}
    for seat, player in enumerate(roster):
        line = by_player.get(player.pk)
        assert (line.points_by_format.get("points", 0) if line else 0) == points[seat]
        assert (line.money_minor if line else 0) == money[seat]
        assert line is None or line.deals_played == len(deals)
    assert board.club_money_minor == club_money

    # Settle-up: the transfers settle everyone exactly, in at most parties - 1 transfers.
    transfers = figures.session_settlement(session=session, scoreboard=board)
    balance = {line.name: line.money_minor for line in board.lines}
    balance[f"{club.name} (club)"] = board.club_money_minor
    for transfer in transfers:
        assert transfer.amount_minor > 0
        balance[transfer.payer] += transfer.amount_minor
        balance[transfer.payee] -= transfer.amount_minor
    assert all(value == 0 for value in balance.values())
    parties = sum(1 for line in board.lines if line.money_minor) + (1 if club_money else 0)
    assert len(transfers) <= max(parties - 1, 0)
    any_money = bool(point_value) and any(
        sum(expected_points(lines).values()) for lines in counted.values()
    )
    assert Posting.objects.filter(book__game=game, quantity="money").exists() == any_money
