"""Past results checked before anything is stored: a sheet (``standings.result_sheet``) turned into
a plan of nights, tables and deals with roster player ids, and every row's errors by column.

Players are found on the roster by name (case, accents and spacing aside, ``clubs.name_match``);
a name not on it is an error naming the row, with the roster's similar names offered, unless the
request maps it to a player (``names``). Each deal is checked by the game's rules, as a live entry
is (``handler.submission_check``); each table of a night's totals must sum to zero. The plan's
digest (its fingerprint) is the same for the same results whatever the file's format or order of
columns."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Club, Player
from clubs.name_match import NameIndex, name_key
from config.errors import InvalidInput
from rules.ranking import competition_ranks
from scoring.formats import handler_for
from scoring.formats.reason_words import reason_words
from scoring.models import Deal, Game, RulePreset, Submission
from scoring.preset_rules import game_rules
from standings.result_sheet import (
    DEALS_GAMES,
    POINTS_DEALS,
    POINTS_NIGHTS,
    POOL_GAMES,
    RUMMIKUB_GAMES,
    Layout,
    ResultSheet,
)

DEFAULT_TABLE = "Table 1"
MAX_NAME = 120


@dataclass
class RowError:
    row: int
    column: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"row": self.row, "column": self.column, "message": self.message}


@dataclass
class ResultPlan:
    """What the import would write, and what stops it."""

    layout: str
    nights: list[dict[str, Any]]
    errors: list[RowError] = field(default_factory=list)
    unknown: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def deals(self) -> int:
        return sum(len(t["deals"]) for n in self.nights for t in n["tables"])

    @property
    def fingerprint(self) -> str:
        text = json.dumps([self.layout, _without_rows(self.nights)], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()


def _without_rows(value: Any) -> Any:
    """The plan without its row numbers: the same results on other rows are the same sheet."""
    if isinstance(value, dict):
        return {k: _without_rows(v) for k, v in value.items() if k != "row"}
    if isinstance(value, list):
        return [_without_rows(v) for v in value]
    return value


def _date(text: str) -> date | None:
    for pattern in ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%Y-%m-%d %H:%M:%S"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def _money(text: str, places: int) -> int | None:
    """An amount of money in the club's currency (``250``, ``-99.50``) in minor units."""
    try:
        amount = Decimal(text.replace(" ", "").replace(",", ""))
    except InvalidOperation:
        return None
    minor = amount * 10**places
    if not amount.is_finite() or minor != minor.to_integral_value() or abs(minor) >= 10**15:
        return None
    return int(minor)


def _int(text: str) -> int | None:
    try:
        number = int(text.replace(" ", ""))
    except ValueError:
        return None
    return number if abs(number) < 10**9 else None


class _Roster:
    """The club's active players by name, and the names the request maps to players."""

    def __init__(self, club: Club, names: dict[str, int] | None) -> None:
        self.club = club
        players = Player.objects.filter(club=club, merged_into__isnull=True, active=True)
        self.names = dict(players.values_list("pk", "name"))
        self.index = NameIndex(self.names.items())
        self.chosen: dict[str, int] = {}
        for given, pk in (names or {}).items():
            if pk not in self.names:
                words = _("player %(id)s is not an active player of this club") % {"id": pk}
                raise InvalidInput(
                    f"names: {given!r}: {words}",
                    details={"names": {given: pk}},
                )
            self.chosen[name_key(given)] = pk

    def find(self, name: str) -> int | None:
        key = name_key(name)
        if key in self.chosen:
            return self.chosen[key]
        same = self.index.same(key)
        return same[0] if len(same) == 1 else None

    def suggestions(self, name: str) -> list[dict[str, Any]]:
        key = name_key(name)
        pks = [*self.index.same(key), *self.index.reordered(key), *self.index.similar(key)]
        return [{"id": pk, "name": self.names[pk]} for pk in dict.fromkeys(pks)][:5]


