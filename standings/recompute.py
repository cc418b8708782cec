"""The standings derived from the ledger itself: ``standings_recompute`` (always equal to the kept
rows) and, with ``as_of_entry``, the table as it stood after any past ledger entry."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import (
    Sum,
)

from clubs.models import Club, Player
from ledger.models import AccountKind, LedgerEntry, Posting
from rules.ratings import initial_skill
from scoring.formats import handler_for
from scoring.models import PlayerResult
from scoring.standing_rows import QUANTITY_FIELD, TOTAL_FIELDS
from standings.metrics import order_for, rank_key
from standings.ratings import ratings_at
from standings.scopes import postings_in_scope, scope_facts, scope_filter, table_family
from standings.tables import StandingsTable, points_apart, ranked_lines


def standings_recompute(
    *, scope: str, scope_id: int, as_of_entry: int | None = None, game_format: str = ""
) -> dict[int, dict[str, int]]:
    """Every player's totals in a scope (of one game format, if given) computed from the ledger;
    with ``as_of_entry``, as they stood right after that ledger entry (later entries,
    corrections included, left out)."""
    totals: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(TOTAL_FIELDS, 0))
    postings = Posting.objects.filter(
        postings_in_scope(scope, scope_id, game_format), account=AccountKind.PLAYER
    )
    if as_of_entry is not None:
        postings = postings.filter(entry_id__lte=as_of_entry)
    for player_id, quantity, total in postings.values_list("player_id", "quantity").annotate(
        total=Sum("amount")
    ):
        totals[player_id][QUANTITY_FIELD[quantity]] += total
    results = PlayerResult.objects.filter(
        scope_filter(scope, scope_id, game_format), entry__isnull=False
    )
    if as_of_entry is None:
        results = results.filter(entry__reversed_by__isnull=True)
    else:
        results = results.filter(entry_id__lte=as_of_entry).exclude(
            entry__reversed_by__id__lte=as_of_entry
        )
    for player_id, game_format, outcome, points, won in results.values_list(
        "player_id", "game__format", "outcome", "points", "won"
    ):
        tallies = handler_for(game_format).deal_tallies(outcome=outcome, points=points, won=won)
        for name, value in tallies.items():
            totals[player_id][name] += value
    return {pid: values for pid, values in totals.items() if any(values.values())}


def standings_table_as_of(
    *,
    club: Club,
    scope: str,
    scope_id: int,
    as_of_entry: int,
    metrics: Sequence[str] | None = None,
    game_format: str = "",
    limit: int | None = None,
    offset: int = 0,
) -> StandingsTable:
    """The table as it stood after a past ledger entry (recomputed from the ledger), ranked by
    the same exact keys as the live table; ``limit`` lines from ``offset`` (all when None)."""
    facts = scope_facts(club, scope, scope_id, game_format)
    formats = facts.mixed_formats
    order, left_out = order_for(club, metrics, bool(formats))
    totals: dict[int, dict[str, Any]] = dict(
        standings_recompute(
            scope=scope, scope_id=scope_id, as_of_entry=as_of_entry, game_format=game_format
        )
    )
    rated = [metric for metric in order if metric.rating is not None]
    if rated:  # the ratings as they stood then: before the club's next ledger entry
        family = table_family(facts, scope, scope_id, game_format)
        following = (
            LedgerEntry.objects.filter(book__club=club, id__gt=as_of_entry)
            .order_by("id")
            .values_list("created_at", flat=True)
            .first()
        )
        skills = ratings_at(club=club, family=family, before=following)
        start = initial_skill()
        for pid, values in totals.items():
            skill = skills.get(pid, start)
            values.update(rating_mu=skill.mu, rating_ordinal=skill.ordinal)
    names = dict(Player.objects.filter(pk__in=totals).values_list("pk", "name"))
    ranked = sorted(totals.items(), key=lambda item: (rank_key(order, item[1]), item[0]))
    lines = ranked_lines(order, ranked, names)
    if formats:
        per_format = {
            f: standings_recompute(
                scope=scope, scope_id=scope_id, as_of_entry=as_of_entry, game_format=f
            )
            for f in formats
        }
        for line in lines:
            points_apart(
                line, {f: per_format[f].get(line.player_id, {}).get("points", 0) for f in formats}
            )
    count = len(lines)
    lines = lines[offset:] if limit is None else lines[offset : offset + limit]
    return StandingsTable(
        scope, scope_id, order, lines, count, as_of_entry, game_format=game_format,
        formats=formats, left_out=left_out,
    )  # fmt: skip
