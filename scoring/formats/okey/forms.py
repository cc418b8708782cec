"""The entry form of a deal of Okey: the indicator tile, who finished and how, who showed the
indicator's twin, and the finisher's tiles."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.page_kit.forms import OnceForm
from scoring.formats.cards import split_tiles

NO_FINISHER = "none"
FINISH_CHOICES = [("melds", _("In melds")), ("pairs", _("Seven pairs"))]


class OkeyEntryForm(OnceForm):
    """One deal of Okey: the indicator (typed as a tile), who finished (or that the tiles ran
    out), how (melds or seven pairs, by discarding the okey), the finisher's 14 tiles (optional:
    the rules check they finish as said) and who showed the indicator's twin."""

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        players = [(str(pid), name) for pid, name in seats]
        self.fields["indicator"] = forms.CharField(label=_("Indicator"), max_length=8)
        self.fields["winner"] = forms.ChoiceField(
            label=_("Who finished"),
            choices=[
                ("", _("— choose —")),
                *players,
                (NO_FINISHER, _("Nobody: the tiles ran out")),
            ],
        )
        self.fields["finish"] = forms.ChoiceField(
            label=_("How"), choices=FINISH_CHOICES, required=False
        )
        self.fields["okey_discard"] = forms.BooleanField(
            label=_("Finished by discarding the okey"), required=False
        )
        self.fields["hand"] = forms.CharField(
            label=_("The finisher's tiles"), required=False, max_length=200
        )
        for pid, _name in seats:
            self.fields[f"p{pid}-shown"] = forms.BooleanField(
                label=_("Showed the indicator"), required=False
            )

    def lines(self) -> list[dict[str, Any]]:
        return [
            {"player": pid, "name": name, "position": index + 1, "shown": self[f"p{pid}-shown"]}
            for index, (pid, name) in enumerate(self.seats)
        ]

    def deal_fields(self) -> tuple[str, int | None]:
        """The indicator is part of the result; no wild joker or dealer is recorded."""
        return "", None

    def payload(self) -> dict[str, Any]:
        """The result as the API takes it: ``{"okey": {"indicator", "finisher", ...}}``."""
        data = self.cleaned_data
        winner = data.get("winner")
        finisher = None if winner in (None, "", NO_FINISHER) else int(winner)
        tiles = split_tiles(data.get("indicator") or "")
        deal: dict[str, Any] = {
            # More than one tile typed is sent as typed, for the rules to name.
            "indicator": tiles[0] if len(tiles) == 1 else " ".join(tiles),
            "finisher": finisher,
        }
        if finisher is not None:
            deal["finish"] = data.get("finish") or "melds"
            deal["okey_discard"] = bool(data.get("okey_discard"))
            hand = split_tiles(data.get("hand") or "")
            if hand:
                deal["hand"] = hand
        shown = [pid for pid, _name in self.seats if data.get(f"p{pid}-shown")]
        if shown:
            deal["indicator_shown"] = shown
        return {"okey": deal}

    @staticmethod
    def initial_from(payload: dict[str, Any] | None) -> dict[str, Any]:
        """Initial values that repeat an earlier version (a correction starts from it)."""
        deal = (payload or {}).get("okey")
        if not isinstance(deal, dict):
            return {}
        finisher = deal.get("finisher")
        initial: dict[str, Any] = {
            "indicator": str(deal.get("indicator") or ""),
            "winner": str(finisher) if finisher is not None else NO_FINISHER,
            "finish": deal.get("finish") or "melds",
            "okey_discard": bool(deal.get("okey_discard")),
        }
        if isinstance(deal.get("hand"), list):
            initial["hand"] = " ".join(map(str, deal["hand"]))
        for pid in deal.get("indicator_shown") or []:
            initial[f"p{pid}-shown"] = True
        return initial
