"""Chip levels (``rules.chip_levels``): each round plays a level, whose points turn into chips;
below the level's minimum a player is out, between it and the qualifying figure plays the level
again, above it goes on; the final places by chips; rebuys where the settings allow them."""
