"""An API answer of the club against the same answer of its copy: equal but for the ids, which
must be the copy's ids of the same rows (``ids``: each kind's archive id -> the copy's)."""

from __future__ import annotations

import re
from typing import Any

#: Kept by the database of each instance: when a row last changed there.
NOT_COMPARED = frozenset({"updated_at"})
#: Keys whose whole numbers are ids (beside ``id`` and ``*_id``), with their kind where known.
ID_KEYS: dict[str, str | None] = {
    "id": None,
    "player": "clubs.player",
    "winner": "clubs.player",
    "last_mover": "clubs.player",
    "entry": "tournaments.entry",
    "game": "scoring.game",
    "session": "scoring.session",
    "season": "scoring.season",
    "table": "scoring.table",
    "deal": "scoring.deal",
    "tournament": "tournaments.tournament",
    "dealer": "clubs.player",
    "leaders": "clubs.player",
    "book": "ledger.book",
    "purse": "ledger.book",
    "players": None,
    "advanced": None,
    "advancing": None,
    "tiebreaker_game": "scoring.game",
    "event": "series.seriesevent",
    "preset": "scoring.rulepreset",
    "final_preset": "scoring.rulepreset",
}
#: Keys whose whole numbers are ids only in a list (a series line's ``counted`` events); alone,
#: such a key is a count (a player's deals ``counted``).
LISTED_ID_KEYS = {"counted": "series.seriesevent"}
#: Kinds whose rows are the instance's own as well as the club's (migrations make the built-ins).
SHARED = frozenset({"scoring.rulepreset"})
_IN_TEXT = re.compile(r"(?P<name>[a-z_-]+)(?P<sep>[/:=])(?P<id>\d+)")
_TEXT_KINDS = {
    "players": "clubs.player", "player": "clubs.player", "members": "clubs.membership",
    "sessions": "scoring.session", "tables": "scoring.table", "games": "scoring.game",
    "deals": "scoring.deal", "submissions": "scoring.submission", "pot": "ledger.book",
    "tournaments": "tournaments.tournament", "entries": "tournaments.entry",
    "table-links": "scoring.tablelink", "series": "series.series", "webhooks": "webhooks.endpoint",
    "imports": "standings.resultimport",
}  # fmt: skip


class Comparison:
    def __init__(self, ids: dict[str, dict[Any, int]]) -> None:
        self.ids = {kind: {int(k): v for k, v in row.items()} for kind, row in ids.items()}
        self.found: list[str] = []

    def _maps(self, kind: str | None, old: Any, new: Any) -> bool:
        if isinstance(old, bool) or not isinstance(old, int) or not isinstance(new, int):
            return old == new
        kinds = [kind] if kind else list(self.ids)
        if any(self.ids.get(k, {}).get(old) == new for k in kinds):
            return True
        # A row of the instance's own, not the club's (a built-in preset no game was played
        # under): the same on both.
        return kind in SHARED and old == new and old not in self.ids.get(kind, {})

    def _kind_of(self, key: str, listed: bool = False) -> tuple[bool, str | None]:
        if listed and key in LISTED_ID_KEYS:
            return True, LISTED_ID_KEYS[key]
        if key in ID_KEYS:
            return True, ID_KEYS[key]
        for suffix in ("_id", "_ids"):
            if key.endswith(suffix):
                return True, ID_KEYS.get(key[: -len(suffix)])
        return False, None

    def _text(self, text: str) -> str:
        def renewed(match: re.Match[str]) -> str:
            kind = _TEXT_KINDS.get(match["name"])
            new = self.ids.get(kind or "", {}).get(int(match["id"]))
            return match[0] if new is None else f"{match['name']}{match['sep']}{new}"

        return _IN_TEXT.sub(renewed, text)

    def _keys(self, old: dict[str, Any], new: dict[str, Any]) -> dict[str, str]:
        """Old keys -> new: ids where every key is one (a mapping keyed by player)."""
        if old and all(k.isdigit() for k in old):
            wanted = set(new)
            for row in self.ids.values():
                renamed = {k: str(row.get(int(k))) for k in old}
                if set(renamed.values()) == wanted:
                    return renamed
        return {k: k for k in old}

    def compare(
        self,
        old: Any,
        new: Any,
        where: str = "",
        key: str = "",
        own: str | None = None,
        listed: bool = False,
    ) -> None:
        """``own``: the kind of the answer's object (``id``), or of a list's items; ``listed``:
        ``old`` is an item of a list."""
        if len(self.found) > 40:
            return
        is_id, kind = self._kind_of(key, listed)
        if key == "id":
            kind = own
        if isinstance(old, dict) and isinstance(new, dict):
            renamed = self._keys(old, new)
            if sorted(renamed.values()) != sorted(new):
                self.found.append(f"{where}: keys {sorted(old)} against {sorted(new)}")
                return
            for k, value in old.items():
                if k not in NOT_COMPARED:
                    inner = own if k in ("body", "results", "id") else None
                    self.compare(value, new[renamed[k]], f"{where}.{k}", k, inner)
        elif isinstance(old, list) and isinstance(new, list):
            if len(old) != len(new):
                self.found.append(f"{where}: {len(old)} items against {len(new)}")
                return
            for n, (a, b) in enumerate(zip(old, new, strict=True)):
                self.compare(a, b, f"{where}[{n}]", key, own, listed=True)
        elif is_id and isinstance(old, int):
            if not self._maps(kind, old, new):
                self.found.append(f"{where}: id {old} copied as {new!r}")
        elif isinstance(old, str) and isinstance(new, str):
            if self._text(old) != new:
                self.found.append(f"{where}: {old!r} against {new!r}")
        elif old != new:
            self.found.append(f"{where}: {old!r} against {new!r}")
