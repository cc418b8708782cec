"""The API's input of a deal of Okey: the indicator tile, who finished and how, who showed the
indicator's twin, and (optionally) the finisher's 14 tiles, which the rules engine checks."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.fields import id_field

#: How a hand finishes: in melds, or as seven pairs.
FINISHES = ["melds", "pairs"]
HAND_MAX = 15  # one over the 14 a finish shows, so that a count off by one is named by the rules


class OkeyDealInput(serializers.Serializer[dict[str, Any]]):
    """A deal of Okey as entered."""

    indicator = serializers.CharField(
        max_length=8,
        allow_blank=True,
        help_text="The tile turned face up (gösterge), e.g. R7: the okey is R8.",
    )
    finisher = id_field(allow_null=True, help_text="Who finished (null: the tiles ran out).")
    finish = serializers.ChoiceField(
        choices=FINISHES, required=False, help_text="How the hand finished (melds by default)."
    )
    okey_discard = serializers.BooleanField(
        required=False, help_text="The finisher discarded an okey to finish."
    )
    indicator_shown = serializers.ListField(
        child=id_field(),
        required=False,
        max_length=4,
        help_text="Who showed the indicator's twin at their first turn.",
    )
    hand = serializers.ListField(
        child=serializers.CharField(max_length=8),
        required=False,
        max_length=HAND_MAX,
        help_text="The finisher's 14 tiles, checked to finish as said (optional).",
    )


def payload_fields() -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    return {
        "okey": OkeyDealInput(
            required=False, help_text="Okey: the deal (indicator, finisher, finish, hand)."
        )
    }
