"""A tournament's life as a whole: created (with its session and purse, its kind's settings
checked by its kind), started (the entries closed, the field seeded, the first round drawn as
its kind draws it), cancelled (every fee back)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club
from clubs.page_kit.display import club_money
from clubs.validation import require_no_money
from config.errors import Conflict, InvalidInput
from config.names import name_checked
from rules import prizes
from rules.errors import RuleViolation
from rules.ratings import initial_skill
from rules.seating import TABLE_LIMITS
from scoring.models import RulePreset, TableEntry
from scoring.nights import session_create
from standings.models import Rating
from tournaments.changes import E, audit, family_of, lock, refused, state_word
from tournaments.kinds import DEFAULT_KIND, kind_for
from tournaments.kinds.base import KindSettings
from tournaments.models import Entry, Round, Tournament
from tournaments.purse import purse_open, purse_refund_all
from tournaments.rule_words import violation_words


def _refuse(exc: RuleViolation, field: str) -> InvalidInput:
    return refused(field, violation_words(exc), code=exc.code, token=exc.token)


def _tables_checked(
    club: Club, preset: RulePreset, final_preset: RulePreset | None, table_max: int,
    table_min: int,
) -> None:  # fmt: skip
    """What every kind's tournament is checked for first: its presets and tables."""
    for field, chosen in (("preset", preset), ("final_preset", final_preset)):
        if chosen is not None and chosen.club_id not in (None, club.pk):
            raise refused(field, _("not a preset of this club"))
    low, high = TABLE_LIMITS
    if not low <= table_max <= high:
        raise refused(
            "table_max",
            _("a table seats %(low)s to %(high)s, not %(given)s")
            % {"low": low, "high": high, "given": table_max},
        )
    if not low <= table_min <= table_max:
        raise refused(
            "table_min",
            _("%(low)s to the players a table (%(table_max)s), not %(given)s")
            % {"low": low, "table_max": table_max, "given": table_min},
        )


def _money_checked(
    club: Club, table_entry: str, entry_fee_minor: int, club_fee_minor: int,
    payout: str | list[Any],
) -> None:  # fmt: skip
    """What every kind's tournament is checked for after its kind's settings: how its tables
    enter results, its fees and its payout."""
    if table_entry not in ("", *TableEntry.values):
        raise refused(
            "table_entry",
            _("one of off, confirm, one_phone, trusted (or empty), not %(given)r")
            % {"given": table_entry},
        )
    if entry_fee_minor < 0:
        raise refused(
            "entry_fee_minor",
            _("cannot be negative, not %(amount)s") % {"amount": club_money(club, entry_fee_minor)},
        )
    if not 0 <= club_fee_minor <= entry_fee_minor:
        raise refused(
            "club_fee_minor",
            _("%(zero)s to the entry fee, %(fee)s; not %(given)s")
            % {
                "zero": club_money(club, 0),
                "fee": club_money(club, entry_fee_minor),
                "given": club_money(club, club_fee_minor),
            },
        )
    try:
        prizes.payout_percentages(payout, 1)
    except RuleViolation as exc:
        raise _refuse(exc, "payout") from None


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    actor: AbstractBaseUser,
    name: str,
    preset: RulePreset,
    kind: str = DEFAULT_KIND,
    final_preset: RulePreset | None = None,
    table_max: int = 6,
    table_min: int = 2,
    advance_per_table: int = 2,
    rounds: int = 0,
    cut: int = 0,
    seeding: str = Tournament.Seeding.RANDOM,
    avoid_same_club: bool = False,
    table_entry: str = "",
    max_entries: int | None = None,
    entry_fee_minor: int = 0,
    club_fee_minor: int = 0,
    late_entry_until_round: int = 1,
    payout: str | list[Any] = "by_field",
    seed: int | None = None,
    chip_levels: dict[str, Any] | None = None,
) -> Tournament:
    """A tournament open for entries, with its own session and purse. Its kind checks its own
    settings (``advance_per_table``; ``rounds`` and ``cut``; ``chip_levels``, the default
    preset when none, and a points game at each table)."""
    name = name_checked(name)
    if not name:
        raise refused("name", _("give the tournament a name"))
    _tables_checked(club, preset, final_preset, table_max, table_min)
    given = KindSettings(advance_per_table, rounds, cut, chip_levels or {})
    settings = kind_for(kind).settings_checked(given, table_max=table_max, preset=preset)
    _money_checked(club, table_entry, entry_fee_minor, club_fee_minor, payout)
    require_no_money(club=club, field="entry_fee_minor", amount=entry_fee_minor)
    require_no_money(club=club, field="club_fee_minor", amount=club_fee_minor)
    require_no_money(
        club=club, field="rebuy_price_minor", amount=settings.chip_levels.get("rebuy_price_minor")
    )
    session = session_create(club=club, actor=actor, name=name)
    purse = purse_open(session=session, actor=actor)
    tournament = Tournament.objects.create(
        club=club, name=name, kind=kind, status=Tournament.Status.REGISTRATION, preset=preset,
        final_preset=final_preset, table_max=table_max, table_min=table_min,
        seeding=seeding, avoid_same_club=avoid_same_club, max_entries=max_entries,
        table_entry=table_entry, entry_fee_minor=entry_fee_minor, club_fee_minor=club_fee_minor,
        late_entry_until_round=late_entry_until_round, payout=payout, **asdict(settings),
        seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        session=session, purse=purse,
        # The project's user model is the one every actor is; the stubs know only its base.
        created_by=actor,  # type: ignore[misc]
    )  # fmt: skip
    audit(tournament, actor, "create", kind=kind, preset=preset.pk, seed=tournament.seed)
    return tournament


