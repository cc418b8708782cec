"""The API's input field of a knock-out."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class KnockoutInput(serializers.Serializer[Any]):
    advance_per_table = serializers.IntegerField(min_value=1, max_value=5, default=2)
