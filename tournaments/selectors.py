"""Reads of tournaments, scoped to a club: the list, one tournament, its whole state (rounds
with their tables and who must play a tie-breaker, places and prizes) and its results grid, each
in a fixed number of queries whatever its size."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Max, QuerySet
from django.utils.translation import gettext, gettext_lazy, ngettext

from clubs.models import Club
from config.errors import InvalidInput, NotFoundError
from ledger.models import LedgerEntry
from scoring.formats import Running
from scoring.models import Deal, Game, Submission
from scoring.selectors import games_running
from scoring.table_links import device_names_by_link
from tournaments.figures import (
    entries_counted,
    fees_collected_minor,
    prize_pool_minor,
    prizes_won_minor,
)
from tournaments.kinds import kind_for
from tournaments.models import Entry, Round, RoundTable, Tournament


def tournament_list(*, club: Club, status: str | None = None) -> QuerySet[Tournament]:
    found = club.tournaments.select_related("preset").order_by("-created_at", "-id")
    if status:  # empty: as if left out, like every query parameter
        if status not in Tournament.Status.values:
            raise InvalidInput(
                "status: "
                + gettext("use %(statuses)s, not %(given)r")
                % {"statuses": ", ".join(Tournament.Status.values), "given": status},
                code="bad_status",
            )
        found = found.filter(status=status)
    return found


def tournament_get(*, club: Club, tournament_id: int) -> Tournament:
    found = (
        club.tournaments.select_related("preset", "final_preset", "session", "purse")
        .filter(pk=tournament_id)
        .first()
    )
    if found is None:
        raise NotFoundError(
            gettext("no tournament #%(tournament)s in %(club)s")
            % {"tournament": tournament_id, "club": club.name}
        )
    return found


@dataclass
class TableView:
    number: int
    game: int | None
    players: list[int]
    status: str  # "draft", "playing", "tiebreaker", "settled"
    tiebreaker: list[int]
    tiebreaker_game: int | None = None
    advancing: list[int] = field(default_factory=list)  # who goes on from it, once settled
    table_id: int | None = None  # the scoring table its games are played at


@dataclass
class RoundView:
    number: int
    stage: str
    status: str
    cost: dict[str, Any]
    advanced: list[int]
    byes: list[int]
    tables: list[TableView] = field(default_factory=list)
    ends_at: datetime | None = None  # the round clock, where the director set one
    level: int | None = None  # a chip-level tournament's level


@dataclass
class TournamentView:
    tournament: Tournament
    entries: list[Entry]  # every entry, whatever its status
    counted: list[Entry]  # the entries that count (``figures.entries_counted``)
    prize_pool_minor: int
    rounds: list[RoundView]
    places: list[Entry]
    paid: int = 0  # the entries that count whose fee is paid: those in the prize pool

    @property
    def entries_counted(self) -> int:
        return len(self.counted)


def _entries(tournament: Tournament) -> list[Entry]:
    return list(entry_query(tournament=tournament))


def _entries_paid(tournament: Tournament, entries: list[Entry]) -> None:
    """Each entry's prize (a place is paid as long as it stands: an unwound final's is not)
    and, in a chip-level tournament, its chips."""
    won = prizes_won_minor(tournament=tournament)
    chips = kind_for(tournament).chips_held(tournament)
    for entry in entries:
        entry.prize_won_minor = won.get(entry.player_id, 0) if entry.place else 0
        if chips is not None:
            entry.chips = chips.get(entry.player_id, 0)


def entry_by_link(*, tournament: Tournament, token_hash: str) -> Entry:
    """The entry a personal link opens (``token_hash``: its token's SHA-256)."""
    found = (
        tournament.entries.select_related("player").filter(link_hash=token_hash).first()
        if token_hash
        else None
    )
    if found is None:
        raise NotFoundError(gettext("this link opens no entry: ask the desk for yours"))
    return found


def entry_query(*, tournament: Tournament) -> QuerySet[Entry]:
    """The tournament's entries in seed order (for a list to narrow, then ``entries_paid``).
    Their players are read by id in a second query: joined, PostgreSQL merged the entries with
    the player table's key from its start, reading every player added before the field's (10,000
    rows, 3 ms, for a club created after another of that size)."""
    return tournament.entries.prefetch_related("player").order_by("seed", "id")


def entry_get(*, tournament: Tournament, entry_id: int) -> Entry:
    found = tournament.entries.select_related("player").filter(pk=entry_id).first()
    if found is None:
        raise NotFoundError(
            gettext("no entry #%(entry)s in %(tournament)s")
            % {"entry": entry_id, "tournament": tournament.name}
        )
    return found


def entry_list(*, tournament: Tournament, entries: QuerySet[Entry] | None = None) -> list[Entry]:
    """The tournament's entries (or ``entries``, a narrowed ``entry_query``), each with the
    prize its place won (and its chips, in a chip-level tournament)."""
    found = list(entry_query(tournament=tournament) if entries is None else entries)
    _entries_paid(tournament, found)
    return found


def _rounds(tournament: Tournament, player_of: dict[int, int]) -> list[RoundView]:
    """Every round with its tables, player ids throughout (``player_of``: entry id -> player
    id). Two queries."""
    tables_by_round: dict[int, list[RoundTable]] = {}
    for table in RoundTable.objects.filter(round__tournament=tournament).select_related(
        "game", "tiebreaker"
    ):
        tables_by_round.setdefault(table.round_id, []).append(table)
    rounds = []
    for played in tournament.round_set.order_by("number"):
        view = RoundView(
            played.number, played.stage, played.status, played.cost,
            [player_of[e] for e in played.advanced if e in player_of],
            [player_of[e] for e in played.draw.get("byes", []) if e in player_of],
            ends_at=played.ends_at, level=played.level,
        )  # fmt: skip
        if played.status == Round.Status.DRAFT:
            for number, table in enumerate(played.draw.get("tables", []), start=1):
                seated = [player_of[e] for e in table if e in player_of]
                view.tables.append(TableView(number, None, seated, "draft", []))
        for table in sorted(tables_by_round.get(played.pk, []), key=lambda t: t.number):
            seated = [player_of[e] for e in played.draw["tables"][table.number - 1]]
            tied = [player_of[e] for e in table.outcome.get("tied", []) if e in player_of]
            if tied:
                status = "tiebreaker"
            elif "advancing" in table.outcome:
                status = "settled"
            else:
                status = "playing" if table.game.status == Game.Status.OPEN else "finished"
            advancing = kind_for(tournament).went_on(played, table.outcome.get("advancing", []))
            going = [player_of[e] for e in advancing if e in player_of]
            view.tables.append(
                TableView(
                    table.number, table.game_id, seated, status, tied, table.tiebreaker_id, going,
                    table_id=table.game.table_id,
                )
            )  # fmt: skip
        rounds.append(view)
    return rounds


def tournament_view(*, tournament: Tournament) -> TournamentView:
    """The whole tournament as the API and the pages show it; player ids throughout."""
    entries = _entries(tournament)
    counting = set(entries_counted(tournament=tournament).values_list("pk", flat=True))
    counted = [entry for entry in entries if entry.pk in counting]
    _entries_paid(tournament, entries)
    paid = sum(1 for entry in counted if entry.fee_status == Entry.FeeStatus.PAID)
    pool = prize_pool_minor(tournament=tournament, paid=paid)
    rounds = _rounds(tournament, {entry.pk: entry.player_id for entry in entries})
    places = sorted((e for e in entries if e.place), key=lambda e: (e.place, e.seed or 0))
    return TournamentView(tournament, entries, counted, pool, rounds, places, paid)


# --- what the pages show -------------------------------------------------------------------------

#: A table's state on the results grid, in words: (key, label).
CELL_WORDS = {
    "draft": gettext_lazy("Drawn"),
    "waiting": gettext_lazy("Waiting"),
    "playing": gettext_lazy("In play"),
    "awaiting": gettext_lazy("Awaiting confirmation"),
    "disputed": gettext_lazy("Disputed"),
    "tiebreaker": gettext_lazy("Needs a tie-breaker"),
    # Its game ended, its table not settled yet: who goes on is a moment away, not missing.
    "finished": gettext_lazy("Finished: working out who goes on"),
    "settled": gettext_lazy("Settled"),
}


@dataclass
class Cell:
    """One table of one round on the results grid."""

    round: int
    number: int
    game: int | None
    state: str
    label: str
    names: list[str]
    advanced: list[str]  # who goes on (none from a final)
    tiebreaker_game: int | None
    missing: bool  # a result the round waits for
    tied: list[str] = field(default_factory=list)  # who must play the tie-breaker
    placings: list[tuple[int, str]] = field(default_factory=list)  # a final's (place, name)
    table_id: int | None = None  # the scoring table its games are played at
    playing: int | None = None  # the game being played at it now (the tie-breaker, if one)
    entry: dict[str, Any] | None = None  # the entry waiting for a confirmation (or disputed)
    last: str = (
        ""  # the latest counted entry, in words ("deal 2: seat 3 entered, seat 5 confirmed")
    )
    link: Any = None  # the table link's card, added by the page (it knows the site's address)
    players: list[int] = field(default_factory=list)  # who sits there, in seat order
    # Each player's running figure while the table plays (``cells_running``): (name, figure).
    running: list[tuple[str, Running]] = field(default_factory=list)


@dataclass
class Grid:
    """The results grid as the desk, its live part, the public page and the projector show it:
    each round's tables as cells, with the names of who sits at them."""

    rounds: list[RoundView]
    names: dict[int, str]  # player id -> name
    cells: dict[int, list[Cell]]  # round number -> its tables
    rows: list[list[Cell | None]]  # a row per table number, a cell per round


@dataclass
class Desk:
    """A tournament as the director's desk shows it: the API's view, its grid, the draft's cost
    in words, and the fees collected so far."""

    view: TournamentView
    grid: Grid
    cost_words: dict[int, str]  # round number -> the draw's cost in words
    fees_minor: int
    counts: dict[str, int]  # entry status -> how many

    @property
    def names(self) -> dict[int, str]:
        return self.grid.names

    @property
    def cells(self) -> dict[int, list[Cell]]:
        return self.grid.cells

    @property
    def rows(self) -> list[list[Cell | None]]:
        return self.grid.rows


def _cost_words(cost: dict[str, Any], name_of_entry: dict[int, str]) -> str:
    again = [" – ".join(name_of_entry.get(e, "?") for e in pair) for pair in cost.get("again", [])]
    same = [
        " – ".join(name_of_entry.get(e, "?") for e in pair) for pair in cost.get("same_club", [])
    ]
    words = (
        gettext("no one meets anyone twice")
        if not again
        else ngettext(
            "%(count)s pair meet again: %(pairs)s", "%(count)s pairs meet again: %(pairs)s",
            len(again),
        ) % {"count": len(again), "pairs": ", ".join(again)}
    )  # fmt: skip
    if same:
        words += "; " + ngettext(
            "%(count)s same-club pair: %(pairs)s", "%(count)s same-club pairs: %(pairs)s", len(same)
        ) % {"count": len(same), "pairs": ", ".join(same)}
    return words


def tournament_grid(*, tournament: Tournament, view: TournamentView | None = None) -> Grid:
    """The results grid, read for what it shows: the entries' names, the rounds and their
    tables, and the state of the games being played (their deals and the entries waiting for a
    confirmation). Six queries whatever the field or its history; four with a ``view`` already
    read, whose entries and rounds it reuses."""
    if view is not None:
        entries, rounds = view.entries, view.rounds
    else:
        entries = _entries(tournament)
        rounds = _rounds(tournament, {entry.pk: entry.player_id for entry in entries})
    names = {e.player_id: e.player.name for e in entries}
    place_of = {e.player_id: e.place for e in entries if e.place}
    tables = [t for r in rounds for t in r.tables]
    games = [t.game for t in tables if t.game] + [
        t.tiebreaker_game for t in tables if t.tiebreaker_game
    ]
    # The tournament's deals, by their games' index: the submissions are then read by their
    # deals' ids, a plan that does not depend on the club's history (joined to the deals and
    # filtered by game, PostgreSQL scanned every submission of the club).
    deals = list(Deal.objects.filter(game_id__in=games).values_list("pk", "game_id", "status"))
    deal_states: dict[int, set[str]] = {}
    for _, game_id, status in deals:
        deal_states.setdefault(game_id, set()).add(status)
    entries_of, waiting = _table_entries([pk for pk, _, _ in deals])
    cells: dict[int, list[Cell]] = {}
    for played in rounds:
        final = played.stage == Round.Stage.FINAL
        row = []
        for table in played.tables:
            state = table.status
            if state in ("playing", "finished") and table.game:
                states = deal_states.get(table.game, set())
                if table.game in waiting or Deal.Status.AWAITING_CONFIRMATION in states:
                    state = "awaiting"
                elif state == "playing" and not states - {Deal.Status.VOID}:
                    state = "waiting"
            cell = Cell(
                round=played.number, number=table.number, game=table.game, state=state,
                label=CELL_WORDS[state], names=[names[p] for p in table.players],
                advanced=[] if final else [names[p] for p in table.players if p in table.advancing],
                tiebreaker_game=table.tiebreaker_game,
                missing=state in ("waiting", "playing", "awaiting", "tiebreaker"),
                tied=[names[p] for p in table.tiebreaker],
                placings=sorted(
                    (place_of[p], names[p]) for p in table.players if final and place_of.get(p)
                ),
                table_id=table.table_id, players=table.players,
            )  # fmt: skip
            cell.playing = table.tiebreaker_game if state == "tiebreaker" else table.game
            entry, cell.last = entries_of.get(cell.playing or 0, (None, ""))
            if entry is not None and state in ("awaiting", "tiebreaker", "playing"):
                cell.entry = entry
                if entry["dispute"]:
                    cell.state, cell.label = "disputed", CELL_WORDS["disputed"]
            row.append(cell)
        cells[played.number] = row
    width = max((len(row) for row in cells.values()), default=0)
    rows = [
        [cells[r.number][i] if i < len(cells[r.number]) else None for r in rounds]
        for i in range(width)
    ]
    return Grid(rounds, names, cells, rows)


def tournament_desk(*, tournament: Tournament) -> Desk:
    """Everything the director's desk shows, in a fixed number of queries."""
    view = tournament_view(tournament=tournament)
    grid = tournament_grid(tournament=tournament, view=view)
    name_of_entry = {e.pk: e.player.name for e in view.entries}
    cost_words = {r.number: _cost_words(r.cost, name_of_entry) for r in view.rounds}
    counts: dict[str, int] = {}
    for entry in view.entries:
        counts[entry.status] = counts.get(entry.status, 0) + 1
    fees = fees_collected_minor(tournament=tournament)
    return Desk(view, grid, cost_words, fees, counts)


def _entrant(seat: int | None, user: str | None, phone: str | None = None) -> str:
    if seat is None:
        return user or gettext("the desk")
    if phone:
        return gettext("seat %(seat)s on %(phone)s") % {"seat": seat, "phone": phone}
    return gettext("seat %(seat)s") % {"seat": seat}


def _phones(rows: list[dict[str, Any]]) -> Callable[[dict[str, Any], str], str | None]:
    """The phone a row's entry (or confirmation) was made on, by its link's names for them."""
    links = {row["table_link_id"] for row in rows if row["table_link_id"] is not None}
    names = device_names_by_link(link_ids=links) if links else {}
    return lambda row, key: names.get(row["table_link_id"], {}).get(row[key])


def _table_entries(
    deals: list[int],
) -> tuple[dict[int, tuple[dict[str, Any] | None, str]], set[int]]:
    """Game id -> (its entry waiting for a confirmation, in words and ids; the latest counted
    entry in words): the table entry flow as the results grid shows it; and the games with an
    entry not yet counted (waiting for a confirmation, or for its validation). Two queries."""
    found: dict[int, tuple[dict[str, Any] | None, str]] = {}
    fields = ["pk", "deal_id", "deal__game_id", "deal__number", "entered_seat", "dispute",
              "disputed_seat", "confirmed_seat", "submitted_by__username",
              "confirmed_by__username", "status", "table_link_id", "entered_device",
              "confirmed_device"]  # fmt: skip
    not_counted = Submission.objects.filter(
        deal_id__in=deals,
        status__in=[Submission.Status.AWAITING_CONFIRMATION, Submission.Status.PENDING],
    )
    counted = Submission.objects.filter(deal_id__in=deals, status=Submission.Status.ACCEPTED)
    not_counted_rows = list(not_counted.order_by("deal__game_id", "-pk").values(*fields))
    counted_rows = list(counted.order_by("deal__game_id", "-deal__number").values(*fields))
    phone = _phones(not_counted_rows + counted_rows)
    waiting: set[int] = set()
    for row in not_counted_rows:
        game = row["deal__game_id"]
        waiting.add(game)
        if game in found or row["status"] != Submission.Status.AWAITING_CONFIRMATION:
            continue
        who = _entrant(
            row["entered_seat"], row["submitted_by__username"], phone(row, "entered_device")
        )
        values = {"number": row["deal__number"], "who": who, "seat": row["disputed_seat"]}
        words = gettext("Deal %(number)s entered by %(who)s, waiting for a confirmation") % values
        if row["dispute"]:
            words = (
                gettext("Deal %(number)s entered by %(who)s, disputed by seat %(seat)s") % values
            )
        entry = {"submission": row["pk"], "deal": row["deal_id"], "words": words,
                 "dispute": row["dispute"]}  # fmt: skip
        found[game] = (entry, "")
    seen: set[int] = set()
    for row in counted_rows:
        game = row["deal__game_id"]
        if game in seen:
            continue
        seen.add(game)
        who = _entrant(
            row["entered_seat"], row["submitted_by__username"], phone(row, "entered_device")
        )
        words = gettext("Deal %(number)s: entered by %(who)s") % {
            "number": row["deal__number"],
            "who": who,
        }
        if row["confirmed_seat"] is not None or row["confirmed_by__username"]:
            words += gettext(", confirmed by ") + _entrant(
                row["confirmed_seat"], row["confirmed_by__username"],
                phone(row, "confirmed_device"),
            )  # fmt: skip
        found[game] = (found.get(game, (None, ""))[0], words)
    return found, waiting


def seat_of(*, grid: Grid, player_id: int) -> dict[str, Any] | None:
    """Where a player sits in the latest round that seats them: the round, the table, the seat
    and who else is there; ``None`` when they are not seated (out, a bye, or not drawn yet)."""
    for played in reversed(grid.rounds):
        for table in played.tables:
            if player_id in table.players:
                return {
                    "round": played.number, "stage": played.stage, "status": played.status,
                    "table": table.number, "seat": table.players.index(player_id) + 1,
                    "with": [grid.names[p] for p in table.players if p != player_id],
                }  # fmt: skip
        if player_id in played.byes:
            return {"round": played.number, "bye": True}
    return None


#: The states of a table whose game is being played: its running figures are shown.
IN_PLAY = ("waiting", "playing", "awaiting", "disputed")


def cells_running(*, grid: Grid, cells: list[Cell]) -> dict[int, dict[int, Running]]:
    """The running figures of the tables of ``cells`` in play, set on each cell (``running``,
    in seat order) and returned by game (game id -> player id -> figure), read through the one
    source every screen uses (``scoring.selectors.games_running``). Two queries, none when no
    table plays."""
    playing = [c for c in cells if c.state in IN_PLAY and c.game]
    found = games_running(seated={c.game: c.players for c in playing if c.game})
    for cell in playing:
        figures = found.get(cell.game or 0, {})
        cell.running = [(grid.names[p], figures[p]) for p in cell.players if p in figures]
    return found


def tables_settled_at(*, cells: list[Cell]) -> dict[int, datetime]:
    """When each settled (or finished) table of a round was last counted: table number -> the
    time of its game's (or tie-breaker's) last ledger entry. One query."""
    done = [c for c in cells if c.state in ("settled", "finished") and c.game]
    games = {c.game: c.number for c in done} | {
        c.tiebreaker_game: c.number for c in done if c.tiebreaker_game
    }
    found: dict[int, datetime] = {}
    for game_id, at in (
        LedgerEntry.objects.filter(book__game__in=list(games))
        .values("book__game")
        .annotate(at=Max("created_at"))
        .values_list("book__game", "at")
    ):
        number = games[game_id]
        found[number] = max(at, found.get(number, at))
    return found
