"""The deal entry form of Indian rummy (points, pool and deals): the wild joker, the dealer, and
for each seat the outcome, optional points and the cards as typed (``|`` between groups)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from clubs.page_kit.forms import OnceForm
from rules.indian.deal import OutcomeOption
from scoring.formats.indian.payload import entered_against

#: Outcomes as tables show them, short enough for a phone.
OUTCOME_WORDS = {
    "winner": gettext_noop("Winner"), "loser": gettext_noop("Loser"),
    "first_drop": gettext_noop("First drop"), "middle_drop": gettext_noop("Middle drop"),
    "missed_turns": gettext_noop("Missed turns"), "wrong_show": gettext_noop("Wrong show"),
    "late_declare": gettext_noop("Late declare"), "deal_show": gettext_noop("Deal show"),
    "valid_not_declared": gettext_noop("Valid, not declared"),
}  # fmt: skip

#: The outcomes as the entry form offers them, in the page's language (the rules engine's own
#: labels, rules.indian.deal.OUTCOME_LABELS, are its English).
OUTCOME_CHOICES = {
    "winner": _("Winner (showed)"),
    "loser": _("Loser (counts cards)"),
    "first_drop": _("First drop"),
    "middle_drop": _("Middle drop"),
    "missed_turns": _("Missed 3 turns"),
    "wrong_show": _("Wrong show"),
    "late_declare": _("Late declare"),
    "valid_not_declared": _("Valid, not declared"),
    "deal_show": _("Deal show (no turn yet)"),
}

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


# A loser's points as a reader says what is wrong with them (Django's "Ensure this value is
# greater than or equal to 0" is not said at a card table).
POINTS_ERRORS = {
    "invalid": "must be a whole number of points, like 20",
    "min_value": "cannot be negative: give the points the player counts, like 20",
    "max_value": "cannot be more than %(limit_value)s",
}


class DealEntryForm(OnceForm):
    """The wild joker once per deal, then for each seat: the outcome (one of those the game's
    format offers), optional points, and optional cards as typed (``|`` between groups)."""

    wild = forms.CharField(label=_("Wild joker (cut card)"), max_length=8, required=False)

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
        choices = [
            (option.code, OUTCOME_CHOICES.get(option.code, option.label)) for option in outcomes
        ]
        self.fields["dealer"] = forms.ChoiceField(
            label=_("Dealer"),
            required=False,
            choices=[("", _("— not recorded —")), *[(str(pid), name) for pid, name in seats]],
        )
        for pid, name in seats:
            self.fields[f"p{pid}-outcome"] = forms.ChoiceField(
                label=_("Outcome of %(name)s") % {"name": name}, choices=choices, initial="loser"
            )
            self.fields[f"p{pid}-points"] = forms.IntegerField(
                label=_("Points of %(name)s") % {"name": name}, required=False, min_value=0,
                max_value=1000, error_messages=POINTS_ERRORS,
            )  # fmt: skip
            self.fields[f"p{pid}-cards"] = forms.CharField(
                label=_("Cards of %(name)s") % {"name": name}, required=False, max_length=400
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

    def deal_fields(self) -> tuple[str, int | None]:
        """The wild joker and the dealer, kept on the deal itself."""
        dealer = self.cleaned_data.get("dealer")
        return (self.cleaned_data.get("wild") or "").strip(), int(dealer) if dealer else None

    def payload(self) -> dict[str, Any]:
        """The result as the API takes it: ``{"wild", "results": [...]}``."""
        results = []
        for pid, _name in self.seats:
            line: dict[str, Any] = {"player": pid, "outcome": self.cleaned_data[f"p{pid}-outcome"]}
            groups, cards = split_cards(self.cleaned_data.get(f"p{pid}-cards") or "")
            if groups is not None:
                line["groups"] = groups
            elif cards is not None:
                line["cards"] = cards
            against = self.cleaned_data.get(f"p{pid}-points")
            if against is not None:
                line["against"] = against
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
            against = entered_against(line)
            if against is not None:
                initial[f"p{pid}-points"] = against
            initial[f"p{pid}-cards"] = cards_text(line)
        return initial
