"""The API's input fields of a round-based tournament."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class RoundsInput(serializers.Serializer[Any]):
    rounds = serializers.IntegerField(min_value=0, max_value=50, default=0)
    cut = serializers.IntegerField(min_value=0, max_value=1000, default=0)
