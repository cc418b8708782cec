"""Nothing outside a format's package decides by the format: no module compares a game's format,
family or variant with a name, names a ``GameFormat`` member, or keys a table by them; pages and
services ask the game's handler (``scoring.formats.handler_for``). Read from the source (AST), so
a new branch on a format fails here, wherever it is written."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings

from rules.families import Family
from scoring.formats import HANDLERS

ROOT = Path(settings.BASE_DIR)
APPS = ("scoring", "tournaments", "pages", "clubs", "webhooks", "outbox", "config")
#: Where format names belong: the packages themselves, the model's choices and the demo data.
OWNERS = (
    "scoring/formats/",
    "scoring/models.py",
    "scoring/migrations/",
    "scoring/demo.py",
    "tournaments/demo.py",
    "tournaments/migrations/",
)
#: The formats a game is played in (a preset names one of their variants).
FORMATS = {key for key, handler in HANDLERS.items() if handler.variants}
#: Names no other concept of the project shares: a family, a variant, a way of entering deals.
UNAMBIGUOUS = (
    {str(f) for f in Family}
    | {v for handler in HANDLERS.values() for v in handler.variants}
    | {h.entered_as for h in HANDLERS.values() if h.entered_as}
)


def _sources() -> list[Path]:
    files = [p for app in APPS for p in (ROOT / app).rglob("*.py")]
    return [p for p in files if not str(p.relative_to(ROOT)).startswith(OWNERS)]


def _names(node: ast.AST) -> list[str]:
    """The string literals of an expression: itself, or the items of a tuple, list or set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [n for item in node.elts for n in _names(item)]
    return []


def _about_format(node: ast.AST) -> bool:
    """An operand that holds a format: a name or attribute such as ``game.format``,
    ``game_format``, ``handler.format`` (a format's name is also a metric's, a quantity's...)."""
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return "format" in name


def _decisions(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = (node.left, *node.comparators)
            names = FORMATS | UNAMBIGUOUS if any(map(_about_format, sides)) else UNAMBIGUOUS
            for side in sides:
                found += [(node.lineno, n) for n in _names(side) if n in names]
        elif isinstance(node, ast.Dict):
            found += [
                (node.lineno, n)
                for key in node.keys
                if key is not None
                for n in _names(key)
                if n in UNAMBIGUOUS
            ]
        elif isinstance(node, ast.Constant) and node.value in UNAMBIGUOUS:
            found.append((node.lineno, node.value))
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "GameFormat"
            and node.attr.lower() in FORMATS
        ):
            found.append((node.lineno, f"GameFormat.{node.attr}"))
    return found


def test_no_module_outside_the_formats_decides_by_a_format():
    leaks = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in _sources()
        for line, name in sorted(set(_decisions(ast.parse(path.read_text(), str(path)))))
    ]
    assert leaks == []


#: A template's comparison with a name: ``x.format == "pool"``, ``variant != "international"``.
TEMPLATE_BRANCH = re.compile(r"""([\w.]+)\s*(?:==|!=|\bin)\s*["']([a-z_]+)["']""")


def test_no_template_outside_the_formats_branches_on_a_format():
    templates = ROOT / "templates"
    leaks = [
        f"{path.relative_to(templates)}: {match.group(2)}"
        for path in templates.rglob("*.html")
        if "formats" not in path.relative_to(templates).parts
        for match in TEMPLATE_BRANCH.finditer(path.read_text())
        if match.group(2) in UNAMBIGUOUS
        or (match.group(2) in FORMATS and "format" in match.group(1))
    ]
    assert leaks == []
