"""The architecture, checked on the code's syntax trees (not its text): each game format is decided
only in its own package, and so is each tournament kind; the ledger's postings are read and
written only by the ledger's owners, nothing outside the formats asks which handler or state
class it holds, and a format's own sections of a preset's rules are read only in the formats.

The words a format is known by (its id, family, variants, how its deals are entered) and a
kind's id come from the registries themselves, so a new format or kind is covered by adding it.
Each check is shown to catch a violation on a small sample, so a check that silently stopped
matching would fail here."""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import models

from scoring.formats import HANDLERS
from scoring.models import GameFormat
from tournaments.kinds import KINDS
from tournaments.models import Tournament

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "rules",
    "outbox",
    "clubs",
    "webhooks",
    "ledger",
    "scoring",
    "standings",
    "tournaments",
    "series",
    "federation",
    "archive",
    "pages",
    "config",
)
# The rules engine is where each game's own rules live (a variant is a rules-level word there);
# migrations are history.
NOT_CHECKED = ("rules/",)

#: The modules that may touch ``Posting`` rows directly: the ledger writes them and reads an
#: account's balances, the figures, the ledger's lines (a night's export, a player's history) and
#: the formats' shared reads read them, the standings recompute from them
#: (and read a table's last change), a player merge moves them. Everyone else goes through these.
POSTING_OWNERS = (
    "ledger/",
    "scoring/figures.py",
    "scoring/history.py",
    "standings/recompute.py",
    "standings/last_change.py",
    "scoring/merge.py",
    "scoring/formats/",
)


#: Format ids that are also everyday words of the ledger ("points" a quantity and a metric,
#: "deals" a count): for them only a comparison with a format's attribute counts.
EVERYDAY_WORDS = frozenset({"points", "deals"})
#: Data, not decisions: the demo club names its presets (whose keys are variants' names).
# Data written out: the demo clubs, and the sheet layouts of past results (each names the
# format it imports and its built-in preset).
DATA_MODULES = (
    "scoring/demo.py", "tournaments/demo.py", "clubs/demo.py", "standings/result_sheet.py",
)  # fmt: skip
#: The attributes that say which format, family, variant or entry a value is.
FORMAT_ATTRIBUTES = frozenset({"format", "family", "variant", "entered_as"})


def _format_words() -> dict[str, set[str]]:
    """Each word a format is known by -> the places (path prefixes) that may name it: the
    packages of its handler's classes (a shared base, such as the Indian deal, included) and
    the model, whose columns keep the database's choices and defaults."""
    owners: dict[str, set[str]] = {}
    for handler in HANDLERS.values():
        packages = {
            "/".join(cls.__module__.split(".")[:3]) + "/"
            for cls in type(handler).__mro__
            if cls.__module__.startswith("scoring.formats.")
            and cls.__module__.count(".") >= 3  # a package's module, not base.py beside them
        }
        words = {handler.format, handler.family, handler.entered_as, *handler.variants}
        for word in filter(None, words):
            owners.setdefault(str(word), {"scoring/models.py"}).update(packages)
    return owners


#: The formats' ids ("points", "pool", ...): words of their own elsewhere too.
FORMAT_IDS = frozenset(HANDLERS)


def _names_format(node: ast.AST) -> bool:
    """``x.format``, ``variant``, ``rules.family``: an operand that says which format it is."""
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    return name in FORMAT_ATTRIBUTES


#: The formats' own sections of a preset ("pool", "house_rules", ...), kept in the typed rules.
FORMAT_SECTIONS = frozenset(
    section.name for handler in HANDLERS.values() for section in handler.preset_sections
)


def _names_rules(node: ast.AST) -> bool:
    """``rules`` or ``x.rules``: a preset's typed rules."""
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    return name == "rules"


def _registry_module() -> str:
    return "scoring/formats/__init__.py"


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _constants(node: ast.AST) -> Iterator[str]:
    """The string constants a comparison operand stands for (one, or a tuple/list/set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for element in node.elts:
            yield from _constants(element)


def check_source(path: str, source: str, words: dict[str, set[str]]) -> list[Violation]:
    """The architecture violations in one module's source (``path`` relative to the project)."""
    found: list[Violation] = []
    for node in ast.walk(ast.parse(source)):
        found += _format_violations(path, node, words)
        found += _ledger_violations(path, node)
    return found


