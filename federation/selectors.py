"""The federation's reads: a federation and who may act in it, the player registry (each club
player's federation player, merges followed to the one they count as, duplicate candidates), an
event's results as its club keeps them, the two lists (``rules.federation``) and the officer's
queue. Nothing here shows a club's private data to anyone outside it: the lists name federation
players, never club records."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs.models import Club
from config.errors import NotFoundError
from federation import refusals
from federation.models import (
    Federation,
    FederationPlayer,
    MemberClub,
    Officer,
    PlayerLink,
    RatingEntry,
    RatingPeriod,
    SanctionedEvent,
)
from rules.federation import (
    RankedResult,
    RankingLine,
    RankingRules,
    RatingLine,
    RatingRules,
    ReleasedEvent,
    pack_ranking,
    period_bounds,
    ranking_list,
    rating_lists,
    unpack_ranking,
)

User = AbstractBaseUser | AnonymousUser


def federation_get(*, slug: str) -> Federation:
    found = Federation.objects.select_related("preset").filter(slug=slug).first()
    if found is None:
        raise NotFoundError(_("no federation %(slug)s") % {"slug": repr(slug)})
    return found


def is_officer(*, user: User, federation: Federation) -> bool:
    return (
        bool(user.is_authenticated)
        and Officer.objects.filter(federation=federation, user_id=int(user.pk or 0)).exists()
    )


def officer_federation(*, user: User, slug: str) -> Federation:
    """The federation if the caller is one of its officers: "not allowed" otherwise."""
    federation = federation_get(slug=slug)
    if not is_officer(user=user, federation=federation):
        raise refusals.officer_needed(federation)
    return federation


def is_member_club(*, federation: Federation, club: Club) -> bool:
    return MemberClub.objects.filter(
        federation=federation, club=club, status=MemberClub.Status.MEMBER
    ).exists()


def member_clubs(*, federation: Federation) -> QuerySet[MemberClub]:
    return federation.clubs.select_related("club").order_by("club__name")


def ranking_rules(federation: Federation) -> RankingRules:
    return RankingRules(
        window_days=federation.window_days,
        full_weight_days=federation.full_weight_days,
        best_n=federation.best_n,
        tiers=dict(federation.tiers),
    )


def rating_rules(federation: Federation) -> RatingRules:
    return RatingRules(provisional_games=federation.provisional_games)


# --- the registry -------------------------------------------------------------------------------


def canonical_ids(*, federation: Federation) -> dict[int, int]:
    """Federation player id -> the id it counts as (itself, or where its merges lead)."""
    parent: dict[int, int | None] = dict(federation.players.values_list("id", "merged_into_id"))
    out: dict[int, int] = {}
    for pid in parent:
        root, seen = pid, {pid}
        while (up := parent.get(root)) is not None and up not in seen:
            root = up
            seen.add(root)
        out[pid] = root
    return out


def player_keys(*, federation: Federation) -> dict[int, int]:
    """Club player id -> the federation player it counts as, for confirmed links."""
    roots = canonical_ids(federation=federation)
    links = PlayerLink.objects.filter(
        federation=federation, status=PlayerLink.Status.CONFIRMED
    ).values_list("player_id", "federation_player_id")
    return {player_id: roots[fp_id] for player_id, fp_id in links if fp_id is not None}


def player_get(*, federation: Federation, player_id: int) -> FederationPlayer:
    found = federation.players.filter(pk=player_id).first()
    if found is None:
        raise refusals.no_player(player_id, federation.name)
    return found


def _normal(name: str) -> str:
    return " ".join(name.casefold().split())


def duplicate_candidates(
    *, federation: Federation
) -> list[tuple[FederationPlayer, FederationPlayer, str]]:
    """Pairs of players (not merged) that may be one person: the same name, the same e-mail, or
    the same date of birth and family name (the last word)."""
    players = list(federation.players.filter(merged_into__isnull=True).order_by("id"))
    found = []
    for index, first in enumerate(players):
        for second in players[index + 1 :]:
            why = _same_person(first, second)
            if why:
                found.append((first, second, why))
    return found


def _same_person(first: Any, second: Any) -> str:
    if _normal(first.name) == _normal(second.name):
        return "name"
    if first.email and first.email.casefold() == second.email.casefold():
        return "email"
    same_family = _normal(first.name).split()[-1:] == _normal(second.name).split()[-1:]
    if first.date_of_birth and first.date_of_birth == second.date_of_birth and same_family:
        return "date of birth"
    return ""


def link_candidates(*, link: PlayerLink) -> list[tuple[FederationPlayer, str]]:
    """The registry's players a proposed link may be: same name, e-mail or birth and surname."""
    players = link.federation.players.filter(merged_into__isnull=True).order_by("id")
    return [(player, why) for player in players if (why := _same_person(link, player))]


