"""Input checks of the scoring pages' forms: shapes, numbers, the typed cards split into groups.
Whether a deal, a card or a preset makes sense is for the services and the rules engine."""

from __future__ import annotations

import re
import secrets
from decimal import Decimal
from typing import Any

from django import forms

from config.fields import INT32_MAX, id_form_field
from rules.indian.deal import OutcomeOption

#: Outcomes as tables show them, short enough for a phone.
OUTCOME_WORDS = {
    "winner": "Winner", "loser": "Loser", "first_drop": "First drop", "middle_drop": "Middle drop",
    "missed_turns": "Missed turns", "wrong_show": "Wrong show", "late_declare": "Late declare",
    "valid_not_declared": "Valid, not declared", "deal_show": "Deal show",
}  # fmt: skip

_CARD_SPLIT = re.compile(r"[\s,;]+")


def split_cards(text: str) -> tuple[list[list[str]] | None, list[str] | None]:
    """``"2H 3H 4H | 5C 6C 7C"`` -> groups; text without ``|`` (or with one group only) -> the
    cards ungrouped, for the rules engine to arrange. Empty text -> neither."""
    parts = [[card for card in _CARD_SPLIT.split(part) if card] for part in text.split("|")]
    groups = [part for part in parts if part]
    if not groups:
        return None, None
    if len(groups) == 1:
        return None, groups[0]
    return groups, None


def cards_text(line: dict[str, Any]) -> str:
    """A result line's cards as typed text: groups joined by ``|``."""
    if line.get("groups"):
        return " | ".join(" ".join(map(str, group)) for group in line["groups"])
    if line.get("cards"):
        return " ".join(map(str, line["cards"]))
    return ""


def to_minor(value: Decimal | None, places: int) -> int | None:
    if value is None:
        return None
    return int((value * (10**places)).to_integral_value())


class SessionForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)


class TableForm(forms.Form):
    name = forms.CharField(label="Table name", max_length=40, required=False)


