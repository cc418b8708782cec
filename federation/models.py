"""A federation: the clubs that joined it, its officers, one registry of players (each club's
player records linked to a federation player, duplicates merged reversibly), the events it
sanctioned (asked for, submitted, released) and the rating lists it published per period."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from clubs.models import Club, Player
from scoring.models import RulePreset, Session
from tournaments.models import Tournament


class Federation(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    preset = models.ForeignKey(
        RulePreset,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The locked rule preset every sanctioned game is played under.",
    )
    starts_on = models.DateField(help_text="The first rating period's first day.")
    period_months = models.PositiveSmallIntegerField(default=1)
    provisional_games = models.PositiveSmallIntegerField(default=5)
    window_days = models.PositiveIntegerField(default=3 * 365)
    full_weight_days = models.PositiveIntegerField(default=0)
    best_n = models.PositiveSmallIntegerField(null=True, blank=True, default=5)
    tiers = models.JSONField(default=dict, help_text='Tier -> multiplier, e.g. {"club": "1"}.')
    lists_version = models.PositiveIntegerField(
        default=0,
        help_text="Drawn anew by each change of the lists' input (a release, a link, a merge, a "
        "period published): the cached ranking list is kept under it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Officer(models.Model):
    class Role(models.TextChoices):
        RATING = "rating", "Rating officer"

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="officers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.RATING)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "user"], name="federation_officer_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} officer of {self.federation_id}"


class MemberClub(models.Model):
    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        MEMBER = "member", "Member"
        DECLINED = "declined", "Declined"

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="clubs")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.INVITED)
    invited_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    # The club's key for signed event exports (``federation.exchange``): only its public half
    # is kept here; the club's own instance holds the private half (``ExportKey``).
    export_key_id = models.CharField(max_length=40, blank=True, default="")
    export_public_key = models.CharField(max_length=64, blank=True, default="")
    export_key_issued_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "club"], name="federation_club_once")
        ]

    def __str__(self) -> str:
        return f"{self.club_id} in {self.federation_id} ({self.status})"


class FederationPlayer(models.Model):
    """One person in the federation's registry; ``merged_into`` another when a duplicate."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    date_of_birth = models.DateField(null=True, blank=True)
    email = models.EmailField(blank=True, default="")
    merged_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="merged_from"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name

    @property
    def federation_id_code(self) -> str:
        return f"F{self.pk:06d}"


class PlayerLink(models.Model):
    """A club's player record proposed as (and, once confirmed, counted as) a federation player."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed"
        CONFIRMED = "confirmed", "Confirmed"
        REFUSED = "refused", "Refused"

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="links")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    federation_player = models.ForeignKey(
        FederationPlayer, on_delete=models.CASCADE, null=True, blank=True, related_name="links"
    )
    name = models.CharField(max_length=80)
    date_of_birth = models.DateField(null=True, blank=True)
    email = models.EmailField(blank=True, default="")
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PROPOSED)
    reason = models.CharField(max_length=300, blank=True, default="")
    proposed_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "player"],
                condition=~Q(status="refused"),
                name="federation_link_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} -> {self.federation_player_id} ({self.status})"


class PlayerMerge(models.Model):
    """A duplicate merged into another by an officer; kept when undone (``undone_at``)."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="merges")
    source = models.ForeignKey(FederationPlayer, on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey(FederationPlayer, on_delete=models.CASCADE, related_name="+")
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    merged_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-merged_at", "-id"]

    def __str__(self) -> str:
        return f"{self.source_id} into {self.target_id}"


class SanctionedEvent(models.Model):
    """A club's night or tournament asked to count for the federation, through its life:
    asked, sanctioned (or refused), submitted, released (or returned with a reason). The lists
    read ``released_results`` only; a correction is submitted again and replaces them when the
    officer releases it."""

    class Status(models.TextChoices):
        REQUESTED = "requested", "Asked"
        SANCTIONED = "sanctioned", "Sanctioned"
        REFUSED = "refused", "Refused"
        SUBMITTED = "submitted", "Submitted"
        RETURNED = "returned", "Returned"
        RELEASED = "released", "Released"

    class Elsewhere(models.TextChoices):
        NO = "", "Here"
        NIGHT = "night", "A night on the club's own instance"
        TOURNAMENT = "tournament", "A tournament on the club's own instance"

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="events")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    held_elsewhere = models.CharField(
        max_length=10,
        choices=Elsewhere.choices,
        blank=True,
        default="",
        help_text="Played on the club's own instance: its results arrive as a signed export.",
    )
    name = models.CharField(max_length=120)
    tier = models.CharField(max_length=40)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REQUESTED)
    reason = models.CharField(max_length=300, blank=True, default="")
    played_on = models.DateField(null=True, blank=True)
    submitted_results = models.JSONField(null=True, blank=True)
    released_results = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="Submissions so far.")
    released_version = models.PositiveIntegerField(default=0)
    release_seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="Its place in the release order (the ratings' order)."
    )
    released_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(session__isnull=False, tournament__isnull=True, held_elsewhere="")
                    | Q(session__isnull=True, tournament__isnull=False, held_elsewhere="")
                    | (Q(session__isnull=True, tournament__isnull=True) & ~Q(held_elsewhere=""))
                ),
                name="federation_event_night_tournament_or_elsewhere",
            ),
            models.UniqueConstraint(
                fields=["federation", "session"], name="federation_event_session_once"
            ),
            models.UniqueConstraint(
                fields=["federation", "tournament"], name="federation_event_tournament_once"
            ),
            models.UniqueConstraint(
                fields=["federation", "release_seq"], name="federation_release_seq_once"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RatingPeriod(models.Model):
    """A published rating list: its period and every listed player's line, as published."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="periods")
    index = models.PositiveIntegerField()
    starts_on = models.DateField()
    ends_on = models.DateField()
    published_at = models.DateTimeField(auto_now_add=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["-index"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "index"], name="federation_period_once")
        ]

    def __str__(self) -> str:
        return f"period {self.index} of {self.federation_id}"


class RatingEntry(models.Model):
    period = models.ForeignKey(RatingPeriod, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(FederationPlayer, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(null=True, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()
    provisional = models.BooleanField()

    class Meta:
        ordering = ["rank", "-ordinal", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["period", "player"], name="federation_entry_once")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.period_id}"


class RemotePlayer(models.Model):
    """A player of a club's own instance (``ref``, their id there) and the roster entry that
    stands for them here, made by the first imported event that names them."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    ref = models.CharField(max_length=40)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "ref"], name="federation_remote_player_once")
        ]

    def __str__(self) -> str:
        return f"{self.ref} of {self.club_id} as {self.player_id}"


class ExportKey(models.Model):
    """On a club's own instance: the key a federation gave the club to sign its event exports
    (the private half; the federation keeps the public one)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    federation = models.SlugField(max_length=60, help_text="The federation's slug there.")
    club_there = models.SlugField(max_length=60, help_text="The club's slug there.")
    key_id = models.CharField(max_length=40)
    private_key = models.CharField(max_length=64)
    installed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "federation"], name="federation_export_key_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.club_id}'s key for {self.federation}"
