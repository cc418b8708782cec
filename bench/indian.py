"""Indian rummy engine: ``python -m bench indian`` (``--quick`` for small samples).

Figures:

1. grouped declarations in-process: ``rules.indian.evaluate.evaluate`` on request objects (parse,
   validate fields and cards, classify, score, build the answer), one core;
2. the same requests through ``manage.py evaluate_hands --input FILE`` in a subprocess, JSON in and
   out, wall clock including the command's start-up (start-up alone is measured too);
3. best arrangement (``best_arrangement``) on 13 ungrouped cards: hands dealt from two decks with
   the wild joker cut from the rest, and hands holding 4 to 8 jokers; mean, p50, p99, max and the
   slowest hand;
4. (full run only) a hunt for slow hands among dense hands (few suits, narrow ranks, jokers);
5. the best arrangement under each house rule (``HouseRules``, and the preset's
   ``pure_sequence_relief``) on the same hands, its p99 against the default's: no option may cost
   more than 1.5 times the default's p99; and the search states it takes against the default's
   (the same on any machine, where a p99 on a shared one moves by a quarter from run to run).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from math import comb
from pathlib import Path
from typing import Any

from rules.indian import (
    CARDS,
    PRINTED_JOKER,
    Card,
    best_arrangement,
    format_cards,
    is_joker,
    score_declaration,
)
from rules.indian.arrangement import search_stats
from rules.indian.cards import EXACT_WILD, FREE_CUT_WILD
from rules.indian.evaluate import evaluate
from rules.indian.preset import DEFAULT_HOUSE_RULES, DEFAULT_PRESET, HouseRules, IndianPreset

REPO = Path(__file__).resolve().parent.parent
DECK: list[Card] = [CARDS[i % 53] for i in range(106)]  # two decks, two printed jokers


def _wild_from_cut(rng: random.Random, rest: list[Card]) -> int:
    cut = rng.choice(rest)
    return 1 if cut.is_printed_joker else int(cut) % 13 + 1


def dealt_hand(rng: random.Random) -> tuple[list[Card], int]:
    """13 cards dealt from two decks; the wild joker is cut from the cards left."""
    order = rng.sample(range(106), 14)
    hand = [DECK[i] for i in order[:13]]
    return hand, _wild_from_cut(rng, [DECK[order[13]]])


def joker_heavy_hand(rng: random.Random) -> tuple[list[Card], int]:
    """13 cards from two decks holding 4 to 8 jokers (printed or of the wild rank), the joker count
    drawn from its dealt distribution restricted to 4..8; the wild rank is uniform."""
    wild = rng.randint(1, 13)
    jokers, naturals = _split_deck(wild)
    count = rng.choices(range(4, 9), weights=_JOKER_WEIGHTS)[0]
    hand = rng.sample(jokers, count) + rng.sample(naturals, 13 - count)
    rng.shuffle(hand)
    return hand, wild


def _split_deck(wild: int) -> tuple[list[Card], list[Card]]:
    return (
        [card for card in DECK if is_joker(card, wild)],
        [card for card in DECK if not is_joker(card, wild)],
    )


# P(k jokers among 13 of 106 cards, 10 of them jokers), k = 4..8
_JOKER_WEIGHTS = [comb(10, k) * comb(96, 13 - k) for k in range(4, 9)]


def valid_declaration(rng: random.Random) -> tuple[list[list[Card]], int]:
    """A random valid declaration: a pure run, another run, then runs or sets."""
    while True:
        wild = rng.randint(1, 13)
        sizes = rng.choice([(3, 3, 3, 4), (4, 3, 3, 3), (4, 4, 5), (3, 5, 5), (3, 3, 4, 3)])
        groups: list[list[Card]] = []
        for index, size in enumerate(sizes):
            kind = "pure" if index == 0 else "run" if index == 1 else rng.choice(["run", "set"])
            if kind == "set":
                rank = rng.randint(1, 13)
                suits = rng.sample(range(4), min(size, 4))
                group = [CARDS[s * 13 + rank - 1] for s in suits]
                group += [PRINTED_JOKER] * (size - len(group))
            else:
                suit, start = rng.randint(0, 3), rng.randint(1, 14 - size + 1)
                group = [CARDS[suit * 13 + (r - 1) % 13] for r in range(start, start + size)]
                if kind == "run" and rng.random() < 0.6:
                    group[rng.randrange(size)] = rng.choice(
                        [PRINTED_JOKER, CARDS[rng.randint(0, 3) * 13 + wild - 1]]
                    )
            groups.append(group)
        cards = [card for group in groups for card in group]
        if max(Counter(cards).values()) > 2:
            continue
        if score_declaration(groups, wild).valid:
            return groups, wild


def random_grouping(rng: random.Random) -> tuple[list[list[Card]], int]:
    """A loser's hand as grouped: 13 dealt cards cut into groups of 1 to 5."""
    hand, wild = dealt_hand(rng)
    groups: list[list[Card]] = []
    while hand:
        size = rng.randint(1, 5)
        groups.append(hand[:size])
        hand = hand[size:]
    return groups, wild