def _common(row: int, cells: dict[str, str], roster: _Roster, plan: ResultPlan) -> Any:
    """The cells every layout has: the night's date and name, the table, the player."""
    errors = plan.errors
    day = _date(cells.get("date", ""))
    if day is None:
        words = _("%(value)s is not a date (2026-01-09)") % {"value": repr(cells.get("date"))}
        errors.append(RowError(row, "date", words))
    night = " ".join(cells.get("night", "").split())
    table = " ".join(cells.get("table", "").split()) or DEFAULT_TABLE
    for column, text in (("night", night), ("table", table)):
        if len(text) > (40 if column == "table" else MAX_NAME):
            errors.append(RowError(row, column, _("too long")))
    name = " ".join(cells.get("player", "").split())
    player = roster.find(name) if name else None
    if not name:
        errors.append(RowError(row, "player", _("empty: every row names a player")))
    elif player is None:
        words = _("%(name)s is not on the roster") % {"name": repr(name)}
        errors.append(RowError(row, "player", words))
        unknown = plan.unknown.setdefault(name, {"rows": [], "suggestions": []})
        unknown["rows"].append(row)
        unknown["suggestions"] = roster.suggestions(name)
    night = night or (f"Night of {day.isoformat()}" if day else "")
    return day, night, table, player


def _night(nights: dict[tuple[str, str], dict[str, Any]], day: date, name: str, row: int) -> Any:
    return nights.setdefault(
        (day.isoformat(), name),
        {"row": row, "date": day.isoformat(), "name": name, "tables": {}},
    )


def _deal_rows(sheet: ResultSheet, roster: _Roster, plan: ResultPlan) -> dict[Any, Any]:
    nights: dict[tuple[str, str], dict[str, Any]] = {}
    for row, cells in sheet.rows:
        day, night_name, table_name, player = _common(row, cells, roster, plan)
        number = _int(cells.get("deal", ""))
        if number is None or number < 1:
            plan.errors.append(RowError(row, "deal", _("the deal's number: 1, 2, 3, ...")))
        outcome = cells.get("outcome", "").strip().lower().replace(" ", "_")
        if not outcome:
            words = _("empty: winner, loser, first_drop, ...")
            plan.errors.append(RowError(row, "outcome", words))
        line: dict[str, Any] = {"player": player, "outcome": outcome}
        if cells.get("points"):
            points = _int(cells["points"])
            if points is None or points < 0:
                plan.errors.append(RowError(row, "points", _("a whole number, 0 or more")))
            line["against"] = points
        if day is None or number is None or player is None:
            continue
        table = _night(nights, day, night_name, row)["tables"].setdefault(
            table_name, {"row": row, "name": table_name, "deals": {}}
        )
        deal = table["deals"].setdefault(number, {"row": row, "number": number, "lines": []})
        if any(other["player"] == player for other, _ in deal["lines"]):
            plan.errors.append(RowError(row, "player", _("already on this deal")))
            continue
        deal["lines"].append((line, row))
    return nights


