"""Every write of a tournament: creating it, entries (waitlist, check-in, withdrawal,
disqualification, late entry), the start and its seeding, drawing, swapping and releasing
rounds, reacting when a table's game ends (advancement, tie-breakers, the next round), the final
places and prizes, cancelling. Keyword-only, atomic, audited; the tournament's row is locked
before any decision about it.

Money goes through the tournament's purse (``scoring``'s purse game): entry fees in, refunds
and prizes out, the club's fee to the club, all in the ledger."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from clubs.audit import audit_record
from clubs.models import Club, Player
from config.errors import Conflict, InvalidInput, NotFoundError
from rules import knockout, prizes
from rules.errors import RuleViolation
from rules.ratings import initial_skill
from rules.seating import TABLE_LIMITS, plan_seating
from scoring import merge as scoring_merge
from scoring import services as scoring_services
from scoring.formats import GameEnd, handler_for
from scoring.formats.reads import player_paid_in
from scoring.games import game_create, table_create
from scoring.lifecycle import game_end, game_finishing_order
from scoring.models import AccountKind, Game, Posting, Quantity, Rating, RulePreset
from scoring.nights import session_create
from scoring.preset_rules import game_rules
from tournaments.models import Entry, Round, RoundTable, Tournament
from webhooks.services import event_emit

E = Entry.Status
PLAYING = (E.ACTIVE,)
#: Entrants whose fee is in the purse and who are counted for the prizes.
PAID = (E.REGISTERED, E.CHECKED_IN, E.ACTIVE, E.ELIMINATED, E.WITHDRAWN, E.DISQUALIFIED,
        E.NO_SHOW)  # fmt: skip


def _audit(tournament: Tournament, actor: AbstractBaseUser | None, action: str, **after: Any):
    audit_record(
        actor=actor, club=tournament.club, action=f"tournament.{action}", obj=tournament,
        after=after,
    )  # fmt: skip


def _lock(tournament: Tournament) -> Tournament:
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club", "preset", "final_preset", "session", "purse")
        .get(pk=tournament.pk)
    )


def _refuse(exc: RuleViolation, field: str) -> InvalidInput:
    return InvalidInput(f"{field}: {exc.message}", code=exc.code, details={"token": exc.token})


# --- creating ------------------------------------------------------------------------------------


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    actor: AbstractBaseUser,
    name: str,
    preset: RulePreset,
    kind: str = Tournament.Kind.KNOCKOUT,
    final_preset: RulePreset | None = None,
    table_max: int = 6,
    table_min: int = 2,
    advance_per_table: int = 2,
    rounds: int = 0,
    cut: int = 0,
    seeding: str = Tournament.Seeding.RANDOM,
    avoid_same_club: bool = False,
    max_entries: int | None = None,
    entry_fee_minor: int = 0,
    club_fee_minor: int = 0,
    late_entry_until_round: int = 1,
    payout: str | list[Any] = "by_field",
    seed: int | None = None,
) -> Tournament:
    """A tournament open for entries, with its own session and purse."""
    name = " ".join(name.split())
    if not name:
        raise InvalidInput("name: give the tournament a name")
    for field, chosen in (("preset", preset), ("final_preset", final_preset)):
        if chosen is not None and chosen.club_id not in (None, club.pk):
            raise InvalidInput(f"{field}: not a preset of this club")
        if chosen is not None and not handler_for(chosen.format).family:
            raise InvalidInput(f"{field}: a table plays a game format, not a {chosen.format}")
    low, high = TABLE_LIMITS
    if not low <= table_max <= high:
        raise InvalidInput(f"table_max: a table seats {low} to {high}, not {table_max}")
    if not low <= table_min <= table_max:
        raise InvalidInput(f"table_min: must be {low} to table_max ({table_max}), not {table_min}")
    if kind == Tournament.Kind.KNOCKOUT and not 1 <= advance_per_table < table_max:
        raise InvalidInput(
            f"advance_per_table: 1 to {table_max - 1} of a table of {table_max} go on, "
            f"not {advance_per_table}"
        )
    if kind == Tournament.Kind.ROUNDS and rounds < 1:
        raise InvalidInput("rounds: a rounds tournament plays one round or more before its cut")
    if not 0 <= club_fee_minor <= entry_fee_minor:
        raise InvalidInput("club_fee_minor: the club's share is 0 to the entry fee")
    try:
        prizes.payout_percentages(payout, 1)
    except RuleViolation as exc:
        raise _refuse(exc, "payout") from None
    session = session_create(club=club, actor=actor, name=name)
    purse = scoring_services.purse_open(session=session, actor=actor, preset=preset)
    tournament = Tournament.objects.create(
        club=club, name=name, kind=kind, status=Tournament.Status.REGISTRATION, preset=preset,
        final_preset=final_preset, table_max=table_max, table_min=table_min,
        advance_per_table=advance_per_table, rounds=rounds, cut=cut, seeding=seeding,
        avoid_same_club=avoid_same_club, max_entries=max_entries,
        entry_fee_minor=entry_fee_minor, club_fee_minor=club_fee_minor,
        late_entry_until_round=late_entry_until_round, payout=payout,
        seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        session=session, purse=purse, created_by=actor,
    )  # fmt: skip
    _audit(tournament, actor, "create", kind=kind, preset=preset.pk, seed=tournament.seed)
    return tournament


# --- entries -------------------------------------------------------------------------------------


def _current_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


@transaction.atomic
def entry_add(
    *, tournament: Tournament, actor: AbstractBaseUser, player: Player, affiliation: str = ""
) -> Entry:
    """Register a player: the fee goes into the purse; beyond ``max_entries`` the player waits.
    Once running, a late entry is taken until ``late_entry_until_round`` is drawn and while it
    is a draft: the player sits at the table of that draw where they cost least."""
    tournament = _lock(tournament)
    if player.club_id != tournament.club_id:
        raise NotFoundError(f"player: {player.name!r} is not on this club's roster")
    if not player.active:
        raise Conflict(
            f"player: {player.name!r} is retired; restore them to enter them",
            code="player_retired",
        )
    if tournament.entries.filter(player=player).exists():
        raise Conflict(f"player: {player.name!r} is already entered", code="already_entered")
    late = tournament.status == Tournament.Status.RUNNING
    current = _current_round(tournament) if late else None
    if late and (
        current is None
        or current.status != Round.Status.DRAFT
        or current.number > tournament.late_entry_until_round
    ):
        raise Conflict(
            f"entries closed: late entry is taken until round {tournament.late_entry_until_round}"
            " is released",
            code="entries_closed",
        )
    if not late and tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict(f"entries closed: the tournament is {tournament.get_status_display()}")
    taken = tournament.entries.filter(status__in=PAID).exclude(status=E.WITHDRAWN).count()
    full = tournament.max_entries is not None and taken >= tournament.max_entries
    status = E.WAITLISTED if full else (E.ACTIVE if late else E.REGISTERED)
    if late and full:
        raise Conflict("the tournament is full", code="tournament_full")
    entry = Entry.objects.create(
        tournament=tournament, player=player, status=status, affiliation=affiliation.strip()
    )
    if status != E.WAITLISTED:
        _pay(tournament, actor, entry)
    if late:
        assert current is not None
        entry.seed = (tournament.entries.exclude(seed=None).count() or 0) + 1
        entry.save(update_fields=["seed"])
        _seat_late(tournament, current, entry)
    _audit(tournament, actor, "entry", player=player.pk, status=status)
    return entry


def _pay(tournament: Tournament, actor: AbstractBaseUser | None, entry: Entry) -> None:
    assert tournament.purse is not None
    scoring_services.purse_pay_in(
        game=tournament.purse, actor=actor, player=entry.player,  # type: ignore[arg-type]
        fee_minor=tournament.entry_fee_minor,
    )  # fmt: skip


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = tournament.entries.select_for_update().filter(pk=entry_id).first()
    if entry is None:
        raise NotFoundError(f"no entry #{entry_id} in {tournament.name}")
    return entry


@transaction.atomic
def entry_check_in(*, tournament: Tournament, actor: AbstractBaseUser, entry_id: int) -> Entry:
    tournament = _lock(tournament)
    entry = _entry(tournament, entry_id)
    if tournament.status != Tournament.Status.REGISTRATION or entry.status != E.REGISTERED:
        raise Conflict(
            f"{entry.player.name} is {entry.get_status_display().lower()}; only a registered "
            "entrant checks in, before the start",
            code="not_registered",
        )
    entry.status = E.CHECKED_IN
    entry.save(update_fields=["status"])
    _audit(tournament, actor, "check_in", entry=entry.pk)
    return entry


@transaction.atomic
def entry_withdraw(
    *, tournament: Tournament, actor: AbstractBaseUser, entry_id: int, disqualify: bool = False,
    remarks: str = "",
) -> Entry:  # fmt: skip
    """An entrant leaves (or is disqualified). Before the start the fee goes back and the first
    waitlisted player takes the place; once running the fee stays, the entrant goes on no
    further (their seat's result at a table in play stands: they can no longer advance)."""
    tournament = _lock(tournament)
    entry = _entry(tournament, entry_id)
    closed = (E.WITHDRAWN, E.DISQUALIFIED, E.NO_SHOW, E.ELIMINATED)
    if entry.status in closed or tournament.status in (
        Tournament.Status.FINISHED, Tournament.Status.CANCELLED,
    ):  # fmt: skip
        raise Conflict(f"{entry.player.name} is {entry.get_status_display().lower()} already")
    before_start = tournament.status == Tournament.Status.REGISTRATION
    paid = entry.status != E.WAITLISTED
    entry.status = E.DISQUALIFIED if disqualify else E.WITHDRAWN
    entry.remarks = remarks.strip()[:200]
    entry.save(update_fields=["status", "remarks"])
    refunded = 0
    if before_start and paid:
        assert tournament.purse is not None
        refunded = scoring_services.purse_refund(
            game=tournament.purse, actor=actor, player=entry.player
        )
        waiting = tournament.entries.filter(status=E.WAITLISTED).order_by("created_at", "id")
        promoted = waiting.first()
        if promoted is not None:
            promoted.status = E.REGISTERED
            promoted.save(update_fields=["status"])
            _pay(tournament, actor, promoted)
    else:
        current = _current_round(tournament)
        if current is not None and current.status == Round.Status.DRAFT:
            _unseat(current, entry.pk)
    _audit(
        tournament, actor, "disqualify" if disqualify else "withdraw", entry=entry.pk,
        refund_minor=refunded, remarks=entry.remarks,
    )  # fmt: skip
    return entry


# --- the start and the draws ---------------------------------------------------------------------


def _family(tournament: Tournament) -> str:
    return handler_for(tournament.preset.format).family


@transaction.atomic
def tournament_start(
    *, tournament: Tournament, actor: AbstractBaseUser, seeds: Sequence[int] | None = None
) -> Round:
    """Close the entries, seed the field and draw the first round (a draft to look at, swap and
    release). When anyone checked in, those who did not are no-shows. ``seeds``: player ids
    best first, for manual seeding (those not listed follow in draw order)."""
    tournament = _lock(tournament)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict(f"the tournament is {tournament.get_status_display().lower()}")
    entries = list(tournament.entries.filter(status__in=[E.REGISTERED, E.CHECKED_IN]))
    if any(entry.status == E.CHECKED_IN for entry in entries):
        for entry in entries:
            if entry.status == E.REGISTERED:
                entry.status = E.NO_SHOW
                entry.save(update_fields=["status"])
        entries = [entry for entry in entries if entry.status == E.CHECKED_IN]
    if len(entries) < max(2, tournament.table_min):
        raise Conflict(
            f"{len(entries)} player(s) to play: a tournament needs at least "
            f"{max(2, tournament.table_min)}",
            code="too_few_players",
        )
    ordered = _seeded(tournament, entries, seeds)
    for number, entry in enumerate(ordered, start=1):
        entry.seed = number
        entry.status = E.ACTIVE
    Entry.objects.bulk_update(ordered, ["seed", "status", "rating"])
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    first = _draw(tournament, 1, _stage_for(tournament, len(ordered), 1), [e.pk for e in ordered])
    _audit(tournament, actor, "start", entries=len(ordered), seeding=tournament.seeding)
    return first


def _seeded(
    tournament: Tournament, entries: list[Entry], seeds: Sequence[int] | None
) -> list[Entry]:
    rng = random.Random(tournament.seed)
    rng.shuffle(entries)  # random, and the order among equals otherwise
    if tournament.seeding == Tournament.Seeding.RATING:
        start = initial_skill().ordinal
        found = dict(
            Rating.objects.filter(
                player_id__in=[e.player_id for e in entries], family=_family(tournament)
            ).values_list("player_id", "ordinal")
        )
        for entry in entries:
            entry.rating = found.get(entry.player_id, start)
        entries.sort(key=lambda e: -(e.rating or 0.0))
    elif tournament.seeding == Tournament.Seeding.MANUAL:
        given = list(seeds or [])  # player ids, best first
        position = {player_id: index for index, player_id in enumerate(given)}
        unknown = [s for s in given if s not in {e.player_id for e in entries}]
        if unknown:
            raise InvalidInput(
                f"seeds: player #{unknown[0]} is not playing", code="bad_seed",
                details={"token": str(unknown[0])},
            )  # fmt: skip
        entries.sort(key=lambda e: position.get(e.player_id, len(given)))
    return entries


def _stage_for(tournament: Tournament, players: int, number: int) -> str:
    rounds_kind = tournament.kind == Tournament.Kind.ROUNDS
    if rounds_kind and number <= tournament.rounds:
        return Round.Stage.ROUND
    if players <= tournament.table_max:
        return Round.Stage.FINAL
    return Round.Stage.SEMIFINAL if rounds_kind else Round.Stage.ROUND


def _history(tournament: Tournament) -> list[list[int]]:
    """Every table played so far, as entry ids, oldest first."""
    tables = []
    for past in tournament.round_set.exclude(status=Round.Status.DRAFT).order_by("number"):
        tables += [list(table) for table in past.draw.get("tables", [])]
    return tables


def _draw(tournament: Tournament, number: int, stage: str, players: list[int]) -> Round:
    """Seat ``players`` (entry ids, best seed first) as round ``number``: a draft."""
    affiliations = dict(tournament.entries.filter(pk__in=players).values_list("pk", "affiliation"))
    clubs = {pid: club for pid, club in affiliations.items() if club}
    if stage == Round.Stage.FINAL:
        tables, byes, repeats, same_club = [list(players)], [], 0, 0
    elif stage == Round.Stage.SEMIFINAL:  # by rank, dealt in turn: 1-3-5-7 / 2-4-6-8
        count = -(-len(players) // tournament.table_max)
        tables = [list(players[i::count]) for i in range(count)]
        byes, repeats, same_club = [], 0, 0
    else:
        try:
            plan = plan_seating(
                players, table_max=tournament.table_max, table_min=tournament.table_min,
                rounds=1, seed=tournament.seed + number, history=_history(tournament),
                clubs=clubs, avoid_same_club=tournament.avoid_same_club,
            )  # fmt: skip
        except RuleViolation as exc:
            raise Conflict(exc.message, code=exc.code) from None
        tables = [list(table) for table in plan.rounds[0]]
        byes = list(plan.byes[0])
        repeats, same_club = plan.repeat_pairs, plan.same_club_pairs
    draft = Round.objects.create(
        tournament=tournament, number=number, stage=stage,
        draw={"tables": tables, "byes": byes},
        cost={"repeat_pairs": repeats, "same_club_pairs": same_club},
    )  # fmt: skip
    draft.cost = draw_cost(tournament, draft)
    draft.save(update_fields=["cost"])
    return draft


def draw_cost(tournament: Tournament, draft: Round) -> dict[str, Any]:
    """The draw's repeat meetings (against the rounds played) and same-club pairs, with the
    pairs named."""
    met: dict[frozenset[int], int] = {}
    for table in _history(tournament):
        for pair in combinations(table, 2):
            met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    clubs = dict(tournament.entries.values_list("pk", "affiliation"))
    again, same = [], []
    for table in draft.draw.get("tables", []):
        for a, b in combinations(table, 2):
            if met.get(frozenset((a, b))):
                again.append(sorted((a, b)))
            if clubs.get(a) and clubs.get(a) == clubs.get(b):
                same.append(sorted((a, b)))
    return {
        "repeat_pairs": len(again),
        "same_club_pairs": len(same),
        "again": again,
        "same_club": same,
    }


def _seat_late(tournament: Tournament, draft: Round, entry: Entry) -> None:
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
        draft.draw = {"tables": tables, "byes": draft.draw.get("byes", [])}
    else:
        players = [p for table in tables for p in table] + draft.draw.get("byes", [])
        players.append(entry.pk)
        seeds = dict(tournament.entries.filter(pk__in=players).values_list("pk", "seed"))
        players.sort(key=lambda p: seeds.get(p) or 10**9)
        number, stage = draft.number, draft.stage
        draft.delete()
        draft = _draw(tournament, number, stage, players)
    draft.cost = draw_cost(tournament, draft)
    draft.save(update_fields=["draw", "cost"])


def _unseat(draft: Round, entry_id: int) -> None:
    tables = [[p for p in table if p != entry_id] for table in draft.draw["tables"]]
    draft.draw = {
        "tables": [table for table in tables if table],
        "byes": [p for p in draft.draw.get("byes", []) if p != entry_id],
    }
    draft.save(update_fields=["draw"])


def _round(tournament: Tournament, number: int) -> Round:
    found = tournament.round_set.select_for_update().filter(number=number).first()
    if found is None:
        raise NotFoundError(f"no round {number} in {tournament.name}")
    return found


@transaction.atomic
def round_swap(
    *, tournament: Tournament, actor: AbstractBaseUser, number: int, first: int, second: int
) -> Round:
    """Swap two entrants (``first`` and ``second``: player ids, as the API shows the draw) of a
    draft draw, between tables or with a bye; the cost is shown again."""
    tournament = _lock(tournament)
    entry_of = dict(tournament.entries.values_list("player_id", "pk"))
    for player in (first, second):
        if player not in entry_of:
            raise NotFoundError(
                f"player #{player} has not entered this tournament", code="not_drawn"
            )
    first, second = entry_of[first], entry_of[second]
    draft = _round(tournament, number)
    if draft.status != Round.Status.DRAFT:
        raise Conflict(f"round {number} is released: its tables are games being played")
    places = {}
    for t, table in enumerate(draft.draw["tables"]):
        for s, entry_id in enumerate(table):
            places[entry_id] = ("tables", t, s)
    for s, entry_id in enumerate(draft.draw.get("byes", [])):
        places[entry_id] = ("byes", None, s)
    for entry_id in (first, second):
        if entry_id not in places:
            name = tournament.entries.get(pk=entry_id).player.name
            raise Conflict(f"{name} is not in round {number}", code="not_drawn")
    draw = {"tables": [list(t) for t in draft.draw["tables"]], "byes": list(draft.draw["byes"])}

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
    _audit(tournament, actor, "swap", round=number, first=first, second=second)
    return draft


@transaction.atomic
def round_release(*, tournament: Tournament, actor: AbstractBaseUser, number: int) -> Round:
    """Release a draft round: each table becomes a game of the tournament's session."""
    tournament = _lock(tournament)
    draft = _round(tournament, number)
    if draft.status != Round.Status.DRAFT:
        raise Conflict(f"round {number} is already released")
    preset = tournament.preset
    if draft.stage == Round.Stage.FINAL and tournament.final_preset is not None:
        preset = tournament.final_preset
    players = dict(tournament.entries.values_list("pk", "player_id"))
    roster = {p.pk: p for p in Player.objects.filter(pk__in=players.values())}
    assert tournament.session is not None
    for index, table in enumerate(draft.draw["tables"], start=1):
        name = "Final" if draft.stage == Round.Stage.FINAL else f"R{number} T{index}"
        at = table_create(session=tournament.session, actor=actor, name=name)
        game = game_create(
            table=at, actor=actor, preset=preset,
            players=[roster[players[entry_id]] for entry_id in table],
        )  # fmt: skip
        RoundTable.objects.create(round=draft, number=index, game=game)
    draft.status = Round.Status.RELEASED
    draft.save(update_fields=["status"])
    _audit(tournament, actor, "release", round=number, tables=len(draft.draw["tables"]))
    _event(tournament, "tournament.round_released", round=number, stage=draft.stage,
           tables=[t.game_id for t in draft.tables.order_by("number")])  # fmt: skip
    return draft


def _event(tournament: Tournament, name: str, **data: Any) -> None:
    """A webhook event of the tournament, in the transaction of the change."""
    api = f"/api/v1/clubs/{tournament.club.slug}/tournaments/{tournament.pk}/"
    event_emit(
        club=tournament.club, name=name, data={"tournament": tournament.pk, "url": api, **data}
    )


# --- a table's game ends -------------------------------------------------------------------------


def _tiebreak_preset(tournament: Tournament) -> RulePreset:
    """A tie-breaker is one deal (or game) of the table's family, between the tied players."""
    key = "sabra" if _family(tournament) == "rummikub" else "points"
    return RulePreset.objects.filter(club=None, key=key).order_by("-version").first()  # type: ignore[return-value]


@transaction.atomic
def table_game_ended(*, game_id: int) -> str:
    """A game of a tournament ended (a table's, or a tie-breaker's): settle the table, and when
    every table of the round is settled, complete the round: the next round drawn, or the
    tournament finished. Idempotent: a table already settled is left alone."""
    table = (
        RoundTable.objects.filter(game_id=game_id).first()
        or RoundTable.objects.filter(tiebreaker_id=game_id).first()
    )
    if table is None:
        return "not a tournament table"
    tournament = _lock(table.round.tournament)
    table = (
        RoundTable.objects.select_for_update(of=("self",))
        .select_related("round", "game")
        .get(pk=table.pk)
    )
    played = table.round
    if played.status != Round.Status.RELEASED:
        return "round already complete"
    result = _settle_table(tournament, table)
    if result != "settled":
        return result
    if played.tables.exclude(outcome__has_key="advancing").exists() or any(
        t.outcome.get("tied") for t in played.tables.all()
    ):
        return "waiting for other tables"
    _complete_round(tournament, played)
    return "round complete"


def _ranks_at(game: Game, entry_of: dict[int, int]) -> dict[int, int] | None:
    """A finished game's places by entry id, or ``None`` while it is open or had no result."""
    order = game_finishing_order(game=game)
    if order is None:
        return None
    return {entry_of[player]: place for player, place in order.items() if player in entry_of}


def _settle_table(tournament: Tournament, table: RoundTable) -> str:
    entry_of = dict(tournament.entries.values_list("player_id", "pk"))
    gone = set(
        tournament.entries.filter(status__in=[E.WITHDRAWN, E.DISQUALIFIED]).values_list(
            "pk", flat=True
        )
    )
    game = Game.objects.get(pk=table.game_id)
    ranks = _ranks_at(game, entry_of)
    if ranks is None:
        return "table still playing"
    # Who left the tournament cannot go on: the cut is made among those still in.
    staying = {entry: place for entry, place in ranks.items() if entry not in gone}
    advance = _advance_at(tournament, table.round, len(ranks))
    outcome = (
        knockout.table_outcome(staying, advance)
        if staying
        else knockout.TableOutcome((), {}, (), 0)
    )
    outcome.out.update({entry: ranks[entry] for entry in gone if entry in ranks})
    result = "settled"
    used: set[int] = set()
    while outcome.tied:  # a tie-breaker may tie again: then another, between those still level
        tiebreak = _tiebreaker_for(tournament, table, outcome.tied, used)
        used.add(tiebreak.pk)
        tied_ranks = _ranks_at(tiebreak, entry_of)
        if tied_ranks is None:
            result = "tie-breaker still playing"
            break
        outcome = knockout.after_tiebreaker(outcome, tied_ranks)
    table.outcome = {
        "ranks": {str(k): v for k, v in ranks.items()},  # the game's own order
        "advancing": list(outcome.advancing),
        "out": {str(k): v for k, v in outcome.out.items()},
        "tied": list(outcome.tied),
        "left": outcome.places_left,
    }
    table.save(update_fields=["outcome", "tiebreaker"])
    return result


def _stop(game: Game, actor: AbstractBaseUser | None) -> None:
    """End a game the tournament no longer needs: abandoned (fees back) where its format allows,
    else closed with the deals it has (each already settled)."""
    allowed = {e.end for e in handler_for(game).endings(game=game, rules=game_rules(game.preset))}
    end = GameEnd.ABANDONED if GameEnd.ABANDONED in allowed else GameEnd.BY_ORGANISER
    game_end(game=game, actor=actor, end=end)


def _tiebreaker_for(
    tournament: Tournament, table: RoundTable, tied: Sequence[int], used: set[int]
) -> Game:
    """The tie-breaker game between the ``tied`` entries: the first one at the table between
    exactly them that this settling has not ``used`` yet, played or being played (a table
    settled again after a correction finds its own); else a new one is opened there. One still
    open between others (a correction changed who tied) is abandoned."""
    players = dict(tournament.entries.values_list("pk", "player"))
    wanted = {players[e] for e in tied}
    game = Game.objects.get(pk=table.game_id)
    chosen = None
    for other in Game.objects.filter(table=game.table).exclude(pk=game.pk).order_by("pk"):
        seated = set(other.seats.values_list("player_id", flat=True))
        if other.pk in used:
            continue
        if seated == wanted and other.end != GameEnd.ABANDONED:
            chosen = chosen or other
        elif other.status == Game.Status.OPEN:
            _stop(other, None)
    if chosen is None:
        roster = {p.pk: p for p in Player.objects.filter(pk__in=wanted)}
        chosen = game_create(
            table=game.table, actor=tournament.created_by,  # type: ignore[arg-type]
            preset=_tiebreak_preset(tournament), players=[roster[players[e]] for e in tied],
        )  # fmt: skip
        _audit(tournament, None, "tiebreaker", table=table.pk, players=list(tied))
    table.tiebreaker = chosen
    return chosen


def _advance_at(tournament: Tournament, played: Round, size: int) -> int:
    """How many go on from a table of ``size``: the tournament's number, but at least one goes
    out of every table while the field is larger than a final table (else the round would not
    shrink it); at a final, everyone is placed."""
    if played.stage == Round.Stage.FINAL:
        return size
    if tournament.kind == Tournament.Kind.ROUNDS and played.stage != Round.Stage.FINAL:
        return size  # rounds before the cut eliminate nobody; a semi-final cuts on points
    return max(1, min(tournament.advance_per_table, size - 1))


def _complete_round(tournament: Tournament, played: Round) -> None:
    tables = list(played.tables.all())
    advancing = [e for t in tables for e in t.outcome["advancing"]] + played.draw.get("byes", [])
    played.advanced = advancing
    played.status = Round.Status.COMPLETE
    played.save(update_fields=["advanced", "status"])
    if played.stage == Round.Stage.FINAL:
        _finish(tournament, played)
        return
    out = {int(k): v for t in tables for k, v in t.outcome["out"].items()}
    for entry in tournament.entries.filter(pk__in=out, status=E.ACTIVE):
        entry.status = E.ELIMINATED
        entry.out_in_round = played.number
        entry.table_place = out[entry.pk]
        entry.save(update_fields=["status", "out_in_round", "table_place"])
    survivors = list(
        tournament.entries.filter(pk__in=advancing, status=E.ACTIVE).order_by("seed", "id")
    )
    if tournament.kind == Tournament.Kind.ROUNDS:
        survivors = _after_rounds(tournament, played, survivors)
    number = played.number + 1
    _draw(tournament, number, _stage_for(tournament, len(survivors), number),
          [e.pk for e in survivors])  # fmt: skip
    _audit(tournament, None, "round_complete", round=played.number, advanced=len(survivors))


def _after_rounds(tournament: Tournament, played: Round, survivors: list[Entry]) -> list[Entry]:
    """Rounds kind: after the last round before the cut, the top ``cut`` by their points over
    those rounds go on (seeded by them); after a semi-final, the top ``table_max`` by their
    semi-final points. The rest are out, placed by those points (ties share a place)."""
    if played.stage == Round.Stage.SEMIFINAL:
        points = _points_in(tournament.round_set.filter(pk=played.pk))
        keep = tournament.table_max
    elif played.number < tournament.rounds:
        return survivors
    else:
        points = _points_in(tournament.round_set.filter(stage=Round.Stage.ROUND))
        keep = tournament.cut or tournament.table_max
    ordered = sorted(survivors, key=lambda e: (-points.get(e.player_id, 0), e.seed or 0))
    place = keep + 1
    for index, entry in enumerate(ordered[keep:], start=keep + 1):
        if points.get(entry.player_id, 0) != points.get(ordered[index - 2].player_id, 0):
            place = index
        entry.status = E.ELIMINATED
        entry.out_in_round = played.number
        entry.table_place = place
        entry.save(update_fields=["status", "out_in_round", "table_place"])
    return ordered[:keep]


def _points_in(rounds: Any) -> dict[int, int]:
    """Each player's net points over the tables of ``rounds``, from the ledger (the session's
    other games, and those of a round unwound, do not count)."""
    games = RoundTable.objects.filter(round__in=rounds).values("game_id")
    rows = (
        Posting.objects.filter(
            game_id__in=games, quantity=Quantity.POINTS, account=AccountKind.PLAYER
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    return {player: int(total) for player, total in rows}


def _finish(tournament: Tournament, final: Round) -> None:
    """The final's order and the rounds before it place everyone; prizes are paid."""
    (table,) = list(final.tables.all())
    final_ranks = {int(k): v for k, v in table.outcome["ranks"].items()}
    knocked: list[dict[int, int]] = []
    for past in tournament.round_set.exclude(pk=final.pk).order_by("number"):
        knocked.append(
            dict(
                tournament.entries.filter(out_in_round=past.number).values_list("pk", "table_place")
            )
        )
    places = knockout.final_places(final_ranks, knocked)
    assert tournament.purse is not None
    # The entrants whose fee is in the purse (not those refunded before the start).
    entrants = sum(1 for paid in player_paid_in(tournament.purse, Quantity.MONEY).values() if paid)
    entrants = entrants if tournament.entry_fee_minor else len(places)
    pool = prizes.prize_pool_of(entrants, tournament.entry_fee_minor, tournament.club_fee_minor)
    percentages = prizes.payout_percentages(tournament.payout, entrants)
    won = prizes.prizes(pool, percentages, places) if places else {}
    for entry in tournament.entries.filter(pk__in=places):
        entry.place = places[entry.pk]
        entry.prize_minor = won.get(entry.pk, 0)
        entry.save(update_fields=["place", "prize_minor"])
    player_of = dict(tournament.entries.values_list("pk", "player_id"))
    shares = {player_of[e]: amount for e, amount in won.items() if amount}
    if tournament.purse.status == Game.Status.FINISHED:  # a corrected final: places changed
        scoring_services.purse_prizes_repost(game=tournament.purse, actor=None, shares=shares)
    else:
        game_end(game=tournament.purse, actor=None, end=GameEnd.PLAYED_OUT, shares=shares)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    _audit(tournament, None, "finish", places=len(places), prizes_minor=sum(won.values()))
    _event(tournament, "tournament.finished", places=len(places), prizes_minor=sum(won.values()))


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, actor: AbstractBaseUser) -> Tournament:
    """Call the tournament off: every fee goes back; games in play are left as they are."""
    tournament = _lock(tournament)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(f"the tournament is {tournament.get_status_display().lower()}")
    assert tournament.purse is not None
    game_end(game=tournament.purse, actor=actor, end=GameEnd.ABANDONED)
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    _audit(tournament, actor, "cancel")
    return tournament


__all__ = [
    "draw_cost",
    "entry_add",
    "entry_check_in",
    "entry_withdraw",
    "round_release",
    "round_swap",
    "rounds_unwind",
    "table_game_ended",
    "tables_catch_up",
    "tournament_cancel",
    "tournament_create",
    "tournament_start",
]


# --- corrections of a played table ---------------------------------------------------------------


def _table_of(game: Game) -> RoundTable | None:
    return (
        RoundTable.objects.select_related("round__tournament").filter(game=game).first()
        or RoundTable.objects.select_related("round__tournament").filter(tiebreaker=game).first()
    )


def correction_guard(game: Game) -> None:
    """Refuse a correction of a table whose round already sent players on to a round being
    played (or played): the rounds it would change are named."""
    table = _table_of(game)
    if table is None or table.round.status != Round.Status.COMPLETE:
        return
    later = list(
        table.round.tournament.round_set.filter(number__gt=table.round.number)
        .exclude(status=Round.Status.DRAFT)
        .values_list("number", flat=True)
    )
    if later:
        raise Conflict(
            f"this table decided who went on to round {later[0]}, which is being played; "
            f"correcting it would change round(s) {', '.join(map(str, later))}",
            code="round_played_on",
            details={"affected_rounds": later},
        )


@transaction.atomic
def table_result_changed(*, game_id: int) -> str:
    """A finished table's result changed (a correction the guard let through): while its round
    is still played, the table is settled again; once complete with the next round only drawn,
    the round is reopened, the draft dropped and every table settled again."""
    game = Game.objects.filter(pk=game_id).first()
    table = _table_of(game) if game is not None else None
    if table is None:
        return "not a tournament table"
    tournament = _lock(table.round.tournament)
    played = Round.objects.select_for_update().get(pk=table.round_id)
    following = tournament.round_set.filter(number__gt=played.number)
    if following.exclude(status=Round.Status.DRAFT).exists():
        return "played on"  # the guard refuses these; nothing to redo
    if played.status == Round.Status.COMPLETE:
        following.delete()
        tournament.entries.filter(out_in_round=played.number).update(
            status=E.ACTIVE, out_in_round=None, table_place=None
        )
        played.status = Round.Status.RELEASED
        played.advanced = []
        played.save(update_fields=["status", "advanced"])
        for each in played.tables.all():
            each.outcome = {}
            each.save(update_fields=["outcome"])
    else:
        table.outcome = {}
        table.save(update_fields=["outcome"])
    _audit(tournament, None, "recompute", round=played.number, table=table.pk)
    result = "resettled"
    for each in played.tables.all():
        result = table_game_ended(game_id=each.game_id)
    return result


@transaction.atomic
def rounds_unwind(
    *, tournament: Tournament, actor: AbstractBaseUser, number: int, confirm: bool = False
) -> Round:
    """The organiser's confirmed recompute: the rounds played after round ``number`` are taken
    out of the tournament so that a table of round ``number`` may be corrected. Their games
    stay in the night's ledger as played (what was played was played) but no longer count for
    the tournament; games still open there are abandoned; whoever they knocked out is back in;
    prizes already paid are posted again when the tournament finishes again. Round ``number``
    is settled afresh at once, so the next round is a draft again. Audited."""
    tournament = _lock(tournament)
    if tournament.status == Tournament.Status.CANCELLED:
        raise Conflict("the tournament is cancelled")
    played = _round(tournament, number)
    if played.status != Round.Status.COMPLETE:
        raise Conflict(f"round {number} is not complete: its tables can be corrected as they are")
    later = list(tournament.round_set.filter(number__gt=number).order_by("number"))
    affected = [r.number for r in later if r.status != Round.Status.DRAFT]
    if not confirm:
        raise Conflict(
            f"unwinding round {number} takes round(s) {', '.join(map(str, affected)) or 'none'} "
            "out of the tournament; confirm to go on",
            code="confirm_required",
            details={"affected_rounds": affected},
        )
    games = [
        game
        for table in RoundTable.objects.filter(round__in=later).select_related("game", "tiebreaker")
        for game in (table.game, table.tiebreaker)
        if game is not None
    ]
    for each in later:
        each.delete()
    for game in games:
        if game.status == Game.Status.OPEN:
            _stop(game, actor)
    tournament.entries.filter(out_in_round__gte=number).update(
        status=E.ACTIVE, out_in_round=None, table_place=None
    )
    tournament.entries.update(place=None, prize_minor=0)
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.finished_at = None
        tournament.save(update_fields=["status", "finished_at"])
    played.status = Round.Status.RELEASED
    played.advanced = []
    played.save(update_fields=["status", "advanced"])
    RoundTable.objects.filter(round=played).update(outcome={})
    _audit(tournament, actor, "unwind", round=number, rounds_removed=affected, games=len(games))
    for table in played.tables.all():
        table_game_ended(game_id=table.game_id)  # type: ignore[arg-type]
    played.refresh_from_db()
    return played


def tables_catch_up() -> list[int]:
    """Tables of released rounds whose game (or tie-breaker) has ended but which were never
    settled (the announcement lost with the broker, a worker gone): each is settled now. The
    periodic safety net of :func:`table_game_ended`, which is idempotent."""
    waiting = RoundTable.objects.filter(
        round__status=Round.Status.RELEASED, round__tournament__status=Tournament.Status.RUNNING
    ).select_related("game", "tiebreaker")
    caught = []
    for table in waiting:
        ended = table.game is not None and table.game.status == Game.Status.FINISHED
        unsettled = "advancing" not in table.outcome or bool(table.outcome.get("tied"))
        tiebreak_open = table.tiebreaker is not None and table.tiebreaker.status == Game.Status.OPEN
        if ended and unsettled and not tiebreak_open:
            table_game_ended(game_id=table.game_id)  # type: ignore[arg-type]
            caught.append(table.pk)
    return caught


# --- merging two roster entries for one person ------------------------------------------------
# Here rather than in clubs or scoring: this is the layer that sees every app holding a player's
# history (seats and ledger lines in scoring, entries in tournaments).


def _merge_blockers(source: Player, target: Player) -> list[tuple[str, str]]:
    blockers = scoring_merge.merge_blockers(source=source, target=target)
    shared = (
        Entry.objects.filter(player=source, tournament__entries__player=target)
        .values_list("tournament__name", flat=True)
        .first()
    )
    if shared is not None:
        blockers.append(
            ("players_met", f"{source.name} and {target.name} are both entered in {shared}")
        )
    running = (
        Entry.objects.filter(player=source)
        .exclude(tournament__status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
        .values_list("tournament__name", flat=True)
        .first()
    )
    if running is not None:
        blockers.append(
            ("tournament_running", f"{source.name} is entered in {running}, not finished yet")
        )
    return blockers


@transaction.atomic
def player_merge(*, source: Player, target: Player, actor: AbstractBaseUser) -> Player:
    """Merge ``source`` (a duplicate roster entry) into ``target``: its seats, ledger lines,
    results, standings, ratings and tournament entries become ``target``'s, and ``source`` is
    kept, retired, as merged (its page leads to ``target``). Nothing is reposted: every total
    of ``target`` afterwards is the sum of both. Refused, with every reason named, when the two
    sat in one game or one tournament, or ``source`` is still in play. Audited."""
    if source.club_id != target.club_id:
        raise InvalidInput("into: not a player of this club")
    if source.pk == target.pk:
        raise InvalidInput("into: a player cannot be merged into themselves")
    # The club's row first: ratings and standings of the club are written under it.
    Club.objects.select_for_update().filter(pk=target.club_id).first()
    locked = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk])
    }
    source, target = locked[source.pk], locked[target.pk]
    for player, role in ((source, "merged"), (target, "merged into")):
        if player.merged_into_id is not None:
            raise Conflict(
                f"{player.name} was already merged into player #{player.merged_into_id}",
                code="already_merged",
                details={"player": player.pk, "role": role},
            )
    if source.user_id and target.user_id and source.user_id != target.user_id:
        raise Conflict(
            f"{source.name} and {target.name} are linked to two different accounts: unlink one "
            "first",
            code="two_accounts",
        )
    blockers = _merge_blockers(source, target)
    if blockers:
        raise Conflict(
            "; ".join(message for _, message in blockers),
            code=blockers[0][0],
            details={"blockers": [{"code": c, "message": m} for c, m in blockers]},
        )
    before = {"source": source.name, "target": target.name, "target_user": target.user_id}
    user = source.user
    source.merged_into, source.active, source.user = target, False, None
    source.save(update_fields=["merged_into", "active", "user"])
    if user is not None and target.user_id is None:
        target.user = user
        target.save(update_fields=["user"])
    moved = scoring_merge.player_history_move(source=source, target=target)
    moved["entries"] = Entry.objects.filter(player=source).update(player=target)
    audit_record(
        actor=actor,
        club=target.club,
        action="player.merge",
        obj=source,
        before=before,
        after={"merged_into": target.pk, "moved": moved, "target_user": target.user_id},
    )
    return target
