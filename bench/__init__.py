"""Benchmarks, run by ``make bench`` (all) or ``make bench BENCH_ARGS="indian"`` (some).

Each module named in ``BENCHES`` has ``run(quick: bool) -> None`` that prints its figures. Figures
are recorded in docs/performance.md with the command that produced them."""

BENCHES = [
    "indian",
    "rummikub",
    "scoring",
    "standings",
    "ledger",
    "memory",
    "ratings",
    "tournaments",
    "webhooks",
    "pages",
    "live",
]