def _deals_checked(nights: dict[Any, Any], preset: RulePreset, plan: ResultPlan) -> None:
    """Each table's deals in order, every deal checked by the game's rules."""
    rules = game_rules(preset)
    handler = handler_for(preset.format)
    game = Game(format=preset.format, preset=preset)
    for night in nights.values():
        tables = []
        for table in night["tables"].values():
            deals = [table["deals"][n] for n in sorted(table["deals"])]
            seated = [pid for pid in dict.fromkeys(line["player"] for line, _ in deals[0]["lines"])]
            if not rules.min_players <= len(seated) <= rules.max_players:
                words = _(
                    "%(table)s: %(count)s players; a %(preset)s table seats %(min)s to %(max)s"
                )
                plan.errors.append(RowError(deals[0]["row"], "player", words % {
                    "table": table["name"], "count": len(seated), "preset": preset.shown_name,
                    "min": rules.min_players, "max": rules.max_players,
                }))  # fmt: skip
            checked_deals = []
            for deal in deals:
                rows = {line["player"]: row for line, row in deal["lines"]}
                if set(rows) != set(seated):
                    words = _("deal %(number)s of %(table)s has other players than its first "
                              "deal: put them on another table")  # fmt: skip
                    plan.errors.append(RowError(deal["row"], "player", words % {
                        "number": deal["number"], "table": table["name"],
                    }))  # fmt: skip
                    continue
                payload = {"results": [line for line, _ in deal["lines"]]}
                submission = Submission(payload=payload, deal=Deal(game=game, wild=""))
                players = {pid: str(pid) for pid in seated}
                checked = handler.submission_check(
                    submission=submission, rules=rules, players=players
                )
                for reason in checked.reasons:
                    row = rows.get(reason.get("player") or 0, deal["row"])
                    column = "points" if "point" in reason["code"] else "outcome"
                    plan.errors.append(RowError(row, column, reason_words(reason)))
                checked_deals.append(
                    {"row": deal["row"], "number": deal["number"], "results": payload["results"]}
                )
            tables.append({"row": table["row"], "name": table["name"], "players": seated,
                           "deals": checked_deals, "totals": []})  # fmt: skip
        plan.nights.append({**night, "tables": tables})


def _totals(sheet: ResultSheet, roster: _Roster, plan: ResultPlan, preset: RulePreset) -> None:
    rules = game_rules(preset)
    nights: dict[tuple[str, str], dict[str, Any]] = {}
    for row, cells in sheet.rows:
        day, night_name, table_name, player = _common(row, cells, roster, plan)
        points = _int(cells.get("points", ""))
        if points is None:
            plan.errors.append(RowError(row, "points", _("a whole number (- for a loss)")))
        if day is None or player is None or points is None:
            continue
        table = _night(nights, day, night_name, row)["tables"].setdefault(
            table_name, {"row": row, "name": table_name, "totals": [], "rows": []}
        )
        if any(line["player"] == player for line in table["totals"]):
            plan.errors.append(RowError(row, "player", _("already on this night's table")))
            continue
        table["totals"].append({"row": row, "player": player, "points": points})
    for night in nights.values():
        tables = []
        for table in night["tables"].values():
            total = sum(line["points"] for line in table["totals"])
            rows = [line["row"] for line in table["totals"]]
            if total:
                words = _("%(night)s (%(date)s), %(table)s: the points sum to %(total)s, not 0 "
                          "(rows %(first)s to %(last)s)")  # fmt: skip
                plan.errors.append(RowError(rows[-1], "points", words % {
                    "night": night["name"], "date": night["date"], "table": table["name"],
                    "total": f"{total:+d}", "first": rows[0], "last": rows[-1],
                }))  # fmt: skip
            _seats_check(plan, rules, rows, table["name"])
            tables.append({"row": table["row"], "name": table["name"], "deals": [],
                           "players": [line["player"] for line in table["totals"]],
                           "totals": table["totals"]})  # fmt: skip
        plan.nights.append({**night, "tables": tables})


