"""Seating players at tables, round after round, so that they meet as few times again as can be.

Pure: players are any hashable keys, given best seed first. For each round:

1. **Sizes.** ``tables = ceil(players / table_max)``, sizes differing by at most one; when a table
   would fall below ``table_min`` the top seeds sit the round out (byes), as few as make it fit.
2. **Spread.** Seeds are dealt to the tables in a snake (1, 2, 3, 3, 2, 1, ...), so the strong
   players are spread.
3. **Search.** Swaps of two players at different tables, kept while they lower the cost, which
   is, in this order of importance: repeat meetings (each pair's meetings so far, squared, and a
   stronger penalty for a pair that met in the round before), pairs of the same club when asked,
   then seat-position balance (who sits first at a table, set after the tables are fixed). When
   no swap helps, random kicks from the best state found, within a budget of tries.

Where a known construction seats everyone with nobody meeting twice (the affine plane of order q
for q² players at tables of q, up to q + 1 rounds, q a prime power up to 9; rows, columns and a
Latin square for t² players at tables of t, up to 3 rounds), with no history or clubs to honour,
it is used. Deterministic for a given ``seed``."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

from rules.errors import RuleViolation

K = TypeVar("K", bound=Hashable)

#: The weight of one more meeting of a pair over one same-club pair: repeats always come first.
REPEAT_WEIGHT = 1_000_000
#: A pair that met in the round before weighs this much more (in repeat units).
BACK_TO_BACK = 3
#: Annealing tries per round when the swaps leave repeats: per player, and at most.
ANNEAL_PER_PLAYER = 400
ANNEAL_MAX = 40_000
#: The most players a table seats, and the fewest, anywhere.
TABLE_LIMITS = (2, 6)


@dataclass(frozen=True)
class SeatingPlan(Generic[K]):
    """The tables of each round (players in seat order) and who sat each round out; the repeat
    meetings left (over the history and the plan: every meeting of a pair past its first) and the
    same-club pairs seated together (in the plan)."""

    rounds: tuple[tuple[tuple[K, ...], ...], ...]
    byes: tuple[tuple[K, ...], ...]
    repeat_pairs: int
    same_club_pairs: int


def table_sizes(players: int, table_max: int, table_min: int = 2) -> tuple[list[int], int]:
    """The sizes of a round's tables (largest first, differing by at most one) and the number of
    byes needed so that no table falls below ``table_min``."""
    _check_limits(players, table_max, table_min)
    for byes in range(players):
        seated = players - byes
        tables = math.ceil(seated / table_max)
        if seated // tables >= table_min:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra), byes
    raise RuleViolation("too_few_players", "not enough players for one table")  # pragma: no cover


def _check_limits(players: int, table_max: int, table_min: int) -> None:
    low, high = TABLE_LIMITS
    if type(table_max) is not int or not low <= table_max <= high:
        raise RuleViolation(
            "bad_table_size", f"table_max must be {low} to {high}, not {table_max!r}"
        )
    if type(table_min) is not int or not low <= table_min <= table_max:
        raise RuleViolation(
            "bad_table_size",
            f"table_min must be {low} to table_max ({table_max}), not {table_min!r}",
        )
    if type(players) is not int or players < table_min:
        raise RuleViolation(
            "too_few_players",
            f"{players} player(s) cannot fill a table of at least {table_min}",
        )


def _snake(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Deal players (best first) to the tables in a snake, each table up to its size."""
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    index = 0
    while index < len(order):
        sweep = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for table in sweep:
            if index < len(order) and len(tables[table]) < sizes[table]:
                tables[table].append(order[index])
                index += 1
        forward = not forward
    return tables


