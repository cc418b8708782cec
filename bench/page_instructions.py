"""The pages' cost in instructions, for comparing two trees: run under callgrind by
``python bench/page_instructions.py --tree DIR [--tree DIR ...]``.

Wall-clock times of one page move by ±10% from run to run on a shared machine, more than the
differences a change of layout makes. Callgrind counts the instructions the serving process
executes, which are the same run after run for the same code, data and requests, whatever else the
machine is doing; PostgreSQL's own work (the same queries in both trees) is not counted.

Run as a file (``python bench/page_instructions.py``) it measures trees that do not have it.
For each tree, one process under ``valgrind --tool=callgrind`` imports that tree's code, opens the
pages benchmark's worlds (``python -m bench pages`` loads them first; ``BENCH_REUSE=1`` there keeps
them), readies itself as a serving process, warms every page up, then requests each page
``--requests`` times between two dumps of the counters (callgrind's client requests, through a
small C helper compiled on the fly). Prints, per page and tree, the instructions per request and
the ratio to the first tree (``BENCH_CLUBS=small`` and ``BENCH_PAGES_ONLY`` as in the pages
benchmark narrow the run). With ``--languages en,hi`` each page is counted in each language
(the person's choice, the language cookie) in the same process, the label ending in the
language: one tree and two languages compare a page in Hindi with the same page in English."""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HELPER_C = """
#include <valgrind/callgrind.h>
void bench_zero(void) { CALLGRIND_ZERO_STATS; }
void bench_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
"""
DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_pages"


def _helper(folder: Path) -> Any:
    source, library = folder / "helper.c", folder / "helper.so"
    source.write_text(HELPER_C)
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", library, source], check=True)
    return ctypes.CDLL(str(library))


def measure(tree: Path, requests: int, languages: list[str]) -> None:
    """Inside callgrind: the tree's pages, each between a zero and a dump of the counters."""
    # The tree's code, not this file's folder (whose modules would shadow the apps' names).
    sys.path[0] = str(tree)
    os.chdir(tree)
    from bench.standings import _environment

    os.environ.update(_environment(os.environ.get("BENCH_PAGES_DATABASE_URL", DEFAULT_DB)))
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from bench.pages import _pages, _world
    from config.startup import serving_process_ready

    clubs = os.environ.get("BENCH_CLUBS", "small,big").split(",")
    worlds = {slug: _world(slug, 0, reuse=True) for slug in clubs}
    # ``BENCH_PAGES_ONLY="club home,night page"``: only the pages whose label starts so.
    only = [o.strip() for o in os.environ.get("BENCH_PAGES_ONLY", "").split(",") if o.strip()]
    serving_process_ready(load_pages=True)
    helper = _helper(Path(os.environ["BENCH_HELPER_DIR"]))
    for slug, world in worlds.items():
        for label, (path, signed_in) in _pages(world).items():
            if only and not any(label.startswith(o) for o in only):
                continue
            for language in languages:
                client = Client()
                client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
                if signed_in:
                    client.force_login(world["user"])
                for _ in range(3):
                    assert client.get(path).status_code == 200, (path, slug)
                helper.bench_zero()
                for _ in range(requests):
                    client.get(path)
                suffix = f"|{language}" if len(languages) > 1 else ""
                helper.bench_dump(f"{slug}|{label}{suffix}".encode())


def _totals(folder: Path) -> dict[str, int]:
    """Each dump's label and its total instructions (the ``summary:`` line of its file)."""
    totals = {}
    # Files end in the dump's number (.1, .2, ... .10): read in the order of the dumps.
    parts = sorted(folder.glob("callgrind.out.*.*"), key=lambda part: int(part.suffix[1:]))
    for part in parts:
        text = part.read_text(errors="replace")
        trigger = re.search(r"^desc: Trigger: Client Request: (.+)$", text, re.M)
        summary = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        if trigger and summary:
            totals[trigger.group(1).strip()] = int(summary.group(1))
    return totals


def compare(trees: list[Path], requests: int, languages: str) -> None:
    results: list[dict[str, int]] = []
    for tree in trees:
        with tempfile.TemporaryDirectory() as folder:
            env = dict(os.environ, BENCH_HELPER_DIR=folder)
            command = [
                "valgrind", "--tool=callgrind", "--collect-atstart=yes", "--dump-instr=no",
                f"--callgrind-out-file={folder}/callgrind.out.%p", sys.executable,
                str(Path(__file__).resolve()), "--inside", str(tree), "--requests", str(requests),
                "--languages", languages,
            ]  # fmt: skip
            subprocess.run(command, cwd=tree, env=env, check=True, stderr=subprocess.DEVNULL)
            results.append(_totals(Path(folder)))
    print(f"   instructions per request (millions), {requests} requests a page; trees:")
    for number, tree in enumerate(trees):
        print(f"   [{number}] {tree}")
    print(
        f"   {'club|page':<40} " + " ".join(f"{f'[{n}]':>8}" for n in range(len(trees))), "ratios"
    )
    codes = languages.split(",")
    for label, first in results[0].items():
        counts = [result.get(label, 0) for result in results]
        ratios = " ".join(f"{count / first:.3f}" for count in counts[1:])
        base_label = label.rsplit("|", 1)[0]
        if len(codes) > 1 and not label.endswith(f"|{codes[0]}"):
            # Against the same page in the first language, in the first tree.
            base = results[0].get(f"{base_label}|{codes[0]}", 0)
            ratios += f" vs {codes[0]} {first / base:.3f}" if base else ""
        per_request = " ".join(f"{count / requests / 1e6:>8.2f}" for count in counts)
        print(f"   {label:<40} {per_request} {ratios}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python bench/page_instructions.py")
    parser.add_argument("--tree", action="append", type=Path, default=[])
    parser.add_argument("--inside", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--languages", default="en")
    args = parser.parse_args()
    codes = [code.strip() for code in args.languages.split(",") if code.strip()]
    if args.inside:
        measure(args.inside.resolve(), args.requests, codes)
    else:
        trees = [tree.resolve() for tree in args.tree or [Path.cwd()]]
        compare(trees, args.requests, ",".join(codes))


if __name__ == "__main__":
    main()