def _places(sheet: ResultSheet, roster: _Roster, plan: ResultPlan, preset: RulePreset) -> None:
    """Pool and deals games: each table's final places (competition ranks: 1, 2, 2, 4) and
    money, which sums to zero."""
    rules, club = game_rules(preset), roster.club
    nights: dict[tuple[str, str], dict[str, Any]] = {}
    for row, cells in sheet.rows:
        day, night_name, table_name, player = _common(row, cells, roster, plan)
        place = _int(cells.get("place", ""))
        if place is None or place < 1:
            words = _("%(value)s is not a place: 1 for the winner, 2, 3, ...")
            plan.errors.append(RowError(row, "place", words % {"value": repr(cells.get("place"))}))
        money = _money(cells.get("money") or "0", club.minor_places)
        if money is None:
            plan.errors.append(RowError(row, "money", _("an amount of money (250, -99.50)")))
        elif money and club.points_only:
            words = _("%(club)s plays for points only: leave the money empty")
            plan.errors.append(RowError(row, "money", words % {"club": club.name}))
        if day is None:
            continue
        table = _night(nights, day, night_name, row)["tables"].setdefault(
            table_name, {"row": row, "name": table_name, "lines": []}
        )
        if player is None or place is None or place < 1 or money is None:
            table["broken"] = True  # its sum and places wait for the row to be put right
            continue
        if any(line["player"] == player for line in table["lines"]):
            plan.errors.append(RowError(row, "player", _("already on this night's table")))
            continue
        table["lines"].append({"row": row, "player": player, "place": place, "money": money})
    for night in nights.values():
        tables = []
        for table in night["tables"].values():
            if table.get("broken"):
                continue
            lines, where = table["lines"], f"{night['name']} ({night['date']}), {table['name']}"
            rows = [line["row"] for line in lines]
            _seats_check(plan, rules, rows, table["name"])
            ranks = competition_ranks(dict(enumerate(line["place"] for line in lines)), best="low")
            for index, line in enumerate(lines):
                if ranks[index] != line["place"]:
                    words = _(
                        "%(where)s: place %(place)s of %(count)s players; places run 1, 2, 3, "
                        "... and equal places share the best of them (1, 2, 2, 4)"
                    )
                    plan.errors.append(RowError(line["row"], "place", words % {
                        "where": where, "place": line["place"], "count": len(lines),
                    }))  # fmt: skip
            total = sum(line["money"] for line in lines)
            if total:
                shown = Decimal(total).scaleb(-club.minor_places)
                words = _("%(where)s: the money sums to %(total)s, not 0 (rows %(first)s to "
                          "%(last)s)")  # fmt: skip
                plan.errors.append(RowError(rows[-1], "money", words % {
                    "where": where, "total": f"{shown:+}", "first": rows[0], "last": rows[-1],
                }))  # fmt: skip
            tables.append({"row": table["row"], "name": table["name"], "deals": [],
                           "players": [line["player"] for line in lines], "totals": [],
                           "places": lines})  # fmt: skip
        plan.nights.append({**night, "tables": tables})


def _seats_check(plan: ResultPlan, rules: Any, rows: list[int], table: str) -> None:
    if not rules.min_players <= len(rows) <= rules.max_players:
        words = _("%(table)s: %(count)s players; a table seats %(min)s to %(max)s (add a table "
                  "column)")  # fmt: skip
        plan.errors.append(RowError(rows[0], "player", words % {
            "table": table, "count": len(rows), "min": rules.min_players,
            "max": rules.max_players,
        }))  # fmt: skip


def _game_rows(sheet: ResultSheet, roster: _Roster, plan: ResultPlan) -> dict[Any, Any]:
    nights: dict[tuple[str, str], dict[str, Any]] = {}
    for row, cells in sheet.rows:
        day, night_name, table_name, player = _common(row, cells, roster, plan)
        number = _int(cells.get("game", ""))
        if number is None or number < 1:
            words = _("the game's number at its table: 1, 2, ...")
            plan.errors.append(RowError(row, "game", words))
        score = _int(cells.get("score", ""))
        if score is None:
            plan.errors.append(RowError(row, "score", _("a whole number (- for tiles left)")))
        if day is None:
            continue
        table = _night(nights, day, night_name, row)["tables"].setdefault(
            table_name, {"row": row, "name": table_name, "games": {}}
        )
        if player is None or number is None or number < 1 or score is None:
            table["broken"] = True  # its games' sums wait for the row to be put right
            continue
        game = table["games"].setdefault(number, [])
        if any(line["player"] == player for line in game):
            plan.errors.append(RowError(row, "player", _("already in this game")))
            continue
        game.append({"row": row, "player": player, "points": score, "game": number})
    return nights


