"""The series' writes: a series made or changed, an event added or removed, and each event's
kept results brought in step with its places (``series_event_refresh``, run after the commit of
any change to a night's standings or a tournament's places). Keyword-only, atomic, audited."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.audit import audit_record
from clubs.models import Club
from config.errors import Conflict, InvalidInput, NotFoundError
from rules.errors import RuleViolation
from rules.series import PointsTable, tier_multiplier
from scoring.models import Session
from series.models import Series, SeriesEvent, SeriesResult
from series.selectors import AWARD_KINDS, event_results
from tournaments.models import Tournament

#: What a series' settings are (the fields a create or an update takes).
SETTINGS = (
    "name",
    "points_by",
    "points_table",
    "share_top",
    "tiers",
    "best_n",
    "min_events",
    "awards",
)


# The engine's sentences (it knows no language) of a points table or a tier it refuses, said in
# the request's words; ``%(value)s`` stands for the value it quotes.
_ENGINE_WORDS = frozenset({
    gettext_noop("use place or share, not %(value)s"),
    gettext_noop("give the points of place 1 at least"),
    gettext_noop("points are 0 or more"),
    gettext_noop("a place scores no more than the place before it"),
    gettext_noop("give the winner's points (1 or more)"),
    gettext_noop("%(value)s is not a number"),
    gettext_noop("a multiplier is above 0, up to 100, in hundredths, not %(value)s"),
})  # fmt: skip


def _engine_refusal(exc: RuleViolation, value: Any) -> InvalidInput:
    """The engine's refusal as a clear 400 naming the field, with its code, in the request's
    language (its own English for a sentence not known here)."""
    field, _sep, english = exc.message.partition(": ")
    quoted = repr(value)
    sentence = english.replace(quoted, "%(value)s")
    words = _(sentence) % {"value": quoted} if sentence in _ENGINE_WORDS else english
    details = {"token": exc.token, **exc.details}
    return InvalidInput(f"{field}: {words}", code=exc.code, details=details)


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """A series' settings checked together (a points table, tiers, awards): a clear 400 naming
    the field."""
    name = str(values.get("name", "")).strip()
    if not name:
        raise InvalidInput("name: " + _("give the series a name"), code="bad_name")
    values["name"] = name
    try:
        PointsTable(
            by=values["points_by"],
            by_place=tuple(values["points_table"] or ()),
            top=values["share_top"],
        )
    except RuleViolation as exc:
        raise _engine_refusal(exc, values["points_by"]) from None
    tiers = values["tiers"]
    if not tiers:
        raise InvalidInput("tiers: " + _("name one tier at least"), code="bad_tier")
    for tier, multiplier in tiers.items():
        if not str(tier).strip():
            raise InvalidInput("tiers: " + _("a tier has a name"), code="bad_tier")
        try:
            tiers[tier] = str(tier_multiplier(multiplier))
        except RuleViolation as exc:
            raise _engine_refusal(exc, multiplier) from None
    if values["best_n"] is not None and values["best_n"] < 1:
        raise InvalidInput("best_n: " + _("count 1 result or more (empty: all)"), code="bad_number")
    if values["min_events"] < 1:
        raise InvalidInput("min_events: " + _("1 or more"), code="bad_number")
    kinds = [award.get("kind") for award in values["awards"]]
    for award in values["awards"]:
        if award.get("kind") not in AWARD_KINDS:
            raise InvalidInput(
                "awards: "
                + _("use %(kinds)s, not %(kind)s")
                % {"kinds": ", ".join(AWARD_KINDS), "kind": repr(award.get("kind"))},
                code="bad_award",
            )
        if not str(award.get("name", "")).strip():
            raise InvalidInput("awards: " + _("each award has a name"), code="bad_award")
    if len(set(kinds)) != len(kinds):
        raise InvalidInput("awards: " + _("each kind of award once"), code="bad_award")
    return values


DEFAULTS: dict[str, Any] = {
    "points_by": Series.PointsBy.PLACE,
    "points_table": [],
    "share_top": 0,
    "tiers": {"regular": "1"},
    "best_n": None,
    "min_events": 1,
    "awards": [],
}


@transaction.atomic
def series_create(*, club: Club, actor: AbstractBaseUser, **values: Any) -> Series:
    settings = _checked({**DEFAULTS, **values})
    if Series.objects.filter(club=club, name=settings["name"]).exists():
        words = _("%(club)s has a series %(name)s")
        raise Conflict(
            "name: " + words % {"club": club.name, "name": repr(settings["name"])},
            code="name_taken",
        )
    series = Series.objects.create(club=club, created_by=actor, **settings)  # type: ignore[misc]
    audit_record(actor=actor, club=club, action="series.create", obj=series, after=_as_dict(series))
    return series


@transaction.atomic
def series_update(*, series: Series, actor: AbstractBaseUser, **values: Any) -> Series:
    """Change a series' settings; every event's points follow."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    before = _as_dict(series)
    settings = _checked({**before, **values})
    if "tiers" in values:
        used = set(series.events.values_list("tier", flat=True)) - set(settings["tiers"])
        if used:
            words = _("events are of tier(s) %(tiers)s") % {"tiers": ", ".join(sorted(used))}
            raise InvalidInput("tiers: " + words, code="bad_tier")
    taken = Series.objects.filter(club_id=series.club_id, name=settings["name"])
    if taken.exclude(pk=series.pk).exists():
        words = _("the club has a series %(name)s") % {"name": repr(settings["name"])}
        raise Conflict("name: " + words, code="name_taken")
    for key, value in settings.items():
        setattr(series, key, value)
    series.save()
    for event in series.events.all():
        _refresh(event, series)
    audit_record(
        actor=actor,
        club=series.club,
        action="series.update",
        obj=series,
        before=before,
        after=_as_dict(series),
    )
    return series


