"""A club's skill ratings per game family, kept equal to a replay of its finished games.

Writes: ``rating_game_update`` takes a game whose end was announced (or whose result changed
since): a game finished after every rated one is applied on top of the current ratings; any
other change (a correction, a game finished out of order, an abandoned one) replays the family
from that game onward. ``ratings_replay`` replays a family from any point (or from scratch) in
chunks, memory flat whatever the history. Every write takes the club's row lock, so two updates
of one club never interleave, and each is idempotent.

Reads: the leaderboard (now or as it stood after a session), the rated games in the order applied
(the model's exact input, so anyone can replay it) and a player's history."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from config.errors import InvalidInput, NotFoundError
from rules.families import Family
from rules.ratings import Replay, Skill
from scoring.formats import handler_for
from scoring.lifecycle import game_finishing_order
from scoring.models import Game, Session
from standings.models import RatedGame, Rating, RatingChange

CHUNK = 2000

# --- writing ------------------------------------------------------------------------------------


def _after(finished_at: datetime, game_id: int) -> Q:
    """Rated games applied after (finished_at, game_id)."""
    return Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, game_id__gt=game_id)


def _at_or_after(finished_at: datetime, game_id: int) -> Q:
    return Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, game_id__gte=game_id)


def _ranks_json(order: dict[int, int] | None) -> dict[str, int] | None:
    return None if order is None else {str(pid): rank for pid, rank in sorted(order.items())}


def rating_game_update(*, game_id: int) -> str:
    """Bring the ratings in step with one game's result: ``applied`` (a new game on top),
    ``replayed`` (from this game on), or ``unchanged``."""
    with transaction.atomic():
        # One update of a club at a time: the club's row is the lock, taken with the game.
        game = (
            Game.objects.select_for_update(of=("table__session__club",))
            .select_related("preset", "table__session__club")
            .get(pk=game_id)
        )
        club_id = game.table.session.club_id
        family = handler_for(game).family
        # A tie-breaker decides its tie and nothing else: it is not rated.
        ranks = None if game.breaks_tie else _ranks_json(game_finishing_order(game=game))
        existing, later = _rated_and_later(club_id, family, game)
        if (
            existing is not None
            and ranks == existing.ranks
            and (existing.finished_at == game.finished_at)
        ):
            return "unchanged"
        if existing is None and ranks is None:
            return "unchanged"
        if existing is None and ranks is not None and not later:
            assert game.finished_at is not None
            rated = RatedGame.objects.create(
                game=game, club_id=club_id, family=family, finished_at=game.finished_at,
                ranks=ranks,
            )  # fmt: skip
            _apply_on_top(rated)
            return "applied"
        # A change in the past: replay the family from the earlier of the old and new places.
        points = []
        if existing is not None:
            points.append((existing.finished_at, existing.game_id))
            existing.delete()
        if ranks is not None and game.finished_at is not None:
            RatedGame.objects.create(
                game=game, club_id=club_id, family=family, finished_at=game.finished_at,
                ranks=ranks,
            )  # fmt: skip
            points.append((game.finished_at, game.pk))
        _replay(club_id, family, min(points))
        return "replayed"


def _rated_and_later(club_id: int, family: str, game: Game) -> tuple[RatedGame | None, bool]:
    """The game's rated row, if any (as far as the decision needs it), and whether a game was
    applied after it: one statement written out, since this runs after every game. A game
    finished at the very same moment counts as later: it only sends a rare tie down the
    replay, which is right in every case."""
    table = connection.ops.quote_name(RatedGame._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            # The latest other game's end, not an EXISTS over a range: a range's generic plan
            # scans the table, the maximum reads one end of the index.
            f"SELECT r.id, r.ranks, r.finished_at = %s, (SELECT max(l.finished_at) FROM {table} l"
            f" WHERE l.club_id = %s AND l.family = %s AND l.game_id <> %s) >= %s "
            f"FROM (SELECT 1 AS one) o LEFT JOIN {table} r ON r.game_id = %s",
            [game.finished_at, club_id, family, game.pk, game.finished_at, game.pk],
        )
        rated_id, ranks, same_time, later = cursor.fetchone()
    later = bool(game.finished_at is not None and later)
    if rated_id is None:
        return None, later
    if not same_time:  # the game ended again since (rare): its row as stored
        return RatedGame.objects.get(pk=rated_id), later
    existing = RatedGame(
        id=rated_id, game_id=game.pk, club_id=club_id, family=family,
        finished_at=game.finished_at,
        ranks=RatedGame._meta.get_field("ranks").from_db_value(ranks, None, connection),
    )  # fmt: skip
    return existing, later


def _apply_on_top(rated: RatedGame) -> None:
    """A game finished after every rated one: rate it from the current ratings (one read, two
    or three writes)."""
    ranks = {int(pid): rank for pid, rank in rated.ranks.items()}
    rows = {
        row.player_id: row
        for row in Rating.objects.filter(player_id__in=list(ranks), family=rated.family)
    }
    state: Replay[int] = Replay()
    state.skills.update({pid: Skill(r.mu, r.sigma, r.games) for pid, r in rows.items()})
    before, after = state.apply(ranks)
    _insert_changes(_changes(rated, ranks, before, after))
    _store(rated.club_id, rated.family, after)


def _insert_changes(changes: list[RatingChange]) -> None:
    """Insert rating changes in one statement, written out (this runs after every game)."""
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    columns = [
        "rated_game_id", "player_id", "rank", "mu_before", "sigma_before", "mu_after",
        "sigma_after", "games",
    ]  # fmt: skip
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    params: list[Any] = []
    for change in changes:
        params += [getattr(change, name) for name in columns]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row] * len(changes))}",
            params,
        )


def _changes(
    rated: RatedGame, ranks: dict[int, int], before: dict[int, Skill], after: dict[int, Skill]
) -> list[RatingChange]:
    return [
        RatingChange(
            rated_game=rated, player_id=pid, rank=ranks[pid],
            mu_before=before[pid].mu, sigma_before=before[pid].sigma,
            mu_after=after[pid].mu, sigma_after=after[pid].sigma, games=after[pid].games,
        )
        for pid in ranks
    ]  # fmt: skip


def _store(club_id: int, family: str, skills: dict[int, Skill]) -> None:
    """Write players' current ratings: one statement, written out (an insert that updates the
    rows already there), since building Django's bulk update cost more than running it."""
    if not skills:
        return
    table = connection.ops.quote_name(Rating._meta.db_table)
    columns = ["club_id", "player_id", "family", "mu", "sigma", "ordinal", "games"]
    for start in range(0, len(skills), CHUNK):
        chunk = list(skills.items())[start : start + CHUNK]
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        params: list[Any] = []
        for pid, skill in chunk:
            params += [club_id, pid, family, skill.mu, skill.sigma, skill.ordinal, skill.games]
        updates = ", ".join(f"{name} = excluded.{name}" for name in columns[3:])
        sql = (
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row] * len(chunk))}"
            f" ON CONFLICT (player_id, family) DO UPDATE SET {updates}"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def _skills_before(club_id: int, family: str, point: tuple[datetime, int]) -> dict[int, Skill]:
    """Every player's skill right before ``point`` in the applied order: their last change
    before it (one query, a window over the earlier changes)."""
    finished_at, game_id = point
    earlier = RatingChange.objects.filter(
        rated_game__club_id=club_id, rated_game__family=family
    ).exclude(rated_game__in=RatedGame.objects.filter(_at_or_after(finished_at, game_id)))
    latest = earlier.annotate(
        newest=Window(
            RowNumber(),
            partition_by=[F("player_id")],
            order_by=[F("rated_game__finished_at").desc(), F("rated_game__game_id").desc()],
        )
    ).filter(newest=1)
    return {row.player_id: Skill(row.mu_after, row.sigma_after, row.games) for row in latest}


