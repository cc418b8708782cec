"""Reads of the scoring app, scoped to a club. Scoreboards and settle-ups are derived from the
ledger with a fixed number of queries, whatever the number of deals."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from clubs.models import Club
from config.errors import InvalidInput, NotFoundError
from rules.settle import settle_up
from scoring.models import (
    AccountKind,
    Deal,
    Game,
    GameFormat,
    LedgerEntry,
    PlayerResult,
    Posting,
    Quantity,
    RulePreset,
    Season,
    Seat,
    Session,
    Submission,
    Table,
)

CLUB_ACCOUNT = "club"
FORMAT_ORDER = [choice.value for choice in GameFormat]


def preset_list(*, club: Club) -> list[RulePreset]:
    """The newest version of every preset the club can use: built-in and its own."""
    presets = RulePreset.objects.filter(Q(club=club) | Q(club__isnull=True)).order_by(
        "club_id", "key", "-version"
    )
    newest: dict[tuple[int | None, str], RulePreset] = {}
    for preset in presets:
        newest.setdefault((preset.club_id, preset.key), preset)
    return sorted(newest.values(), key=lambda p: (p.club_id is not None, p.format, p.key))


def preset_get(*, club: Club, preset_id: int) -> RulePreset:
    preset = RulePreset.objects.filter(Q(club=club) | Q(club__isnull=True), pk=preset_id).first()
    if preset is None:
        raise NotFoundError(f"no preset #{preset_id} for this club")
    return preset


def session_list(*, club: Club, status: str | None = None) -> QuerySet[Session]:
    sessions = club.sessions.annotate(
        table_count=Count("tables", distinct=True),
        deal_count=Count("tables__games__deals", distinct=True),
    ).order_by("-started_at", "-id")
    if status:
        sessions = sessions.filter(status=status)
    return sessions


def session_get(*, club: Club, session_id: int, with_tables: bool = True) -> Session:
    """A session of the club; ``with_tables`` also loads its tables, games and seats."""
    if not with_tables:
        found = club.sessions.filter(pk=session_id).first()
        if found is None:
            raise NotFoundError(f"no session #{session_id} in {club.name}")
        return found
    session = (
        club.sessions.prefetch_related(
            Prefetch(
                "tables",
                queryset=Table.objects.prefetch_related(
                    Prefetch(
                        "games",
                        queryset=Game.objects.select_related("preset").prefetch_related(
                            Prefetch("seats", queryset=Seat.objects.select_related("player"))
                        ),
                    )
                ),
            )
        )
        .filter(pk=session_id)
        .first()
    )
    if session is None:
        raise NotFoundError(f"no session #{session_id} in {club.name}")
    return session


def table_get(*, club: Club, table_id: int) -> Table:
    table = Table.objects.select_related("session").filter(session__club=club, pk=table_id).first()
    if table is None:
        raise NotFoundError(f"no table #{table_id} in {club.name}")
    return table


def game_get(*, club: Club, game_id: int, with_seats: bool = True) -> Game:
    games = Game.objects.select_related("preset", "table__session")
    if with_seats:
        games = games.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player"))
        )
    game = games.filter(table__session__club=club, pk=game_id).first()
    if game is None:
        raise NotFoundError(f"no game #{game_id} in {club.name}")
    return game


def game_state(*, game: Game) -> dict[str, Any]:
    """The game as it stands, from the ledger (see each format's ``game_state``)."""
    from scoring.formats import handler_for
    from scoring.presets import game_rules

    return handler_for(game).game_state(game=game, rules=game_rules(game.preset))


def pool_split_offer(*, game: Game) -> dict[str, Any]:
    """The splits a pool game offers now and what each would pay, in minor units."""
    from rules.errors import RuleViolation
    from scoring.formats.pool import pool_split_shares
    from scoring.presets import game_rules

    if game.format != "pool":
        return {"offers": [], "shares_minor": {}}
    rules = game_rules(game.preset)
    offers = game_state(game=game)["split_offers"]
    shares: dict[str, dict[str, int]] = {}
    for kind in offers:
        try:
            paid, _ = pool_split_shares(game=game, rules=rules, kind=kind)
        except RuleViolation:
            continue
        shares[kind] = {str(pid): amount for pid, amount in paid.items()}
    return {"offers": [kind for kind in offers if kind in shares], "shares_minor": shares}


def season_list(*, club: Club) -> QuerySet[Season]:
    return club.seasons.order_by("-starts_on")


def standings_scope(*, club: Club, scope: str, scope_id: int | None) -> tuple[str, int]:
    """Check that a scope belongs to the club; without an id, the club's current season."""
    from django.utils import timezone

    if scope == "season" and scope_id is None:
        today = timezone.localdate()
        season = (
            club.seasons.filter(starts_on__lte=today).order_by("-starts_on").first()
            or club.seasons.order_by("starts_on").first()
        )
        if season is None:
            raise NotFoundError(f"{club.name} has no season yet")
        return scope, season.pk
    if scope_id is None:
        raise InvalidInput(f"id: give the id of the {scope}", code="missing_field")
    owned = {
        "season": Season.objects.filter(club=club, pk=scope_id),
        "session": Session.objects.filter(club=club, pk=scope_id),
        "game": Game.objects.filter(table__session__club=club, pk=scope_id),
    }.get(scope)
    if owned is None:
        raise InvalidInput(f"scope: use season, session or game, not {scope!r}", code="bad_scope")
    if not owned.exists():
        raise NotFoundError(f"no {scope} #{scope_id} in {club.name}")
    return scope, scope_id


def standings_format(*, scope: str, game_format: str | None) -> str:
    """The game format a standings request asks for ("" for all formats), checked."""
    if not game_format:
        return ""
    if game_format not in FORMAT_ORDER:
        raise InvalidInput(
            f"game_format: no game format {game_format!r}; use {', '.join(FORMAT_ORDER)}",
            code="bad_format",
            details={"token": game_format},
        )
    if scope != "season":
        raise InvalidInput(
            "game_format: standings by game format are kept for seasons (a game has one "
            "format, and a session's scoreboard already splits points by format)",
            code="bad_format",
        )
    return game_format


def ledger_entry_as_of(
    *, club: Club, deal_id: int | None = None, session_id: int | None = None
) -> int:
    """The ledger entry that closes "after deal D" (its first counted result) or "after session
    S" (its last entry): standings as of then are reproduced up to that entry."""
    entries = LedgerEntry.objects.filter(game__table__session__club=club)
    if deal_id is not None:
        entry = (
            entries.filter(deal_id=deal_id, kind=LedgerEntry.Kind.DEAL)
            .order_by("id")
            .values_list("id", flat=True)
            .first()
        )
        if entry is None:
            raise NotFoundError(f"deal #{deal_id} has no counted result in {club.name}")
        return entry
    entry = (
        entries.filter(game__table__session_id=session_id)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    if entry is None:
        raise NotFoundError(f"session #{session_id} has nothing counted in {club.name}")
    return entry


def deal_list(*, game: Game) -> QuerySet[Deal]:
    return game.deals.order_by("number")


def deal_get(*, club: Club, deal_id: int) -> Deal:
    deal = (
        Deal.objects.select_related("game__preset", "game__table__session", "dealer")
        .filter(game__table__session__club=club, pk=deal_id)
        .first()
    )
    if deal is None:
        raise NotFoundError(f"no deal #{deal_id} in {club.name}")
    return deal


def submission_list(*, deal: Deal) -> QuerySet[Submission]:
    return deal.submissions.select_related("submitted_by", "confirmed_by").order_by("version")


def submission_get(*, club: Club, submission_id: int) -> Submission:
    submission = (
        Submission.objects.select_related(
            "deal__game__table__session", "submitted_by", "confirmed_by"
        )
        .filter(deal__game__table__session__club=club, pk=submission_id)
        .first()
    )
    if submission is None:
        raise NotFoundError(f"no submission #{submission_id} in {club.name}")
    return submission


@dataclass
class ScoreLine:
    player_id: int
    name: str
    points: int = 0
    chips: int = 0
    money_minor: int = 0
    deals_played: int = 0
    deals_won: int = 0
    # Points by game format, when the session played more than one: a rummy point and a
    # Rummikub score are not the same unit, so their sum alone would mislead.
    points_by_format: dict[str, int] = field(default_factory=dict)


@dataclass
class Scoreboard:
    session: Session
    lines: list[ScoreLine]
    club_money_minor: int
    deals_counted: int
    currency: str
    extra: dict[str, Any] = field(default_factory=dict)
    formats: list[str] = field(default_factory=list)  # set when points_by_format is


def session_scoreboard(*, session: Session) -> Scoreboard:
    """Per-player totals of the session: its kept standing rows (one per player), the deals
    counted, the club's fees, and points by game format when it played several. Three queries
    (four for a night of several formats), whatever the number of deals."""
    from scoring.models import StandingRow, StandingScope

    rows = StandingRow.objects.filter(scope=StandingScope.SESSION, scope_id=session.pk).values(
        "player_id", "player__name", "points", "chips", "money_minor", "deals_played", "deals_won"
    )
    lines = [
        ScoreLine(
            row["player_id"], row["player__name"], row["points"], row["chips"],
            row["money_minor"], row["deals_played"], row["deals_won"],
        )
        for row in rows
        if any(row[name] for name in ("points", "chips", "money_minor", "deals_played"))
    ]  # fmt: skip
    counted_by_format = dict(
        Deal.objects.filter(game__table__session=session, status=Deal.Status.FINAL)
        .values_list("game__format")
        .annotate(n=Count("pk"))
        .order_by()
    )
    deals_counted = sum(counted_by_format.values())
    formats = sorted(counted_by_format, key=FORMAT_ORDER.index)
    if len(formats) > 1:  # one query more, only for a night of several formats
        by_format: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        game_rows = StandingRow.objects.filter(
            scope=StandingScope.GAME,
            scope_id__in=Game.objects.filter(table__session=session).values("pk"),
        ).annotate(format=Subquery(Game.objects.filter(pk=OuterRef("scope_id")).values("format")))
        for player_id, game_format, points in game_rows.values_list(
            "player_id", "format", "points"
        ):
            by_format[player_id][game_format] += points
        for line in lines:
            line.points_by_format = {f: by_format[line.player_id][f] for f in formats}
    else:
        formats = []
    club_money = (
        Posting.objects.filter(
            game__table__session=session, account=AccountKind.CLUB, quantity=Quantity.MONEY
        ).aggregate(total=Sum("amount"))["total"]
        or 0
    )
    ordered = sorted(lines, key=lambda line: (-line.money_minor, -line.points, line.name))
    return Scoreboard(
        session, ordered, club_money, deals_counted, session.club.currency, formats=formats
    )


@dataclass(frozen=True)
class SettlementTransfer:
    payer: str
    payer_id: int | None
    payee: str
    payee_id: int | None
    amount_minor: int


def session_settlement(
    *, session: Session, scoreboard: Scoreboard | None = None
) -> list[SettlementTransfer]:
    """Who pays whom to settle the session's money, in the fewest transfers (the club's fees
    included: the club is one of the parties)."""
    board = scoreboard or session_scoreboard(session=session)
    balances: dict[int | str, int] = {
        line.player_id: line.money_minor for line in board.lines if line.money_minor
    }
    if board.club_money_minor:
        balances[CLUB_ACCOUNT] = board.club_money_minor
    names: dict[int | str, str] = {line.player_id: line.name for line in board.lines}
    names[CLUB_ACCOUNT] = f"{session.club.name} (club)"
    return [
        SettlementTransfer(
            payer=names[t.payer],
            payer_id=t.payer if isinstance(t.payer, int) else None,
            payee=names[t.payee],
            payee_id=t.payee if isinstance(t.payee, int) else None,
            amount_minor=t.amount,
        )
        for t in settle_up(balances)
    ]


# --- reads for the web pages: deal rows, CSV export, player history, club-wide table ------------


@dataclass
class DealRow:
    """One deal of a game as the game page shows it: its newest version, and the counted
    version's outcome, points and money per player (empty until a version is counted)."""

    deal: Deal
    latest: Submission | None
    versions: int
    outcomes: dict[int, str] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    money_minor: dict[int, int] = field(default_factory=dict)


def _deal_money(postings: QuerySet[Posting]) -> dict[tuple[int, int], int]:
    """Net money per (deal, player) of the given postings: a reversed version nets out."""
    rows = (
        postings.filter(
            quantity=Quantity.MONEY, account=AccountKind.PLAYER, entry__deal__isnull=False
        )
        .values("entry__deal_id", "player_id")
        .annotate(total=Sum("amount"))
    )
    return {(row["entry__deal_id"], row["player_id"]): row["total"] for row in rows}


def game_deal_rows(*, game: Game) -> list[DealRow]:
    """Every deal of the game in order, with its versions and counted results: four queries."""
    deals = list(game.deals.select_related("dealer").order_by("number"))
    latest: dict[int, Submission] = {}
    counts: dict[int, int] = {}
    submissions = (
        Submission.objects.filter(deal__game=game)
        .select_related("submitted_by")
        .defer("payload", "result")
        .order_by("deal_id", "version")
    )
    for submission in submissions:
        latest[submission.deal_id] = submission
        counts[submission.deal_id] = counts.get(submission.deal_id, 0) + 1
    rows = {deal.pk: DealRow(deal, latest.get(deal.pk), counts.get(deal.pk, 0)) for deal in deals}
    results = PlayerResult.objects.filter(
        game=game, submission__status=Submission.Status.ACCEPTED
    ).values("deal_id", "player_id", "outcome", "points")
    for result in results:
        row = rows[result["deal_id"]]
        row.outcomes[result["player_id"]] = result["outcome"]
        row.points[result["player_id"]] = result["points"]
    for (deal_id, player_id), amount in _deal_money(Posting.objects.filter(game=game)).items():
        if deal_id in rows:
            rows[deal_id].money_minor[player_id] = amount
    return [rows[deal.pk] for deal in deals]


@dataclass(frozen=True)
class ResultRow:
    """One player's counted line of one deal, with where it was played."""

    session_id: int
    session_name: str
    started_at: Any
    table_name: str
    game_id: int
    game_format: str
    deal_id: int
    deal_number: int
    version: int
    player_id: int
    player_name: str
    outcome: str
    points: int
    won: bool
    money_minor: int


def _result_rows(
    results: QuerySet[PlayerResult], money: dict[tuple[int, int], int]
) -> list[ResultRow]:
    rows = results.filter(submission__status=Submission.Status.ACCEPTED).values(
        "session_id", "session__name", "session__started_at", "game__table__name", "game_id",
        "game__format", "deal_id", "deal__number", "submission__version", "player_id",
        "player__name", "outcome", "points", "won",
    )  # fmt: skip
    return [
        ResultRow(
            session_id=row["session_id"],
            session_name=row["session__name"],
            started_at=row["session__started_at"],
            table_name=row["game__table__name"],
            game_id=row["game_id"],
            game_format=row["game__format"],
            deal_id=row["deal_id"],
            deal_number=row["deal__number"],
            version=row["submission__version"],
            player_id=row["player_id"],
            player_name=row["player__name"],
            outcome=row["outcome"],
            points=row["points"],
            won=row["won"],
            money_minor=money.get((row["deal_id"], row["player_id"]), 0),
        )
        for row in rows
    ]


def session_result_rows(*, session: Session) -> list[ResultRow]:
    """Every counted line of the session (per deal, per player), table by table, deal by deal,
    in seat order: two queries."""
    results = PlayerResult.objects.filter(session=session).order_by(
        "game__table_id", "game_id", "deal__number", "id"
    )
    money = _deal_money(Posting.objects.filter(game__table__session=session))
    return _result_rows(results, money)


@dataclass
class SeasonLine:
    season: int
    deals_played: int = 0
    deals_won: int = 0
    points: int = 0
    money_minor: int = 0
    # Points by game format (a rummy point and a Rummikub score are not the same unit).
    points_by_format: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class HistoryLine:
    """One counted deal of a player, with its net score (points as the ledger counts them: a
    winner's gain, a loser's loss) and the player's running score in that game format after it."""

    row: ResultRow
    net_points: int
    running_points: int


@dataclass
class PlayerHistory:
    """A player's counted deals, oldest first, the running score per game format, and totals
    per calendar year."""

    lines: list[HistoryLine]
    formats: list[str]  # the formats played, in their usual order
    running_by_format: dict[str, list[int]]
    seasons: list[SeasonLine]
    total: SeasonLine


def player_history(*, player: Any) -> PlayerHistory:
    """Three queries, whatever the history's length."""
    results = PlayerResult.objects.filter(player=player).order_by(
        "session__started_at", "session_id", "game_id", "deal__number"
    )
    postings = Posting.objects.filter(player=player, account=AccountKind.PLAYER)
    money = _deal_money(postings)
    net = {
        row["entry__deal_id"]: row["total"]
        for row in postings.filter(quantity=Quantity.POINTS, entry__deal__isnull=False)
        .values("entry__deal_id")
        .annotate(total=Sum("amount"))
    }
    lines: list[HistoryLine] = []
    running: dict[str, list[int]] = {}
    seasons: dict[int, SeasonLine] = {}
    total = SeasonLine(season=0)
    for row in _result_rows(results, money):
        points = net.get(row.deal_id, 0)
        scores = running.setdefault(row.game_format, [])
        scores.append((scores[-1] if scores else 0) + points)
        lines.append(HistoryLine(row, points, scores[-1]))
        year = row.started_at.year
        for line in (seasons.setdefault(year, SeasonLine(year)), total):
            line.deals_played += 1
            line.deals_won += int(row.won)
            line.points += points
            line.money_minor += row.money_minor
            by_format = line.points_by_format
            by_format[row.game_format] = by_format.get(row.game_format, 0) + points
    formats = sorted(running, key=FORMAT_ORDER.index)
    return PlayerHistory(
        lines,
        formats,
        {f: running[f] for f in formats},
        sorted(seasons.values(), key=lambda s: -s.season),
        total,
    )


# --- reads for the format and standings pages ----------------------------------------------------


def deal_entry_players(
    *, game: Game, deal: Deal | None = None, is_tiebreaker: bool = False
) -> dict[int, str]:
    """Who a deal's result must name, in seat order (player id -> name): for an existing deal,
    what its format says; for the next one, the pool players still in, the players level at the
    top for a tie-breaker deal, everyone seated otherwise."""
    from scoring.formats import handler_for
    from scoring.formats.common import seated_players
    from scoring.presets import game_rules

    rules = game_rules(game.preset)
    if deal is not None:
        return handler_for(game).deal_players(deal=deal, rules=rules)
    seated = seated_players(game)
    if game.format == "pool" or (game.format == "deals" and is_tiebreaker):
        state = game_state(game=game)
        if game.format == "pool":
            keep = {line["player"] for line in state["players"] if line["status"] == "active"}
        else:
            keep = set(state["leaders"])
        return {pid: name for pid, name in seated.items() if pid in keep}
    return seated


def game_payouts(*, game: Game) -> dict[int, int]:
    """Money each player received when the game paid out (a pool or deals prize, a split, an
    International settlement), in minor units; empty until then."""
    rows = (
        Posting.objects.filter(
            game=game,
            account=AccountKind.PLAYER,
            quantity=Quantity.MONEY,
            entry__kind__in=[LedgerEntry.Kind.PAYOUT, LedgerEntry.Kind.SETTLEMENT],
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    return {player_id: total for player_id, total in rows if total}


@dataclass
class StandingsChoices:
    """What a standings page offers to pick: the club's seasons (with the game formats each has
    counted, in their usual order), its recent sessions (newest first) and their games."""

    seasons: list[Season]
    sessions: list[Session]
    games: list[Game]
    season_formats: dict[int, list[str]]


def standings_choices(*, club: Club, sessions: int = 30) -> StandingsChoices:
    """Four queries."""
    from scoring.models import StandingRow, StandingScope

    recent = list(club.sessions.order_by("-started_at", "-id")[:sessions])
    games = list(
        Game.objects.filter(table__session__in=recent)
        .select_related("table__session", "preset")
        .order_by("-table__session__started_at", "table__session_id", "table_id", "id")
    )
    formats: dict[int, list[str]] = defaultdict(list)
    for season_id, game_format in (
        StandingRow.objects.filter(club=club, scope=StandingScope.SEASON)
        .exclude(game_format="")
        .values_list("scope_id", "game_format")
        .distinct()
    ):
        formats[season_id].append(game_format)
    season_formats = {pk: sorted(found, key=FORMAT_ORDER.index) for pk, found in formats.items()}
    return StandingsChoices(
        list(club.seasons.order_by("-starts_on")), recent, games, season_formats
    )


def pool_rejoin_refusals(*, game: Game) -> dict[int, dict[str, Any]]:
    """Why each eliminated player of an open pool game cannot rejoin now: player id -> the
    rules' refusal (``code``, ``message``, ``details``); a player who can rejoin is not listed."""
    from rules import pool as pool_rules
    from rules.errors import RuleViolation
    from scoring.formats.pool import pool_scores, rejoins_used
    from scoring.presets import game_rules

    rules = game_rules(game.preset).pool
    if game.format != "pool" or rules is None or game.status != Game.Status.OPEN:
        return {}
    scores = pool_scores(game)
    active = {pid: score for pid, score in scores.items() if score < rules.limit}
    used = rejoins_used(game)
    refusals: dict[int, dict[str, Any]] = {}
    for pid, score in scores.items():
        if score < rules.limit:
            continue
        try:
            pool_rules.rejoin_score(active, rules, used.get(pid, 0))
        except RuleViolation as exc:
            refusals[pid] = {"code": exc.code, "message": exc.message, "details": exc.details}
    return refusals
