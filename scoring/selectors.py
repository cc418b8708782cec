"""Reads of the scoring app, scoped to a club. Scoreboards and settle-ups are derived from the
ledger with a fixed number of queries, whatever the number of deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from config.errors import NotFoundError
from config.pagination import page_asked
from ledger.accounts import account_held, account_paid_in
from ledger.models import LedgerEntry, Quantity
from rules.indian.deal import OutcomeOption
from scoring.figures import game_deal_money
from scoring.formats import Checked, Ending, GameState, Running, handler_for
from scoring.models import (
    Deal,
    Game,
    PlayerResult,
    RulePreset,
    Season,
    Seat,
    Session,
    SessionAccount,
    StandingRow,
    StandingScope,
    Submission,
    Table,
)
from scoring.preset_rules import game_rules


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
        raise NotFoundError(_("no preset #%(id)s for this club") % {"id": preset_id})
    return preset


def session_list(*, club: Club) -> QuerySet[Session]:
    return club.sessions.annotate(
        table_count=Count("tables", distinct=True),
        deal_count=Count("tables__games__deals", distinct=True),
    ).order_by("-started_at", "-id")


def session_search(*, club: Club, text: str = "", status: str | None = None) -> QuerySet[Session]:
    """The club's sessions, newest first, whose name contains ``text`` (ignoring case), without
    counts: what a page lists a page of (``session_list_counted`` counts that page)."""
    sessions = club.sessions.order_by("-started_at", "-id")
    if status:
        sessions = sessions.filter(status=status)
    text = " ".join(text.split())
    if text and "\x00" not in text:  # no name holds a NUL (PostgreSQL keeps none in text)
        sessions = sessions.filter(name__icontains=text)
    elif text:
        sessions = sessions.none()
    return sessions


def session_list_counted(*, club: Club, sessions: Sequence[Session]) -> list[Session]:
    """``sessions`` (a page of them) with ``session_list``'s table and deal counts, in the
    order given: counted for that page only, as counting every night a club has held reads
    every deal it has played."""
    if not sessions:
        return []
    counted = session_list(club=club).filter(pk__in=[s.pk for s in sessions]).in_bulk()
    return [counted[s.pk] for s in sessions]


def session_get(*, club: Club, session_id: int, with_tables: bool = True) -> Session:
    """A session of the club; ``with_tables`` also loads its tables, games and seats."""
    if not with_tables:
        found = club.sessions.filter(pk=session_id).first()
        if found is None:
            raise NotFoundError(
                _("no session #%(id)s in %(club)s") % {"id": session_id, "club": club.name}
            )
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
        raise NotFoundError(
            _("no session #%(id)s in %(club)s") % {"id": session_id, "club": club.name}
        )
    return session


def table_list(*, session: Session) -> QuerySet[Table]:
    """The session's tables in the order they were added, with their games and seats."""
    return session.tables.order_by("id").prefetch_related(
        Prefetch(
            "games",
            queryset=Game.objects.select_related("preset").prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("player"))
            ),
        )
    )


def table_get(*, club: Club, table_id: int) -> Table:
    table = Table.objects.select_related("session").filter(session__club=club, pk=table_id).first()
    if table is None:
        raise NotFoundError(_("no table #%(id)s in %(club)s") % {"id": table_id, "club": club.name})
    return table


def game_get(*, club: Club, game_id: int, with_seats: bool = True) -> Game:
    games = Game.objects.select_related("preset", "table__session")
    if with_seats:
        games = games.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player"))
        )
    game = games.filter(table__session__club=club, pk=game_id).first()
    if game is None:
        raise NotFoundError(_("no game #%(id)s in %(club)s") % {"id": game_id, "club": club.name})
    return game


def game_state(*, game: Game) -> GameState:
    """The game as it stands, from the ledger (each format's typed state)."""
    return handler_for(game).state(game=game, rules=game_rules(game.preset))


def game_endings(*, game: Game) -> list[Ending]:
    """The ways the organiser may end the open game now (none once it has ended, nor for a
    tie-breaker, which ends by itself)."""
    if game.status != Game.Status.OPEN or game.breaks_tie:
        return []
    return handler_for(game).endings(game=game, rules=game_rules(game.preset))


def season_get(*, club: Club, season_id: int) -> Season:
    found = club.seasons.filter(pk=season_id).first()
    if found is None:
        raise NotFoundError(
            _("no season #%(id)s in %(club)s") % {"id": season_id, "club": club.name}
        )
    return found


def season_list(*, club: Club) -> QuerySet[Season]:
    return club.seasons.order_by("-starts_on")


def deal_list(*, game: Game) -> QuerySet[Deal]:
    return game.deals.order_by("number")


def game_list(*, club: Club) -> QuerySet[Game]:
    """The club's games, in the order they were set up, with their presets and seats."""
    return (
        Game.objects.filter(table__session__club=club)
        .select_related("preset")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("id")
    )