def _replay(club_id: int, family: str, point: tuple[datetime, int] | None) -> int:
    """Replay the family's rated games from ``point`` (every game with ``None``): changes from
    there are rewritten and the current ratings set to where the replay ends. Chunked: memory
    holds the players' skills and one chunk of games. Returns the games replayed."""
    games = RatedGame.objects.filter(club_id=club_id, family=family)
    if point is not None:
        games = games.filter(_at_or_after(*point))
    RatingChange.objects.filter(rated_game__in=games).delete()
    state: Replay[int] = Replay()
    if point is not None:
        state.skills.update(_skills_before(club_id, family, point))
        touched_before = set(state.skills)
    else:
        Rating.objects.filter(club_id=club_id, family=family).delete()
        touched_before = set()
    replayed = 0
    batch: list[RatingChange] = []
    touched: set[int] = set()
    for rated in games.order_by("finished_at", "game_id").iterator(chunk_size=CHUNK):
        ranks = {int(pid): rank for pid, rank in rated.ranks.items()}
        before, after = state.apply(ranks)
        batch += _changes(rated, ranks, before, after)
        touched.update(ranks)
        replayed += 1
        if len(batch) >= CHUNK:
            RatingChange.objects.bulk_create(batch)
            batch = []
    RatingChange.objects.bulk_create(batch)
    # Players whose every game was replayed away lose their rating; the rest take the replay's.
    if point is not None:
        gone = set(
            Rating.objects.filter(club_id=club_id, family=family)
            .exclude(player_id__in=touched | touched_before)
            .values_list("player_id", flat=True)
        )
        Rating.objects.filter(club_id=club_id, family=family, player_id__in=gone).delete()
    _store(club_id, family, {pid: state.skills[pid] for pid in touched | touched_before})
    return replayed


