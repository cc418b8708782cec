"""A season of 20 nights of points rummy in the documented layout (deal by deal), and its
standings computed by hand.

Each night four players play five deals at one table. In deals 1 to 4 each player wins once and,
when losing, has 10, 20 or 30 points counted against them (10 for the seat after the winner's, 20
for the next, 30 for the last): over those four deals every player wins 60 and loses 60. In deal
5 one player wins against 5 points from each of the other three (Arjun on nights 1 to 10, Bhavna
on nights 11 to 20). So over the season:

    Arjun  +15 x 10 - 5 x 10 = +100 points, 30 deals won
    Bhavna -5 x 10 + 15 x 10 = +100 points, 30 deals won
    Charu  -5 x 20           = -100 points, 20 deals won
    Dev    -5 x 20           = -100 points, 20 deals won
and 100 deals played each."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

PLAYERS = ["Arjun", "Bhavna", "Charu", "Dev"]
NIGHTS = 20
FIRST_NIGHT = date(2026, 1, 2)
#: player -> (points, deals won, deals played), by hand (above).
EXPECTED = {
    "Arjun": (100, 30, 100),
    "Bhavna": (100, 30, 100),
    "Charu": (-100, 20, 100),
    "Dev": (-100, 20, 100),
}


def season_rows() -> list[list[str]]:
    rows = [["Date", "Night", "Table", "Deal", "Player", "Outcome", "Points"]]
    for night in range(NIGHTS):
        day = (FIRST_NIGHT + timedelta(days=7 * night)).isoformat()
        name = f"Friday {night + 1}"
        for deal in range(4):
            for seat, player in enumerate(PLAYERS):
                offset = (seat - deal) % 4
                if offset == 0:
                    rows.append([day, name, "Table 1", str(deal + 1), player, "winner", ""])
                else:
                    rows.append([day, name, "Table 1", str(deal + 1), player, "loser",
                                 str(10 * offset)])  # fmt: skip
        winner = "Arjun" if night < 10 else "Bhavna"
        for player in PLAYERS:
            outcome, points = ("winner", "") if player == winner else ("loser", "5")
            rows.append([day, name, "Table 1", "5", player, outcome, points])
    return rows


def season_csv() -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(season_rows())
    return out.getvalue().encode()