def _format_violations(path: str, node: ast.AST, words: dict[str, set[str]]) -> list[Violation]:
    """A format decided, or a handler asked which it is, outside the format's own package."""
    found: list[Violation] = []

    def owned(word: str) -> bool:
        return path == _registry_module() or any(path.startswith(p) for p in words.get(word, ()))

    def telling(word: str, operands: tuple[ast.AST, ...]) -> bool:
        """Whether comparing with ``word`` tells formats apart."""
        if word in EVERYDAY_WORDS:
            return any(map(_names_format, operands))
        return word in words

    # A comparison with a format's word: `game.format == "pool"`, `variant in ("sabra", ...)`.
    if isinstance(node, ast.Compare):
        operands = (node.left, *node.comparators)
        for operand in operands:
            for word in _constants(operand):
                if telling(word, operands) and not owned(word):
                    found.append(Violation(path, node.lineno, f"compares with {word!r}"))
    # A table keyed by a format's word: `{"racks": RackForm, "hands": DealForm}`.
    elif isinstance(node, ast.Dict):
        keys = [k for key in node.keys if key is not None for k in _constants(key)]
        keyed = [k for k in keys if k in words and k not in EVERYDAY_WORDS and not owned(k)]
        if len(keyed) >= 2:
            found.append(Violation(path, node.lineno, f"a table keyed by {sorted(keyed)}"))
    # A family's, variant's or entry's name written anywhere else (a format's id is also an
    # everyday word, so only its comparisons count).
    elif (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in words
        and node.value not in EVERYDAY_WORDS
        and node.value not in FORMAT_IDS
        and not owned(node.value)
        and not path.startswith(DATA_MODULES)
    ):
        found.append(Violation(path, node.lineno, f"names {node.value!r}"))
    # A match on a format's word.
    elif isinstance(node, ast.MatchValue):
        for word in _constants(node.value):
            if word in words and not owned(word):
                found.append(Violation(path, node.lineno, f"matches {word!r}"))
    # A format member named: `GameFormat.POOL`, `GameFamily.RUMMIKUB`.
    elif (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in {"GameFormat", "GameFamily"}
        and node.attr.isupper()
        and not path.startswith(("scoring/formats/", "scoring/models.py"))
    ):
        found.append(Violation(path, node.lineno, f"names {node.value.id}.{node.attr}"))
    # Asking which handler, state or entry form a value is.
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
        and not path.startswith("scoring/formats/")
    ):
        classes = node.args[1]
        names = [
            n.id if isinstance(n, ast.Name) else n.attr
            for n in (classes.elts if isinstance(classes, ast.Tuple) else [classes])
            if isinstance(n, ast.Name | ast.Attribute)
        ]
        for name in names:
            if name.endswith(("Format", "State", "EntryForm", "Handler")):
                found.append(Violation(path, node.lineno, f"isinstance(..., {name})"))
    # A format's own section of a preset's rules read outside the formats: `rules.pool.limit`
    # (what a page shows of them, the preview included, the format says).
    elif (
        isinstance(node, ast.Attribute)
        and node.attr in FORMAT_SECTIONS
        and _names_rules(node.value)
        and not path.startswith("scoring/formats/")
    ):
        found.append(Violation(path, node.lineno, f"reads rules.{node.attr}"))
    return found


def _ledger_violations(path: str, node: ast.AST) -> list[Violation]:
    """Postings touched, ledger rows written or a book's owner told apart outside their owners."""
    found: list[Violation] = []
    # Postings read or written outside the ledger's owners.
    if (
        isinstance(node, ast.Attribute)
        and node.attr == "objects"
        and isinstance(node.value, ast.Name)
        and node.value.id == "Posting"
        and not path.startswith(POSTING_OWNERS)
    ):
        found.append(Violation(path, node.lineno, "Posting.objects outside the ledger"))
    # A ledger row written anywhere but the ledger's writer (a merge moves postings only).
    if (
        isinstance(node, ast.Attribute)
        and node.attr in LEDGER_WRITES
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "objects"
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id in {"Posting", "LedgerEntry"}
        and path != LEDGER_WRITER
    ):
        found.append(
            Violation(path, node.lineno, f"{node.value.value.id} written outside the ledger")
        )
    # A book's owner told apart by its kind: `book.owner == "game"`.
    if (
        isinstance(node, ast.Compare)
        and any(
            isinstance(operand, ast.Attribute) and operand.attr == "owner"
            for operand in (node.left, *node.comparators)
        )
        and not path.startswith("ledger/")
    ):
        found.append(Violation(path, node.lineno, "a book's owner tested outside the ledger"))
    return found


#: The one module that writes ledger entries and postings, and how a write is spelled.
LEDGER_WRITER = "ledger/writer.py"
LEDGER_WRITES = frozenset({"create", "bulk_create", "get_or_create", "update_or_create"})


