"""Every code the API can answer is in the registry (config/error_codes.py) with its meaning,
in the schema's enum and in the API guide's table."""

from __future__ import annotations

import json

from rest_framework.test import APIClient

from config.error_codes import DOC, ERROR_CODES, doc_with_table
from tests.api.code_scan import codes_in_source

# Answered without a literal the source reading finds: the exception handler's fallback.
NOT_LITERAL = {"error"}


def test_every_code_the_source_can_answer_is_in_the_registry():
    found = codes_in_source()
    # The reading finds what it should: errors, rules' reasons, the middleware's own.
    assert {"not_seated", "missing_player", "points_required", "points_out_of_range",
            "invalid_group", "winner_has_tiles", "unknown_field", "not_found",
            "too_deep"} <= found.keys()  # fmt: skip
    missing = {code: where for code, where in found.items() if code not in ERROR_CODES}
    assert missing == {}, "codes the source answers that config/error_codes.py does not list"


def test_the_registry_lists_no_code_the_source_cannot_answer():
    stale = set(ERROR_CODES) - codes_in_source().keys() - NOT_LITERAL
    assert stale == set()


def test_each_code_has_a_meaning_in_one_sentence():
    for code, meaning in ERROR_CODES.items():
        assert meaning[0].isupper() and meaning.endswith("."), code
        assert meaning.count(". ") == 0 or "(" in meaning, code


def test_the_schema_declares_the_codes_as_an_enum(db):
    schema = json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)
    components = schema["components"]["schemas"]
    error_code = components["Error"]["properties"]["error"]["properties"]["code"]
    assert error_code["enum"] == sorted(ERROR_CODES)
    assert components["ReasonOutput"]["properties"]["code"]["enum"] == sorted(ERROR_CODES)


def test_the_guides_table_of_codes_is_up_to_date():
    text = DOC.read_text()
    assert doc_with_table(text) == text, "run: python -m config.error_codes"
    for code in ("not_seated", "unknown_field", "winner_has_tiles"):
        assert f"| `{code}` | {ERROR_CODES[code]} |" in text
