"""Reads of the standings that are not a table: the scope a request asks for (checked against the
club), the ledger entry an "as it stood" table is reproduced up to, and what a standings page
offers to pick."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.models import Club
from config.errors import InvalidInput, NotFoundError
from ledger.models import LedgerEntry
from scoring.formats import FORMAT_ORDER
from scoring.models import Game, Season, Session, StandingRow, StandingScope


def standings_scope(*, club: Club, scope: str, scope_id: int | None) -> tuple[str, int]:
    """Check that a scope belongs to the club; without an id, the club's current season."""
    if scope == "season" and scope_id is None:
        today = timezone.localdate()
        season = (
            club.seasons.filter(starts_on__lte=today).order_by("-starts_on").first()
            or club.seasons.order_by("starts_on").first()
        )
        if season is None:
            raise NotFoundError(_("%(club)s has no season yet") % {"club": club.name})
        return scope, season.pk
    if scope_id is None:
        words = {
            "session": _("give the id of the session"),
            "game": _("give the id of the game"),
        }.get(scope) or _("give the id of the %(scope)s") % {"scope": scope}
        raise InvalidInput("id: " + words, code="missing_field")
    owned = {
        "season": Season.objects.filter(club=club, pk=scope_id),
        "session": Session.objects.filter(club=club, pk=scope_id),
        "game": Game.objects.filter(table__session__club=club, pk=scope_id),
    }.get(scope)
    if owned is None:
        words = _("use season, session or game, not %(scope)s") % {"scope": repr(scope)}
        raise InvalidInput("scope: " + words, code="bad_scope")
    if not owned.exists():
        missing = {
            "season": gettext_noop("no season #%(id)s in %(club)s"),
            "session": gettext_noop("no session #%(id)s in %(club)s"),
            "game": gettext_noop("no game #%(id)s in %(club)s"),
        }[scope]
        raise NotFoundError(_(missing) % {"id": scope_id, "club": club.name})
    return scope, scope_id


def standings_format(*, scope: str, game_format: str | None) -> str:
    """The game format a standings request asks for ("" for all formats), checked."""
    if not game_format:
        return ""
    if game_format not in FORMAT_ORDER:
        raise InvalidInput(
            "game_format: "
            + _("no game format %(format)s; use %(formats)s")
            % {"format": repr(game_format), "formats": ", ".join(FORMAT_ORDER)},
            code="bad_format",
            details={"token": game_format},
        )
    if scope == "game":
        raise InvalidInput(
            "game_format: "
            + _(
                "a game has one format; standings by game format are kept for sessions and seasons"
            ),
            code="bad_format",
        )
    return game_format


def ledger_entry_as_of(
    *, club: Club, deal_id: int | None = None, session_id: int | None = None
) -> int:
    """The ledger entry that closes "after deal D" (its first counted result) or "after session
    S" (its last entry): standings as of then are reproduced up to that entry."""
    entries = LedgerEntry.objects.filter(book__club=club)
    if deal_id is not None:
        entry = (
            entries.filter(deal_id=deal_id, kind=LedgerEntry.Kind.DEAL)
            .order_by("id")
            .values_list("id", flat=True)
            .first()
        )
        if entry is None:
            words = _("deal #%(id)s has no counted result in %(club)s")
            raise NotFoundError(words % {"id": deal_id, "club": club.name})
        return entry
    entry = (
        entries.filter(book__game__table__session_id=session_id)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    if entry is None:
        words = _("session #%(id)s has nothing counted in %(club)s")
        raise NotFoundError(words % {"id": session_id, "club": club.name})
    return entry


@dataclass
class StandingsChoices:
    """What a standings page offers to pick: the club's seasons (with the game formats each has
    counted, in their usual order), its recent sessions (newest first) and their games."""

    seasons: list[Season]
    sessions: list[Session]
    games: list[Game]
    season_formats: dict[int, list[str]]


def standings_choices(*, club: Club, sessions: int = 30) -> StandingsChoices:
    """Three queries."""
    recent = list(club.sessions.order_by("-started_at", "-id")[:sessions])
    games = list(
        Game.objects.filter(table__session__in=recent)
        .select_related("table__session", "preset")
        .order_by("-table__session__started_at", "table__session_id", "table_id", "id")
    )
    # Which formats each season counted: a probe of the kept rows' unique index a season and
    # format, not a read of every player's rows of every season.
    counted = {
        f"counted_{index}": Exists(
            StandingRow.objects.filter(
                scope=StandingScope.SEASON, scope_id=OuterRef("pk"), game_format=game_format
            )
        )
        for index, game_format in enumerate(FORMAT_ORDER)
    }
    seasons = list(club.seasons.annotate(**counted).order_by("-starts_on"))
    season_formats = {
        season.pk: found
        for season in seasons
        if (found := [f for i, f in enumerate(FORMAT_ORDER) if getattr(season, f"counted_{i}")])
    }
    return StandingsChoices(seasons, recent, games, season_formats)