_TEMPLATE_TEST = re.compile(r"""(==|!=|\bin)\s*["']([a-z_]+)["']""")


def check_template(path: str, text: str, words: dict[str, set[str]]) -> list[Violation]:
    """A template outside a format's own folder that branches on a format's word."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if "{%" not in line:
            continue
        for match in _TEMPLATE_TEST.finditer(line):
            word = match.group(2)
            everyday = word in EVERYDAY_WORDS and not re.search(
                r"\.(format|family|variant|entered_as)\s*(==|!=)", line
            )
            if word in words and not everyday and f"/formats/{word}/" not in path:
                found.append(Violation(path, number, f"template compares with {word!r}"))
    return found


#: The tournament kinds' ids ("knockout", "rounds", "chips"), from the registry.
KIND_IDS = frozenset(KINDS)
#: Kind ids that are also everyday words of a tournament ("rounds" a count of them, "chips" a
#: figure and a ledger quantity): for them only a comparison with a kind counts.
KIND_EVERYDAY_WORDS = frozenset({"rounds", "chips"})
#: Besides a kind's own package, the registry and the model (the database's choices and the
#: columns' owners) may name every kind.
KIND_SHARED_OWNERS = ("tournaments/kinds/__init__.py", "tournaments/models.py")


def _kind_owned(path: str, word: str) -> bool:
    return path.startswith(KIND_SHARED_OWNERS) or path.startswith(f"tournaments/kinds/{word}/")


def _names_kind(node: ast.AST) -> bool:
    """``tournament.kind``, ``kind``, ``data["kind"]``: an operand that says which kind it is."""
    if isinstance(node, ast.Attribute):
        return node.attr == "kind"
    if isinstance(node, ast.Name):
        return node.id == "kind"
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and node.slice.value == "kind"
    )


def _tells_kinds(word: str, operands: tuple[ast.AST, ...]) -> bool:
    """Whether comparing (or matching) with ``word`` tells tournament kinds apart."""
    if word not in KIND_IDS:
        return False
    return word not in KIND_EVERYDAY_WORDS or any(map(_names_kind, operands))


def check_kinds(path: str, source: str) -> list[Violation]:
    """The places in one module's source that decide on a tournament kind outside its package:
    a comparison or a match with a kind's id, a table keyed by kinds, a ``Tournament.Kind``
    member named."""
    found: list[Violation] = []
    members = {member.name: member.value for member in Tournament.Kind}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = (node.left, *node.comparators)
            for operand in operands:
                for word in _constants(operand):
                    if _tells_kinds(word, operands) and not _kind_owned(path, word):
                        found.append(Violation(path, node.lineno, f"compares with kind {word!r}"))
        elif isinstance(node, ast.Dict):
            keys = [k for key in node.keys if key is not None for k in _constants(key)]
            kinds = [k for k in keys if k in KIND_IDS and not _kind_owned(path, k)]
            if len(kinds) >= 2 and len(kinds) == len(node.keys):
                found.append(
                    Violation(path, node.lineno, f"a table keyed by kinds {sorted(kinds)}")
                )
        elif isinstance(node, ast.Match):
            for case in node.cases:
                for pattern in ast.walk(case.pattern):
                    if not isinstance(pattern, ast.MatchValue):
                        continue
                    for word in _constants(pattern.value):
                        if _tells_kinds(word, (node.subject,)) and not _kind_owned(path, word):
                            found.append(
                                Violation(path, case.pattern.lineno, f"matches kind {word!r}")
                            )
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in members
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "Kind"
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "Tournament"
            and not _kind_owned(path, members[node.attr])
        ):
            found.append(Violation(path, node.lineno, f"names Tournament.Kind.{node.attr}"))
    return found


_TEMPLATE_KIND_TEST = re.compile(
    r"""(?:(?:==|!=|\bin)\s*["']([a-z_]+)["'])|(?:["']([a-z_]+)["']\s*(?:==|!=|in\b))"""
)


def check_kind_template(path: str, text: str) -> list[Violation]:
    """A template outside a kind's own folder (``templates/tournaments/kinds/<kind>/``) that
    compares with a kind's id."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if "{%" not in line:
            continue
        for match in _TEMPLATE_KIND_TEST.finditer(line):
            word = match.group(1) or match.group(2)
            if word in KIND_IDS and f"templates/tournaments/kinds/{word}/" not in path:
                found.append(Violation(path, number, f"template compares with kind {word!r}"))
    return found


def _modules() -> Iterator[tuple[str, str]]:
    for app in APPS:
        for file in sorted((ROOT / app).rglob("*.py")):
            path = file.relative_to(ROOT).as_posix()
            if not path.startswith(NOT_CHECKED) and "/migrations/" not in path:
                yield path, file.read_text()


def test_the_code_keeps_formats_ledger_and_handlers_in_their_owners() -> None:
    words = _format_words()
    violations = [v for path, source in _modules() for v in check_source(path, source, words)]
    templates = sorted((ROOT / "templates").rglob("*.html"))
    violations += [
        v
        for file in templates
        for v in check_template(file.relative_to(ROOT).as_posix(), file.read_text(), words)
    ]
    assert not violations, "\n".join(map(str, violations))


def test_each_kind_is_decided_only_in_its_package() -> None:
    violations = [v for path, source in _modules() for v in check_kinds(path, source)]
    templates = sorted((ROOT / "templates").rglob("*.html"))
    violations += [
        v
        for file in templates
        for v in check_kind_template(file.relative_to(ROOT).as_posix(), file.read_text())
    ]
    assert not violations, "\n".join(map(str, violations))


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("if game.format == 'pool': pass", "compares with 'pool'"),
        ("if game.format != 'points': pass", "compares with 'points'"),
        ("x = variant in ('sabra', 'american')", "compares with 'sabra'"),
        ("FORMS = {'hands': 1, 'racks': 2}", "a table keyed by"),
        ("match kind:\n    case 'rummikub': pass", "matches 'rummikub'"),
        ("f = GameFormat.POOL", "names GameFormat.POOL"),
        ("ok = isinstance(handler, PoolFormat)", "isinstance(..., PoolFormat)"),
        ("ok = isinstance(state, (PoolState, DealsState))", "isinstance(..., PoolState)"),
        ("rows = Posting.objects.filter(game=g)", "Posting.objects outside the ledger"),
        ("TIEBREAK = 'sabra'", "names 'sabra'"),
        ("LedgerEntry.objects.create(book=b, kind='deal')", "LedgerEntry written outside"),
        ("Posting.objects.bulk_create(rows)", "Posting written outside"),
        ("if book.owner == 'account': pass", "a book's owner tested outside the ledger"),
        ("kind = 'purse' if entry.book.owner != GAME_BOOK else 'game'", "owner tested outside"),
        ("limit = rules.pool.limit", "reads rules.pool"),
        ("if game.rules.house_rules: pass", "reads rules.house_rules"),
        ("if tournament.kind == 'chips': pass", "compares with kind 'chips'"),
        ("if data['kind'] != 'rounds': pass", "compares with kind 'rounds'"),
        ("late = 'knockout' in (chosen, other)", "compares with kind 'knockout'"),
        ("PANELS = {'knockout': 'a.html', 'chips': 'b.html'}", "a table keyed by kinds"),
        ("match tournament.kind:\n    case 'chips': pass", "matches kind 'chips'"),
        ("size = 2 if t.kind is Tournament.Kind.ROUNDS else 3", "names Tournament.Kind.ROUNDS"),
    ],
)
def test_each_check_catches_its_violation(source: str, what: str) -> None:
    path = "tournaments/sample.py"
    found = check_source(path, source, _format_words()) + check_kinds(path, source)
    assert any(what in v.what for v in found), found


def test_a_kind_may_be_named_only_by_its_own_package() -> None:
    sample = "ok = tournament.kind == 'chips' or tournament.kind is Tournament.Kind.CHIPS"
    assert check_kinds("tournaments/kinds/chips/handler.py", sample) == []
    assert len(check_kinds("tournaments/kinds/rounds/handler.py", sample)) == 2
    # An everyday word ("chips" a figure) is a kind's only where it is compared with a kind.
    assert check_kinds("tournaments/selectors.py", "ok = column.key == 'chips'") == []


def test_a_template_branching_on_a_kind_is_caught() -> None:
    sample = '{% if tournament.kind == "knockout" %}x{% endif %}{% if "chips" == k %}{% endif %}'
    found = check_kind_template("templates/tournaments/desk.html", sample)
    assert [v.what for v in found] == [
        "template compares with kind 'knockout'",
        "template compares with kind 'chips'",
    ]
    own = check_kind_template("templates/tournaments/kinds/knockout/summary.html", sample)
    assert [v.what for v in own] == ["template compares with kind 'chips'"]


def test_every_tournament_kind_has_a_handler() -> None:
    """A kind of the model's choices without a package, or a package the model does not know,
    is caught: a new kind is a package, its registration and its value in ``Tournament.Kind``."""
    assert sorted(Tournament.Kind.values) == sorted(KINDS)


def formats_not_played(formats: type[models.TextChoices]) -> list[str]:
    """The members of a format choice set that no handler plays (money holders posing as one)."""
    return [member.value for member in formats if member.value not in HANDLERS]


def test_every_game_format_is_played_by_a_handler() -> None:
    """No game format that is not one: money outside the games is in books of its own."""
    assert formats_not_played(GameFormat) == []


def test_a_money_holder_posing_as_a_game_format_is_caught() -> None:
    posing = models.TextChoices("Posing", [("POINTS", "points"), ("PURSE", "purse")])
    assert formats_not_played(posing) == ["purse"]


def test_the_owners_may_name_what_they_own() -> None:
    words = _format_words()
    pool = next(h for h in HANDLERS.values() if h.format == "pool")
    package = "/".join(type(pool).__module__.split(".")[:3])
    assert check_source(f"{package}/sample.py", "ok = fmt == 'pool'", words) == []
    assert check_source("ledger/writer.py", "Posting.objects.all()", words) == []


def test_a_template_branching_on_a_variant_is_caught() -> None:
    sample = '{% if panel.state.variant == "international" %}x{% endif %}'
    found = check_template("templates/scoring/game.html", sample, _format_words())
    assert [v.what for v in found] == ["template compares with 'international'"]


#: Every app's code, for the import checks (the rules engine included).
IMPORTING_APPS = (*APPS, "live")
#: Function-level imports kept on purpose, each with its reason: a heavy library deferred until
#: the one call that needs it.
DEFERRED_IMPORTS = {
    # Only rating a game needs the model (about 1 MB and 14 modules); the pages and the other
    # workers import rules.ratings for its defaults alone.
    ("rules/ratings.py", "openskill.models"),
}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def function_level_imports(path: str, source: str) -> list[Violation]:
    """The imports inside a function's body (which hide a cycle, or a dependency the module's
    head does not state), outside ``if TYPE_CHECKING:``. An app's ``apps.py`` may import inside
    ``ready()``: the app registry is only ready then."""
    if path.endswith("/apps.py"):
        return []
    found: list[Violation] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                continue
            if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                modules = (
                    [alias.name for alias in child.names]
                    if isinstance(child, ast.Import)
                    else [child.module or "."]
                )
                found.extend(
                    Violation(path, child.lineno, f"imports {module} inside a function")
                    for module in modules
                    if (path, module) not in DEFERRED_IMPORTS
                )
            function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or function)

    visit(ast.parse(source), False)
    return found


def test_no_function_level_imports() -> None:
    """Each module states what it imports at its head, so import-linter sees every dependency
    and no cycle hides behind an import run later."""
    violations = [
        v
        for app in IMPORTING_APPS
        for file in sorted((ROOT / app).rglob("*.py"))
        if "/migrations/" not in (path := file.relative_to(ROOT).as_posix())
        for v in function_level_imports(path, file.read_text())
    ]
    assert not violations, "\n".join(map(str, violations))


@pytest.mark.parametrize(
    "source",
    [
        "def run():\n    from webhooks.services import due_work_send\n",
        "class A:\n    def m(self):\n        if x:\n            import json\n",
        "async def f():\n    from . import sibling\n",
    ],
)
def test_a_function_level_import_is_caught(source: str) -> None:
    found = function_level_imports("webhooks/sample.py", source)
    assert len(found) == 1 and "inside a function" in found[0].what, found


def test_what_may_import_late_is_not_caught() -> None:
    type_only = "def f():\n    if TYPE_CHECKING:\n        from clubs.models import Club\n"
    assert function_level_imports("webhooks/sample.py", type_only) == []
    ready = "class C:\n    def ready(self):\n        from webhooks import embedded\n"
    assert function_level_imports("webhooks/apps.py", ready) == []
    assert function_level_imports("webhooks/sample.py", "import json\n") == []


@pytest.mark.parametrize(
    "app", ["scoring", "standings", "clubs", "clubs.signin", "tournaments", "series", "federation"]
)
def test_every_module_and_package_of_a_layered_app_has_its_layer(app: str) -> None:
    """An app's layers contract (pyproject.toml, ``containers = [app]``) names every module and
    package of the app, so a new one is checked from the start rather than left out of the
    contract by default."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contract = next(
        c for c in config["tool"]["importlinter"]["contracts"] if c.get("containers") == [app]
    )
    layered = {name.strip() for layer in contract["layers"] for name in layer.split("|")}
    modules = {
        path.stem if path.is_file() else path.name
        for path in (ROOT / app.replace(".", "/")).iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists() and path.name != "migrations")
    }
    assert modules - layered == set(), f"{app} modules missing from the layers contract"