class _Round:
    """One round's tables under search, with each player's conflict weight toward each table
    kept up to date (sparse: only pairs with a weight)."""

    def __init__(self, tables: list[list[int]], weights: dict[int, dict[int, int]]) -> None:
        self.tables = tables
        self.weights = weights
        self.table_of = {p: t for t, members in enumerate(tables) for p in members}
        self.toward: dict[int, Counter[int]] = {p: Counter() for p in self.table_of}
        for p in self.table_of:
            for q, w in weights.get(p, {}).items():
                if q in self.table_of:
                    self.toward[p][self.table_of[q]] += w

    def own(self, p: int) -> int:
        return self.toward[p][self.table_of[p]]

    def cost(self) -> int:
        return sum(self.own(p) for p in self.table_of) // 2

    def swap_delta(self, p: int, q: int) -> int:
        a, b = self.table_of[p], self.table_of[q]
        w = self.weights.get(p, {}).get(q, 0)
        return (
            (self.toward[p][b] - w)
            - self.toward[p][a]
            + (self.toward[q][a] - w)
            - self.toward[q][b]
        )

    def swap(self, p: int, q: int) -> None:
        a, b = self.table_of[p], self.table_of[q]
        ta, tb = self.tables[a], self.tables[b]
        ta[ta.index(p)] = q
        tb[tb.index(q)] = p
        self.table_of[p], self.table_of[q] = b, a
        for r, w in self.weights.get(p, {}).items():
            if r in self.toward:
                self.toward[r][a] -= w
                self.toward[r][b] += w
        for r, w in self.weights.get(q, {}).items():
            if r in self.toward:
                self.toward[r][b] -= w
                self.toward[r][a] += w

    def improve(self, rng: random.Random) -> bool:
        """One pass of best swaps for the players in conflict; whether anything improved."""
        improved = False
        conflicted = [p for p in self.table_of if self.own(p) > 0]
        rng.shuffle(conflicted)
        for p in conflicted:
            if self.own(p) <= 0:
                continue
            best, best_delta = None, 0
            a = self.table_of[p]
            for b, members in enumerate(self.tables):
                if b == a or self.toward[p][b] >= self.toward[p][a]:
                    continue  # p would gain nothing there
                for q in members:
                    delta = self.swap_delta(p, q)
                    if delta < best_delta:
                        best, best_delta = q, delta
            if best is not None:
                self.swap(p, best)
                improved = True
        return improved

    def snapshot(self) -> list[list[int]]:
        return [list(members) for members in self.tables]


def _search(
    tables: list[list[int]], weights: dict[int, dict[int, int]], rng: random.Random
) -> tuple[list[list[int]], int]:
    """The lowest-cost tables found from the snake: improving passes, then, while repeats
    remain, simulated annealing over random swaps from there (a budget of tries that grows
    with the number of players), keeping the best state seen."""
    state = _Round(tables, weights)
    while state.improve(rng):
        pass
    best, best_cost = state.snapshot(), state.cost()
    if best_cost == 0 or len(state.tables) < 2:
        return best, best_cost
    players = list(state.table_of)
    tries = min(ANNEAL_MAX, ANNEAL_PER_PLAYER * len(players))
    cost = best_cost
    start = float(2 * REPEAT_WEIGHT)  # about one repeat: worse moves are taken early on
    for step in range(tries):
        temperature = start * (1 - step / tries) + 1
        p, q = rng.choice(players), rng.choice(players)
        if state.table_of[p] == state.table_of[q]:
            continue
        delta = state.swap_delta(p, q)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            state.swap(p, q)
            cost += delta
            if cost < best_cost:
                best, best_cost = state.snapshot(), cost
                if best_cost == 0:
                    break
    return best, best_cost


def _order_seats(
    tables: list[list[int]], seat_counts: dict[int, Counter[int]], rng: random.Random
) -> list[list[int]]:
    """Seat order at each table: each seat in turn to the player who sat there least."""
    ordered = []
    for members in tables:
        left = list(members)
        rng.shuffle(left)
        seats: list[int] = []
        for position in range(len(members)):
            chosen = min(left, key=lambda p: seat_counts[p][position])
            left.remove(chosen)
            seats.append(chosen)
        for position, p in enumerate(seats):
            seat_counts[p][position] += 1
        ordered.append(seats)
    return ordered


# --- known constructions -------------------------------------------------------------------------

_GF4_ADD = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]]
_GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
_GF8_MUL_MOD = 0b1011  # x^3 + x + 1
_GF9 = 9