# --- the lists ----------------------------------------------------------------------------------


def released_events(*, federation: Federation) -> list[SanctionedEvent]:
    """The released events in the order they were released (the ratings' order)."""
    return list(
        federation.events.filter(
            release_seq__isnull=False, released_results__isnull=False
        ).order_by("release_seq")
    )


def _keyed_places(places: dict[str, int], keys: dict[int, int]) -> tuple[dict[int, int], int]:
    """The federation players' places in an event (one place each, their best when one person
    played under two records) and the event's field size (every placed player)."""
    out: dict[int, int] = {}
    for pid, place in places.items():
        key = keys.get(int(pid))
        if key is not None:
            out[key] = min(place, out.get(key, place))
    return out, len(places)


def _keyed_game(ranks: dict[str, int], keys: dict[int, int]) -> dict[int | str, int]:
    """A game's ranks by federation player; a club player not linked rates as the club's record
    (so the game is rated as played) and is not listed."""
    out: dict[int | str, int] = {}
    for pid, rank in ranks.items():
        key: int | str = keys.get(int(pid), f"club-player:{pid}")
        out[key] = min(rank, out.get(key, rank))
    return out


#: How long a day's ranking list is kept unchanged in the cache (a change's new key ends it).
RANKING_KEPT_SECONDS = 24 * 3600


def ranking(
    *, federation: Federation, as_of: date, events: Iterable[SanctionedEvent] | None = None
) -> list[RankingLine[int, int]]:
    """The ranking list on ``as_of``: every released event played on or before it. The list
    of the released events is kept in the cache under the federation's ``lists_version``: the
    number is read before the events, so a list is never kept under a newer number than the
    input it was computed from."""
    if events is not None:
        return _ranking(federation=federation, as_of=as_of, events=events)
    # The creation time tells apart two federations of one id (a database made afresh, a
    # restored one) sharing a cache.
    version, made = Federation.objects.values_list("lists_version", "created_at").get(
        pk=federation.pk
    )
    key = f"federation:{federation.pk}:{made.timestamp()}:ranking:{version}:{as_of.isoformat()}"
    kept = cache.get(key)
    if kept is not None:
        return unpack_ranking(kept)
    lines = _ranking(federation=federation, as_of=as_of, events=None)
    cache.set(key, pack_ranking(lines), RANKING_KEPT_SECONDS)
    return lines


def _ranking(
    *, federation: Federation, as_of: date, events: Iterable[SanctionedEvent] | None
) -> list[RankingLine[int, int]]:
    keys = player_keys(federation=federation)
    results: dict[int, list[RankedResult[int]]] = {}
    for event in released_events(federation=federation) if events is None else events:
        assert event.played_on is not None and event.released_results is not None
        if event.played_on > as_of:
            continue
        places, size = _keyed_places(event.released_results["places"], keys)
        for player, place in places.items():
            results.setdefault(player, []).append(
                RankedResult(event.pk, event.played_on, place, size, event.tier)
            )
    return ranking_list(results, as_of, ranking_rules(federation))


def rating_lists_at(*, federation: Federation, ends: list[date]) -> list[list[RatingLine[int]]]:
    """The rating list at each of ``ends``: the released events' games replayed in release
    order, only federation players listed (ranked among themselves)."""
    keys = player_keys(federation=federation)
    released = [
        ReleasedEvent(
            event.pk,
            event.released_on,
            [_keyed_game(ranks, keys) for ranks in (event.released_results or {})["games"]],
        )
        for event in released_events(federation=federation)
        if event.released_on is not None
    ]
    lists = rating_lists(released, ends, rating_rules(federation))
    return [_listed(lines) for lines in lists]