def grouped_requests(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for index in range(count):
        make = valid_declaration if index % 2 == 0 else random_grouping
        groups, wild = make(rng)
        out.append(
            {
                "id": index,
                "game": "indian",
                "wild": str(CARDS[rng.randint(0, 3) * 13 + wild - 1]),
                "groups": [[str(card) for card in group] for group in groups],
            }
        )
    return out


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s"


def bench_grouped_in_process(requests: list[dict[str, Any]]) -> None:
    evaluate(requests[0])
    started = time.perf_counter()
    for request in requests:
        evaluate(request)
    elapsed = time.perf_counter() - started
    print(
        f"   grouped, in-process evaluate(): {len(requests):,} hands in {elapsed:.2f} s = "
        f"{_rate(len(requests), elapsed)} ({elapsed / len(requests) * 1e6:.1f} us/hand)"
    )


def bench_grouped_batch(requests: list[dict[str, Any]]) -> None:
    command = [sys.executable, "manage.py", "evaluate_hands", "--input"]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.jsonl"
        empty.write_text("")
        source = Path(tmp) / "hands.jsonl"
        with source.open("w", encoding="utf-8") as handle:
            for request in requests:
                handle.write(json.dumps(request, separators=(",", ":")) + "\n")
        sink = Path(tmp) / "answers.jsonl"
        started = time.perf_counter()
        subprocess.run([*command, str(empty)], cwd=REPO, env=env, check=True)
        startup = time.perf_counter() - started
        with sink.open("w", encoding="utf-8") as out:
            started = time.perf_counter()
            subprocess.run([*command, str(source)], cwd=REPO, env=env, stdout=out, check=True)
            elapsed = time.perf_counter() - started
        answers = sink.read_text(encoding="utf-8").splitlines()
    if len(answers) != len(requests) or any('"error"' in line for line in answers[:1000]):
        raise SystemExit("the batch command did not answer every hand")
    # Wall clock: on a loaded machine the empty run's start-up can outlast the whole run.
    without = (
        _rate(len(requests), elapsed - startup)
        if elapsed > startup
        else "not measurable (start-up timed longer than the run: the machine is loaded)"
    )
    print(
        f"   grouped, manage.py evaluate_hands: {len(requests):,} lines in {elapsed:.2f} s wall = "
        f"{_rate(len(requests), elapsed)} with start-up ({startup:.2f} s); without it {without}"
    )


def bench_best(label: str, hands: list[tuple[list[Card], int]]) -> tuple[list[Card], int]:
    """Time each hand once; return the slowest hand, chosen by re-timing the 20 slowest single
    runs (a single run's maximum is mostly another process or the garbage collector)."""
    best_arrangement(*hands[0])
    timed = []
    for cards, wild in hands:
        started = time.perf_counter()
        best_arrangement(cards, wild)
        timed.append((time.perf_counter() - started, cards, wild))
    times = sorted(entry[0] for entry in timed)
    count = len(times)
    mean = sum(times) / count
    print(
        f"   best arrangement, {label}: {count:,} hands, mean {mean * 1e3:.3f} ms, "
        f"p50 {times[count // 2] * 1e3:.3f} ms, p99 {times[int(count * 0.99)] * 1e3:.3f} ms, "
        f"max {times[-1] * 1e3:.2f} ms"
    )
    suspects = sorted(timed, key=lambda entry: entry[0])[-20:]
    slowest = max(suspects, key=lambda entry: _remeasure(entry[1], entry[2]))
    return slowest[1], slowest[2]


def _remeasure(cards: list[Card], wild: int, repeat: int = 7) -> float:
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        best_arrangement(cards, wild)
        runs.append(time.perf_counter() - started)
    return sorted(runs)[repeat // 2]


def describe(cards: list[Card], wild: int) -> str:
    stats = search_stats(cards, wild)
    jokers = sum(is_joker(card, wild) for card in cards)
    return (
        f"{format_cards(sorted(cards))} (wild {wild}, {jokers} jokers): "
        f"{_remeasure(cards, wild) * 1e3:.2f} ms median of 7; "
        + ", ".join(f"{key} {value}" for key, value in stats.items())
    )


def dense_hand(rng: random.Random) -> tuple[list[Card], int]:
    """Cards from two or three suits in a band of six ranks, plus 1-4 jokers: many groups."""
    while True:
        wild = rng.randint(1, 13)
        suits = rng.sample(range(4), rng.randint(2, 3))
        band = rng.randint(1, 9)
        pool = [CARDS[s * 13 + r - 1] for s in suits for r in range(band, band + 6)] * 2
        pool = [card for card in pool if not is_joker(card, wild)]
        jokers = [PRINTED_JOKER] * 2 + [CARDS[s * 13 + wild - 1] for s in range(4)] * 2
        count = rng.randint(1, 4)
        if len(pool) < 13 - count:
            continue
        hand = rng.sample(jokers, count) + rng.sample(pool, 13 - count)
        if max(Counter(hand).values()) <= 2:
            return hand, wild


#: Each house rule on its own (and two together), as the bench times them.
OPTIONS: dict[str, tuple[IndianPreset, HouseRules]] = {
    "wild_joker=cut_card": (DEFAULT_PRESET, HouseRules(wild_joker="cut_card")),  # type: ignore[arg-type]
    "wrap_runs": (DEFAULT_PRESET, HouseRules(wrap_runs=True)),
    "joker_limit=one_in_three": (DEFAULT_PRESET, HouseRules(joker_limit="one_in_three")),  # type: ignore[arg-type]
    "joker_limit=not_with_one_natural": (
        DEFAULT_PRESET,
        HouseRules(joker_limit="not_with_one_natural"),  # type: ignore[arg-type]
    ),
    "joker_limit_scope=sequences": (
        DEFAULT_PRESET,
        HouseRules(joker_limit="not_with_one_natural", joker_limit_scope="sequences"),  # type: ignore[arg-type]
    ),
    "jokers_only_set=false": (DEFAULT_PRESET, HouseRules(jokers_only_set=False)),
    "sets_up_to_four": (DEFAULT_PRESET, HouseRules(sets_up_to_four=True)),
    "valid_groups_excused": (DEFAULT_PRESET, HouseRules(valid_groups_excused=True)),
    "all_sets_declaration": (DEFAULT_PRESET, HouseRules(all_sets_declaration=True)),
    "jokers_only_sequence": (DEFAULT_PRESET, HouseRules(jokers_only_sequence=True)),
    "ace_points=1": (DEFAULT_PRESET, HouseRules(ace_points=1)),
    "declaration=pure_sequence": (DEFAULT_PRESET, HouseRules(declaration="pure_sequence")),  # type: ignore[arg-type]
    "declaration=min_groups(4)": (
        DEFAULT_PRESET,
        HouseRules(declaration="min_groups", min_groups=4),  # type: ignore[arg-type]
    ),
    "pure_sequence_relief": (IndianPreset(pure_sequence_relief=True), DEFAULT_HOUSE_RULES),
    "wrap_runs+cut_card": (DEFAULT_PRESET, HouseRules(wrap_runs=True, wild_joker="cut_card")),  # type: ignore[arg-type]
    "wild_joker=rank_cut_card_free": (
        DEFAULT_PRESET,
        HouseRules(wild_joker="rank_cut_card_free"),  # type: ignore[arg-type]
    ),
}
#: mazimez/card-games-utils' preset (tests/rules/cases/peers/mazimez.jsonl) without the free cut
#: card: the bench times what the free cut card adds to it.
MAZIMEZ = HouseRules(
    wrap_runs=True,
    ace_points=1,
    sets_up_to_four=True,
    jokers_only_set=False,
    joker_limit="not_with_one_natural",  # type: ignore[arg-type]
    joker_limit_scope="sequences",  # type: ignore[arg-type]
)


def _p99(hands: list[tuple[list[Card], int]], preset: IndianPreset, house: HouseRules) -> float:
    """The p99 of one hand's best arrangement in CPU time (the process's own, so that other
    processes on a shared machine do not decide which option looks slower)."""
    best_arrangement(hands[0][0], hands[0][1], preset, house)
    times = []
    for cards, wild in hands:
        started = time.process_time()
        best_arrangement(cards, wild, preset, house)
        times.append(time.process_time() - started)
    times.sort()
    return times[int(len(times) * 0.99)]


def _states(hands: list[tuple[list[Card], int]], preset: IndianPreset, house: HouseRules) -> int:
    """The search states the best arrangements of ``hands`` take: the work, counted the same
    whatever else the machine runs."""
    return sum(search_stats(cards, wild, preset, house).get("states", 0) for cards, wild in hands)


def _exact_wild(cards: list[Card], wild: int) -> int:
    """The cut card for the cut-card-only rule: the wild rank in hearts (so one suit's cards of
    that rank stay wild, the others natural)."""
    return EXACT_WILD + 13 + wild - 1


def _free_wild(wild: int) -> int:
    """The cut card for the free-cut-card rule: the wild rank in hearts (every card of the rank
    wild, the hearts one alone free when unmatched)."""
    return FREE_CUT_WILD + 13 + wild - 1


def bench_options(label: str, hands: list[tuple[list[Card], int]]) -> None:
    """The best arrangement's p99 under each option on the same hands, against the default's
    (measured again just before, so both see the same machine)."""
    default = _p99(hands, DEFAULT_PRESET, DEFAULT_HOUSE_RULES)
    states = _states(hands, DEFAULT_PRESET, DEFAULT_HOUSE_RULES)
    print(f"   house rules, {label}: default p99 {default * 1e3:.3f} ms CPU, {states:,} states")
    worst = 0.0
    for name, (preset, house) in OPTIONS.items():
        cases = hands
        if house.cut_card_only:
            cases = [(cards, _exact_wild(cards, wild)) for cards, wild in hands]
        elif house.cut_card_free:
            cases = [(cards, _free_wild(wild)) for cards, wild in hands]
        p99 = _p99(cases, preset, house)
        worst = max(worst, p99 / default)
        flag = "" if p99 <= 1.5 * default else "  OVER 1.5x"
        work = _states(cases, preset, house) / states
        print(
            f"     {name}: p99 {p99 * 1e3:.3f} ms CPU = {p99 / default:.2f}x{flag};"
            f" states {work:.2f}x"
        )
    print(f"     worst option: {worst:.2f}x the default's p99 (limit 1.5x)")
    base = _p99(hands, DEFAULT_PRESET, MAZIMEZ)
    free = dataclasses.replace(MAZIMEZ, wild_joker="rank_cut_card_free")
    p99 = _p99([(cards, _free_wild(wild)) for cards, wild in hands], DEFAULT_PRESET, free)
    print(
        f"     mazimez's preset: p99 {base * 1e3:.3f} ms CPU with every card of the rank free, "
        f"{p99 * 1e3:.3f} ms with the cut card alone free = {p99 / base:.2f}x"
    )


def run(quick: bool) -> None:
    grouped = 10_000 if quick else 100_000
    best = 500 if quick else 10_000
    print(f"   load average before: {os.getloadavg()[0]:.2f}")
    requests = grouped_requests(grouped, seed=1)
    bench_grouped_in_process(requests)
    bench_grouped_batch(requests)
    del requests  # 100,000 live request objects make every full garbage collection slow
    gc.collect()

    rng = random.Random(2)
    dealt = [dealt_hand(rng) for _ in range(best)]
    heavy = [joker_heavy_hand(rng) for _ in range(best)]
    counts = Counter(sum(is_joker(card, wild) for card in cards) for cards, wild in heavy)
    slow_dealt = bench_best("dealt from two decks", dealt)
    slow_heavy = bench_best(
        "4-8 jokers (" + ", ".join(f"{k}: {counts[k]}" for k in sorted(counts)) + ")", heavy
    )
    print("   slowest dealt hand: " + describe(*slow_dealt))
    print("   slowest 4-8 joker hand: " + describe(*slow_heavy))
    bench_options("dealt from two decks", dealt)
    bench_options("4-8 jokers", heavy)
    if not quick:
        hunt = [dense_hand(rng) for _ in range(5_000)]
        slow_dense = bench_best("dense hunt (2-3 suits, 6 ranks, 1-4 jokers)", hunt)
        print("   slowest dense hand: " + describe(*slow_dense))
    print(f"   load average after: {os.getloadavg()[0]:.2f}")
