"""The code stays in pieces a reader can hold: no module of the apps over 600 lines and no
function over 80. Each limit is shown catching a sample, so a check that stopped matching would
fail here. Migrations are history and are not counted."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "rules", "outbox", "live", "clubs", "webhooks", "ledger", "scoring", "standings",
    "tournaments", "pages", "config",
)  # fmt: skip
MODULE_LINES = 600
FUNCTION_LINES = 80


def too_long(path: str, source: str) -> Iterator[str]:
    """What in one module's source is over the limits, each said with its place and size."""
    lines = source.count("\n") + (not source.endswith("\n") and bool(source))
    if lines > MODULE_LINES:
        yield f"{path}: {lines} lines (at most {MODULE_LINES} a module)"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > FUNCTION_LINES:
                yield (
                    f"{path}:{node.lineno}: {node.name} is {length} lines"
                    f" (at most {FUNCTION_LINES} a function)"
                )


def _modules() -> Iterator[tuple[str, str]]:
    for app in APPS:
        for file in sorted((ROOT / app).rglob("*.py")):
            path = file.relative_to(ROOT).as_posix()
            if "/migrations/" not in path:
                yield path, file.read_text()


def test_no_module_or_function_is_over_its_limit() -> None:
    found = [problem for path, source in _modules() for problem in too_long(path, source)]
    assert not found, "\n".join(found)


def test_a_long_module_is_caught() -> None:
    source = "x = 1\n" * (MODULE_LINES + 1)
    assert list(too_long("scoring/sample.py", source)) == [
        f"scoring/sample.py: {MODULE_LINES + 1} lines (at most {MODULE_LINES} a module)"
    ]


def test_a_long_function_is_caught_and_one_at_the_limit_is_not() -> None:
    body = "    x = 1\n"
    at_limit = "def fits():\n" + body * (FUNCTION_LINES - 1)
    over = "def spills():\n" + body * FUNCTION_LINES
    assert list(too_long("a.py", at_limit)) == []
    assert list(too_long("a.py", over)) == [
        f"a.py:1: spills is {FUNCTION_LINES + 1} lines (at most {FUNCTION_LINES} a function)"
    ]


def test_a_method_counts_as_a_function() -> None:
    source = "class A:\n    def m(self):\n" + "        x = 1\n" * FUNCTION_LINES
    assert [p.split(": ", 1)[1] for p in too_long("a.py", source)] == [
        f"m is {FUNCTION_LINES + 1} lines (at most {FUNCTION_LINES} a function)"
    ]
