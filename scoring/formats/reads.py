"""What the formats read from the ledger: balances per player, per account, counted deals. Every
game state is derived from these, so it always equals a recomputation."""

from __future__ import annotations

from collections import defaultdict

from django.db import connection
from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _

from config.errors import Conflict
from ledger.models import AccountKind, LedgerEntry, Posting
from ledger.selectors import book_balance, book_player_balances
from rules.rummikub.settlement import settle_session
from scoring.models import Deal, Game, Seat, Submission


def seated_players(game: Game) -> dict[int, str]:
    """Every seat of the game in seat order: player id -> name."""
    return dict(game.seats.order_by("position").values_list("player_id", "player__name"))


def seated_for_deal(game: Game, number: int | None) -> dict[int, str]:
    """Who sat at deal ``number`` (the next deal when ``None``), in seat order: every seat but
    those who had left the table before it."""
    seats = game.seats.order_by("position")
    if number is None:
        seats = seats.filter(left_after_deal__isnull=True)
    else:
        seats = seats.exclude(left_after_deal__lt=number)
    return dict(seats.values_list("player_id", "player__name"))


def seat_positions(game: Game) -> dict[int, int]:
    return dict(game.seats.values_list("player_id", "position"))


def player_balances(
    game: Game, quantity: str, *, excluding_deal: Deal | None = None
) -> dict[int, int]:
    """Each player's balance of ``quantity`` in the game (one query); with ``excluding_deal``,
    as it stood without that deal's entries (its result, and the reversals of its versions)."""
    postings = Posting.objects.filter(
        book_id=game.book_id, quantity=quantity, account=AccountKind.PLAYER
    )
    if excluding_deal is not None:
        postings = postings.exclude(entry__deal=excluding_deal)
    totals: dict[int, int] = defaultdict(int)
    for player_id, total in postings.values_list("player_id").annotate(total=Sum("amount")):
        totals[player_id] = total
    return totals


def seated_balances(
    game: Game, quantity: str, *, excluding_deal: Deal | None = None
) -> dict[int, int]:
    """Every seated player's balance of ``quantity`` in seat order, 0 for one with none yet.
    One statement, written out: every format reads it for every state, finish and ranking, and
    building it through the ORM cost more than running it."""
    seat = connection.ops.quote_name(Seat._meta.db_table)
    posting = connection.ops.quote_name(Posting._meta.db_table)
    entry = connection.ops.quote_name(LedgerEntry._meta.db_table)
    skip = ""
    params: list[int | str] = [game.book_id, quantity, AccountKind.PLAYER]
    if excluding_deal is not None:
        skip = f" AND p.entry_id NOT IN (SELECT id FROM {entry} WHERE deal_id = %s)"
        params.append(excluding_deal.pk)
    params.append(game.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.player_id, COALESCE(SUM(p.amount), 0) FROM {seat} s LEFT JOIN {posting} p"
            f" ON p.book_id = %s AND p.player_id = s.player_id AND p.quantity = %s"
            f" AND p.account = %s{skip} WHERE s.game_id = %s"
            f" GROUP BY s.player_id, s.position ORDER BY s.position",
            params,
        )
        return {player_id: int(total) for player_id, total in cursor.fetchall()}


def account_balance(game: Game, quantity: str, account: str) -> int:
    return book_balance(book_id=game.book_id, quantity=quantity, account=account)


#: What counts as paid into a game's pot: entry and rejoin fees (and opening chips), less what
#: was refunded.
PAID_IN_KINDS = (
    LedgerEntry.Kind.ENTRY_FEE, LedgerEntry.Kind.REJOIN, LedgerEntry.Kind.OPENING,
    LedgerEntry.Kind.REFUND,
)  # fmt: skip


def player_paid_in(game: Game, quantity: str) -> dict[int, int]:
    """What each player has paid into the game's account, by player."""
    paid = book_player_balances(book_id=game.book_id, quantity=quantity, kinds=PAID_IN_KINDS)
    return {pid: -total for pid, total in paid.items() if total}


def entries_of_kind(game: Game, kind: str) -> dict[int, int]:
    """How many entries of ``kind`` (e.g. rejoins) touched each player's points."""
    rows = (
        Posting.objects.filter(book_id=game.book_id, entry__kind=kind, account=AccountKind.PLAYER)
        .values_list("player_id")
        .annotate(n=Count("entry_id", distinct=True))
    )
    return dict(rows)