def _as_dict(series: Series) -> dict[str, Any]:
    return {key: getattr(series, key) for key in SETTINGS}


@transaction.atomic
def series_event_add(
    *,
    series: Series,
    actor: AbstractBaseUser,
    tier: str,
    session_id: int | None = None,
    tournament_id: int | None = None,
) -> SeriesEvent:
    """Add a night or a tournament of the club to the series, of one of its tiers."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    if (session_id is None) == (tournament_id is None):
        raise InvalidInput(
            "session: " + _("name a night (session) or a tournament, one of them"),
            code="missing_field",
        )
    if tier not in series.tiers:
        words = _("use %(tiers)s, not %(tier)s") % {
            "tiers": ", ".join(series.tiers),
            "tier": repr(tier),
        }
        raise InvalidInput("tier: " + words, code="bad_tier")
    if (
        session_id is not None
        and not Session.objects.filter(club_id=series.club_id, pk=session_id).exists()
    ):
        words = _("no session #%(id)s in the club") % {"id": session_id}
        raise NotFoundError("session: " + words)
    if (
        tournament_id is not None
        and not Tournament.objects.filter(club_id=series.club_id, pk=tournament_id).exists()
    ):
        words = _("no tournament #%(id)s in the club") % {"id": tournament_id}
        raise NotFoundError("tournament: " + words)
    try:
        with transaction.atomic():
            event = SeriesEvent.objects.create(
                series=series, session_id=session_id, tournament_id=tournament_id, tier=tier
            )
    except IntegrityError:
        raise Conflict(_("the event is in the series already"), code="already_in_series") from None
    _refresh(event, series)
    audit_record(
        actor=actor,
        club=series.club,
        action="series.event_add",
        obj=event,
        after={"session": session_id, "tournament": tournament_id, "tier": tier},
    )
    return event


@transaction.atomic
def series_event_remove(*, series: Series, actor: AbstractBaseUser, event_id: int) -> None:
    series = Series.objects.select_for_update().get(pk=series.pk)
    event = series.events.filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(_("no event #%(id)s in the series") % {"id": event_id})
    audit_record(
        actor=actor,
        club=series.club,
        action="series.event_remove",
        obj=event,
        before={"session": event.session_id, "tournament": event.tournament_id, "tier": event.tier},
    )
    event.delete()


def _refresh(event: SeriesEvent, series: Series) -> int:
    """The event's kept results replaced by its places now; returns the players placed."""
    found = event_results(event=event, series=series)
    SeriesResult.objects.filter(event=event).delete()
    SeriesResult.objects.bulk_create(
        SeriesResult(event=event, player_id=pid, place=place, field_size=size, points=points)
        for pid, (place, size, points) in found.items()
    )
    return len(found)


@transaction.atomic
def series_event_refresh(*, event_id: int) -> int:
    """Bring one event's kept results in step with its places (idempotent): the series is
    locked so two refreshes of its events follow one another."""
    event = SeriesEvent.objects.filter(pk=event_id).select_related("series__club").first()
    if event is None:
        return 0
    series = Series.objects.select_for_update().get(pk=event.series_id)
    event.series = series
    return _refresh(event, series)


def series_session_refresh(*, session_id: int) -> int:
    """Every series event of a night brought in step; returns the events refreshed."""
    events = list(SeriesEvent.objects.filter(session_id=session_id).values_list("pk", flat=True))
    for event_id in events:
        series_event_refresh(event_id=event_id)
    return len(events)


def series_tournament_refresh(*, tournament_id: int) -> int:
    events = list(
        SeriesEvent.objects.filter(tournament_id=tournament_id).values_list("pk", flat=True)
    )
    for event_id in events:
        series_event_refresh(event_id=event_id)
    return len(events)