class GameForm(forms.Form):
    """A preset, players in seat order (empty seats are skipped), and money per point."""

    def __init__(
        self,
        *args: Any,
        presets: list[tuple[str, str]],
        players: list[tuple[str, str]],
        seats: int,
        places: int,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seat_count = seats
        self.fields["preset"] = forms.ChoiceField(label="Rules", choices=presets)
        step = Decimal(1).scaleb(-places) if places else Decimal(1)
        for name, label in (("point_value", "Money per point"), ("entry_fee", "Entry fee")):
            self.fields[name] = forms.DecimalField(
                label=label,
                required=False,
                min_value=Decimal(0),
                # Kept in minor units in an integer column.
                max_value=Decimal(INT32_MAX).scaleb(-places),
                max_digits=12,
                decimal_places=places,
                widget=forms.NumberInput(attrs={"step": str(step), "inputmode": "decimal"}),
            )
        choices = [("", "— empty —"), *players]
        for seat in range(1, seats + 1):
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                label=f"Seat {seat}", choices=choices, required=False
            )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(1, self.seat_count + 1)]

    def player_ids(self) -> list[int]:
        return [
            int(self.cleaned_data[f"seat_{seat}"])
            for seat in range(1, self.seat_count + 1)
            if self.cleaned_data.get(f"seat_{seat}")
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = [data.get(f"seat_{seat}") for seat in range(1, self.seat_count + 1)]
        chosen = [value for value in chosen if value]
        if len(chosen) != len(set(chosen)):
            raise forms.ValidationError("a player can have only one seat")
        return data


class SeatAddForm(forms.Form):
    player = id_form_field(label="Player")


class OnceForm(forms.Form):
    """A form posted at most once: a token made when the page is shown, so the same form sent
    twice (a double tap, back and resubmit) does its work once (``clubs.pages.form_post_once``)."""

    # static/js/form-once.js keeps the token of a form sent, for a page reached again by going
    # back (browsers restore what was typed but not a hidden field).
    form_token = forms.CharField(
        required=False,
        max_length=64,
        widget=forms.HiddenInput(attrs={"data-form-once": "1"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("form_token", secrets.token_hex(16))

    def token(self) -> str:
        return (self.cleaned_data.get("form_token") or "").strip()


class DealEntryForm(OnceForm):
    """The wild joker once per deal, then for each seat: the outcome (one of those the game's
    format offers), optional points, and optional cards as typed (``|`` between groups)."""

    wild = forms.CharField(label="Wild joker (cut card)", max_length=8, required=False)

    def __init__(
        self,
        *args: Any,
        seats: list[tuple[int, str]],
        outcomes: tuple[OutcomeOption, ...],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.outcomes = outcomes
        choices = [(option.code, option.label) for option in outcomes]
        self.fields["dealer"] = forms.ChoiceField(
            label="Dealer",
            required=False,
            choices=[("", "— not recorded —"), *[(str(pid), name) for pid, name in seats]],
        )
        for pid, name in seats:
            self.fields[f"p{pid}-outcome"] = forms.ChoiceField(
                label=f"Outcome of {name}", choices=choices, initial="loser"
            )
            self.fields[f"p{pid}-points"] = forms.IntegerField(
                label=f"Points of {name}", required=False, min_value=0, max_value=1000
            )
            self.fields[f"p{pid}-cards"] = forms.CharField(
                label=f"Cards of {name}", required=False, max_length=400
            )

    def lines(self) -> list[dict[str, Any]]:
        """Per seat, the bound fields a page lays out together."""
        return [
            {
                "player": pid,
                "name": name,
                "position": index + 1,
                "outcome": self[f"p{pid}-outcome"],
                "points": self[f"p{pid}-points"],
                "cards": self[f"p{pid}-cards"],
            }
            for index, (pid, name) in enumerate(self.seats)
        ]

    def dealer_id(self) -> int | None:
        value = self.cleaned_data.get("dealer")
        return int(value) if value else None

    def payload(self) -> dict[str, Any]:
        """The result as the API takes it: ``{"wild", "results": [...]}``."""
        results = []
        for pid, _ in self.seats:
            line: dict[str, Any] = {"player": pid, "outcome": self.cleaned_data[f"p{pid}-outcome"]}
            groups, cards = split_cards(self.cleaned_data.get(f"p{pid}-cards") or "")
            if groups is not None:
                line["groups"] = groups
            elif cards is not None:
                line["cards"] = cards
            points = self.cleaned_data.get(f"p{pid}-points")
            if points is not None:
                line["points"] = points
            results.append(line)
        payload: dict[str, Any] = {"results": results}
        wild = (self.cleaned_data.get("wild") or "").strip()
        if wild:
            payload["wild"] = wild
        return payload

    @staticmethod
    def initial_from(payload: dict[str, Any] | None, wild: str = "") -> dict[str, Any]:
        """Initial values that repeat an earlier version (a correction starts from it)."""
        initial: dict[str, Any] = {"wild": (payload or {}).get("wild") or wild}
        for line in (payload or {}).get("results", []):
            pid = line.get("player")
            if pid is None:
                continue
            initial[f"p{pid}-outcome"] = line.get("outcome", "loser")
            if line.get("points") is not None:
                initial[f"p{pid}-points"] = line["points"]
            initial[f"p{pid}-cards"] = cards_text(line)
        return initial


_PLAYER_KEY = re.compile(r"^p(\d+)-")


def initial_for_players(initial: dict[str, Any], aliases: dict[int, int]) -> dict[str, Any]:
    """An earlier version's initial values with the ids of players merged since replaced by the
    player who holds their seat now."""
    if not aliases:
        return initial
    moved: dict[str, Any] = {}
    for key, value in initial.items():
        match = _PLAYER_KEY.match(key)
        if match and int(match.group(1)) in aliases:
            key = f"p{aliases[int(match.group(1))]}-{key[match.end() :]}"
        elif key in ("winner", "last_mover") and str(value).isdigit():
            value = str(aliases.get(int(value), value))
        moved[key] = value
    return moved


# --- Rummikub: a game of the match from the racks -------------------------------------------------

_TILE_SPLIT = re.compile(r"[\s,;]+")
NO_WINNER = "none"
WINS = [("open", "Open (melded in stages)"), ("foot", "Foot (14 tiles at once)"),
        ("closed", "Closed (a closed hand)")]  # fmt: skip
WIN_WORDS = {"open": "Open win", "foot": "Foot win", "closed": "Closed win"}


def split_tiles(text: str) -> list[str]:
    """``"r5 k13, jk"`` -> ``["R5", "K13", "JK"]``: the rules engine checks each tile."""
    return [tile.upper() for tile in _TILE_SPLIT.split(text or "") if tile]


class RummikubEntryForm(OnceForm):
    """One game of a Rummikub match: the tiles left on each rack (typed), who went out (or that
    the pool ran out, and who moved last), and for International how the hand was won, who had
    melded, the closed hand's 14 tiles, a joker as the final discard and the trump holders."""

    def __init__(
        self,
        *args: Any,
        seats: list[tuple[int, str]],
        international: bool = False,
        trump: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.international = international
        self.trump = trump
        players = [(str(pid), name) for pid, name in seats]
        self.fields["winner"] = forms.ChoiceField(
            label="Who went out",
            choices=[("", "— choose —"), *players, (NO_WINNER, "Nobody: the pool ran out")],
        )
        if not international:
            self.fields["last_mover"] = forms.ChoiceField(
                label="Who moved last",
                required=False,
                choices=[("", "— not recorded (the last seat) —"), *players],
            )
        for pid, name in seats:
            self.fields[f"p{pid}-rack"] = forms.CharField(
                label=f"Tiles left on {name}'s rack", required=False, max_length=200
            )
            if international:
                self.fields[f"p{pid}-melded"] = forms.BooleanField(
                    label=f"{name} had melded", required=False
                )
                if trump:
                    self.fields[f"p{pid}-trump"] = forms.BooleanField(
                        label=f"{name} held the trump tile", required=False
                    )
        if international:
            self.fields["win"] = forms.ChoiceField(
                label="How the hand was won", required=False, choices=[("", "—"), *WINS]
            )
            self.fields["closed_hand"] = forms.CharField(
                label="The closed hand's 14 tiles", required=False, max_length=200
            )
            self.fields["final_discard_joker"] = forms.BooleanField(
                label="The final discard was a joker (every score doubles)", required=False
            )

    def lines(self) -> list[dict[str, Any]]:
        return [
            {
                "player": pid,
                "name": name,
                "position": index + 1,
                "rack": self[f"p{pid}-rack"],
                "melded": self[f"p{pid}-melded"] if self.international else None,
                "trump": self[f"p{pid}-trump"] if self.international and self.trump else None,
            }
            for index, (pid, name) in enumerate(self.seats)
        ]

    def winner_id(self) -> int | None:
        value = self.cleaned_data.get("winner")
        return None if value in (None, "", NO_WINNER) else int(value)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        winner = data.get("winner")
        if self.international and winner and winner != NO_WINNER and not data.get("win"):
            self.add_error("win", "say how the hand was won")
        return data

    def payload(self) -> dict[str, Any]:
        """The result as the API takes it: ``{"racks", "winner", ...}``."""
        winner = self.winner_id()
        racks = {str(pid): split_tiles(self.cleaned_data.get(f"p{pid}-rack") or "")
                 for pid, _ in self.seats}  # fmt: skip
        payload: dict[str, Any] = {"racks": racks, "winner": winner}
        if not self.international:
            mover = self.cleaned_data.get("last_mover")
            if winner is None and mover:
                payload["last_mover"] = int(mover)
            return payload
        win = self.cleaned_data.get("win") or None
        if winner is not None:
            payload["win"] = win
        payload["melded"] = {
            str(pid): bool(self.cleaned_data.get(f"p{pid}-melded"))
            for pid, _ in self.seats
            if pid != winner
        }
        if winner is not None and win == "closed":
            payload["closed_hand"] = split_tiles(self.cleaned_data.get("closed_hand") or "")
        if winner is not None and self.cleaned_data.get("final_discard_joker"):
            payload["final_discard_joker"] = True
        holders = [pid for pid, _ in self.seats if self.cleaned_data.get(f"p{pid}-trump")]
        if holders:
            payload["trump_holders"] = holders
        return payload

    @staticmethod
    def initial_from(payload: dict[str, Any] | None, wild: str = "") -> dict[str, Any]:
        """Initial values that repeat an earlier version (a correction starts from it); a
        Rummikub game has no wild joker."""
        if not payload:
            return {}
        initial: dict[str, Any] = {}
        for pid, tiles in (payload.get("racks") or {}).items():
            if isinstance(tiles, list):
                initial[f"p{pid}-rack"] = " ".join(map(str, tiles))
        winner = payload.get("winner")
        initial["winner"] = str(winner) if winner is not None else NO_WINNER
        if payload.get("last_mover") is not None:
            initial["last_mover"] = str(payload["last_mover"])
        if payload.get("win"):
            initial["win"] = payload["win"]
        for pid, melded in (payload.get("melded") or {}).items():
            initial[f"p{pid}-melded"] = bool(melded)
        if isinstance(payload.get("closed_hand"), list):
            initial["closed_hand"] = " ".join(map(str, payload["closed_hand"]))
        initial["final_discard_joker"] = bool(payload.get("final_discard_joker"))
        for pid in payload.get("trump_holders") or []:
            initial[f"p{pid}-trump"] = True
        return initial


# --- pool rummy: rejoin and split -----------------------------------------------------------------


class RejoinForm(forms.Form):
    player = id_form_field(label="Player")


class SplitForm(forms.Form):
    """An agreed split: its kind, and a tick for every remaining player who agrees."""

    kind = forms.ChoiceField(label="Split", choices=[("drops", "By drops"), ("equal", "Equal")])

    def __init__(self, *args: Any, remaining: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["agreed"] = forms.MultipleChoiceField(
            label="Agreed",
            required=False,
            choices=[(str(pid), name) for pid, name in remaining],
            widget=forms.CheckboxSelectMultiple,
        )

    def agreed_ids(self) -> list[int]:
        return [int(pid) for pid in self.cleaned_data.get("agreed") or []]
