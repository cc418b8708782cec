"""The API's input of an Indian rummy result: one line per player (outcome, and the cards as
grouped or ungrouped, or the points counted against the player)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from config.deprecations import deprecated_use
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


# ``points`` is the older name of ``against``: read for a release, stored as ``against`` (a
# payload read back says ``against``), and marked deprecated in the schema.
@extend_schema_serializer(deprecate_fields=["points"])
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
    against = int32_field(
        required=False,
        help_text="The points counted against the player, when no cards are given (a loser's "
        "count, a deal show's).",
    )
    points = int32_field(
        required=False,
        help_text="Deprecated: the older name of `against`, read as it for a release (stored and "
        "answered as `against`). Both given must agree.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "groups" in attrs and "cards" in attrs:
            raise serializers.ValidationError(_("give groups or cards, not both"))
        if "points" in attrs:
            deprecated_use("results.points")
            points = attrs.pop("points")
            against = attrs.setdefault("against", points)
            if against != points:
                raise serializers.ValidationError(
                    {
                        "against": [
                            _(
                                "against is %(against)s and points %(points)s: give against "
                                "only (points is its older name)"
                            )
                            % {"against": against, "points": points}
                        ]
                    }
                )
        return attrs


def entered_against(line: dict[str, Any]) -> Any:
    """A stored line's count of points against the player, as entered: ``against``, or
    ``points`` in a line stored before ``against`` was its name (stored lines never change)."""
    return line["against"] if "against" in line else line.get("points")


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