def _listed(lines: list[RatingLine[Any]]) -> list[RatingLine[int]]:
    out: list[RatingLine[int]] = []
    place = 0
    for line in lines:
        if not isinstance(line.player, int):
            continue
        if not line.provisional:
            place += 1
        out.append(
            RatingLine(
                rank=None if line.provisional else place,
                player=line.player,
                mu=line.mu,
                sigma=line.sigma,
                ordinal=line.ordinal,
                games=line.games,
                provisional=line.provisional,
            )
        )
    return out


@dataclass
class PeriodPreview:
    index: int
    starts_on: date
    ends_on: date
    lines: list[RatingLine[int]]


def next_period(*, federation: Federation) -> tuple[int, date, date]:
    last = federation.periods.order_by("-index").values_list("index", flat=True).first()
    index = 0 if last is None else last + 1
    starts_on, ends_on = period_bounds(federation.starts_on, federation.period_months, index)
    return index, starts_on, ends_on


def period_preview(*, federation: Federation) -> PeriodPreview:
    """The next rating list as it stands: every event released so far, before the period ends."""
    index, starts_on, ends_on = next_period(federation=federation)
    (lines,) = rating_lists_at(federation=federation, ends=[ends_on])
    return PeriodPreview(index, starts_on, ends_on, lines)


def published_period(*, federation: Federation, index: int | None = None) -> RatingPeriod | None:
    periods = federation.periods.order_by("-index")
    return (periods if index is None else periods.filter(index=index)).first()


def period_entries(*, period: RatingPeriod) -> QuerySet[RatingEntry]:
    return period.entries.select_related("player").order_by("rank", "-ordinal", "player_id")


def names(*, federation: Federation, ids: Iterable[int]) -> dict[int, str]:
    return dict(federation.players.filter(pk__in=set(ids)).values_list("id", "name"))


# --- a player's page and the officer's queue ----------------------------------------------------


@dataclass
class PlayerPage:
    player: FederationPlayer
    counts_as: FederationPlayer
    ranking: RankingLine[int, int] | None
    rating_history: list[RatingEntry]
    events: dict[int, SanctionedEvent]


def player_page(*, federation: Federation, player: FederationPlayer, as_of: date) -> PlayerPage:
    """A player's ranking line (its results, counted or not) and published ratings, period by
    period; a merged player's page shows the player they count as."""
    root_id = canonical_ids(federation=federation)[player.pk]
    counts_as = (
        player if root_id == player.pk else player_get(federation=federation, player_id=root_id)
    )
    line = next(
        (x for x in ranking(federation=federation, as_of=as_of) if x.player == root_id), None
    )
    history = list(
        RatingEntry.objects.filter(period__federation=federation, player_id=root_id)
        .select_related("period")
        .order_by("period__index")
    )
    events = {event.pk: event for event in released_events(federation=federation)}
    return PlayerPage(player, counts_as, line, history, events)


@dataclass
class OfficerQueue:
    proposals: list[PlayerLink]
    requests: list[SanctionedEvent]
    submissions: list[SanctionedEvent]
    duplicates: list[tuple[FederationPlayer, FederationPlayer, str]]


def officer_queue(*, federation: Federation) -> OfficerQueue:
    events = federation.events.select_related("club").order_by("id")
    return OfficerQueue(
        proposals=list(
            federation.links.filter(status=PlayerLink.Status.PROPOSED)
            .select_related("player__club")
            .order_by("id")
        ),
        requests=list(events.filter(status=SanctionedEvent.Status.REQUESTED)),
        submissions=list(events.filter(status=SanctionedEvent.Status.SUBMITTED)),
        duplicates=duplicate_candidates(federation=federation),
    )


# --- rows as every reader shows them (the API and the pages) ------------------------------------


def _code(player_id: int) -> str:
    return f"F{player_id:06d}"


def ranking_rows(*, federation: Federation, as_of: date) -> list[dict[str, Any]]:
    lines = ranking(federation=federation, as_of=as_of)
    named = names(federation=federation, ids=(line.player for line in lines))
    events = dict(federation.events.values_list("id", "name"))
    return [_ranking_row(line, named, events) for line in lines]


