"""What the API schema shows of every format alike: the reason a version did not count, and the
player lines of a game's state. Each format's own components are in its package (``schema``)."""

from __future__ import annotations

from rest_framework import serializers

from config.openapi import ReasonOutput
from scoring.models import Game

__all__ = ["ReasonOutput", "game_status_field"]


def game_status_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=Game.Status.choices)
