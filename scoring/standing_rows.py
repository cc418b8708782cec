"""The kept standing rows: each player's running totals per scope (a game, its session and
season, of all formats and of the game's format), written in the same transaction as the ledger
by ``scoring.posting`` (``standings_apply``, for postings and deal results) and by a player
merge (``standings_rows_merge``). ``standings`` (the app above) reads and ranks them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.dispatch import Signal

from ledger.models import AccountKind, Quantity
from scoring.formats import handler_for
from scoring.models import Game, SessionAccount, StandingRow, StandingScope

TOTAL_FIELDS = (
    "points", "chips", "money_minor", "deals_played", "deals_won", "drops", "full_counts",
    "points_conceded",
)  # fmt: skip
QUANTITY_FIELD = {Quantity.POINTS: "points", Quantity.CHIPS: "chips", Quantity.MONEY: "money_minor"}


Scope = tuple[str, int, str]  # (scope, scope id, game format or "" for all formats)
#: Totals to add, by (scope, scope id, game format, player id).
_Deltas = dict[tuple[str, int, str, int], dict[str, int]]

#: Sent after the commit of a change to a session's standing rows (a deal counted, corrected or
#: voided, an account's entry), with ``session_id``: what ranks by a night's places (a series)
#: listens. Receivers take the id and enqueue their work.
session_standings_changed = Signal()


class _SessionAnnouncement:
    """Sends ``session_standings_changed`` for one session after the commit."""

    def __init__(self, session_id: int) -> None:
        self.session_id = session_id
        self.sent = False

    def __call__(self) -> None:
        self.sent = True
        session_standings_changed.send_robust(sender=Game, session_id=self.session_id)


def _announce_session(session_id: int) -> None:
    """Announce the session's change once a transaction, however many entries it posts (a
    batch of deals): a callback already waiting for this session's commit is enough."""
    waiting = transaction.get_connection().run_on_commit
    if any(
        isinstance(call, _SessionAnnouncement) and call.session_id == session_id and not call.sent
        for _, call, _ in waiting
    ):
        return
    transaction.on_commit(_SessionAnnouncement(session_id))


def _scopes(game: Game) -> tuple[int, list[Scope]]:
    session = game.table.session
    scopes: list[Scope] = [(StandingScope.GAME, game.pk, "")]
    if game.breaks_tie:  # a tie-breaker's points decide the tie only
        return session.club_id, scopes
    scopes += [
        (StandingScope.SESSION, session.pk, ""),
        (StandingScope.SESSION, session.pk, game.format),
    ]
    if session.season_id is not None:
        scopes.append((StandingScope.SEASON, session.season_id, ""))
        scopes.append((StandingScope.SEASON, session.season_id, game.format))
    return session.club_id, scopes


def _account_scopes(account: SessionAccount) -> tuple[int, list[Scope]]:
    """A session's account counts in its session and season, of all formats (it has none)."""
    session = account.session
    scopes: list[Scope] = [(StandingScope.SESSION, session.pk, "")]
    if session.season_id is not None:
        scopes.append((StandingScope.SEASON, session.season_id, ""))
    return session.club_id, scopes


def _line_deltas(
    scopes: list[Scope], lines: Iterable[Any], deltas: _Deltas | None = None
) -> _Deltas:
    deltas = defaultdict(lambda: defaultdict(int)) if deltas is None else deltas
    for line in lines:
        if line.account != AccountKind.PLAYER or line.player_id is None:
            continue
        field_name = QUANTITY_FIELD[line.quantity]
        for scope in scopes:
            deltas[(*scope, line.player_id)][field_name] += line.amount
    return deltas