def _ranking_row(
    line: RankingLine[int, int], named: dict[int, str], events: dict[int, str]
) -> dict[str, Any]:
    return {
        "rank": line.rank,
        "player_id": line.player,
        "federation_id": _code(line.player),
        "name": named.get(line.player, ""),
        "total": line.total,
        "results": [
            {
                "event_id": r.event,
                "event": events.get(r.event, ""),
                "played_on": r.played_on,
                "base": r.base,
                "weight": r.weight.quantize(Decimal("0.000001")),
                "points": r.points,
                "counted": r.counted,
            }
            for r in line.results
        ],
    }


def rating_rows(
    *, federation: Federation, index: int | None = None, preview: bool = False
) -> dict[str, Any]:
    """A published period's list (the latest, or period ``index``), or the preview of the next."""
    if preview:
        found = period_preview(federation=federation)
        named = names(federation=federation, ids=(line.player for line in found.lines))
        period = {
            "index": found.index,
            "starts_on": found.starts_on,
            "ends_on": found.ends_on,
            "published": False,
        }
        return {"period": period, "results": [_rating_row(x, named) for x in found.lines]}
    published = published_period(federation=federation, index=index)
    if published is None:
        if index is not None:
            raise refusals.no_period(str(index))
        return {"period": None, "results": []}
    rows = [
        {
            "rank": e.rank,
            "player_id": e.player_id,
            "federation_id": _code(e.player_id),
            "name": e.player.name,
            "mu": e.mu,
            "sigma": e.sigma,
            "ordinal": e.ordinal,
            "games": e.games,
            "provisional": e.provisional,
        }
        for e in period_entries(period=published)
    ]
    period = {
        "index": published.index,
        "starts_on": published.starts_on,
        "ends_on": published.ends_on,
        "published": True,
    }
    return {"period": period, "results": rows}


def _rating_row(line: RatingLine[int], named: dict[int, str]) -> dict[str, Any]:
    return {
        "rank": line.rank,
        "player_id": line.player,
        "federation_id": _code(line.player),
        "name": named.get(line.player, ""),
        "mu": line.mu,
        "sigma": line.sigma,
        "ordinal": line.ordinal,
        "games": line.games,
        "provisional": line.provisional,
    }


def player_row(*, federation: Federation, player: FederationPlayer, as_of: date) -> dict[str, Any]:
    page = player_page(federation=federation, player=player, as_of=as_of)
    events = {pk: event.name for pk, event in page.events.items()}
    named = {page.counts_as.pk: page.counts_as.name}
    return {
        "player_id": player.pk,
        "federation_id": _code(player.pk),
        "name": player.name,
        "counts_as": page.counts_as.pk,
        "ranking": None if page.ranking is None else _ranking_row(page.ranking, named, events),
        "rating_history": [
            {
                "period": e.period.index,
                "ends_on": e.period.ends_on,
                "rank": e.rank,
                "ordinal": e.ordinal,
                "games": e.games,
                "provisional": e.provisional,
            }
            for e in page.rating_history
        ],
    }


def event_row(event: SanctionedEvent) -> dict[str, Any]:
    return {
        "id": event.pk,
        "club": event.club.name,
        "name": event.name,
        "tier": event.tier,
        "status": event.status,
        "reason": event.reason,
        "version": event.version,
        "played_on": event.played_on,
        "release_seq": event.release_seq,
    }


def queue_rows(*, federation: Federation) -> dict[str, Any]:
    queue = officer_queue(federation=federation)
    return {
        "proposals": [
            {
                "id": link.pk,
                "club": link.player.club.name,
                "name": link.name,
                "date_of_birth": link.date_of_birth,
                "email": link.email,
                "federation_player_id": link.federation_player_id,
            }
            for link in queue.proposals
        ],
        "requests": [event_row(event) for event in queue.requests],
        "submissions": [event_row(event) for event in queue.submissions],
        "duplicates": [
            {"first_id": a.pk, "first": a.name, "second_id": b.pk, "second": b.name, "why": why}
            for a, b, why in queue.duplicates
        ],
    }
