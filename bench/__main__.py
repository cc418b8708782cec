from __future__ import annotations

import argparse
import importlib
import inspect
import sys
import time

from bench import BENCHES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("names", nargs="*", help=f"benchmarks to run (default all): {BENCHES}")
    parser.add_argument("--quick", action="store_true", help="smaller samples, for a smoke run")
    args, extra = parser.parse_known_args(argv)
    names = args.names or BENCHES
    unknown = [name for name in names if name not in BENCHES]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    for name in names:
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        run = importlib.import_module(f"bench.{name}").run
        if extra and "extra" not in inspect.signature(run).parameters:
            parser.error(f"{name} takes no options of its own: {' '.join(extra)}")
        run(quick=args.quick, **({"extra": extra} if extra else {}))
        print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
