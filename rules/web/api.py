"""``POST /api/v1/rules/evaluate/``: the batch command's evaluation over HTTP, for score apps."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from config.errors import InvalidInput
from config.openapi import ReasonOutput, api_operation
from rules.evaluate import evaluate_request
from rules.indian.preset import house_rules_schema
from rules.okey.preset import HOUSE_OPTIONS as OKEY_HOUSE_OPTIONS
from rules.rummikub.preset import HOUSE_OPTIONS, MAX_OPTION_NUMBER

MAX_BATCH = 1000


def _hands(request: Any) -> int:
    """How many hands a call asks for: the length of a list (one for an object). Read from the
    raw body: a body that does not parse must reach the view untouched, which answers it."""
    body = request.body.lstrip()
    if not body.startswith(b"["):
        return 1
    try:
        data = json.loads(body)
    except ValueError:
        return 1
    if not isinstance(data, list) or not 1 <= len(data) <= MAX_BATCH:
        return 1  # the view refuses it without evaluating anything
    return len(data)


class AnonEvaluateThrottle(AnonRateThrottle):
    """Anonymous callers are limited by hands evaluated, not calls: a list of N requests costs N
    of the rate (a batch larger than the whole rate is never allowed without logging in)."""

    scope = "anon_evaluate"

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:  # logged in: not throttled here
            return True
        cost = _hands(request)
        self.now = self.timer()
        # [time, hands] per call within the period, newest first.
        self.history = [
            entry for entry in self.cache.get(self.key, []) if entry[0] > self.now - self.duration
        ]
        if sum(hands for _, hands in self.history) + cost > self.num_requests:
            return self.throttle_failure()
        self.history.insert(0, [self.now, cost])
        self.cache.set(self.key, self.history, self.duration)
        return True

    def wait(self) -> float | None:
        if not self.history:
            return float(self.duration)
        return max(1.0, self.duration - (self.now - self.history[-1][0]))


_DESCRIPTION = """
Evaluate one request object, or a list of up to 1,000, exactly as `manage.py evaluate_hands` does
for one JSON line. Open to anyone (throttled without login).

**Indian rummy** — `{"id", "game": "indian", "wild": "QH" | "Q" | "JK", "decks": 2,
"groups": [["2H","3H","4H"], ...]}` scores the grouping as declared; `"cards": [13 cards]`
finds the best arrangement. Optional `"outcome"`, as a submitted result names it: `loser`
(default; `hand` is read too), `winner`, `first_drop`, `middle_drop`, `missed_turns`,
`wrong_show`, `late_declare`, `valid_not_declared`, `deal_show`;
optional `"pool": 101 | 201`. Answer: `{"id", "valid", "against", "groups": [{"cards",
"kind"}]}`: `against` is the points the rules count against the hand, and kind
`pure_sequence`, `impure_sequence`, `set` or `invalid`. The answer repeats `against` as `points`,
its older name: deprecated, kept for a release (elsewhere in the API `points` is what a deal
moved, signed).

Optional `"house_rules"`: the house rules of a preset's `house_rules` section, by the same
names (`bad_house_rules` naming a bad one).

**Rummikub** (`"variant": "sabra" | "american" | "international"`, optional `"preset"` and any
house option of a preset's `rummikub` section, by the same names: `initial_meld_threshold`,
`joker_value`, `trump_bonus`, `never_opened_penalty`, `one_high`, `opening_high_as_10`,
`winner_scores_zero`;
`bad_field` naming a bad one) —
melds (`"melds"`, `"initial_meld"`) answer `{"valid", "value", "meets_initial_meld", "melds":
[{"tiles", "kind", "value", "jokers", "reason"}]}`; game scores (`"racks"`, `"winner"`,
`"last_mover"`, `"melded"` under a `never_opened_penalty`; International adds `"win"`,
`"melded"`, `"closed_hand"`,
`"final_discard_joker"`, `"trump_holders"`) answer `{"scores"}` (and `"book"`, the game's
book's share, under `winner_scores_zero`); a closed hand (`"closed_hand"`,
`"first_turn"`, `"original_hand"`, `"is_first_player"`, optional `"hand_type"`) answers `{"type",
"name", "value", "jokers", "arrangement"}`; a settlement (`"session_scores"`, `"rate"` as a
string) answers `{"net"}` with amounts as decimal strings.

**Okey** (`"indicator": "R7"`, the tile turned face up: the okey is R8 and wild, `FJ` a false
joker standing for it; optional `"preset": "okey" | "okey-countdown-20"` and the house options
`finish_points`, `okey_discard_factor`, `pairs_factor`, `indicator_points`, `target`,
`one_after_thirteen`) — melds (`"melds"`) answer `{"valid", "melds": [{"tiles", "kind",
"wilds"}]}`, kind `run`, `set`, `pair` or `invalid`; a hand (`"hand"`: 14 tiles, or the groups
shown) answers `{"finishes", "finish": "melds" | "pairs", "groups"}`; a deal's scores
(`"players"`, `"finisher"`, `"finish"`, `"okey_discard"`, `"indicator_shown"`) answer
`{"scores", "book"}`.

