"""A table's last change (the projector's arrows and its "just now" band): its last ledger
entry, what it added to each player's totals, and their ranks before and after."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    F,
    OuterRef,
    Subquery,
    Sum,
)

from clubs.models import Club
from ledger.models import AccountKind, LedgerEntry, Posting
from scoring.formats import handler_for
from scoring.models import Game, PlayerResult, StandingRow
from scoring.standing_rows import QUANTITY_FIELD, TOTAL_FIELDS
from standings.metrics import Metric, rank_key
from standings.scopes import accounts_in_scope, postings_in_scope, ranked_before, scope_filter
from standings.tables import StandingLine


@dataclass
class LastChange:
    """The ledger entry a table last changed by (a deal counted, a correction, a fee) and the
    ranks of the players it touched before and after: what a projector shows first."""

    entry_id: int
    at: Any  # when it was counted
    table: str
    deal: int | None
    #: Player id -> (rank now, rank before; None when the player was new to the table).
    ranks: dict[int, tuple[int, int | None]]
    names: dict[int, str]
    #: The rank keys of the touched players now and before, to tell a line the entry did not
    #: touch how far it was pushed (``rank_before``).
    keys_now: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    keys_before: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    order: list[Metric] = field(default_factory=list)

    def rank_before(self, line: StandingLine) -> int | None:
        """Where a line of the table stood before the entry: a touched player's own rank; any
        other line's rank less the touched players who passed it, plus those who fell behind."""
        if line.player_id in self.ranks:
            return self.ranks[line.player_id][1]
        key = rank_key(self.order, line.totals)
        ahead_now = sum(1 for k in self.keys_now.values() if k < key)
        ahead_before = sum(1 for k in self.keys_before.values() if k < key)
        return line.rank - ahead_now + ahead_before

    def places_moved(self, line: StandingLine) -> int:
        """How far a line the entry did not touch moved, down (positive) or up: down a place
        for each touched player who passed it (behind it or not on the table before, ahead of
        it now), up one for each who fell behind it. A touched player who was level with it
        and stepped ahead (or fell back) moved; this line did not."""
        key = rank_key(self.order, line.totals)
        passed = sum(
            1
            for pid, now in self.keys_now.items()
            if now < key and (pid not in self.keys_before or self.keys_before[pid] > key)
        )
        fell = sum(
            1
            for pid, then in self.keys_before.items()
            if then < key and pid in self.keys_now and self.keys_now[pid] > key
        )
        return passed - fell


#: How many of the newest player postings (of every club) are looked through for a table's last
#: change before asking each of its games: a table in play finds it among them.
RECENT_POSTINGS = 200


def _last_entry(scope: str, scope_id: int, game_format: str) -> LedgerEntry | None:
    """The scope's newest ledger entry with player postings. A table in play finds it among the
    newest postings of all clubs (a backward walk of a bounded length); a table no longer
    written to asks each of its games for its newest entry (an index probe a game), which grows
    with its games (and its accounts, of a table of all formats) but not with what other clubs
    wrote since. Either way the same entry: one newer in scope would be among the newest
    postings too. One query, or two (three with accounts)."""
    entries = LedgerEntry.objects.select_related(
        "book__game__table", "book__session_account", "deal"
    )
    recent = Posting.objects.filter(account=AccountKind.PLAYER).order_by("-entry_id")
    newest_recent = (
        Posting.objects.filter(
            postings_in_scope(scope, scope_id, game_format),
            pk__in=Subquery(recent.values("pk")[:RECENT_POSTINGS]),
        )
        .order_by("-entry_id")
        .values("entry_id")[:1]
    )
    last = entries.filter(pk=Subquery(newest_recent)).first()
    if last is not None:
        return last
    newest_of_game = Subquery(
        Posting.objects.filter(book_id=OuterRef("book_id"), account=AccountKind.PLAYER)
        .order_by("-entry_id")
        .values("entry_id")[:1]
    )
    newest = (
        Game.objects.filter(scope_filter(scope, scope_id, game_format, game=""))
        .annotate(newest=newest_of_game)
        .order_by(F("newest").desc(nulls_last=True))
        .values("newest")[:1]
    )
    last = entries.filter(pk=Subquery(newest)).first()
    in_accounts = accounts_in_scope(scope, scope_id, game_format)
    if in_accounts is not None:
        of_accounts = (
            Posting.objects.filter(in_accounts, account=AccountKind.PLAYER)
            .order_by("-entry_id")
            .values("entry_id")[:1]
        )
        newer = entries.filter(pk=Subquery(of_accounts)).first()
        if newer is not None and (last is None or newer.pk > last.pk):
            last = newer
    return last