def _upsert(club_id: int, deltas: dict[tuple[str, int, str, int], dict[str, int]]) -> None:
    rows = [
        (club_id, scope, scope_id, game_format, player_id,
         *(values.get(name, 0) for name in TOTAL_FIELDS))
        for (scope, scope_id, game_format, player_id), values in deltas.items()
        if any(values.values())
    ]  # fmt: skip
    if not rows:
        return
    table = connection.ops.quote_name(StandingRow._meta.db_table)
    columns = ["club_id", "scope", "scope_id", "game_format", "player_id", *TOTAL_FIELDS]
    if connection.vendor == "postgresql":
        # One array per column: the statement reads the same whatever the number of rows, so
        # PostgreSQL prepares it once per connection rather than planning it for every deal.
        kinds = ["bigint", "text", "bigint", "text", "bigint", *["bigint"] * len(TOTAL_FIELDS)]
        source = "SELECT * FROM UNNEST(" + ", ".join(f"%s::{kind}[]" for kind in kinds) + ")"
        params: list[Any] = [list(column) for column in zip(*rows, strict=True)]
    else:
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        source = "VALUES " + ", ".join([row] * len(rows))
        params = [value for values in rows for value in values]
    updates = ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in TOTAL_FIELDS)
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) {source}"
        f" ON CONFLICT (scope, scope_id, game_format, player_id) DO UPDATE SET {updates}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def standings_apply(
    *,
    game: Game,
    lines: Iterable[Any] = (),
    results: Iterable[tuple[int, str, int, bool]] = (),
    sign: int = 1,
) -> None:
    """Add a ledger entry's player amounts (``lines``) and deal results (player, outcome,
    points, won; ``sign`` -1 takes them back) to the totals of the game, and of the session and
    season (all formats, and the game's format), in one statement."""
    deltas: _Deltas = defaultdict(lambda: defaultdict(int))
    club_id = _game_deltas(game, lines, results, sign, deltas)
    _upsert(club_id, deltas)


def standings_apply_games(
    *, posted: Iterable[tuple[Game, list[Any], list[tuple[int, str, int, bool]]]]
) -> None:
    """``standings_apply`` for many games' entries at once (an import of past deals): each
    game's lines and results, added up, then written in one statement a club."""
    by_club: dict[int, _Deltas] = {}
    for game, lines, results in posted:
        club_id = game.table.session.club_id
        deltas = by_club.setdefault(club_id, defaultdict(lambda: defaultdict(int)))
        _game_deltas(game, lines, results, 1, deltas)
    for club_id, deltas in by_club.items():
        _upsert(club_id, deltas)


def _game_deltas(
    game: Game,
    lines: Iterable[Any],
    results: Iterable[tuple[int, str, int, bool]],
    sign: int,
    deltas: _Deltas,
) -> int:
    """A game's amounts and results added to ``deltas`` in each of its scopes; its club's id."""
    club_id, scopes = _scopes(game)
    if not game.breaks_tie:
        _announce_session(game.table.session_id)
    _line_deltas(scopes, lines, deltas)
    # What a result adds besides its amounts is its format's to say (only a deal has results).
    handler = handler_for(game)
    for player_id, outcome, points, won in results:
        tallied = handler.deal_tallies(outcome=outcome, points=points, won=won)
        for name, value in tallied.items():
            for scope in scopes:
                deltas[(*scope, player_id)][name] += sign * value
    return club_id


def standings_apply_account(*, account: SessionAccount, lines: Iterable[Any]) -> None:
    """Add an entry of a session's account (its player amounts) to the session's and season's
    totals of all formats."""
    club_id, scopes = _account_scopes(account)
    _announce_session(account.session_id)
    _upsert(club_id, _line_deltas(scopes, lines))


def standings_rows_merge(*, club_id: int, source_id: int, target_id: int) -> int:
    """A merged player's rows added to the kept player's, scope by scope (totals are sums, and
    the two never shared a game), then removed. Returns the rows taken in."""
    rows = list(StandingRow.objects.filter(club_id=club_id, player_id=source_id))
    deltas: dict[tuple[str, int, str, int], dict[str, int]] = {
        (row.scope, row.scope_id, row.game_format, target_id): {
            name: getattr(row, name) for name in TOTAL_FIELDS
        }
        for row in rows
    }
    StandingRow.objects.filter(pk__in=[row.pk for row in rows]).delete()
    if connection.vendor == "postgresql":
        # The rows' guard (scoring 0028) lets the kept player's totals take in the merged
        # player's, in this transaction, with no ledger entry written.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('rummyclub.merged_player', %s, true)", [str(source_id)]
            )
    _upsert(club_id, deltas)
    return len(rows)
