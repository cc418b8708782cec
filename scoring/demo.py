"""Demo games for ``manage.py load_demo``: a finished points rummy night and one in progress.

Hands are dealt from two real decks with a fixed seed, so the demo is the same every time and
every deal passes the same checks as a real one (the winner's cards are a valid declaration)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.utils import timezone

from clubs.demo import DemoContext
from config.celery import app as celery_app
from rules.indian.arrangement import arrange
from rules.indian.cards import NAMES, parse_cards, parse_groups, parse_wild
from rules.indian.hand import score_groups
from scoring.club_settings import preset_create
from scoring.deals import deal_create, deal_create_with_result
from scoring.formats.pool.moves import pool_rejoin, pool_split
from scoring.games import game_create, game_finish, table_create
from scoring.models import RulePreset
from scoring.nights import session_close, session_create
from scoring.submissions import submission_validate

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@contextmanager
def tasks_in_process() -> Iterator[None]:
    """Run tasks at once while loading the demo, whether or not a worker is running."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = before


def _deck() -> list[str]:
    cards = [rank + suit for suit in SUITS for rank in RANKS] * 2
    return [*cards, "JK", "JK"]


def _take(deck: list[str], card: str) -> bool:
    if card in deck:
        deck.remove(card)
        return True
    return False


def _winning_hand(rng: random.Random, deck: list[str], wild: str) -> list[list[str]] | None:
    """A valid declaration drawn from ``deck``: a pure run of four, a run of three with a joker,
    and two sets of three."""
    wild_rank = wild[:-1] if wild != "JK" else "A"
    jokers = [c for c in deck if c == "JK" or c[:-1] == wild_rank]
    if not jokers:
        return None
    suit_a, suit_b = rng.sample(SUITS, 2)
    start = rng.randint(1, 9)
    pure = [RANKS[start + i] + suit_a for i in range(4)]
    second = rng.randint(1, 10)
    impure = [RANKS[second] + suit_b, RANKS[second + 1] + suit_b, rng.choice(jokers)]
    set_ranks = rng.sample([r for r in RANKS if r != wild_rank], 2)
    sets = [[rank + suit for suit in rng.sample(SUITS, 3)] for rank in set_ranks]
    groups = [pure, impure, *sets]
    trial = list(deck)
    if not all(_take(trial, card) for group in groups for card in group):
        return None
    wild_number = parse_wild(wild)

    if not score_groups(parse_groups(groups), wild_number).valid:
        return None
    deck[:] = trial
    return groups


def _deal_payload(rng: random.Random, seats: list[int]) -> tuple[str, dict[str, Any]]:
    while True:
        deck = _deck()
        rng.shuffle(deck)
        wild = next(card for card in deck if card != "JK" or rng.random() < 0.1)
        deck.remove(wild)
        winner = rng.randrange(len(seats))
        groups = _winning_hand(rng, deck, wild)
        if groups is None:
            continue
        wild_number = parse_wild(wild)
        results = []
        for index, player in enumerate(seats):
            if index == winner:
                results.append({"player": player, "outcome": "winner", "groups": groups})
                continue
            roll = rng.random()
            if roll < 0.15:
                results.append({"player": player, "outcome": "first_drop"})
            elif roll < 0.25:
                results.append({"player": player, "outcome": "middle_drop"})
            else:
                hand = [deck.pop() for _ in range(13)]
                # Jokers can make a random hand valid: that player met the objective.
                valid = arrange(parse_cards(hand), wild_number).valid
                outcome = "valid_not_declared" if valid else "loser"
                results.append({"player": player, "outcome": outcome, "cards": hand})
        return wild, {"results": results}


def _play(game: Any, actor: Any, wild: str, payload: dict[str, Any], source: str) -> None:
    """Enter a deal and validate it now: the demo loads in one transaction, so the tasks sent
    on commit would come too late for closing the night."""
    _, submission = deal_create_with_result(
        game=game, actor=actor, wild=wild, dealer=None, number=None,
        is_tiebreaker=False, source=source, payload=payload,
    )  # fmt: skip
    assert submission is not None
    decided = submission_validate(submission_id=submission.pk)
    if decided.status != "accepted":
        raise RuntimeError(f"demo deal refused: {decided.reasons}")


def demo_points_nights(context: DemoContext) -> None:
    rng = random.Random(20261122)
    club, organiser = context.club, context.organiser
    preset = preset_create(
        club=club,
        actor=context.owner,
        key="house-points",
        name="House points (Rs 1 a point, 5% fee)",
        format="points",
        variant="indian",
        params={"fee": {"kind": "percent", "percent": "5"}, "table": {"point_value_minor": 100}},
    )
    six = context.players[:6]
    with tasks_in_process():
        last_week = session_create(
            club=club,
            actor=organiser,
            name="Friday points night",
            started_at=timezone.now() - timedelta(days=7),
        )
        game = game_create(
            table=table_create(session=last_week, actor=organiser, name="Table 1"),
            actor=organiser,
            preset=preset,
            players=six,
        )
        seats = [player.pk for player in six]
        for _ in range(12):
            wild, payload = _deal_payload(rng, seats)
            _play(game, organiser, wild, payload, "import")
        session_close(session=last_week, actor=organiser)

        tonight = session_create(club=club, actor=organiser, name="Tonight")
        table = table_create(session=tonight, actor=organiser, name="Table 1")
        players = context.players[6:12]
        game = game_create(
            table=table,
            actor=organiser,
            preset=RulePreset.objects.get(club=None, key="points"),
            players=players,
            point_value_minor=200,
        )
        seats = [player.pk for player in players]
        for _ in range(4):
            wild, payload = _deal_payload(rng, seats)
            _play(game, organiser, wild, payload, "web")
        deal_create(game=game, actor=organiser, wild=rng.choice(NAMES[:52]))