def deals_counted(game: Game, *, tiebreakers: bool = True, excluding: Deal | None = None) -> int:
    deals = game.deals.filter(status=Deal.Status.FINAL)
    if not tiebreakers:
        deals = deals.filter(is_tiebreaker=False)
    if excluding is not None:
        deals = deals.exclude(pk=excluding.pk)
    return deals.count()


def latest_deal(game: Game) -> Deal | None:
    """The game's latest deal (one probe of the game's deal numbers); when it is still open,
    with ``entered`` (the versions entered for it) and ``refused`` (how many were rejected),
    counted for that deal alone. Counting in the same statement grouped every deal of the game
    before taking the latest, a cost that grew with the game on every deal entered."""
    latest = game.deals.order_by("-number").first()
    if latest is not None and latest.status == Deal.Status.OPEN:
        counts = latest.submissions.aggregate(
            entered=Count("pk"), refused=Count("pk", filter=Q(status=Submission.Status.REJECTED))
        )
        latest.entered, latest.refused = counts["entered"], counts["refused"]  # type: ignore[attr-defined]
    return latest


def is_rejected_new_deal(deal: Deal | None) -> bool:
    """A deal (from ``latest_deal``) still open whose every entered version was rejected: the
    next entry of a new deal corrects it in place (its next version) rather than opening another
    number behind it."""
    if deal is None or deal.status != Deal.Status.OPEN:
        return False
    counts: tuple[int, int] = (deal.entered, deal.refused)  # type: ignore[attr-defined]
    return 0 < counts[0] == counts[1]


def rejected_new_deal(game: Game) -> Deal | None:
    """The deal a new entry of the game goes to, if its latest was rejected (see above)."""
    latest = latest_deal(game)
    return latest if is_rejected_new_deal(latest) else None


def _previous_open(what: str, number: int) -> str:
    if what == "game":
        return _("game %(number)s has no counted result yet") % {"number": number}
    return _("deal %(number)s has no counted result yet") % {"number": number}


def _latest_only(what: str, number: int) -> str:
    """One sentence per kind of game whose deals build on the last."""
    sentences = {
        "game": _(
            "only the latest deal of a game can be corrected; deal %(number)s has later deals"
        ),
        "deals game": _(
            "only the latest deal of a deals game can be corrected; deal %(number)s has later deals"
        ),
        "pool": _(
            "only the latest deal of a pool can be corrected; deal %(number)s has later deals"
        ),
        "match": _(
            "only the latest deal of a match can be corrected; deal %(number)s has later deals"
        ),
    }
    sentence = sentences.get(what)
    if sentence is None:
        return f"only the latest deal of a {what} can be corrected; deal {number} has later deals"
    return sentence % {"number": number}


def require_no_deal_waiting(game: Game, what: str = "deal") -> None:
    """Refuse while a deal of the game has no counted result (it is played, or voided, first)."""
    waiting = (
        game.deals.exclude(status__in=[Deal.Status.FINAL, Deal.Status.VOID])
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if waiting is not None:
        raise Conflict(
            _previous_open(what, waiting),
            code="previous_deal_open",
            details={"deal_number": waiting},
        )


def require_latest_deal(deal: Deal, what: str) -> None:
    """In games where each deal builds on the last (pool, deals, a match), only the latest deal
    can be corrected, and only before anything else was posted after it."""
    game = deal.game
    if game.status != Game.Status.OPEN:
        raise Conflict(_("this game has finished"), code="game_finished")
    if game.deals.filter(number__gt=deal.number).exclude(status=Deal.Status.VOID).exists():
        raise Conflict(
            _latest_only(what, deal.number),
            code="not_latest_deal",
        )
    first_entry = deal.entries.order_by("id").values_list("id", flat=True).first()
    if first_entry is not None and (
        LedgerEntry.objects.filter(book_id=game.book_id, id__gt=first_entry)
        .exclude(deal=deal)
        .exists()
    ):
        raise Conflict(
            _(
                "deal %(number)s was followed by a rejoin, split or payout; it can no longer be "
                "corrected"
            )
            % {"number": deal.number},
            code="not_latest_deal",
        )


def settled_by_difference(game: Game, totals: dict[int, int]) -> dict[int, int]:
    """Each player's net, in minor units, at the game's rate per point of difference from every
    other player's total (summing to zero): International Rummikub's and Okey's settlement."""
    net = settle_session({str(pid): total for pid, total in totals.items()}, game.point_value_minor)
    return {int(key): int(amount) for key, amount in net.items()}