def deal_list_in_club(*, club: Club) -> QuerySet[Deal]:
    """Every deal of the club's games, in the order they were started."""
    return Deal.objects.filter(game__table__session__club=club).order_by("id")


def submission_list_in_club(*, club: Club) -> QuerySet[Submission]:
    """Every version of every deal's result in the club, in the order they were entered."""
    return (
        Submission.objects.filter(deal__game__table__session__club=club)
        .select_related("submitted_by", "confirmed_by")
        .order_by("id")
    )


def deal_list_newest(*, game: Game, count: int = 3) -> list[Deal]:
    """The game's newest deals, newest first (what an entry page shows of the game so far)."""
    return list(game.deals.order_by("-number")[:count])


def deal_get(*, club: Club, deal_id: int) -> Deal:
    deal = (
        Deal.objects.select_related("game__preset", "game__table__session", "dealer")
        .filter(game__table__session__club=club, pk=deal_id)
        .first()
    )
    if deal is None:
        raise NotFoundError(_("no deal #%(id)s in %(club)s") % {"id": deal_id, "club": club.name})
    return deal


def submission_list(*, deal: Deal) -> QuerySet[Submission]:
    return deal.submissions.select_related("deal__game", "submitted_by", "confirmed_by").order_by(
        "version"
    )


def submission_get(*, club: Club, submission_id: int) -> Submission:
    submission = (
        Submission.objects.select_related(
            "deal__game__table__session", "submitted_by", "confirmed_by"
        )
        .filter(deal__game__table__session__club=club, pk=submission_id)
        .first()
    )
    if submission is None:
        raise NotFoundError(
            _("no submission #%(id)s in %(club)s") % {"id": submission_id, "club": club.name}
        )
    return submission


# --- reads for the web pages: deal rows, CSV export, player history, club-wide table ------------


@dataclass
class DealRow:
    """One deal of a game as the game page shows it: its newest version (its number and
    status), and the counted version's outcome, points and money per player (empty until a
    version is counted)."""

    deal: Deal
    latest: Submission | None
    versions: int
    outcomes: dict[int, str] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    money_minor: dict[int, int] = field(default_factory=dict)


GAME_DEALS_PAGE = 50  # deals a page of the game page lists


def game_deal_rows(*, game: Game, deals: Sequence[Deal]) -> list[DealRow]:
    """``deals`` of the game (a page of them), in the order given, with their versions and
    counted results: three queries, reading those deals only."""
    ids = [deal.pk for deal in deals]
    latest: dict[int, Submission] = {}
    counts: dict[int, int] = {}
    # What a row shows of its newest version: its number and status.
    submissions = (
        Submission.objects.filter(deal_id__in=ids)
        .only("deal_id", "version", "status")
        .order_by("deal_id", "version")
    )
    for submission in submissions:
        latest[submission.deal_id] = submission
        counts[submission.deal_id] = counts.get(submission.deal_id, 0) + 1
    rows = {deal.pk: DealRow(deal, latest.get(deal.pk), counts.get(deal.pk, 0)) for deal in deals}
    # A voided deal keeps showing what it had counted (struck through on the page).
    results = PlayerResult.objects.filter(
        deal_id__in=ids,
        submission__status__in=[Submission.Status.ACCEPTED, Submission.Status.VOIDED],
    ).values("deal_id", "player_id", "outcome", "points")
    for result in results:
        row = rows[result["deal_id"]]
        row.outcomes[result["player_id"]] = result["outcome"]
        row.points[result["player_id"]] = result["points"]
    for (deal_id, player_id), amount in game_deal_money(game=game, deals=ids).items():
        rows[deal_id].money_minor[player_id] = amount
    return [rows[deal.pk] for deal in deals]


@dataclass
class DealPage:
    """A page of the game's deals, newest first (``page``: the Django page, for the pager's
    links), and the game's newest deal, whatever the page (what to enter next)."""

    rows: list[DealRow]
    page: Page[Deal]
    newest: DealRow | None


def game_deal_page(*, game: Game, page: str | None) -> DealPage:
    """The page ``page`` (``?page=`` as given) of the game's deals, newest first: the first for
    what is not a number from 1, the last for one past it. A count and the page's deals,
    whatever the length of the game; a page but the first reads the newest deal's row too."""
    deals = game.deals.order_by("-number")
    shown = Paginator(deals, GAME_DEALS_PAGE).get_page(page_asked(page))
    rows = game_deal_rows(game=game, deals=list(shown.object_list))
    if shown.number == 1:
        newest = rows[0] if rows else None
    else:
        newest = game_deal_rows(game=game, deals=list(deals[:1]))[0]
    return DealPage(rows, shown, newest)


