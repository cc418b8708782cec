"""The API's input of a game of a Rummikub match: the racks, who went out, and International's
extras (how the hand was won, who had melded, the closed hand, the trump holders)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.fields import id_field

#: How an International hand is won.
WINS = ["open", "foot", "closed"]


def payload_fields() -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    return {
        "racks": serializers.DictField(
            child=serializers.ListField(child=serializers.CharField(max_length=8), max_length=40),
            required=False,
            help_text='Rummikub: the tiles left on each rack, by player id: {"12": ["R5", "JK"]}.',
        ),
        "winner": id_field(
            required=False, allow_null=True, help_text="Rummikub: who went out (null: no winner)."
        ),
        "last_mover": id_field(required=False, allow_null=True),
        "win": serializers.ChoiceField(
            choices=WINS,
            required=False,
            allow_null=True,
            help_text="International: how the winner won.",
        ),
        "melded": serializers.DictField(
            child=serializers.BooleanField(),
            required=False,
            help_text=(
                "International, and Sabra or American under a never_opened_penalty: for each "
                "loser, whether they had melded (made the initial meld)."
            ),
        ),
        "closed_hand": serializers.ListField(
            child=serializers.CharField(max_length=8),
            required=False,
            max_length=15,
            help_text="International, Closed win: the winner's 14 tiles.",
        ),
        "first_turn": serializers.BooleanField(required=False),
        "original_hand": serializers.BooleanField(required=False),
        "is_first_player": serializers.BooleanField(required=False),
        "final_discard_joker": serializers.BooleanField(required=False),
        "trump_holders": serializers.ListField(child=id_field(), required=False, max_length=12),
    }
