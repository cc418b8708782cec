"""Benchmarks, run by ``make bench`` (all) or ``make bench BENCH_ARGS="indian"`` (some).

Each module named in ``BENCHES`` has ``run(quick: bool) -> None`` that prints its figures (one
that takes options of its own, such as ``room --minutes 3``, has ``run(quick, extra)``). Figures
are recorded in docs/performance.md with the command that produced them."""

BENCHES = [
    "indian",
    "rummikub",
    "okey",
    "scoring",
    "standings",
    "ledger",
    "memory",
    "ratings",
    "tournaments",
    "webhooks",
    "pages",
    "live",
    "app_stream",
    "paper",
    "room",
    "imports",
    "federation",
]
