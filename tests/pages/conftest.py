"""Fixtures of the page tests: the standing club with a night in play, and logged-in clients."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client

from scoring.models import Deal, Submission
from tests.conftest import Standing
from tests.scoring.conftest import Night, make_night
from tests.scoring.helpers import enter_deal

WILD = "QD"
# A valid declaration with Q wild: two pure sequences and a set of 5s with three jokers.
WINNER_GROUPS = [["2H", "3H", "4H", "5H"], ["5C", "6C", "7C", "8C"], ["5D", "5C", "JK", "QH", "QS"]]
# A loser's hand, grouped: two pure sequences and a set; 7H 8H AS 6D count (31).
LOSER_GROUPS = [
    ["9S", "10S", "JS"],
    ["2D", "3D", "4D"],
    ["KH", "KD", "KC"],
    ["7H", "8H", "AS", "6D"],
]
# A winner whose second group is not a run (9C instead of 8C).
WRONG_GROUPS = [["2H", "3H", "4H", "5H"], ["5C", "6C", "7C", "9C"], ["5D", "5C", "JK", "QH", "QS"]]


def text(groups: list[list[str]]) -> str:
    return " | ".join(" ".join(group) for group in groups)


@dataclass
class Pages:
    """The standing club, a night (session, table, game of six) and a client per standing user."""

    s: Standing
    night: Night

    @property
    def slug(self) -> str:
        return self.s.club.slug

    def client(self, who: str) -> Client:
        client = Client()
        if who != "anonymous":
            client.force_login(getattr(self.s, who))
        return client

    def form(self, winner_groups: list[list[str]] = WINNER_GROUPS, **extra: Any) -> dict[str, Any]:
        """A whole deal as the entry page posts it: Farid wins with cards, Asha loses with cards,
        Bilal counts 23 without cards, the rest drop or miss turns."""
        n = self.night
        data = {
            "wild": WILD,
            "dealer": "",
            f"p{n.pid('Asha')}-outcome": "loser",
            f"p{n.pid('Asha')}-cards": text(LOSER_GROUPS),
            f"p{n.pid('Bilal')}-outcome": "loser",
            f"p{n.pid('Bilal')}-points": "23",
            f"p{n.pid('Chitra')}-outcome": "first_drop",
            f"p{n.pid('Dev')}-outcome": "middle_drop",
            f"p{n.pid('Esther')}-outcome": "missed_turns",
            f"p{n.pid('Farid')}-outcome": "winner",
            f"p{n.pid('Farid')}-cards": text(winner_groups),
        }
        data.update(extra)
        return data

    def play_deal(self) -> tuple[Deal, Submission]:
        """One counted deal, entered through the service as the pages do."""
        n = self.night
        payload = {
            "wild": WILD,
            "results": n.results(
                Asha={"outcome": "loser", "groups": LOSER_GROUPS},
                Bilal={"outcome": "loser", "points": 23},
                Chitra={"outcome": "first_drop"},
                Dev={"outcome": "middle_drop"},
                Esther={"outcome": "missed_turns"},
                Farid={"outcome": "winner", "groups": WINNER_GROUPS},
            ),
        }
        deal, submission = enter_deal(n.game, self.s.organiser, payload, wild=WILD, source="web")
        assert submission is not None
        submission.refresh_from_db()
        assert submission.status == "accepted", submission.reasons
        return deal, submission


@pytest.fixture
def pages(standing: Standing) -> Pages:
    return Pages(standing, make_night(standing))
