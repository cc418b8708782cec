"""Deals and their results as entered: a game's next deal (locked on the game's row) and each
version of its result (locked on the deal's row), stored and sent to be validated after the
commit (``scoring.submissions``). Keyword-only, atomic, audited."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Club, Player
from config.errors import Conflict, InvalidInput, NotFoundError
from scoring.formats import handler_for
from scoring.formats.reads import is_rejected_new_deal, latest_deal
from scoring.lifecycle import correction_check
from scoring.models import Deal, Game, Session, Submission, TableLink
from scoring.nights import require_open_session
from scoring.preset_rules import game_rules
from scoring.submissions import submission_validation_send

#: An entry made at the table: its link, the seat the entrant named and the device it came from
#: (``table_links.device_of``); None: at the desk or through the API with a club's credentials.
Via = tuple[TableLink, int, str] | None


def _game_lock(game: Game, club: Club | None) -> Game:
    """The game's row locked, in play. With ``club``, the game must be one of its."""
    # One row by its key: no ordering and no filter on the club to build (this runs for every
    # deal entered); the club is compared once the row is read. Locking a game of another
    # club for the moment before the refusal rolls back harms nothing.
    found = Game.objects.select_for_update(of=("self",)).select_related(
        "preset", "table__session__club"
    )
    locked = next(iter(found.filter(pk=game.pk)), None)
    if locked is None or (club is not None and locked.table.session.club_id != club.pk):
        raise NotFoundError(
            _("no game #%(id)s in %(club)s") % {"id": game.pk, "club": club.name}
            if club
            else _("no game #%(id)s in this club") % {"id": game.pk}
        )
    require_open_session(locked.table.session)
    if locked.status != Game.Status.OPEN:
        raise Conflict(_("this game has finished; no more deals"), code="game_finished")
    return locked


def _deal_fields(game: Game, wild: str, dealer: Player | None) -> str:
    """Check a deal's dealer and wild joker; the wild as stored."""
    if dealer is not None and not game.seats.filter(player=dealer).exists():
        raise InvalidInput(
            "dealer: " + _("%(name)s has no seat in this game") % {"name": repr(dealer.name)}
        )
    return game_rules(game.preset).normalise_wild(wild) if wild else wild


def _deal_create(
    *,
    game: Game,
    actor: AbstractBaseUser,
    wild: str = "",
    dealer: Player | None = None,
    number: int | None = None,
    is_tiebreaker: bool = False,
    club: Club | None = None,
) -> Deal:
    """The game's next deal (or deal ``number``). With ``club``, the game must be one of its."""
    game = _game_lock(game, club)
    return _deal_add(
        game=game, latest=latest_deal(game), actor=actor, wild=wild, dealer=dealer,
        number=number, is_tiebreaker=is_tiebreaker,
    )  # fmt: skip


def _deal_add(
    *,
    game: Game,
    latest: Deal | None,
    actor: AbstractBaseUser | None,
    wild: str,
    dealer: Player | None,
    number: int | None,
    is_tiebreaker: bool,
) -> Deal:
    """A new deal of the locked ``game``, whose ``latest`` deal was read after the lock (its own
    statement: a subquery of the locking SELECT would read the snapshot taken before waiting for
    the lock, and miss a deal committed meanwhile)."""
    last = latest.number if latest is not None else 0
    if number is None:
        number = last + 1
    elif game.deals.filter(number=number).exists():
        raise Conflict(
            "number: " + _("deal %(number)s of this game exists") % {"number": number},
            code="deal_exists",
        )
    wild = _deal_fields(game, wild, dealer)
    handler_for(game).deal_check_can_start(
        game=game, rules=game_rules(game.preset), is_tiebreaker=is_tiebreaker
    )
    deal = Deal.objects.create(
        game=game, number=number, wild=wild, dealer=dealer, is_tiebreaker=is_tiebreaker
    )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="deal.create",
        obj=deal,
        after={"game": game.pk, "number": number, "wild": wild, "tiebreaker": is_tiebreaker},
    )
    return deal


def _deal_enter_again(
    *,
    deal: Deal,
    actor: AbstractBaseUser | None,
    wild: str,
    dealer: Player | None,
    source: str,
    payload: dict[str, Any],
    via: Via = None,
) -> Submission:
    """A rejected new deal entered again: its wild and dealer as now given, and the entry as its
    next version (the game's row is locked, so nobody else adds to it meanwhile)."""
    game = deal.game
    wild = _deal_fields(game, wild, dealer)
    if (wild, dealer) != (deal.wild, deal.dealer):
        Deal.objects.filter(pk=deal.pk).update(wild=wild, dealer=dealer)
        deal.wild, deal.dealer = wild, dealer
        audit_record(
            actor=actor, club=game.table.session.club, action="deal.update", obj=deal,
            after={"wild": wild, "dealer": dealer.pk if dealer else None},
        )  # fmt: skip
    version = (deal.submissions.aggregate(m=Max("version"))["m"] or 0) + 1
    return _submission_store(
        deal=deal, session=game.table.session, version=version, actor=actor, source=source,
        payload=payload, via=via,
    )  # fmt: skip


# Its own transaction (deal_create_with_result locks the game and adds the deal in its own).
deal_create = transaction.atomic(_deal_create)


