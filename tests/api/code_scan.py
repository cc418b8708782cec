"""Every error and reason code the project's source can answer, found by reading it: the code
literals in the places a code is given (``code=...``, a ``default_code``, the first argument of
``RuleViolation``, a reason's code, the middleware's and the handler's tables of codes, ...)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ["clubs", "config", "ledger", "live", "outbox", "pages", "rules", "scoring", "standings",
        "tournaments", "webhooks", "reports", "series", "federation"]  # fmt: skip
_CODE = re.compile(r"^[a-z][a-z0-9_]*$")
# A call and the place of the code among its positional arguments.
_POSITIONAL = {"RuleViolation": 0, "Reason": 1, "error_body": 0, "_api_error": 1, "_error": 1}
# Names that hold a code, wherever a literal is given to or compared with them.
_HOLDERS = {"code", "why", "default_code"}


def _literals(node: ast.AST | None) -> list[str]:
    """The code-like string constants in ``node`` (both arms of ``a if c else b``)."""
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    if isinstance(node, ast.Dict):
        return [code for value in node.values for code in _literals(value)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if _CODE.match(node.value) else []
    return []


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _in_call(node: ast.Call) -> list[str]:
    found = [c for kw in node.keywords if kw.arg == "code" for c in _literals(kw.value)]
    name = _name(node.func)
    receiver = _name(node.func.value) if isinstance(node.func, ast.Attribute) else None
    if name == "append" and receiver == "blockers" and node.args:
        # (code, message) of what stops a merge
        first = node.args[0]
        found += _literals(first.elts[0]) if isinstance(first, ast.Tuple) else []
    elif name == "add" and receiver == "refusals" and len(node.args) > 1:
        found += _literals(node.args[1])
    elif name in _POSITIONAL and len(node.args) > _POSITIONAL[name]:
        found += _literals(node.args[_POSITIONAL[name]])
    return found


def _in_node(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Call):
        return _in_call(node)
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = {_name(target) for target in targets}
        if names & (_HOLDERS | {"_CODES"}):
            return _literals(node.value)
    if isinstance(node, ast.Compare) and _name(node.left) in _HOLDERS:
        return [c for right in node.comparators for c in _literals(right)]
    if isinstance(node, ast.arguments):
        named = [*node.posonlyargs, *node.args]
        defaults = dict(zip([a.arg for a in named[len(named) - len(node.defaults):]],
                            node.defaults, strict=True))  # fmt: skip
        defaults |= {a.arg: d for a, d in zip(node.kwonlyargs, node.kw_defaults, strict=True)}
        return _literals(defaults.get("code"))
    if isinstance(node, ast.FunctionDef) and node.name.endswith("_problem"):
        # (code, message, details), as a rule's problem is told
        return [
            sub.value.elts[0].value
            for sub in ast.walk(node)
            if isinstance(sub, ast.Return) and isinstance(sub.value, ast.Tuple)
            and isinstance(sub.value.elts[0], ast.Constant)
        ]  # fmt: skip
    return []


def codes_in_source() -> dict[str, list[str]]:
    """Each code found, with where (``path:line``)."""
    found: dict[str, list[str]] = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                for code in _in_node(node):
                    where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
                    found.setdefault(code, []).append(where)
    return found
