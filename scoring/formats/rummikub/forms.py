"""The entry form of a game of a Rummikub match: the tiles left on each rack, who went out, and
International's extras."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from clubs.page_kit.forms import OnceForm
from scoring.formats.cards import split_tiles

NO_WINNER = "none"
WINS = [("open", _("Open (melded in stages)")), ("foot", _("Foot (14 tiles at once)")),
        ("closed", _("Closed (a closed hand)"))]  # fmt: skip
WIN_WORDS = {
    "open": gettext_noop("Open win"),
    "foot": gettext_noop("Foot win"),
    "closed": gettext_noop("Closed win"),
}


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
        opening_asked: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.international = international
        self.trump = trump
        # Who had melded: International's scores, or a house rule's penalty for never opening.
        self.melded_asked = international or opening_asked
        players = [(str(pid), name) for pid, name in seats]
        self.fields["winner"] = forms.ChoiceField(
            label=_("Who went out"),
            choices=[("", _("— choose —")), *players, (NO_WINNER, _("Nobody: the pool ran out"))],
        )
        if not international:
            self.fields["last_mover"] = forms.ChoiceField(
                label=_("Who moved last"),
                required=False,
                choices=[("", _("— not recorded (the last seat) —")), *players],
            )
        for pid, name in seats:
            self.fields[f"p{pid}-rack"] = forms.CharField(
                label=_("Tiles left on %(name)s's rack") % {"name": name},
                required=False,
                max_length=200,
            )
            if self.melded_asked:
                self.fields[f"p{pid}-melded"] = forms.BooleanField(
                    label=_("%(name)s had melded") % {"name": name}, required=False
                )
            if international and trump:
                self.fields[f"p{pid}-trump"] = forms.BooleanField(
                    label=_("%(name)s held the trump tile") % {"name": name}, required=False
                )
        if international:
            self.fields["win"] = forms.ChoiceField(
                label=_("How the hand was won"), required=False, choices=[("", "—"), *WINS]
            )
            self.fields["closed_hand"] = forms.CharField(
                label=_("The closed hand's 14 tiles"), required=False, max_length=200
            )
            self.fields["final_discard_joker"] = forms.BooleanField(
                label=_("The final discard was a joker (every score doubles)"), required=False
            )

    def lines(self) -> list[dict[str, Any]]:
        return [
            {
                "player": pid,
                "name": name,
                "position": index + 1,
                "rack": self[f"p{pid}-rack"],
                "melded": self[f"p{pid}-melded"] if self.melded_asked else None,
                "trump": self[f"p{pid}-trump"] if self.international and self.trump else None,
            }
            for index, (pid, name) in enumerate(self.seats)
        ]

    def deal_fields(self) -> tuple[str, int | None]:
        """A game of a match has no wild joker and no dealer recorded."""
        return "", None

    def winner_id(self) -> int | None:
        value = self.cleaned_data.get("winner")
        return None if value in (None, "", NO_WINNER) else int(value)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        winner = data.get("winner")
        if self.international and winner and winner != NO_WINNER and not data.get("win"):
            self.add_error("win", _("say how the hand was won"))
        return data

    def payload(self) -> dict[str, Any]:
        """The result as the API takes it: ``{"racks", "winner", ...}``."""
        winner = self.winner_id()
        racks = {str(pid): split_tiles(self.cleaned_data.get(f"p{pid}-rack") or "")
                 for pid, _ in self.seats}  # fmt: skip
        payload: dict[str, Any] = {"racks": racks, "winner": winner}
        if self.melded_asked:
            payload["melded"] = {
                str(pid): bool(self.cleaned_data.get(f"p{pid}-melded"))
                for pid, _ in self.seats
                if pid != winner
            }
        if not self.international:
            mover = self.cleaned_data.get("last_mover")
            if winner is None and mover:
                payload["last_mover"] = int(mover)
            return payload
        win = self.cleaned_data.get("win") or None
        if winner is not None:
            payload["win"] = win
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