def game_deal_page_number(*, deal: Deal) -> int:
    """The page of its game's page that lists ``deal`` (newest first, ``game_deal_page``): where
    "back to the game" returns to."""
    newer = Deal.objects.filter(game_id=deal.game_id, number__gt=deal.number).count()
    return newer // GAME_DEALS_PAGE + 1


# --- reads for the format and standings pages ----------------------------------------------------


def deal_entry_players(
    *, game: Game, deal: Deal | None = None, is_tiebreaker: bool = False
) -> dict[int, str]:
    """Who a deal's result must name, in seat order (player id -> name): for an existing deal,
    what its format says; for the next one (or the tie-breaker deal), who plays it."""
    rules = game_rules(game.preset)
    handler = handler_for(game)
    if deal is not None:
        return handler.deal_players(deal=deal, rules=rules)
    return handler.next_deal_players(game=game, rules=rules, is_tiebreaker=is_tiebreaker)


def deal_check(
    *,
    game: Game,
    players: dict[int, str],
    payload: dict[str, Any],
    wild: str,
    deal: Deal | None = None,
    is_tiebreaker: bool = False,
) -> Checked:
    """A result checked and scored by the game's rules exactly as a submitted version would be,
    and nothing stored: what the entry page shows while it is typed. ``players`` are who the
    deal must name (``deal_entry_players``); ``deal`` the existing deal of a correction. A new
    deal the game cannot have now is refused as its submission would be (``Conflict``)."""
    rules = game_rules(game.preset)
    handler = handler_for(game)
    if deal is None:
        handler.deal_check_can_start(game=game, rules=rules, is_tiebreaker=is_tiebreaker)
        deal = Deal(game=game, wild=wild, is_tiebreaker=is_tiebreaker)
    return handler.submission_check(
        submission=Submission(deal=deal, payload=payload), rules=rules, players=players
    )


def deal_outcomes(*, game: Game) -> tuple[OutcomeOption, ...]:
    """The outcomes a deal of the game may have: what the entry page offers and the server
    accepts (empty for a format entered as racks)."""
    return handler_for(game).outcomes(rules=game_rules(game.preset))


@dataclass(frozen=True)
class AccountView:
    """One of a night's accounts (a tournament's purse): what each player paid in, what it
    holds."""

    name: str
    open: bool
    status: str
    held_minor: int
    paid_in: list[tuple[str, int]]  # (player's name, amount), by name


def session_accounts(*, session: Session) -> list[AccountView]:
    """The night's accounts, in the order they were opened."""
    found = []
    for account in session.accounts.select_related("book"):
        paid = account_paid_in(account=account.book)
        names = dict(Player.objects.filter(pk__in=paid).values_list("pk", "name"))
        found.append(
            AccountView(
                account.name,
                account.status == SessionAccount.Status.OPEN,
                account.get_status_display(),
                account_held(account=account.book),
                sorted((names[pid], amount) for pid, amount in paid.items()),
            )
        )
    return found


def game_has_entries(*, game: Game) -> bool:
    """Whether anything of the game is in the ledger (a fee, a deal's result)."""
    return LedgerEntry.objects.filter(book_id=game.book_id).exists()


def games_with_history(*, session: Session) -> set[int]:
    """The session's games with a deal or a ledger entry: what cannot simply be deleted. A probe
    a game, not a row a deal: a night of long games reads no more than a short one."""
    has_deal = Exists(Deal.objects.filter(game=OuterRef("pk")))
    has_entry = Exists(LedgerEntry.objects.filter(book_id=OuterRef("book_id")))
    games = Game.objects.filter(has_deal | has_entry, table__session=session)
    return set(games.values_list("pk", flat=True))


def games_running(*, seated: Mapping[int, Sequence[int]]) -> dict[int, dict[int, Running]]:
    """Each seated player's running figure in each game (``seated``: game id -> its players), in
    its format's words as the game page shows it (a pool's "−80 of −101, 3 drops left"): the
    one figure every screen that follows a table shows. Two queries whatever the number of
    games: the games with their presets, and their kept rows."""
    if not seated:
        return {}
    held: dict[tuple[int, int], dict[str, int]] = {}
    for game_id, player_id, points, chips, money_minor in StandingRow.objects.filter(
        scope=StandingScope.GAME, scope_id__in=list(seated)
    ).values_list("scope_id", "player_id", "points", "chips", "money_minor"):
        held[game_id, player_id] = {
            Quantity.POINTS: points, Quantity.CHIPS: chips, Quantity.MONEY: money_minor
        }  # fmt: skip
    found: dict[int, dict[int, Running]] = {}
    for game in Game.objects.filter(pk__in=list(seated)).select_related("preset"):
        handler, rules = handler_for(game), game_rules(game.preset)
        found[game.pk] = {
            player: handler.running(rules=rules, held=held.get((game.pk, player), {}))
            for player in seated[game.pk]
        }
    return found