def _where(book: Any) -> str:
    """The name of where an entry was posted: its game's table, or the account's own."""
    game = getattr(book, "game", None)
    return str(game.table.name if game is not None else book.session_account.name)


def _entry_delta(
    last: LedgerEntry, scope: str, scope_id: int, game_format: str
) -> dict[int, dict[str, int]]:
    """What an entry added to each player's totals in the scope: its postings and its counted
    results, less the results of the entry it reverses (a correction's earlier version). Two
    queries."""
    delta: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(TOTAL_FIELDS, 0))
    for player_id, quantity, total in (
        Posting.objects.filter(
            postings_in_scope(scope, scope_id, game_format),
            account=AccountKind.PLAYER,
            entry_id=last.pk,
        )
        .values_list("player_id", "quantity")
        .annotate(total=Sum("amount"))
    ):
        delta[player_id][QUANTITY_FIELD[quantity]] += total
    entries = [last.pk] if last.reverses_id is None else [last.pk, last.reverses_id]
    for player_id, entry_id, fmt, outcome, points, won in PlayerResult.objects.filter(
        scope_filter(scope, scope_id, game_format), entry_id__in=entries
    ).values_list("player_id", "entry_id", "game__format", "outcome", "points", "won"):
        sign = 1 if entry_id == last.pk else -1  # a corrected result no longer counts
        for name, value in (
            handler_for(fmt).deal_tallies(outcome=outcome, points=points, won=won).items()
        ):
            delta[player_id][name] += sign * value
    return delta


def standings_last_change(
    *, club: Club, scope: str, scope_id: int, order: list[Metric], game_format: str = ""
) -> LastChange | None:
    """The table's last change read from the ledger: its last entry, what that entry added to
    each player's totals (its postings and counted results, less the results a correction took
    back), and each touched player's rank before and after. Five queries whatever the history
    (the entry, its postings, its results, the touched rows, one count of the rows ranked
    before each of them); ``order`` is the table's (``StandingsTable.metrics``). ``None`` when
    nothing is counted, or when the table ranks by rating (a rating before a deal is not kept
    beside the rows)."""
    if any(metric.rating is not None for metric in order):
        return None
    last = _last_entry(scope, scope_id, game_format)
    if last is None or getattr(last.book, "game", None) is None:
        # Only a table's entry (a deal, a correction) is a change of the standings to show;
        # an account's (a tournament's fees into its purse, its prizes) moves no one's game.
        return None
    delta = _entry_delta(last, scope, scope_id, game_format)
    touched = list(delta)
    rows = StandingRow.objects.filter(
        club=club, scope=scope, scope_id=scope_id, game_format=game_format, player_id__in=touched
    ).values("player_id", "player__name", *TOTAL_FIELDS)
    now: dict[int, dict[str, Any]] = {}
    names: dict[int, str] = {}
    for row in rows:
        now[row["player_id"]] = {name: row[name] for name in TOTAL_FIELDS}
        names[row["player_id"]] = row["player__name"]
    before = {
        pid: {name: totals[name] - delta[pid][name] for name in TOTAL_FIELDS}
        for pid, totals in now.items()
    }
    keys_now = {pid: rank_key(order, totals) for pid, totals in now.items()}
    keys_before = {
        pid: rank_key(order, totals) for pid, totals in before.items() if any(totals.values())
    }

    # One query counts, for each touched player, the untouched rows ranked before them now
    # and before the entry (the untouched rows did not move).
    def sql_values(key: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(
            float(-v if m.descending else v) if m.per is not None else (-v if m.descending else v)
            for v, m in zip(key, order, strict=True)
        )

    wanted = {f"now_{pid}": sql_values(key) for pid, key in keys_now.items()}
    wanted |= {f"before_{pid}": sql_values(key) for pid, key in keys_before.items()}
    found = ranked_before(
        StandingRow.objects.filter(
            club=club, scope=scope, scope_id=scope_id, game_format=game_format
        ).exclude(player_id__in=touched),
        order,
        wanted,
    )
    ranks: dict[int, tuple[int, int | None]] = {}
    for pid, key in keys_now.items():
        rank_now = 1 + found[f"now_{pid}"] + sum(1 for k in keys_now.values() if k < key)
        rank_then = None
        if pid in keys_before:
            then = keys_before[pid]
            rank_then = 1 + found[f"before_{pid}"]
            rank_then += sum(1 for k in keys_before.values() if k < then)
        ranks[pid] = (rank_now, rank_then)
    return LastChange(
        entry_id=last.pk, at=last.created_at, table=_where(last.book),
        deal=last.deal.number if last.deal else None, ranks=ranks, names=names,
        keys_now=keys_now, keys_before=keys_before, order=order,
    )  # fmt: skip
