"""A chip-level tournament's settings over the API: given at its creation, shown with it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

BIG = 2**62  # money and chips fit a 64-bit column


class ChipLevelSettings(serializers.Serializer[Any]):
    point_value = serializers.IntegerField(
        min_value=1, max_value=10_000, help_text="Chips a point."
    )
    minimum = serializers.IntegerField(
        min_value=0, max_value=BIG, help_text="Out below this many chips at the level's end."
    )
    qualify = serializers.IntegerField(
        min_value=1, max_value=BIG, help_text="On to the next level at this many chips or more."
    )


class ChipLevelsSettings(serializers.Serializer[Any]):
    """A chip-level tournament's settings; what is left out takes the default preset's value."""

    starting_chips = serializers.IntegerField(min_value=1, max_value=BIG, required=False)
    levels = ChipLevelSettings(many=True, required=False, help_text="The levels, in order.")
    rebuys = serializers.IntegerField(
        min_value=0, max_value=10, required=False, help_text="Rebuys a player may take (0: none)."
    )
    rebuy_price_minor = serializers.IntegerField(min_value=0, max_value=BIG, required=False)
    rebuy_chips = serializers.IntegerField(min_value=1, max_value=BIG, required=False)
    rebuy_until_level = serializers.IntegerField(
        min_value=1, max_value=20, required=False,
        help_text="A player knocked out at the end of this level or an earlier one may rebuy.",
    )  # fmt: skip


class ChipLevelsInput(serializers.Serializer[Any]):
    chip_levels = ChipLevelsSettings(
        required=False,
        help_text="Kind chips only: starting chips, the levels (point value, minimum, "
        "qualifying chips) and rebuys; the default preset when left out.",
    )
