"""The API's input of an Indian rummy result: one line per player (outcome, and the cards as
grouped or ungrouped, or the points)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.fields import id_field, int32_field
from rules.indian.deal import OUTCOME_NAMES


class CardList(serializers.ListField):
    """Card or tile tokens, each a short string. Read in one pass rather than through a field per
    token: a six-player deal carries some eighty of them, and the per-token fields made reading
    them the costliest part of a submit call. The errors are the ones the child field would give.
    """

    child = serializers.CharField(max_length=12, trim_whitespace=True)  # what the schema shows
    TOKEN_MAX = 12

    def run_child_validation(self, data: list[Any]) -> list[str]:
        tokens: list[str] = []
        errors: dict[int, list[str]] = {}
        for index, item in enumerate(data):
            if isinstance(item, bool) or not isinstance(item, str | int):
                errors[index] = ["Not a valid string."]
                continue
            token = str(item).strip()
            if not token:
                errors[index] = ["This field may not be blank."]
            elif len(token) > self.TOKEN_MAX:
                errors[index] = [f"Ensure this field has no more than {self.TOKEN_MAX} characters."]
            tokens.append(token)
        if errors:
            # Keyed by position, as DRF keys a list's errors.
            raise serializers.ValidationError(errors)  # type: ignore[arg-type]
        return tokens


class ResultLineInput(serializers.Serializer[dict[str, Any]]):
    player = id_field(help_text="Player id (seated in the game).")
    outcome = serializers.ChoiceField(
        choices=list(OUTCOME_NAMES), help_text="How the player's deal ended."
    )
    groups = serializers.ListField(
        child=CardList(max_length=13), max_length=13, required=False,
        help_text='The 13 cards as grouped, e.g. [["2H","3H","4H"], ...].',
    )  # fmt: skip
    cards = CardList(max_length=20, required=False, help_text="The 13 cards, ungrouped.")
    points = int32_field(required=False, help_text="Points, when no cards.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "groups" in attrs and "cards" in attrs:
            raise serializers.ValidationError("give groups or cards, not both")
        return attrs


def payload_fields() -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    return {
        "results": serializers.ListField(
            child=ResultLineInput(),
            min_length=1,
            max_length=12,
            required=False,
            help_text="Indian rummy: one line per player of the deal.",
        ),
    }
