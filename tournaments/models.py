"""Tournaments: knock-out and round-based events of a club. Each round's tables are games of the
scoring core (entered, validated, corrected and posted like any other), in the tournament's own
session; the entry fees and prizes go through its purse (an account of that session in the
ledger: ``tournaments.purse``), and every money figure is read from there
(``tournaments.figures``), never stored here."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from config.change_times import updated_at_field
from ledger.models import Book
from scoring.models import Game, RulePreset, Session, TableEntry


class Tournament(models.Model):
    class Kind(models.TextChoices):
        KNOCKOUT = "knockout", _("Knock-out")
        ROUNDS = "rounds", _("Rounds, then a cut")
        CHIPS = "chips", _("Chip levels")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Seeding(models.TextChoices):
        RANDOM = "random", _("Random")
        RATING = "rating", _("By rating")
        MANUAL = "manual", _("Manual")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.KNOCKOUT)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    preset = models.ForeignKey(
        RulePreset, on_delete=models.PROTECT, related_name="+", help_text="What each table plays."
    )
    final_preset = models.ForeignKey(
        RulePreset,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="What the final table plays, when it differs.",
    )
    table_max = models.PositiveSmallIntegerField(default=6)
    table_min = models.PositiveSmallIntegerField(default=2)
    advance_per_table = models.PositiveSmallIntegerField(
        default=2, help_text="Knock-out: how many of each table go on."
    )
    rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Rounds kind: rounds before the cut."
    )
    cut = models.PositiveSmallIntegerField(
        default=0, help_text="Rounds kind: how many go to the semi-final (0: straight to a final)."
    )
    chip_levels = models.JSONField(
        default=dict,
        blank=True,
        help_text="Chip-level kind: its settings (rules.chip_levels.ChipLevelRules.as_dict).",
    )
    seeding = models.CharField(max_length=8, choices=Seeding.choices, default=Seeding.RANDOM)
    avoid_same_club = models.BooleanField(default=False)
    table_entry = models.CharField(
        max_length=12,
        choices=[("", "As the club's nights"), *TableEntry.choices],
        blank=True,
        default="",
        db_default="",
        help_text="Whether the tables enter their own results through a table link.",
    )
    max_entries = models.PositiveIntegerField(
        null=True, blank=True, help_text="Entries beyond this are waitlisted."
    )
    entry_fee_minor = models.BigIntegerField(default=0)
    club_fee_minor = models.BigIntegerField(
        default=0, help_text="The club's share of each entry fee."
    )
    late_entry_until_round = models.PositiveSmallIntegerField(
        default=1, help_text="Entries are taken until this round is drawn."
    )
    payout = models.JSONField(
        default=list, help_text="A payout structure's name, or percentages by place."
    )
    seed = models.BigIntegerField(default=0, help_text="The random seed of its draws.")
    signup_open = models.BooleanField(
        default=False, db_default=False, help_text="Players sign up on the public page."
    )
    signup_closes_at = models.DateTimeField(
        null=True, blank=True, help_text="When the public sign-up closes (none: at the start)."
    )
    session = models.ForeignKey(
        Session, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    purse = models.OneToOneField(
        Book, on_delete=models.PROTECT, null=True, blank=True, related_name="tournament"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = updated_at_field()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "updated_at"], name="tournament_club_updated")]
        constraints = [
            models.CheckConstraint(
                condition=Q(table_min__gte=2)
                & Q(table_max__lte=6)
                & Q(table_min__lte=models.F("table_max")),
                name="tournament_table_sizes",
            ),
            models.CheckConstraint(
                condition=Q(club_fee_minor__lte=models.F("entry_fee_minor"))
                & Q(club_fee_minor__gte=0),
                name="tournament_club_fee_within_fee",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def chip_rules(self) -> dict[str, object] | None:
        """The chip-level settings as stored, or ``None`` for the other kinds."""
        return self.chip_levels if self.kind == self.Kind.CHIPS else None


class Entry(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        WAITLISTED = "waitlisted", _("Waitlisted")
        CHECKED_IN = "checked_in", _("Checked in")
        ACTIVE = "active", _("Playing")
        ELIMINATED = "eliminated", _("Out")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")
        NO_SHOW = "no_show", _("No-show")

    class FeeStatus(models.TextChoices):
        DUE = "due", _("Due")
        PAID = "paid", _("Paid")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERED)
    seed = models.PositiveIntegerField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True, help_text="Ordinal when seeded.")
    affiliation = models.CharField(
        max_length=120, blank=True, help_text="The player's home club, for same-club avoidance."
    )
    place = models.PositiveIntegerField(null=True, blank=True)
    out_in_round = models.PositiveSmallIntegerField(null=True, blank=True)
    table_place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Place at the table the entrant went out from."
    )
    remarks = models.CharField(max_length=200, blank=True)
    rebuys = models.PositiveSmallIntegerField(
        default=0, help_text="Chip-level kind: how many times the entrant bought back in."
    )
    fee_status = models.CharField(
        max_length=4, choices=FeeStatus.choices, default=FeeStatus.DUE, db_default=FeeStatus.DUE
    )
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", help_text="Who marked the fee paid.",
    )  # fmt: skip
    checked_in_at = models.DateTimeField(null=True, blank=True)
    self_signed_up = models.BooleanField(
        default=False, db_default=False, help_text="Signed up on the public page."
    )
    roster_claim = models.BooleanField(
        default=False, db_default=False,
        help_text="Signed up under the name of a player already on the roster: the desk "
        "confirms who they are by checking them in.",
    )  # fmt: skip
    link_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="",
        help_text="SHA-256 of the player's personal link token (the token is never stored).",
    )  # fmt: skip
    signup_key = models.CharField(
        max_length=64, blank=True, default="", db_default="",
        help_text="The sign-up form's one-time key: the same form sent twice makes one entry.",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = updated_at_field()

    #: The prize won: not a column, read from the purse by ``tournaments.selectors``.
    prize_won_minor: int = 0
    #: A chip-level tournament's chips: read from the purse by ``tournaments.selectors``.
    chips: int | None = None

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once"),
            models.UniqueConstraint(
                fields=["tournament", "signup_key"], condition=~Q(signup_key=""),
                name="entry_signup_key_once",
            ),
        ]  # fmt: skip
        indexes = [models.Index(fields=["link_hash"], name="entry_link_hash")]
        ordering = ["tournament_id", "seed", "id"]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Round(models.Model):
    class Stage(models.TextChoices):
        ROUND = "round", _("Round")
        SEMIFINAL = "semifinal", _("Semi-final")
        FINAL = "final", _("Final")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Drawn, not released")
        RELEASED = "released", _("Being played")
        COMPLETE = "complete", _("Complete")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.ROUND)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    draw = models.JSONField(default=dict, help_text='{"tables": [[entry ids]], "byes": [ids]}')
    cost = models.JSONField(default=dict, help_text="The draw's repeat and same-club pairs.")
    advanced = models.JSONField(default=list, help_text="Entry ids who went on.")
    level = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Chip-level kind: the level this round plays."
    )
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text="When the director calls time; the projector counts down."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once")
        ]
        ordering = ["tournament_id", "number"]

    def __str__(self) -> str:
        return f"{self.get_stage_display()} {self.number} of {self.tournament}"


class RoundTable(models.Model):
    """A table of a released round: its game, and any tie-breaker game played at it for the
    places across the cut."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="round_table")
    tiebreaker = models.OneToOneField(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="tiebreak_of"
    )
    outcome = models.JSONField(
        default=dict,
        help_text='{"advancing": [player ids], "out": {"id": place}, "tied": [...], "left": n}',
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_number_once")
        ]
        ordering = ["round_id", "number"]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"