def ratings_player_merge(*, club_id: int, source_id: int, target_id: int) -> int:
    """A merged player's rated games name the kept player, and each family is replayed from the
    first of them (the two never shared a game). The caller holds the club's row lock. Returns
    the rated games rewritten."""
    games = RatedGame.objects.filter(club_id=club_id, ranks__has_key=str(source_id))
    first: dict[str, tuple[datetime, int]] = {}
    rewritten = 0
    for rated in games.order_by("finished_at", "game_id"):
        ranks = {int(pid): rank for pid, rank in rated.ranks.items()}
        ranks[target_id] = ranks.pop(source_id)
        rated.ranks = _ranks_json(ranks)
        rated.save(update_fields=["ranks"])
        first.setdefault(rated.family, (rated.finished_at, rated.game_id))
        rewritten += 1
    for family, point in first.items():
        _replay(club_id, family, point)
    return rewritten


def ratings_games_taken_in(*, club_id: int, game_ids: list[int]) -> int:
    """Finished games of the past (an import) rated at once: each family replayed from the
    earliest of them, in date order. The caller holds the club's row lock or its own
    transaction. Returns the games taken in."""
    first: dict[str, tuple[datetime, int]] = {}
    rated: list[RatedGame] = []
    games = Game.objects.filter(pk__in=game_ids, status=Game.Status.FINISHED, breaks_tie=False)
    for game in games.select_related("preset").order_by("finished_at", "pk"):
        ranks = _ranks_json(game_finishing_order(game=game))
        if ranks is None or game.finished_at is None:
            continue
        family = handler_for(game).family
        rated.append(RatedGame(
            game=game, club_id=club_id, family=family, finished_at=game.finished_at, ranks=ranks
        ))  # fmt: skip
        point = (game.finished_at, game.pk)
        first[family] = min(first.get(family, point), point)
    # One statement for the lot; a game rated before (taken in again) has its row rewritten.
    RatedGame.objects.bulk_create(
        rated, update_conflicts=True, unique_fields=["game"],
        update_fields=["club", "family", "finished_at", "ranks"],
    )  # fmt: skip
    for family, point in first.items():
        _replay(club_id, family, point)
    return len(rated)


def ratings_replay(*, club: Club, family: str) -> int:
    """Replay a family's ratings from scratch (they equal what they were, unless something was
    missed). Returns the games replayed."""
    _check_family(family)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        return _replay(club.pk, family, None)


def ratings_catch_up(*, limit: int = 500) -> list[int]:
    """Finished games whose rating was never taken in (a message lost, a worker gone), oldest
    first: each is brought in step. The periodic safety net of the announcement."""
    missing = list(
        Game.objects.filter(status=Game.Status.FINISHED, rated__isnull=True)
        .exclude(end=Game.End.ABANDONED)
        .exclude(breaks_tie=True)
        .order_by("finished_at", "id")
        .values_list("pk", flat=True)[:limit]
    )
    for game_id in missing:
        rating_game_update(game_id=game_id)
    return missing


# --- reading -------------------------------------------------------------------------------------


def _check_family(family: str) -> str:
    if family not in {f.value for f in Family}:
        raise InvalidInput(
            "game_family: "
            + _("use %(families)s, not %(family)s")
            % {"families": " or ".join(Family), "family": repr(family)},
            code="bad_family",
            details={"token": family},
        )
    return family


@dataclass(frozen=True)
class RatingLine:
    rank: int
    player_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int

    @property
    def provisional(self) -> bool:
        return Skill(self.mu, self.sigma, self.games).provisional


