"""A draft round's changes: a late entrant seated or a leaver unseated, two players swapped (the
draw's cost shown again, ``kinds.seating``), releasing it (each table a game of the tournament's
session, playing down to the qualifiers its kind lets go on), and the round clock."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from config.errors import Conflict, InvalidInput, NotFoundError
from scoring.games import game_create, table_create
from tournaments.changes import audit, event, lock, round_locked
from tournaments.kinds import kind_for
from tournaments.kinds.seating import draw_cost, draw_round
from tournaments.models import Entry, Round, RoundTable, Tournament
from tournaments.services.links import links_on_release


def seat_late(tournament: Tournament, draft: Round, entry: Entry) -> None:
    """A late entrant sits where the draw costs least: at the table with room whose players it
    met least (and fewest of its club), else the draft is drawn again with everyone."""
    tables = draft.draw["tables"]
    with_room = [t for t, table in enumerate(tables) if len(table) < tournament.table_max]
    if with_room:

        def cost(t: int) -> tuple[int, int]:
            trial = Round(draw={"tables": [tables[t] + [entry.pk]]})
            found = draw_cost(tournament, trial)
            return found["repeat_pairs"], found["same_club_pairs"]

        best = min(with_room, key=lambda t: (cost(t), len(tables[t]), t))
        tables[best].append(entry.pk)
        draft.draw = {**draft.draw, "tables": tables}
    else:
        players = [p for table in tables for p in table] + draft.draw.get("byes", [])
        players.append(entry.pk)
        seeds = dict(tournament.entries.filter(pk__in=players).values_list("pk", "seed"))
        players.sort(key=lambda p: seeds.get(p) or 10**9)
        number, stage, left = draft.number, draft.stage, draft.draw.get("left", [])
        draft.delete()
        draft = draw_round(tournament, number, stage, players)
        draft.draw["left"] = left
    draft.cost = draw_cost(tournament, draft)
    draft.save(update_fields=["draw", "cost"])


def unseat(draft: Round, entry_id: int) -> None:
    """A leaver out of a draft draw, kept in its ``left`` (a withdrawal undone seats them again)."""
    tables = [[p for p in table if p != entry_id] for table in draft.draw["tables"]]
    draft.draw = {
        "tables": [table for table in tables if table],
        "byes": [p for p in draft.draw.get("byes", []) if p != entry_id],
        "left": [*draft.draw.get("left", []), entry_id],
    }
    draft.save(update_fields=["draw"])


@transaction.atomic
def round_swap(
    *, tournament: Tournament, actor: AbstractBaseUser, number: int, first: int, second: int
) -> Round:
    """Swap two entrants (``first`` and ``second``: player ids, as the API shows the draw) of a
    draft draw, between tables or with a bye; the cost is shown again."""
    tournament = lock(tournament)
    entry_of = dict(tournament.entries.values_list("player_id", "pk"))
    for player in (first, second):
        if player not in entry_of:
            raise NotFoundError(
                _("player #%(player)s has not entered this tournament") % {"player": player},
                code="not_drawn",
            )
    first, second = entry_of[first], entry_of[second]
    draft = round_locked(tournament, number)
    if draft.status != Round.Status.DRAFT:
        raise Conflict(
            _("round %(number)s is released: its tables are games being played")
            % {"number": number}
        )
    places: dict[int, tuple[str, int | None, int]] = {}
    for t, table in enumerate(draft.draw["tables"]):
        for s, entry_id in enumerate(table):
            places[entry_id] = ("tables", t, s)
    for s, entry_id in enumerate(draft.draw.get("byes", [])):
        places[entry_id] = ("byes", None, s)
    for entry_id in (first, second):
        if entry_id not in places:
            name = tournament.entries.get(pk=entry_id).player.name
            raise Conflict(
                _("%(name)s is not in round %(number)s") % {"name": name, "number": number},
                code="not_drawn",
            )
    draw = {
        **draft.draw,
        "tables": [list(t) for t in draft.draw["tables"]],
        "byes": list(draft.draw["byes"]),
    }

    def put(place: tuple[str, int | None, int], value: int) -> None:
        kind, t, s = place
        if kind == "tables":
            assert t is not None
            draw["tables"][t][s] = value
        else:
            draw["byes"][s] = value

    put(places[first], second)
    put(places[second], first)
    draft.draw = draw
    draft.cost = draw_cost(tournament, draft)
    draft.save(update_fields=["draw", "cost"])
    audit(tournament, actor, "swap", round=number, first=first, second=second)
    return draft


@transaction.atomic
def round_release(*, tournament: Tournament, actor: AbstractBaseUser, number: int) -> Round:
    """Release a draft round: each table becomes a game of the tournament's session."""
    tournament = lock(tournament)
    draft = round_locked(tournament, number)
    if draft.status != Round.Status.DRAFT:
        raise Conflict(_("round %(number)s is already released") % {"number": number})
    preset = tournament.preset
    if draft.stage == Round.Stage.FINAL and tournament.final_preset is not None:
        preset = tournament.final_preset
    players = dict(tournament.entries.values_list("pk", "player_id"))
    roster = {p.pk: p for p in Player.objects.filter(pk__in=players.values())}
    assert tournament.session is not None
    for index, table in enumerate(draft.draw["tables"], start=1):
        name = "Final" if draft.stage == Round.Stage.FINAL else f"R{number} T{index}"
        at = table_create(session=tournament.session, actor=actor, name=name)
        advance = kind_for(tournament).advance_at(tournament, draft, len(table))
        game = game_create(
            table=at, actor=actor, preset=preset,
            players=[roster[players[entry_id]] for entry_id in table],
            # A pool table ends once its qualifiers are known; a final (and a table where no one
            # goes out) plays down to its winner.
            qualifiers=advance if advance < len(table) else 1,
        )  # fmt: skip
        RoundTable.objects.create(round=draft, number=index, game=game)
    draft.status = Round.Status.RELEASED
    draft.save(update_fields=["status"])
    links_on_release(tournament, draft, actor)
    audit(tournament, actor, "release", round=number, tables=len(draft.draw["tables"]))
    event(tournament, "tournament.round_released", round=number, stage=draft.stage,
           tables=[t.game_id for t in draft.tables.order_by("number")])  # fmt: skip
    return draft


#: The longest round clock the desk sets, in minutes.
ROUND_CLOCK_MAX_MINUTES = 600


@transaction.atomic
def round_clock_set(
    *, tournament: Tournament, actor: AbstractBaseUser, number: int, minutes: int | None
) -> Round:
    """Set a released round's clock to end ``minutes`` from now, or clear it (``None``): the
    projector counts down to it. A round drawn but not released, or complete, has no clock."""
    tournament = lock(tournament)
    played = round_locked(tournament, number)
    if minutes is not None:
        if played.status != Round.Status.RELEASED:
            raise Conflict(
                _("round %(number)s is not being played: its clock cannot be set")
                % {"number": number}
            )
        if not 1 <= minutes <= ROUND_CLOCK_MAX_MINUTES:
            raise InvalidInput(
                "minutes: "
                + _("%(minutes)s is not between 1 and %(most)s")
                % {"minutes": minutes, "most": ROUND_CLOCK_MAX_MINUTES}
            )
        played.ends_at = timezone.now() + timedelta(minutes=minutes)
    else:
        played.ends_at = None
    played.save(update_fields=["ends_at"])
    ends = played.ends_at.isoformat() if played.ends_at else None
    audit(tournament, actor, "round_clock", round=number, ends_at=ends)
    return played