def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of the field of order q (q prime, or 4, 8, 9)."""
    if q in (2, 3, 5, 7):
        return (
            [[(a + b) % q for b in range(q)] for a in range(q)],
            [[(a * b) % q for b in range(q)] for a in range(q)],
        )
    if q == 4:
        return _GF4_ADD, _GF4_MUL
    if q == 8:

        def mul(a: int, b: int) -> int:
            result = 0
            while b:
                if b & 1:
                    result ^= a
                b >>= 1
                a <<= 1
                if a & 0b1000:
                    a ^= _GF8_MUL_MOD
            return result

        return [[a ^ b for b in range(8)] for a in range(8)], [
            [mul(a, b) for b in range(8)] for a in range(8)
        ]
    if q == _GF9:  # GF(3)[i], i^2 = -1: element a + 3b

        def split(x: int) -> tuple[int, int]:
            return x % 3, x // 3

        def add(x: int, y: int) -> int:
            (a, b), (c, d) = split(x), split(y)
            return (a + c) % 3 + 3 * ((b + d) % 3)

        def mul9(x: int, y: int) -> int:
            (a, b), (c, d) = split(x), split(y)
            return (a * c - b * d) % 3 + 3 * ((a * d + b * c) % 3)

        return [[add(x, y) for y in range(9)] for x in range(9)], [
            [mul9(x, y) for y in range(9)] for x in range(9)
        ]
    return None


def _construction(players: int, size: int, rounds: int) -> list[list[list[int]]] | None:
    """Tables of every round with nobody meeting twice, when a construction is known."""
    if players != size * size:
        return None
    field = _field(size)
    if field is not None and rounds <= size + 1:
        add, mul = field
        point = {(x, y): x * size + y for x in range(size) for y in range(size)}
        plan = [[[point[(c, y)] for y in range(size)] for c in range(size)]]  # x = c
        for slope in range(size):  # y = slope * x + b
            plan.append(
                [[point[(x, add[mul[slope][x]][b])] for x in range(size)] for b in range(size)]
            )
        return plan[:rounds]
    if rounds <= 3:  # rows, columns, and the cyclic Latin square (i + j) mod size
        rows = [[i * size + j for j in range(size)] for i in range(size)]
        columns = [[i * size + j for i in range(size)] for j in range(size)]
        latin = [[i * size + (s - i) % size for i in range(size)] for s in range(size)]
        return [rows, columns, latin][:rounds]
    return None


# --- the plan ------------------------------------------------------------------------------------


#: Whole plans tried, from different random streams, when the first leaves repeats (then as
#: many again with their rounds searched together).
ATTEMPTS = 6
#: Passes over a plan's rounds, each searched again against all the others, at most.
REFINE_SWEEPS = 4


def plan_seating(
    players: Sequence[K],
    *,
    table_max: int,
    table_min: int = 2,
    rounds: int = 1,
    seed: int = 0,
    history: Sequence[Sequence[K]] = (),
    clubs: Mapping[K, str] | None = None,
    avoid_same_club: bool = False,
) -> SeatingPlan[K]:
    """Seat ``players`` (best seed first) for ``rounds`` rounds. ``history`` lists past tables
    (their pairs count as having met; the last table given counts as the round before);
    ``clubs`` maps players to clubs, and with ``avoid_same_club`` same-club pairs are kept apart
    where the repeats allow. When a plan leaves repeats, a few more are tried from other random
    streams of the same seed, and the best kept."""
    people = list(players)
    if len(set(people)) != len(people):
        twice = next(p for p in people if people.count(p) > 1)
        raise RuleViolation("duplicate_player", f"player {twice!r} is listed twice", str(twice))
    if type(rounds) is not int or rounds < 1:
        raise RuleViolation("bad_rounds", f"rounds must be a whole number >= 1, not {rounds!r}")
    sizes, byes = table_sizes(len(people), table_max, table_min)
    index = {p: i for i, p in enumerate(people)}
    past = [sorted(index[p] for p in table if p in index) for table in history]
    club_of = {index[p]: c for p, c in (clubs or {}).items() if p in index}
    constructed = None
    if not history and not (avoid_same_club and club_of) and not byes:
        constructed = _construction(len(people), table_max, rounds)
    best: _Plan | None = None
    # Plans seated round after round first; only when none is free of repeats and same-club
    # pairs are they tried again with their rounds searched together (slower, and rarely needed).
    tries = [(a, False) for a in range(ATTEMPTS)] + [(a, True) for a in range(ATTEMPTS)]
    for attempt, together in tries[: 1 if constructed is not None else len(tries)]:
        if together and rounds < 2:
            break
        rng = random.Random(seed * 1_000_003 + attempt)
        found = _plan_once(
            len(people), sizes, byes, rounds, past, club_of, avoid_same_club, constructed, rng,
            together=together,
        )  # fmt: skip
        if best is None or found.score < best.score:
            best = found
        if best.score == (0, 0):
            break
    assert best is not None
    return SeatingPlan(
        rounds=tuple(
            tuple(tuple(people[i] for i in table) for table in tables) for tables in best.rounds
        ),
        byes=tuple(tuple(people[i] for i in out) for out in best.byes),
        repeat_pairs=best.score[0],
        same_club_pairs=best.score[1],
    )


@dataclass
class _Plan:
    rounds: list[list[list[int]]]
    byes: list[list[int]]
    score: tuple[int, int]  # (repeat meetings, same-club pairs)


def _plan_once(
    count: int,
    sizes: list[int],
    byes: int,
    rounds: int,
    past: list[list[int]],
    club_of: dict[int, str],
    avoid_same_club: bool,
    constructed: list[list[list[int]]] | None,
    rng: random.Random,
    *,
    together: bool,
) -> _Plan:
    meetings: Counter[tuple[int, int]] = Counter()
    for table in past:
        meetings.update(combinations(table, 2))
    last: set[tuple[int, int]] = set(combinations(past[-1], 2)) if past else set()
    seat_counts: dict[int, Counter[int]] = {i: Counter() for i in range(count)}
    bye_counts: Counter[int] = Counter()
    plan: list[list[list[int]]] = []
    sat_out: list[list[int]] = []
    for number in range(rounds):
        # When some must sit out, the top seeds do, the ones who sat out least first.
        out = sorted(range(count), key=lambda i: (bye_counts[i], i))[:byes]
        bye_counts.update(out)
        resting = set(out)
        playing = [i for i in range(count) if i not in resting]
        if constructed is not None:
            tables = [list(members) for members in constructed[number]]
        else:
            weights = _weights(playing, meetings, last, club_of if avoid_same_club else {})
            tables, _ = _search(_snake(playing, sizes), weights, rng)
        tables = _order_seats(tables, seat_counts, rng)
        plan.append(tables)
        sat_out.append(sorted(out))
        last = set()
        for members in tables:
            pairs = list(combinations(sorted(members), 2))
            meetings.update(pairs)
            last.update(pairs)
    if together:
        _refine(plan, past, club_of if avoid_same_club else {}, rng)
        seat_counts = {i: Counter() for i in range(count)}  # the seats again, for the new tables
        plan = [_order_seats(tables, seat_counts, rng) for tables in plan]
    meetings = Counter()
    for table in past:
        meetings.update(combinations(table, 2))
    for tables in plan:
        for members in tables:
            meetings.update(combinations(sorted(members), 2))
    repeats = sum(times - 1 for times in meetings.values() if times > 1)
    same_club = sum(
        1
        for tables in plan
        for members in tables
        for a, b in combinations(members, 2)
        if a in club_of and club_of.get(a) == club_of.get(b)
    )
    return _Plan(plan, sat_out, (repeats, same_club))


def _refine(
    plan: list[list[list[int]]],
    past: list[list[int]],
    club_of: Mapping[int, str],
    rng: random.Random,
) -> None:
    """Each round of ``plan`` searched again against every other round (and the history), in
    turn, while that lowers its cost: a round seated early could not see the rounds after it,
    and the last round may find no seating free of repeats and same-club pairs until an earlier
    one moves. A round is only replaced by one that costs no more, so the plan never gets
    worse."""
    for _ in range(REFINE_SWEEPS):
        left = 0
        for number, tables in enumerate(plan):
            meetings: Counter[tuple[int, int]] = Counter()
            for table in past:
                meetings.update(combinations(sorted(table), 2))
            for other, others in enumerate(plan):
                if other != number:
                    for members in others:
                        meetings.update(combinations(sorted(members), 2))
            playing = [p for members in tables for p in members]
            weights = _weights(playing, meetings, set(), club_of)
            before = _Round([list(members) for members in tables], weights).cost()
            if before == 0:
                continue
            found, cost = _search([list(members) for members in tables], weights, rng)
            if cost <= before:  # an equal one too: another round may then find its way
                plan[number] = found
            left += min(cost, before)
        if left == 0:
            break


def _weights(
    playing: Sequence[int],
    meetings: Counter[tuple[int, int]],
    last: set[tuple[int, int]],
    club_of: Mapping[int, str],
) -> dict[int, dict[int, int]]:
    """The cost of seating each pair together this round (only pairs that cost anything): one
    more meeting raises the pair's squared count by 2m + 1, of which the 2m part depends on the
    seating; a pair that met in the round before weighs more; a same-club pair weighs 1."""
    here = set(playing)
    weights: dict[int, dict[int, int]] = {}

    def add(a: int, b: int, w: int) -> None:
        weights.setdefault(a, {})[b] = weights.get(a, {}).get(b, 0) + w
        weights.setdefault(b, {})[a] = weights.get(b, {}).get(a, 0) + w

    for (a, b), count in meetings.items():
        if a in here and b in here:
            add(a, b, REPEAT_WEIGHT * (2 * count + (BACK_TO_BACK if (a, b) in last else 0)))
    if club_of:
        by_club: dict[str, list[int]] = {}
        for p in playing:
            if p in club_of:
                by_club.setdefault(club_of[p], []).append(p)
        for members in by_club.values():
            for a, b in combinations(members, 2):
                add(a, b, 1)
    return weights


# --- the batch contract (manage.py plan_seating) --------------------------------------------------

REQUEST_FIELDS = frozenset(
    {"id", "players", "table_max", "table_min", "rounds", "seed", "history", "clubs",
     "avoid_same_club"}
)  # fmt: skip
MAX_PLAYERS = 10_000
MAX_ROUNDS = 50


def _whole(obj: Mapping[str, object], field: str, default: int | None, low: int, high: int) -> int:
    value = obj.get(field, default)
    if type(value) is not int or not low <= value <= high:
        raise RuleViolation(
            "bad_field", f"{field} must be a whole number from {low} to {high}, not {value!r}",
            field,
        )  # fmt: skip
    return value


def seating_request(obj: object) -> dict[str, object]:
    """One request in, one answer out; never raises for bad input.

    In: ``{"id", "players": N | [ids], "table_max", "table_min"?, "rounds", "seed"?,
    "history"?: [[ids of a past table], ...], "clubs"?: {"<id>": club}, "avoid_same_club"?}``.
    Out: ``{"id", "rounds": [[[ids at a table], ...] per round], "byes": [[ids] per round],
    "repeat_pairs", "same_club_pairs"}`` or ``{"id", "error": {"code", "message", "token"}}``."""
    if not isinstance(obj, Mapping):
        error = RuleViolation("bad_request", "each request must be a JSON object")
        return {"id": None, "error": error.as_dict()}
    ident = obj.get("id")
    try:
        unknown = sorted(set(obj) - REQUEST_FIELDS)
        if unknown:
            raise RuleViolation("bad_field", f"unknown field {unknown[0]!r}", unknown[0])
        raw = obj.get("players")
        if type(raw) is int:
            players: list[object] = list(range(1, _whole(obj, "players", None, 0, MAX_PLAYERS) + 1))
        elif isinstance(raw, list) and all(isinstance(p, str) or type(p) is int for p in raw):
            players = list(raw)
        else:
            raise RuleViolation("bad_field", "players must be a number or a list of ids", "players")
        if len(players) < 2:
            raise RuleViolation("too_few_players", "seating needs two players or more", "players")
        table_max = _whole(obj, "table_max", None, TABLE_LIMITS[0], TABLE_LIMITS[1])
        table_min = _whole(obj, "table_min", 2, TABLE_LIMITS[0], table_max)
        rounds = _whole(obj, "rounds", None, 1, MAX_ROUNDS)
        seed = _whole(obj, "seed", 0, 0, 2**31 - 1)
        history = obj.get("history", [])
        if not isinstance(history, list) or not all(isinstance(t, list) for t in history):
            raise RuleViolation("bad_field", "history must be a list of tables (lists)", "history")
        clubs = obj.get("clubs", {})
        if not isinstance(clubs, dict):
            raise RuleViolation("bad_field", "clubs must be an object: id -> club", "clubs")
        by_text = {str(p): p for p in players}
        club_of = {by_text[k]: str(v) for k, v in clubs.items() if str(k) in by_text}
        avoid = obj.get("avoid_same_club", bool(club_of))
        if not isinstance(avoid, bool):
            raise RuleViolation("bad_field", "avoid_same_club must be true or false")
        plan = plan_seating(
            players, table_max=table_max, table_min=table_min, rounds=rounds, seed=seed,
            history=[[by_text.get(str(p), p) for p in t] for t in history], clubs=club_of,
            avoid_same_club=avoid,
        )  # fmt: skip
    except RuleViolation as exc:
        return {"id": ident, "error": exc.as_dict()}
    return {
        "id": ident,
        "rounds": [[list(table) for table in tables] for tables in plan.rounds],
        "byes": [list(out) for out in plan.byes],
        "repeat_pairs": plan.repeat_pairs,
        "same_club_pairs": plan.same_club_pairs,
    }
