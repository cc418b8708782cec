"""What the API schema shows of every format alike: the reason a version did not count, and the
player lines of a game's state. Each format's own components are in its package (``schema``)."""

from __future__ import annotations

from rest_framework import serializers

from scoring.models import Game


class ReasonOutput(serializers.Serializer[dict]):
    """Why a version did not count: one shape for every format and for the evaluate endpoint.
    ``player`` is null only when the reason blames the deal as a whole (no winner, a missing
    wild joker, a newer version, a director's rejection)."""

    player = serializers.IntegerField(
        allow_null=True, default=None,
        help_text="The player the reason blames (the id as entered for one with no seat).",
    )  # fmt: skip
    player_name = serializers.CharField(
        allow_null=True, default=None, help_text="Their name, when they are in the game."
    )
    position = serializers.IntegerField(
        allow_null=True, default=None, help_text="Their seat position at the table (1 first)."
    )
    code = serializers.CharField(help_text="Stable, machine-readable (`bad_card`, ...).")
    message = serializers.CharField(help_text="Names the player and what is wrong.")
    token = serializers.CharField(
        allow_null=True, default=None,
        help_text="The card, tile or field at fault as it was entered, or null.",
    )  # fmt: skip
    details = serializers.DictField(
        default=dict,
        help_text="More about it, e.g. `group` (index from 0) and `cards` of an invalid group, "
        "`index` of a tile on a rack, `count`.",
    )


def game_status_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=Game.Status.choices)
