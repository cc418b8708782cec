"""What a format says of its presets, beside the rules it builds from them: its sections of a
preset's ``params``, each with how the API's schema describes it, and what the preset form's
preview shows of a preset's rules. Typed descriptions the pages and the schema read the same way
for every format."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rest_framework import serializers


@dataclass(frozen=True)
class PresetSection:
    """One section of a preset's ``params`` a format reads: its name and its part of the API's
    schema of ``params`` (the formats of a family share theirs)."""

    name: str
    schema: serializers.Field[Any, Any, Any, Any]


@dataclass(frozen=True)
class PreviewOutcome:
    """An outcome a deal may have and its points under the preset (``cards``: counted from the
    cards)."""

    label: str
    points: str
    cards: bool


@dataclass(frozen=True)
class ExampleGroup:
    cards: str
    kind: str


@dataclass(frozen=True)
class ExampleHand:
    """The preview's example hand scored by its best arrangement: the cut card, the groups, and
    whether they are a valid declaration or else the points they count."""

    cut: str
    groups: tuple[ExampleGroup, ...]
    valid: bool
    score: int


@dataclass(frozen=True)
class PresetPreview:
    """What the preset form's preview shows of a format's own rules, beside the table and the
    rate every preset has: each outcome's points, the format's numbers in a sentence, its house
    rules in words, an example hand."""

    outcomes: tuple[PreviewOutcome, ...] = ()
    summary: str = ""
    house_rules: tuple[str, ...] = ()
    example: ExampleHand | None = None
    # Where the sentence reads: before the house rules (a pool's limit, a deals game's count),
    # or after them (a Rummikub match, as the form has always shown it).
    summary_after_rules: bool = False


class HouseOption(Protocol):
    """A house option of a rules engine's preset (``rules.<game>.preset.HOUSE_OPTIONS``)."""

    @property
    def kind(self) -> type: ...

    @property
    def help(self) -> str: ...


def house_rules_schema(
    name: str, doc: str, options: Mapping[str, HouseOption], maximum: int
) -> type[serializers.Serializer[Any]]:
    """The API schema of a preset section of house options, typed from the engine's one list of
    them (which its batch contract takes by the same names), with ``base``: a built-in preset
    to start from."""

    def field(option: HouseOption) -> serializers.Field[Any, Any, Any, Any]:
        if option.kind is bool:
            return serializers.BooleanField(required=False, help_text=option.help)
        return serializers.IntegerField(
            min_value=0, max_value=maximum, required=False, help_text=option.help
        )

    base = serializers.CharField(required=False, help_text="A built-in preset to start from.")
    fields = {"base": base, **{key: field(option) for key, option in options.items()}}
    return type(name, (serializers.Serializer,), {"__doc__": doc, **fields})
