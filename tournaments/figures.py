"""Every money figure of a tournament (and a chip-level one's chips): the entries that count
(the field), those of them whose fee is marked paid (only a paid fee is in the purse), the fees
collected, the prize pool (computed here only, from the paid fees) and the prize each player
won, the money read from its purse in the ledger."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from ledger.accounts import account_chips, account_paid_in, account_paid_out
from rules.prizes import prize_pool_of
from tournaments.models import Entry, Tournament
from tournaments.purse import purse_of

E = Entry.Status

#: Who counts whatever happened: in the field, out of it, or a no-show (whose fee stays).
_IN_THE_FIELD = (E.REGISTERED, E.CHECKED_IN, E.ACTIVE, E.ELIMINATED, E.NO_SHOW)
#: Who left: they count when they left after the start (seeded: their fee stays); before the
#: start their fee went back and they never entered.
_LEFT = (E.WITHDRAWN, E.DISQUALIFIED)


def entries_counted(*, tournament: Tournament) -> QuerySet[Entry]:
    """The entries that count, the one read of them for every page, the API and the prize
    figures: the field (not waitlisted, not withdrawn or disqualified before the start), paid
    or not (``entries_paid``: those whose fee is in the purse)."""
    return tournament.entries.filter(
        Q(status__in=_IN_THE_FIELD) | Q(status__in=_LEFT, seed__isnull=False)
    )


def entries_paid(*, tournament: Tournament) -> QuerySet[Entry]:
    """The entries that count whose fee is marked paid: the fees in the prize pool."""
    return entries_counted(tournament=tournament).filter(fee_status=Entry.FeeStatus.PAID)


def field_prize_pool(*, entrants: int, entry_fee_minor: int, club_fee_minor: int) -> int:
    """The prize pool of a field of ``entrants`` at these fees: what the fees make less the
    club's share of each."""
    return prize_pool_of(entrants, entry_fee_minor, club_fee_minor)


def fees_collected_minor(*, tournament: Tournament) -> int:
    return sum(account_paid_in(account=purse_of(tournament)).values())


def prize_pool_minor(*, tournament: Tournament, paid: int | None = None) -> int:
    """The tournament's prize pool: the paid fees of the entries that count less the club's
    fee of each (an unpaid fee is not in the purse). ``paid``: how many entries have paid,
    where the caller has read them already."""
    if tournament.status == Tournament.Status.CANCELLED:
        return 0  # every fee went back
    if paid is None:
        paid = entries_paid(tournament=tournament).count()
    pool = field_prize_pool(
        entrants=paid,
        entry_fee_minor=tournament.entry_fee_minor,
        club_fee_minor=tournament.club_fee_minor,
    )
    return pool + rebuys_collected_minor(tournament=tournament, paid=paid)


def rebuys_collected_minor(*, tournament: Tournament, paid: int | None = None) -> int:
    """What the rebuys of a chip-level tournament brought into the purse (all of it goes to the
    prize pool): everything paid in beyond the paid entry fees. Only a tournament with
    chip-level settings takes rebuys (the model says which has them)."""
    if tournament.chip_rules is None:
        return 0
    if paid is None:
        paid = entries_paid(tournament=tournament).count()
    fees = paid * tournament.entry_fee_minor
    return max(0, fees_collected_minor(tournament=tournament) - fees)


def chips_held(*, tournament: Tournament) -> dict[int, int]:
    """Each player's chips in a chip-level tournament (player id -> chips), from the ledger
    (its kind asks for them: the other kinds keep none)."""
    return account_chips(account=purse_of(tournament))


def prizes_won_minor(*, tournament: Tournament) -> dict[int, int]:
    """The prize each player won (player id -> amount), as the purse paid it; nothing before
    the tournament finishes."""
    return account_paid_out(account=purse_of(tournament))