def _ranked(rows: list[tuple[int, str, float, float, int]]) -> list[RatingLine]:
    rows.sort(key=lambda row: (-(row[2] - 3 * row[3]), row[0]))
    lines: list[RatingLine] = []
    for index, (pid, name, mu, sigma, games) in enumerate(rows):
        skill = Skill(mu, sigma, games)
        rank = index + 1
        if lines and lines[-1].ordinal == skill.ordinal:
            rank = lines[-1].rank
        lines.append(RatingLine(rank, pid, name, mu, sigma, skill.ordinal, games))
    return lines


def ranked_among(lines: list[RatingLine]) -> list[RatingLine]:
    """``lines`` (a leaderboard's) ranked among themselves alone, as ``rating_table`` ranks."""
    return _ranked([(li.player_id, li.name, li.mu, li.sigma, li.games) for li in lines])


def rating_table(
    *,
    club: Club,
    family: str,
    include_provisional: bool = False,
    as_of_session: int | None = None,
) -> list[RatingLine]:
    """The family's leaderboard by ordinal (equal ordinals share a rank): now, from the kept
    ratings, or as it stood after a session (after its last rated game, in the applied order).
    Provisional players (fewer than 5 rated games) only when asked."""
    _check_family(family)
    if as_of_session is None:
        # Each name by its player's key: joined, PostgreSQL merged the ratings with the player
        # table's key from its start, reading every player of every club up to the club's last
        # (20,000 rows, 8 ms, for 120 ratings).
        name = Subquery(Player.objects.filter(pk=OuterRef("player_id")).values("name")[:1])
        rows = list(
            Rating.objects.filter(club=club, family=family)
            .annotate(name=name)
            .values_list("player_id", "name", "mu", "sigma", "games")
        )
    else:
        session = Session.objects.filter(club=club, pk=as_of_session).first()
        if session is None:
            words = _("no session #%(id)s in %(club)s")
            raise NotFoundError(words % {"id": as_of_session, "club": club.name})
        last = (
            RatedGame.objects.filter(club=club, family=family, game__table__session=session)
            .order_by("-finished_at", "-game_id")
            .first()
        )
        rows = []
        if last is not None:
            point = (last.finished_at, last.game_id + 1)  # everything up to and with it
            skills = _skills_before(club.pk, family, point)
            names = dict(Player.objects.filter(pk__in=skills).values_list("pk", "name"))
            rows = [(pid, names[pid], s.mu, s.sigma, s.games) for pid, s in skills.items()]
    if not include_provisional:
        rows = [row for row in rows if not Skill(row[2], row[3], row[4]).provisional]
    return _ranked(rows)


def ratings_at(*, club: Club, family: str, before: datetime | None) -> dict[int, Skill]:
    """Every rated player's skill in a family after the games that finished before ``before``
    (every game: ``None``)."""
    if before is None:
        return {
            row.player_id: Skill(row.mu, row.sigma, row.games)
            for row in Rating.objects.filter(club=club, family=family)
        }
    return _skills_before(club.pk, family, (before, 0))


def rated_games(*, club: Club, family: str) -> QuerySet[RatedGame]:
    """The family's rated games in the order applied."""
    _check_family(family)
    return RatedGame.objects.filter(club=club, family=family).order_by("finished_at", "game_id")


def player_rating_changes(*, player: Player) -> QuerySet[RatingChange]:
    """A player's rating changes, game by game, in the order applied per family (one order for
    the list and its pages)."""
    return (
        RatingChange.objects.filter(player=player)
        .select_related("rated_game")
        .order_by("rated_game__family", "rated_game__finished_at", "rated_game__game_id", "id")
    )


def rating_change_rows(changes: Iterable[RatingChange]) -> list[dict[str, Any]]:
    """The rows of ``changes`` as the API answers them."""
    return [_change_row(change) for change in changes]


def player_rating_history(*, player: Player) -> Iterator[dict[str, Any]]:
    """A player's rating changes, game by game, in the order applied per family."""
    for change in player_rating_changes(player=player):
        yield _change_row(change)


def _change_row(change: RatingChange) -> dict[str, Any]:
    return {
        "game": change.rated_game.game_id,
        "family": change.rated_game.family,
        "finished_at": change.rated_game.finished_at,
        "rank": change.rank,
        "mu_before": change.mu_before,
        "sigma_before": change.sigma_before,
        "mu_after": change.mu_after,
        "sigma_after": change.sigma_after,
        "games": change.games,
    }