@transaction.atomic
def tournament_start(
    *, tournament: Tournament, actor: AbstractBaseUser, seeds: Sequence[int] | None = None
) -> Round:
    """Close the entries, seed the field and draw the first round (a draft to look at, swap and
    release). When anyone checked in, those who did not are no-shows. ``seeds``: player ids
    best first, for manual seeding (those not listed follow in draw order)."""
    tournament = lock(tournament)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict(
            _("the tournament is %(status)s")
            % {"status": state_word(tournament.get_status_display())}
        )
    entries = list(tournament.entries.filter(status__in=[E.REGISTERED, E.CHECKED_IN]))
    if any(entry.status == E.CHECKED_IN for entry in entries):
        for entry in entries:
            if entry.status == E.REGISTERED:
                entry.status = E.NO_SHOW
                entry.save(update_fields=["status"])
        entries = [entry for entry in entries if entry.status == E.CHECKED_IN]
    if len(entries) < max(2, tournament.table_min):
        raise Conflict(
            ngettext(
                "%(count)s player(s) to play: a tournament needs at least %(least)s",
                "%(count)s player(s) to play: a tournament needs at least %(least)s",
                len(entries),
            )
            % {"count": len(entries), "least": max(2, tournament.table_min)},
            code="too_few_players",
        )
    ordered = _seeded(tournament, entries, seeds)
    for number, entry in enumerate(ordered, start=1):
        entry.seed = number
        entry.status = E.ACTIVE
    Entry.objects.bulk_update(ordered, ["seed", "status", "rating"])
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    first = kind_for(tournament).first_round(tournament, ordered)
    audit(tournament, actor, "start", entries=len(ordered), seeding=tournament.seeding)
    return first


def _seeded(
    tournament: Tournament, entries: list[Entry], seeds: Sequence[int] | None
) -> list[Entry]:
    rng = random.Random(tournament.seed)
    rng.shuffle(entries)  # random, and the order among equals otherwise
    if tournament.seeding == Tournament.Seeding.RATING:
        start = initial_skill().ordinal
        found = dict(
            Rating.objects.filter(
                player_id__in=[e.player_id for e in entries], family=family_of(tournament)
            ).values_list("player_id", "ordinal")
        )
        for entry in entries:
            entry.rating = found.get(entry.player_id, start)
        entries.sort(key=lambda e: -(e.rating or 0.0))
    elif tournament.seeding == Tournament.Seeding.MANUAL:
        given = list(seeds or [])  # player ids, best first
        position = {player_id: index for index, player_id in enumerate(given)}
        unknown = [s for s in given if s not in {e.player_id for e in entries}]
        if unknown:
            raise InvalidInput(
                "seeds: " + _("player #%(player)s is not playing") % {"player": unknown[0]},
                code="bad_seed",
                details={"token": str(unknown[0])},
            )  # fmt: skip
        entries.sort(key=lambda e: position.get(e.player_id, len(given)))
    return entries


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, actor: AbstractBaseUser) -> Tournament:
    """Call the tournament off: every fee goes back; games in play are left as they are."""
    tournament = lock(tournament)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(
            _("the tournament is %(status)s")
            % {"status": state_word(tournament.get_status_display())}
        )
    purse_refund_all(tournament=tournament, actor=actor)
    tournament.entries.filter(fee_status=Entry.FeeStatus.PAID).update(
        fee_status=Entry.FeeStatus.DUE, paid_at=None, paid_by=None
    )
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    audit(tournament, actor, "cancel")
    return tournament
