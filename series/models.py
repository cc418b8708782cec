"""A club's season series: its events (nights or tournaments), how an event's places score, and
each player's kept result of each event (``SeriesResult``), kept in step with the events' places
by ``series.services.series_event_refresh`` and always equal to ``series.selectors``' recompute."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from scoring.models import Session
from tournaments.models import Tournament


class Series(models.Model):
    class PointsBy(models.TextChoices):
        PLACE = "place", _("By place")
        SHARE = "share", _("By share of the field")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="series")
    name = models.CharField(max_length=120)
    points_by = models.CharField(max_length=8, choices=PointsBy.choices, default=PointsBy.PLACE)
    points_table = models.JSONField(
        default=list, blank=True, help_text="Points of places 1, 2, ... (by place)."
    )
    share_top = models.PositiveIntegerField(
        default=0, help_text="By share of the field: the winner's points (the last scores 0)."
    )
    tiers = models.JSONField(
        default=dict, help_text='Tier name -> multiplier as text, e.g. {"regular": "1"}.'
    )
    best_n = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The best results that count (all when empty)."
    )
    min_events = models.PositiveSmallIntegerField(
        default=1, help_text="Events a player plays to be ranked."
    )
    awards = models.JSONField(
        default=list, blank=True, help_text='[{"kind": "most_wins", "name": "..."}, ...]'
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "series"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="series_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    """One event of a series: a night (a session) or a tournament, of a tier."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="events")
    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    tier = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(session__isnull=True) ^ Q(tournament__isnull=True),
                name="series_event_night_or_tournament",
            ),
            models.UniqueConstraint(fields=["series", "session"], name="series_event_session_once"),
            models.UniqueConstraint(
                fields=["series", "tournament"], name="series_event_tournament_once"
            ),
        ]
        indexes = [
            models.Index(fields=["session"], name="series_event_session"),
            models.Index(fields=["tournament"], name="series_event_tournament"),
        ]

    def __str__(self) -> str:
        return f"event #{self.pk} of {self.series_id}"


class SeriesResult(models.Model):
    """A player's place in an event as the standings (a night) or the tournament read it, and
    the series points it scores."""

    event = models.ForeignKey(SeriesEvent, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveIntegerField()
    field_size = models.PositiveIntegerField()
    points = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="series_result_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} #{self.place} in {self.event_id}"
