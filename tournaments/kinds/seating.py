"""A round's tables drawn through ``rules.seating`` (a final at one table, a semi-final by rank,
every other stage seated to meet anew), and the draw's cost: what every kind draws with."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from config.errors import Conflict
from rules.errors import RuleViolation
from rules.seating import plan_seating
from tournaments.models import Round, Tournament
from tournaments.rule_words import violation_words


def _history(tournament: Tournament) -> list[list[int]]:
    """Every table played so far, as entry ids, oldest first."""
    tables = []
    for past in tournament.round_set.exclude(status=Round.Status.DRAFT).order_by("number"):
        tables += [list(table) for table in past.draw.get("tables", [])]
    return tables


def draw_round(tournament: Tournament, number: int, stage: str, players: list[int]) -> Round:
    """Seat ``players`` (entry ids, best seed first) as round ``number``: a draft."""
    affiliations = dict(tournament.entries.filter(pk__in=players).values_list("pk", "affiliation"))
    clubs = {pid: club for pid, club in affiliations.items() if club}
    byes: list[int]
    if stage == Round.Stage.FINAL:
        tables, byes, repeats, same_club = [list(players)], [], 0, 0
    elif stage == Round.Stage.SEMIFINAL:  # by rank, dealt in turn: 1-3-5-7 / 2-4-6-8
        count = -(-len(players) // tournament.table_max)
        tables = [list(players[i::count]) for i in range(count)]
        byes, repeats, same_club = [], 0, 0
    else:
        try:
            plan = plan_seating(
                players, table_max=tournament.table_max, table_min=tournament.table_min,
                rounds=1, seed=tournament.seed + number, history=_history(tournament),
                clubs=clubs, avoid_same_club=tournament.avoid_same_club,
            )  # fmt: skip
        except RuleViolation as exc:
            words = violation_words(
                exc, players=len(players), table_min=tournament.table_min,
                table_max=tournament.table_max,
            )  # fmt: skip
            raise Conflict(words, code=exc.code) from None
        tables = [list(table) for table in plan.rounds[0]]
        byes = list(plan.byes[0])
        repeats, same_club = plan.repeat_pairs, plan.same_club_pairs
    draft = Round.objects.create(
        tournament=tournament, number=number, stage=stage,
        draw={"tables": tables, "byes": byes},
        cost={"repeat_pairs": repeats, "same_club_pairs": same_club},
    )  # fmt: skip
    draft.cost = draw_cost(tournament, draft)
    draft.save(update_fields=["cost"])
    return draft


def draw_cost(tournament: Tournament, draft: Round) -> dict[str, Any]:
    """The draw's repeat meetings (against the rounds played) and same-club pairs, with the
    pairs named."""
    met: dict[frozenset[int], int] = {}
    for table in _history(tournament):
        for pair in combinations(table, 2):
            met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    clubs = dict(tournament.entries.values_list("pk", "affiliation"))
    again, same = [], []
    for table in draft.draw.get("tables", []):
        for a, b in combinations(table, 2):
            if met.get(frozenset((a, b))):
                again.append(sorted((a, b)))
            if clubs.get(a) and clubs.get(a) == clubs.get(b):
                same.append(sorted((a, b)))
    return {
        "repeat_pairs": len(again),
        "same_club_pairs": len(same),
        "again": again,
        "same_club": same,
    }