@transaction.atomic
def submission_create(
    *,
    deal: Deal,
    actor: AbstractBaseUser,
    source: str,
    payload: dict[str, Any],
) -> Submission:
    """Store a deal's result as entered (a new version) and have it validated after commit."""
    deal = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("game__table__session__club")
        .get(pk=deal.pk)
    )
    session = deal.game.table.session
    require_open_session(session)
    if deal.status == Deal.Status.VOID:  # its reversal stands; a new result would undo it unseen
        raise Conflict(
            _("deal %(number)s was voided; enter the result as a new deal")
            % {"number": deal.number},
            code="deal_voided",
        )
    decided = deal.submissions.filter(
        status__in=[Submission.Status.ACCEPTED, Submission.Status.AWAITING_CONFIRMATION]
    ).exists()
    if decided:  # a correction: the format says whether this deal can still change
        handler_for(deal.game).correction_check(deal=deal, rules=game_rules(deal.game.preset))
        correction_check(game=deal.game)
    version = (deal.submissions.aggregate(m=Max("version"))["m"] or 0) + 1
    return _submission_store(
        deal=deal, session=session, version=version, actor=actor, source=source, payload=payload
    )


def _submission_store(
    *,
    deal: Deal,
    session: Session,
    version: int,
    actor: AbstractBaseUser | None,
    source: str,
    payload: dict[str, Any],
    via: Via = None,
) -> Submission:
    link, seat, device = via if via is not None else (None, None, "")
    submission = Submission.objects.create(
        deal=deal, version=version, source=source, payload=payload, submitted_by=actor,
        table_link=link, entered_seat=seat, entered_device=device,
    )  # fmt: skip
    after: dict[str, Any] = {"deal": deal.pk, "version": version, "source": source}
    if link is not None:  # entered at the table: who did it is the link and the seat they named
        after.update(table_link=link.pk, seat=seat)
    audit_record(
        actor=actor, club=session.club, action="submission.create", obj=submission, after=after
    )
    submission_validation_send(submission_id=submission.pk)
    return submission


@transaction.atomic
def deal_create_with_result(
    *,
    game: Game,
    actor: AbstractBaseUser | None,
    wild: str,
    dealer: Player | None,
    number: int | None,
    is_tiebreaker: bool,
    source: str,
    payload: dict[str, Any] | None,
    club: Club | None = None,
    via: Via = None,
) -> tuple[Deal, Submission | None]:
    """Start a deal and, when the result is already known, store its first submission.

    A new deal's entry that was rejected does not hold a number: while the game's latest deal is
    open with only rejected entries, the next entry of a new deal (of the same kind, numbered by
    the game) is that deal's next version, with the wild and dealer now given."""
    game = _game_lock(game, club)
    latest = latest_deal(game)
    if (
        number is None
        and payload is not None
        and is_rejected_new_deal(latest)
        and latest is not None
        and latest.is_tiebreaker == is_tiebreaker
    ):
        return latest, _deal_enter_again(
            deal=latest, actor=actor, wild=wild, dealer=dealer, source=source, payload=payload,
            via=via,
        )  # fmt: skip
    deal = _deal_add(
        game=game, latest=latest, actor=actor, wild=wild, dealer=dealer, number=number,
        is_tiebreaker=is_tiebreaker,
    )  # fmt: skip
    if payload is None:
        return deal, None
    # The deal is new and not yet visible to anyone else: it needs no lock and has no versions.
    submission = _submission_store(
        deal=deal, session=deal.game.table.session, version=1, actor=actor, source=source,
        payload=payload, via=via,
    )  # fmt: skip
    return deal, submission


#: The most deals one batch enters (``deals_create_batch``).
BATCH_MAX = 50


@dataclass(frozen=True)
class DealEntry:
    """One deal of a batch, as ``deal_create_with_result`` takes it."""

    wild: str
    dealer: Player | None
    number: int | None
    is_tiebreaker: bool
    payload: dict[str, Any] | None


@transaction.atomic
def deals_create_batch(
    *, club: Club, game: Game, actor: AbstractBaseUser, source: str, entries: list[DealEntry]
) -> list[tuple[Deal, Submission | None]]:
    """Start several deals of a game in order, each with its result when given: all or none.
    One refused (a closed night, a game over, a number taken) refuses the lot, naming its place
    in the batch, and nothing is stored; each result is then validated on its own after the
    commit, as a single entry's is."""
    if not 1 <= len(entries) <= BATCH_MAX:
        raise InvalidInput(
            "deals: " + _("give 1 to %(most)s deals") % {"most": BATCH_MAX},
            details={"deals": len(entries)},
        )
    done = []
    for index, entry in enumerate(entries):
        try:
            made = deal_create_with_result(
                club=club, game=game, actor=actor, wild=entry.wild, dealer=entry.dealer,
                number=entry.number, is_tiebreaker=entry.is_tiebreaker, source=source,
                payload=entry.payload,
            )  # fmt: skip
        except (InvalidInput, Conflict, NotFoundError) as refused:
            raise type(refused)(
                f"deals[{index}]: {refused.message}", code=refused.code,
                details={**refused.details, "index": index},
            ) from refused  # fmt: skip
        done.append(made)
    return done