def _points_only(players: list[Any], winner: int, points: dict[int, Any]) -> dict[str, Any]:
    lines = []
    for index, player in enumerate(players):
        if index == winner:
            lines.append({"player": player.pk, "outcome": "winner"})
        elif isinstance(points.get(index), str):
            lines.append({"player": player.pk, "outcome": points[index]})
        elif index in points:
            lines.append({"player": player.pk, "outcome": "loser", "against": points[index]})
    return {"results": lines}


def _pool_result(winner: Any, points: dict[Any, Any]) -> dict[str, Any]:
    lines = [{"player": winner.pk, "outcome": "winner"}]
    for player, value in points.items():
        if isinstance(value, str):
            lines.append({"player": player.pk, "outcome": value})
        else:
            lines.append({"player": player.pk, "outcome": "loser", "against": value})
    return {"results": lines}


def count_now(game: Any, actor: Any, payload: dict[str, Any]) -> None:
    _, submission = deal_create_with_result(
        game=game, actor=actor, wild="", dealer=None, number=None,
        is_tiebreaker=False, source="web", payload=payload,
    )  # fmt: skip
    assert submission is not None
    decided = submission_validate(submission_id=submission.pk)
    if decided.status != "accepted":
        raise RuntimeError(f"demo deal refused: {decided.reasons}")


def demo_formats(context: DemoContext) -> None:
    """A pool 101 game with a rejoin and a split, a best-of-3 deals game, a Sabra match and an
    Okey game."""
    club, organiser, roster = context.club, context.organiser, context.players
    with tasks_in_process():
        session = session_create(
            club=club,
            actor=organiser,
            name="Sunday formats",
            started_at=timezone.now() - timedelta(days=2),
        )
        pool_players = roster[:6]
        pool = game_create(
            table=table_create(session=session, actor=organiser, name="Pool table"),
            actor=organiser,
            preset=RulePreset.objects.get(club=None, key="pool-101"),
            players=pool_players,
            entry_fee_minor=10000,
        )
        a, b, c, d, e, f = pool_players
        # Deal by deal: Esther and Farid go out; Farid rejoins; then three remain and split.
        for winner, points in [
            (a, {b: 40, c: 20, d: 60, e: 80, f: 80}),
            (b, {a: 20, c: 40, d: 10, e: 25, f: 30}),
        ]:
            count_now(pool, organiser, _pool_result(winner, points))
        pool_rejoin(game=pool, actor=organiser, player=f)
        for winner, points in [
            (c, {a: 20, b: 10, d: 35, f: "first_drop"}),
            (a, {b: 20, c: 10, f: 25}),
        ]:
            count_now(pool, organiser, _pool_result(winner, points))
        pool_split(game=pool, actor=organiser, kind="drops", agreed=[a, b, c])

        deals_players = roster[6:9]
        deals = game_create(
            table=table_create(session=session, actor=organiser, name="Deals table"),
            actor=organiser,
            preset=RulePreset.objects.get(club=None, key="deals-3"),
            players=deals_players,
            entry_fee_minor=5000,
        )
        for winner, points in [(0, {1: 35, 2: 12}), (1, {0: 80, 2: 22}), (2, {0: 9, 1: 41})]:
            count_now(deals, organiser, _points_only(deals_players, winner, points))

        sabra_players = roster[8:12]
        sabra = game_create(
            table=table_create(session=session, actor=organiser, name="Rummikub"),
            actor=organiser,
            preset=RulePreset.objects.get(club=None, key="sabra"),
            players=sabra_players,
        )
        ids = [str(player.pk) for player in sabra_players]
        for winner, racks in [
            (0, [[], ["R5", "JK"], ["K13", "K12"], ["B1"]]),
            (2, [["O7", "O8"], ["R3"], [], ["B10", "K2", "JK"]]),
            (None, [["R2"], ["B2"], ["K9", "O1"], ["O6"]]),
        ]:
            payload: dict[str, Any] = {
                "racks": dict(zip(ids, racks, strict=True)),
                "winner": int(ids[winner]) if winner is not None else None,
                "last_mover": int(ids[3]),
            }
            count_now(sabra, organiser, payload)
        # The match is over: its players are rated in Rummikub (the points tables' in Indian
        # rummy as their nights close).
        game_finish(game=sabra, actor=organiser)

        _demo_okey(session, organiser, roster[8:12])


def _demo_okey(session: Any, organiser: Any, okey_players: list[Any]) -> None:
    """Okey by loss (docs/rules.md, "Okey"): a finish in melds, one in seven pairs by
    discarding the okey, and a deal nobody finished in which a player showed the indicator's
    twin."""
    okey = game_create(
        table=table_create(session=session, actor=organiser, name="Okey"),
        actor=organiser,
        preset=RulePreset.objects.get(club=None, key="okey"),
        players=okey_players,
    )
    for deal in [
        {"finisher": okey_players[1].pk, "finish": "melds"},
        {"finisher": okey_players[3].pk, "finish": "pairs", "okey_discard": True,
         "indicator_shown": [okey_players[0].pk]},
        {"finisher": None, "indicator_shown": [okey_players[2].pk]},
    ]:  # fmt: skip
        count_now(okey, organiser, {"okey": {"indicator": "R7", **deal}})
    game_finish(game=okey, actor=organiser)
