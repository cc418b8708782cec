"""The translation catalogs: every marked string translated in every shipped language, none
fuzzy, compiled with Babel alone (config/catalogs.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation

from config.catalogs import LOCALE_DIR, catalog_paths, compile_catalogs, problems
from tests.conftest import service_absent


def test_the_shipped_catalogs_are_complete() -> None:
    assert problems() == []


def test_a_fuzzy_or_untranslated_string_is_a_problem(tmp_path: Path) -> None:
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, copy)
    german = copy / "de" / "LC_MESSAGES" / "django.po"
    text = german.read_text()
    german.write_text(
        text.replace('msgid "Log out"', '#, fuzzy\nmsgid "Log out"')
        + '\nmsgid "A string nobody translated"\nmsgstr ""\n'
    )
    found = problems(copy)
    assert any("fuzzy: 'Log out'" in line for line in found)
    assert any("not translated: 'A string nobody translated'" in line for line in found)
    # The others lack the new string altogether.
    assert any(line.startswith("hi/django.po: missing: 'A string nobody") for line in found)


def test_compiled_without_gettext_the_site_speaks_each_language(tmp_path: Path) -> None:
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, copy, ignore=shutil.ignore_patterns("*.mo"))
    written = compile_catalogs(copy)
    assert sorted(p.name for p in written) == sorted(
        p.with_suffix(".mo").name for p in catalog_paths(copy)
    )
    assert compile_catalogs(copy) == []  # nothing newer: nothing made again
    with translation.override("he"):
        assert translation.gettext("Log out") == "התנתקות"


def test_every_marked_string_is_in_the_catalogs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Django's extraction (GNU gettext) run over the project adds no string that a language
    lacks: nothing marked is left untranslated. The extraction writes into the project's own
    catalogs (every file lies under their folder), so they are read from there into a copy and
    put back as they were."""
    if shutil.which("xgettext") is None:
        service_absent("needs GNU gettext to extract the marked strings (apt-get install gettext)")
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, copy, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.chdir(settings.BASE_DIR)
    ignore = ["tests", "bench", "examples", "staticfiles", "deploy", "test-artifacts", "locale",
              "node_modules"]  # fmt: skip
    shipped = {po: po.read_bytes() for po in catalog_paths()}
    try:
        for domain in ("django", "djangojs"):
            call_command(
                "makemessages", locale=["hi", "he", "de", "nl"], domain=domain,
                ignore_patterns=ignore, no_obsolete=True, no_location=True, verbosity=0,
            )  # fmt: skip
        for po in catalog_paths():
            shutil.copyfile(po, copy / po.relative_to(LOCALE_DIR))
    finally:
        for po, text in shipped.items():
            po.write_bytes(text)
    assert problems(copy) == []
