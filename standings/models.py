"""A club's ratings per game family: each rated game (the model's input, in the order games
finished), what it did to each player's rating, and each player's current rating. Their tables
are older than the app (``db_table`` keeps them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from clubs.models import Club, Player
from scoring.models import Game, GameFamily, RulePreset


class RatedGame(models.Model):
    """A finished game as the ratings took it in: its family, when it finished (games are
    applied in the order of ``finished_at``, then ``game``) and its finishing order, the
    model's exact input. Kept equal to the game's result: a correction replays from it."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rated")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    family = models.CharField(max_length=16, choices=GameFamily.choices)
    finished_at = models.DateTimeField()
    ranks = models.JSONField(help_text="Player id (as text) -> finishing place, 1 best.")

    class Meta:
        db_table = "scoring_ratedgame"
        indexes = [
            models.Index(fields=["club", "family", "finished_at", "game"], name="rated_game_order")
        ]
        ordering = ["finished_at", "game_id"]

    def __str__(self) -> str:
        return f"{self.family} game #{self.game_id}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    games = models.PositiveIntegerField(help_text="The player's rated games after this one.")

    class Meta:
        db_table = "scoring_ratingchange"
        constraints = [
            models.UniqueConstraint(
                fields=["rated_game", "player"], name="rating_change_once_per_game"
            )
        ]
        indexes = [models.Index(fields=["player", "rated_game"], name="rating_change_player")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.rated_game_id}: {self.mu_after:.2f}"


class Rating(models.Model):
    """A player's current rating in a game family: always the last change of a replay of the
    family's rated games in order."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(max_length=16, choices=GameFamily.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu - 3 sigma: what the leaderboard ranks by.")
    games = models.PositiveIntegerField()

    class Meta:
        db_table = "scoring_rating"
        constraints = [
            models.UniqueConstraint(fields=["player", "family"], name="rating_once_per_family")
        ]
        indexes = [
            models.Index("club", "family", models.F("ordinal").desc(), name="rating_leaderboard")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.family}: {self.ordinal:.2f}"


class ResultImport(models.Model):
    """A confirmed import of past results (``standings.result_import``): the plan checked at
    the confirm (nights, tables, deals with roster player ids), written by a background task in
    one transaction. Its fingerprint, the plan's digest, makes the same sheet a second time
    change nothing."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting to start"
        RUNNING = "running", "Being written"
        DONE = "done", "Imported"
        CANCELLED = "cancelled", "Cancelled, nothing stored"
        FAILED = "failed", "Failed, nothing stored"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="result_imports")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    layout = models.CharField(max_length=20)
    preset = models.ForeignKey(RulePreset, on_delete=models.PROTECT, related_name="+")
    fingerprint = models.CharField(max_length=64)
    plan = models.JSONField(help_text="The nights to write, as checked at the confirm.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    nights = models.PositiveIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One live or done import of a sheet per club: the same sheet again changes nothing.
            models.UniqueConstraint(
                fields=["club", "fingerprint"],
                condition=Q(status__in=["queued", "running", "done"]),
                name="result_import_once",
            )
        ]
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"import #{self.pk} of {self.club}"