def _game_scores(sheet: ResultSheet, roster: _Roster, plan: ResultPlan, preset: RulePreset) -> None:
    """Rummikub: each game's scores at a table (a match), summing to zero with one winner at
    most, every game played by the players of the table's first game."""
    rules = game_rules(preset)
    for night in _game_rows(sheet, roster, plan).values():
        tables = []
        for table in night["tables"].values():
            if table.get("broken"):
                continue
            numbers = sorted(table["games"])
            first = table["games"][numbers[0]]
            seated = [line["player"] for line in first]
            _seats_check(plan, rules, [line["row"] for line in first], table["name"])
            totals = []
            for number in numbers:
                lines = table["games"][number]
                rows = [line["row"] for line in lines]
                total = sum(line["points"] for line in lines)
                winners = sum(1 for line in lines if line["points"] > 0)
                values = {"night": night["name"], "date": night["date"], "table": table["name"],
                          "number": number, "total": f"{total:+d}", "first": rows[0],
                          "last": rows[-1], "winners": winners}  # fmt: skip
                if {line["player"] for line in lines} != set(seated):
                    words = _("%(night)s (%(date)s), %(table)s, game %(number)s has other "
                              "players than its first game: put them at another table")  # fmt: skip
                    plan.errors.append(RowError(rows[0], "player", words % values))
                elif total:
                    words = _("%(night)s (%(date)s), %(table)s, game %(number)s: the scores sum "
                              "to %(total)s, not 0 (rows %(first)s to %(last)s)")  # fmt: skip
                    plan.errors.append(RowError(rows[-1], "score", words % values))
                elif winners > 1:
                    words = _("%(night)s (%(date)s), %(table)s, game %(number)s: %(winners)s "
                              "players score more than 0; a game has one winner")  # fmt: skip
                    plan.errors.append(RowError(rows[-1], "score", words % values))
                totals += lines
            tables.append({"row": table["row"], "name": table["name"], "deals": [],
                           "players": seated, "totals": totals})  # fmt: skip
        plan.nights.append({**night, "tables": tables})


def layout_preset_check(*, club: Club, layout: Layout, preset: RulePreset) -> None:
    """Refuse a preset the layout's results cannot be imported under."""
    if preset.club_id not in (None, club.pk) or preset.format not in layout.formats:
        words = _("the %(layout)s layout takes a %(formats)s preset of this club or a built-in one")
        formats = " or ".join(layout.formats)
        raise InvalidInput(
            "preset: " + words % {"layout": layout.key, "formats": formats},
            details={"preset": preset.pk},
        )
    if not handler_for(preset.format).scores_balance(rules=game_rules(preset)):
        words = _("%(preset)s's scores do not sum to zero a game (its match settles at its end): "
                  "choose a preset whose games' scores do (Sabra or American)")  # fmt: skip
        raise InvalidInput(
            "preset: " + words % {"preset": preset.shown_name}, details={"preset": preset.pk}
        )


def results_plan(
    *, club: Club, sheet: ResultSheet, preset: RulePreset, names: dict[str, int] | None = None
) -> ResultPlan:
    """The sheet's nights as they would be written, in date order, with every row's errors."""
    layout_preset_check(club=club, layout=sheet.layout, preset=preset)
    roster = _Roster(club, names)
    plan = ResultPlan(sheet.layout.key, [])
    if sheet.layout == POINTS_DEALS:
        _deals_checked(_deal_rows(sheet, roster, plan), preset, plan)
    elif sheet.layout == POINTS_NIGHTS:
        _totals(sheet, roster, plan, preset)
    elif sheet.layout in (POOL_GAMES, DEALS_GAMES):
        _places(sheet, roster, plan, preset)
    else:
        assert sheet.layout == RUMMIKUB_GAMES
        _game_scores(sheet, roster, plan, preset)
    plan.nights.sort(key=lambda night: (night["date"], night["row"]))
    plan.errors.sort(key=lambda error: (error.row, error.column))
    return plan
