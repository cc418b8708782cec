"""The game families: the one list of them. Ratings keep each family apart (a rummy point and a
Rummikub score rank different skills), and every format belongs to one."""

from __future__ import annotations

import enum


class Family(enum.StrEnum):
    INDIAN = "indian"
    RUMMIKUB = "rummikub"
    OKEY = "okey"

    @property
    def label(self) -> str:
        return LABELS[self]


LABELS: dict[Family, str] = {
    Family.INDIAN: "Indian rummy",
    Family.RUMMIKUB: "Rummikub",
    Family.OKEY: "Okey",
}
