"""A chip-level tournament's panel on the desk and the public page: the chip counts, most
first, and its levels in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.page_kit.display import club_money
from tournaments.kinds.base import RoundShown
from tournaments.kinds.chips.levels import rules_of
from tournaments.models import Entry, Round, Tournament


def _chip_status(entry: Entry, last: RoundShown | None) -> str:
    """An entrant's standing in words: out, at the final table, gone on from the last level
    played (and waiting for the next), or playing."""
    if entry.status != Entry.Status.ACTIVE or last is None:
        return entry.get_status_display()
    if last.stage == Round.Stage.FINAL:
        if entry.place:
            return _("Final table, place %(place)s") % {"place": entry.place}
        return _("Final table")
    return _("Went on") if entry.player_id in last.advanced else entry.get_status_display()


def chips_panel(
    *, club: Club, tournament: Tournament, entries: Sequence[Entry],
    rounds: Sequence[RoundShown], draft_open: bool,
) -> dict[str, Any]:  # fmt: skip
    """The chip counts and the levels; a rebuy is offered (``draft_open``: on the desk, while
    the next round is drawn) to those knocked out at the end of the last level (the service
    says why when it is not allowed)."""
    rules = rules_of(tournament)
    last = next((r for r in reversed(rounds) if r.status == Round.Status.COMPLETE), None)
    offer = rules.rebuys > 0 and draft_open and last is not None
    shown = sorted(
        (e for e in entries if e.chips is not None and e.seed is not None),
        key=lambda e: (e.status != Entry.Status.ACTIVE, -(e.chips or 0), e.player.name),
    )
    rows = [
        {
            "entry": e.pk,
            "name": e.player.name,
            "chips": e.chips or 0,
            "status": e.status,
            "status_words": _chip_status(e, last),
            "rebuys": e.rebuys,
            "rebuy": offer
            and e.status == Entry.Status.ELIMINATED
            and last is not None
            and e.out_in_round == last.number
            and e.rebuys < rules.rebuys,
        }
        for e in shown
    ]
    current = rounds[-1] if rounds else None
    return {
        "rows": rows,
        "level": current.level if current else None,
        "levels": [
            {"number": n, "value": lv.point_value, "minimum": lv.minimum, "qualify": lv.qualify}
            for n, lv in enumerate(rules.levels, start=1)
        ],
        "starting": rules.starting_chips,
        "rebuys": rules.rebuys,
        "rebuy_price": club_money(club, rules.rebuy_price_minor),
        "rebuy_chips": rules.rebuy_chips,
        "rebuy_until": rules.rebuy_until_level,
    }  # fmt: skip