In a list, each item gets its own answer and the list answers 200; an item that cannot be
evaluated answers `{"id", "error": <reason>}`, the reason in the shape every rejected deal's
reasons have (`ReasonOutput`: `code`, `message`, the card or tile at fault in `token`, its place
in `details`; `player` and `seat` null, as a hand evaluated here belongs to no game). A single
object that cannot be evaluated answers 400 in the one error shape, with that reason in
`details.reasons` and the request's `id` in `details.id`.
"""


_REQUEST_OBJECT = {
    "type": "object",
    "required": ["game"],
    "properties": {
        "id": {"description": "Anything; answered back as given."},
        "game": {"type": "string", "enum": ["indian", "rummikub", "okey"]},
        "house_rules": {**house_rules_schema(), "description": "Indian rummy: the house rules."},
        **{
            name: {"type": "boolean", "description": f"Rummikub: {option.help}"}
            if option.kind is bool
            else {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_OPTION_NUMBER,
                "description": f"Rummikub: {option.help}",
            }
            for name, option in HOUSE_OPTIONS.items()
        },
        **{
            name: {"type": "boolean", "description": f"Okey: {option.help}"}
            if option.kind is bool
            else {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_OPTION_NUMBER,
                "description": f"Okey: {option.help}",
            }
            for name, option in OKEY_HOUSE_OPTIONS.items()
        },
    },
    "additionalProperties": True,
}
# Any JSON value: an item that cannot be evaluated (not an object, no game) gets its own error
# answer in the list.
_BATCH_ITEM: dict[str, object] = {"description": "One request object, as above."}
EVALUATE_REQUEST = {
    "oneOf": [
        _REQUEST_OBJECT,
        {"type": "array", "minItems": 1, "maxItems": MAX_BATCH, "items": _BATCH_ITEM},
    ]
}
# An answer's fields depend on what was asked (see the description); one that could not be
# evaluated has ``error``, a reason.
_ANSWER = {
    "type": "object",
    "properties": {
        "id": {"description": "The request's id, as given."},
        "error": {"$ref": "#/components/schemas/ReasonOutput"},
        "against": {
            "type": "integer",
            "description": "Indian rummy: the points the rules count against the hand.",
        },
        "points": {
            "type": "integer",
            "deprecated": True,
            "description": "Indian rummy: `against` under its older name, kept for a release.",
        },
    },
    "additionalProperties": True,
}
EVALUATE_ANSWER = {"oneOf": [_ANSWER, {"type": "array", "items": _ANSWER}]}


class EvaluateErrorDetailsOutput(serializers.Serializer[dict]):
    # Any JSON value, null included (a nullable JSONField would be "anything, or null": two
    # schemas that both take null).
    id = serializers.JSONField(required=False, help_text="The request's id, as given.")
    reasons = ReasonOutput(many=True, required=False, help_text="Why it was not evaluated.")


class EvaluateErrorBodyOutput(serializers.Serializer[dict]):
    code = serializers.CharField()
    message = serializers.CharField()
    details = EvaluateErrorDetailsOutput()


class EvaluateErrorOutput(serializers.Serializer[dict]):
    """The one error shape; a request that could not be evaluated gives its reason in
    ``details.reasons``."""

    error = EvaluateErrorBodyOutput()


class EvaluateApi(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AnonEvaluateThrottle]

    @api_operation(
        operation_id="rules_evaluate",
        summary="Validate and score hands, melds, games and settlements",
        description=_DESCRIPTION,
        request={"application/json": EVALUATE_REQUEST},
        responses={200: EVALUATE_ANSWER, 400: EvaluateErrorOutput},
        examples=[
            OpenApiExample(
                "A grouped Indian rummy hand",
                request_only=True,
                value={
                    "id": "table-3",
                    "game": "indian",
                    "wild": "QD",
                    "groups": [
                        ["2H", "3H", "4H", "5H"],
                        ["5C", "6C", "7C", "8C"],
                        ["5D", "5C", "JK", "QH", "QS"],
                    ],
                },
            ),
            OpenApiExample(
                "Thirteen ungrouped cards",
                request_only=True,
                value={
                    "id": 1,
                    "game": "indian",
                    "wild": "QS",
                    "cards": "3H 4H 5H 5C 6C 7C QH 8D 5C 2H 2C 2D KS".split(),
                },
            ),
            OpenApiExample(
                "Rummikub melds",
                request_only=True,
                value={
                    "id": "m1",
                    "game": "rummikub",
                    "variant": "sabra",
                    "melds": [["R4", "R5", "R6"], ["B9", "K9", "JK"]],
                    "initial_meld": True,
                },
            ),
            OpenApiExample(
                "An Okey hand shown at a finish",
                request_only=True,
                value={
                    "id": "o1",
                    "game": "okey",
                    "indicator": "R7",
                    "hand": "R1 R2 R3 K5 B5 Y5 B10 B11 B12 B13 B1 R8 FJ R9".split(),
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        payload: Any = request.data
        if isinstance(payload, list):
            if not payload:
                raise InvalidInput("the list of requests is empty", code="empty_batch")
            if len(payload) > MAX_BATCH:
                raise InvalidInput(
                    f"at most {MAX_BATCH} requests per call; this one has {len(payload)}",
                    code="batch_too_large",
                    details={"max": MAX_BATCH, "given": len(payload)},
                )
            return Response([evaluate_request(item) for item in payload])
        answer = evaluate_request(payload)
        if "error" in answer:
            reason = answer["error"]
            error = {
                "code": reason["code"],
                "message": reason["message"],
                "details": {"id": answer["id"], "reasons": [reason]},
            }
            return Response({"error": error}, status=status.HTTP_400_BAD_REQUEST)
        return Response(answer)
