"""What a player's own page shows of the tournament as it goes (``player_link``): their
registration and fee, where they sit in each released round, their table's running figures while
it plays, where they go on to, and their place and prize. Read through the same selectors as the
public page and the projector, so every figure is the one they show."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clubs.models import Club
from clubs.page_kit.display import club_money, signed_number
from config.locale_format import format_ordinal
from scoring.formats import handler_for
from scoring.models import Deal, Game
from scoring.selectors import game_deal_rows
from tournaments import selectors
from tournaments.kinds import kind_for
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import Cell, Grid, TableView

E = Entry.Status
#: An entry that no longer plays, whatever the rounds say.
LEFT = (E.WITHDRAWN, E.DISQUALIFIED, E.NO_SHOW)


@dataclass
class Sitting:
    """Where the player sat in one released round, and how their table went for them."""

    round: int
    stage: str
    table: int = 0
    seat: int = 0
    bye: bool = False
    cell: Cell | None = None
    went_on: bool = False  # their table settled and sent them on
    others: list[str] = field(default_factory=list)


def _sittings(grid: Grid, player: int) -> list[Sitting]:
    """Each released round that seats the player (or gives them a bye), in order."""
    found = []
    for played in grid.rounds:
        if played.status == Round.Status.DRAFT:
            continue  # drawn, not yet released: the player learns their seat at the release
        if player in played.byes:
            found.append(Sitting(played.number, played.stage, bye=True, went_on=True))
            continue
        tables: list[TableView] = played.tables
        final = played.stage == Round.Stage.FINAL  # no one goes on from a final: places
        for table, cell in zip(tables, grid.cells.get(played.number, []), strict=False):
            if player in table.players:
                found.append(Sitting(
                    played.number, played.stage, table.number, table.players.index(player) + 1,
                    cell=cell, went_on=player in table.advancing and not final,
                    others=[grid.names[p] for p in table.players if p != player],
                ))  # fmt: skip
    return found


#: The deals of their table a player's page lists, newest first (a pool table plays 10 to 30).
DEALS_SHOWN = 12


@dataclass
class MyDeal:
    """One deal of the player's table as their phone lists it: what it counted for them, read
    through the game page's selector (the same figure as the desk's)."""

    number: int
    points: str  # signed where the format's points are a score, as the game page shows them
    won: bool
    voided: bool
    tiebreaker: bool


def _my_deals(game_id: int, player: int) -> list[MyDeal]:
    """The table's counted and voided deals, newest first, with the player's figure in each."""
    game = Game.objects.select_related("preset").get(pk=game_id)
    shown = Deal.objects.filter(game=game, status__in=(Deal.Status.FINAL, Deal.Status.VOID))
    deals = list(shown.order_by("-number")[:DEALS_SHOWN])
    signed = handler_for(game).words.signed_points
    found = []
    for row in game_deal_rows(game=game, deals=deals):
        points = row.points.get(player)
        if points is None:
            continue  # a deal played without them (they sat out or had gone)
        found.append(MyDeal(
            row.deal.number, signed_number(points) if signed else str(points),
            won=row.outcomes.get(player) == "winner", voided=row.deal.status == Deal.Status.VOID,
            tiebreaker=row.deal.is_tiebreaker,
        ))  # fmt: skip
    return found


def _now(tournament: Tournament, entry: Entry, sittings: list[Sitting]) -> str:
    """The player's state in one word, for the page's heading and its tests: registered,
    seated (released, not started), playing, going_on (their table sent them on, the next
    round not released yet), table_done (their table settled without them, the round not yet
    complete), out, placed, withdrawn."""
    if entry.status in LEFT:
        return "withdrawn"
    if entry.place:
        return "placed"
    if entry.status == E.ELIMINATED:
        return "out"
    last = sittings[-1] if sittings else None
    if last is None or tournament.status != Tournament.Status.RUNNING:
        return "registered"
    if last.bye or last.went_on:
        return "going_on"
    if last.cell is not None and last.cell.state == "settled":
        return "table_done"
    if last.cell is not None and last.cell.state == "waiting":
        return "seated"
    return "playing"


def player_following(*, club: Club, tournament: Tournament, entry: Entry) -> dict[str, Any]:
    """The player's page's live part, read in a fixed number of queries (the public page's,
    and the running figures of their table)."""
    view = selectors.tournament_view(tournament=tournament)
    grid = selectors.tournament_grid(tournament=tournament, view=view)
    me = next(e for e in view.entries if e.pk == entry.pk)  # with its prize and chips
    sittings = _sittings(grid, me.player_id)
    now = _now(tournament, me, sittings)
    current = sittings[-1] if sittings else None
    mine, deals = None, []
    if current is not None and current.cell is not None and now in ("seated", "playing"):
        figures = selectors.cells_running(grid=grid, cells=[current.cell])
        mine = figures.get(current.cell.game or 0, {}).get(me.player_id)
        if current.cell.playing or current.cell.game:
            deals = _my_deals(current.cell.playing or current.cell.game or 0, me.player_id)
    kind = kind_for(tournament)
    level = grid.rounds[-1].level if grid.rounds else None
    return {
        "now": now, "me": me, "name": me.player.name, "sittings": sittings, "current": current,
        "mine": mine, "deals": deals, "place": format_ordinal(me.place) if me.place else "",
        "prize": club_money(club, me.prize_won_minor) if me.prize_won_minor else "",
        "chips": getattr(me, "chips", None),
        "level": level, "level_minimum": kind.level_minimum(tournament, level),
        "finished": tournament.status == Tournament.Status.FINISHED,
    }  # fmt: skip
