"""Sessions, tables, games, deals, submissions, player results and standing rows.

Submissions are append-only and versioned. What a deal counts is posted to the ledger
(``ledger.models``); everything a scoreboard shows is derived from its postings."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from config.change_times import updated_at_field
from ledger.models import Book
from rules.families import Family


class GameFormat(models.TextChoices):
    POINTS = "points", _("Points rummy")
    POOL = "pool", _("Pool rummy")
    DEALS = "deals", _("Deals rummy")
    RUMMIKUB = "rummikub", _("Rummikub")
    OKEY = "okey", _("Okey")


class RulePreset(models.Model):
    """A named, versioned set of rule parameters. Rows are never changed: a new version is a new
    row, and each game points at the version it was played under."""

    club = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="presets",
        help_text="Empty for the built-in presets every club can use.",
    )
    key = models.SlugField(max_length=60, help_text="Stable name across versions.")
    version = models.PositiveIntegerField(default=1)
    name = models.CharField(max_length=120)
    format = models.CharField(max_length=16, choices=GameFormat.choices)
    variant = models.CharField(max_length=16, default="indian")
    params = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "key", "version"],
                condition=Q(club__isnull=False),
                name="preset_club_version_unique",
            ),
            models.UniqueConstraint(
                fields=["key", "version"],
                condition=Q(club__isnull=True),
                name="preset_builtin_version_unique",
            ),
        ]
        ordering = ["key", "-version"]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})"

    @property
    def shown_name(self) -> str:
        """The name a page shows: a built-in preset's in the page's language (its stored name is
        the English, which the API keeps), a club's own as the club typed it."""
        return gettext(self.name) if self.club_id is None else self.name


# The built-in presets' names (migrations 0003 and 0030), for the catalogs: shown_name
# translates them where a page shows them.
BUILT_IN_PRESET_NAMES = [
    gettext_noop("Points rummy (20/40/80)"),
    gettext_noop("Points rummy (10/30/80)"),
    gettext_noop("Pool 101"),
    gettext_noop("Pool 201"),
    gettext_noop("Pool 61"),
    gettext_noop("Best of 2 deals"),
    gettext_noop("Best of 3 deals"),
    gettext_noop("Best of 6 deals"),
    gettext_noop("Rummikub Sabra"),
    gettext_noop("Rummikub American"),
    gettext_noop("Rummikub International"),
    gettext_noop("Okey (loss)"),
    gettext_noop("Okey countdown from 20"),
]


class Season(models.Model):
    """A period a club keeps standings over (a calendar year unless the club defines others)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    starts_on = models.DateField()
    ends_on = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"
            ),
        ]
        ordering = ["-starts_on"]

    def __str__(self) -> str:
        return self.name


class Session(models.Model):
    """A club night (or a tournament round): tables, games and their settle-up."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    started_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, null=True, blank=True, related_name="sessions"
    )
    updated_at = updated_at_field()

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["club", "-started_at"], name="session_club_time"),
            models.Index(fields=["club", "updated_at"], name="session_club_updated"),
        ]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    name = models.CharField(max_length=40)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "name"], name="table_name_unique")
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


#: The kinds of book owner scoring holds (``ledger.books``): a game, and a session's account.
GAME_BOOK = "game"
ACCOUNT_BOOK = "account"


class SessionAccount(models.Model):
    """A book a session holds besides its games': a tournament's purse. No table, seat or
    preset: players pay into it and it pays out. Its money counts in the session's and season's
    standings of all formats and in the session's settle-up, like a game's."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        PAID_OUT = "paid_out", _("Paid out")
        REFUNDED = "refunded", _("Refunded")

    # An account with nothing in it goes with its night (its holder, a tournament, keeps the
    # night from going); one with entries keeps the night (``undo.session_delete``).
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="accounts")
    book = models.OneToOneField(Book, on_delete=models.PROTECT, related_name="session_account")
    name = models.CharField(max_length=100)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name} of {self.session}"


class Game(models.Model):
    """One format instance at a table, played under one preset version."""

    class Status(models.TextChoices):
        OPEN = "open", _("In play")
        FINISHED = "finished", _("Finished")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    # What the game posts (its players', its pot's and the club's accounts) is in its book.
    book = models.OneToOneField(Book, on_delete=models.PROTECT, related_name="game")
    format = models.CharField(max_length=16, choices=GameFormat.choices)
    preset = models.ForeignKey(RulePreset, on_delete=models.PROTECT, related_name="games")
    point_value_minor = models.PositiveIntegerField(
        default=0, help_text="Money per point in minor units (points rummy); 0 plays for points."
    )
    entry_fee_minor = models.PositiveIntegerField(
        default=0, help_text="Entry fee in minor units (pool, deals)."
    )
    qualifiers = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A knock-out table: how many of its players go on (a pool ends once only they "
        "are left in); it holds no money of its own (the tournament's purse does).",
    )
    breaks_tie = models.BooleanField(
        default=False,
        help_text="A tournament's tie-breaker: one deal between the tied players, ending when it "
        "counts; its points decide the tie only (not in a night's or season's standings).",
    )

    class End(models.TextChoices):
        PLAYED_OUT = "played_out", "Played out"
        BY_ORGANISER = "by_organiser", "Finished by the organiser"
        SPLIT = "split", "Prize split"
        ABANDONED = "abandoned", "Abandoned, pot refunded"

    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    end = models.CharField(
        max_length=16,
        choices=End.choices,
        blank=True,
        default="",
        db_default="",
        help_text="How it ended.",
    )
    # The club's games are listed by it (through table and session), so indexed alone.
    updated_at = updated_at_field(db_index=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.get_format_display()} #{self.pk}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)
    left_after_deal = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The last deal the player sat in, once they left the table.",
    )
    place = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The player's final place as an imported result gave it (a pool or deals "
        "game of the past, which holds no deals); empty for a game played here.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_once"),
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_once"),
        ]
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.player} at {self.position}"


class Deal(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for a result")
        AWAITING_CONFIRMATION = "awaiting_confirmation", _("Waiting for confirmation")
        FINAL = "final", _("Counted")
        VOID = "void", _("Voided, never played")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    wild = models.CharField(
        max_length=8, blank=True, help_text="The cut card (e.g. QH, or JK: aces wild)."
    )
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.OPEN)
    is_tiebreaker = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = updated_at_field(db_index=True)  # the club's deals are listed by it

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_number_unique"),
        ]
        ordering = ["game_id", "number"]

    def __str__(self) -> str:
        return f"Deal {self.number} of game #{self.game_id}"


class Submission(models.Model):
    """One version of a deal's result as entered. Never edited: a correction is a new version."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for validation")
        REJECTED = "rejected", _("Rejected")
        AWAITING_CONFIRMATION = "awaiting_confirmation", _("Valid, waiting for confirmation")
        ACCEPTED = "accepted", _("Accepted")
        SUPERSEDED = "superseded", _("Superseded by a later version")
        VOIDED = "voided", _("Voided with its deal")

    class Source(models.TextChoices):
        WEB = "web", _("Web page")
        API = "api", "API"
        # A seat of the table entering from a phone through the table's link (page or API).
        TABLE = "table", _("Table link")
        IMPORT = "import", _("Import")

    # The unique (deal, version) index serves the deal foreign key.
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="submissions", db_index=False
    )
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.PENDING)
    source = models.CharField(max_length=8, choices=Source.choices)
    payload = models.JSONField(help_text="The result as entered.")
    result = models.JSONField(null=True, blank=True, help_text="Points as the rules computed them.")
    reasons = models.JSONField(default=list, blank=True, help_text="Why it was rejected.")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        db_index=False,
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    validated_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    superseded_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", db_index=False
    )
    # Entered at the table: the link it came through and the seat the entrant said they are.
    table_link = models.ForeignKey(
        "TableLink",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="submissions",
        db_index=False,
    )
    entered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat that confirmed it through the table link."
    )
    # The devices (phones) it was entered and confirmed on: each phone that opens a table link
    # keeps a random id of its own (``table_links.device_of``); empty at the desk.
    entered_device = models.CharField(max_length=32, blank=True, default="", db_default="")
    confirmed_device = models.CharField(max_length=32, blank=True, default="", db_default="")
    disputed_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    dispute = models.CharField(
        max_length=300, blank=True, default="", db_default="", help_text="Why a seat disputed it."
    )
    disputed_at = models.DateTimeField(null=True, blank=True)
    updated_at = updated_at_field(db_index=True)  # as deals

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "version"], name="submission_version_unique"),
            models.UniqueConstraint(
                fields=["deal"],
                condition=Q(status="accepted"),
                name="submission_one_accepted_per_deal",
            ),
            models.UniqueConstraint(
                fields=["deal"],
                condition=Q(status="awaiting_confirmation"),
                name="submission_one_awaiting_per_deal",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "submitted_at"], name="submission_status_time"),
        ]
        ordering = ["deal_id", "version"]

    def __str__(self) -> str:
        return f"v{self.version} of {self.deal}"


class TableEntry(models.TextChoices):
    """Whether a table's players enter their own results through its table link, and whether
    an entry then waits for another player of the table (or a director) to confirm it."""

    OFF = "off", _("Off: the director enters every result")
    CONFIRM = (
        "confirm",
        _("On: another player of the table confirms each entry, on their own phone"),
    )
    ONE_PHONE = (
        "one_phone",
        _(
            "On, one phone per table: another player confirms each entry, "
            "on the same phone if need be"
        ),
    )
    TRUSTED = "trusted", _("On, trusted: an entry counts once it checks out")


class TableLink(models.Model):
    """A table's own entry link (shown as a QR code): whoever holds it may enter and confirm
    that table's deals, and nothing else. Only a digest of its token is stored; the token is
    derived from ``nonce`` with the server's secret key, so the desk can show the QR code again
    (``scoring.table_links``). It stops working when revoked, and answers "gone" once every
    game at its table has ended or the night is closed."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="links")
    mode = models.CharField(
        max_length=12,
        choices=[(c.value, c.label) for c in TableEntry if c != TableEntry.OFF],
        default=TableEntry.CONFIRM,
        help_text="Whether an entry through this link waits for another seat's confirmation.",
    )
    nonce = models.CharField(max_length=32)
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(revoked_at__isnull=True), name="table_link_one_live"
            )
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"link of {self.table}"


class PlayerResult(models.Model):
    """One player's line of a counted submission (outcome and points), for standings and history.

    Written with the submission's postings; rows of a version that is later superseded stay, and
    reads keep only those whose submission is accepted."""

    # Indexes: the composite ones below cover submission, session and player lookups.
    submission = models.ForeignKey(
        Submission, on_delete=models.CASCADE, related_name="player_results", db_index=False
    )
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="player_results")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="player_results")
    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="player_results", db_index=False
    )
    entry = models.ForeignKey(
        "ledger.LedgerEntry",
        on_delete=models.PROTECT,
        null=True,
        related_name="player_results",
        help_text="The ledger entry that counted this result (reversed when it is replaced).",
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="results", db_index=False
    )
    outcome = models.CharField(max_length=24)
    points = models.IntegerField()
    won = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "player"], name="player_result_once_per_submission"
            )
        ]
        indexes = [
            models.Index(fields=["session", "player"], name="player_result_session"),
            models.Index(fields=["player", "deal"], name="player_result_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.outcome} {self.points}"


class StandingScope(models.TextChoices):
    GAME = "game", "Game"
    SESSION = "session", "Session"
    SEASON = "season", "Season"


class StandingRow(models.Model):
    """A player's running totals in one scope (a game, a session, a season), kept in step with
    the ledger in the same transaction, so a standings request reads one row per player whatever
    the history. Always equal to ``standings.recompute.standings_recompute``.

    A season also has a row per game format the player played in it (``game_format`` set), since
    a rummy point and a Rummikub score are not the same unit; the row of all formats has it
    empty, as do game and session rows."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    scope = models.CharField(max_length=8, choices=StandingScope.choices)
    scope_id = models.BigIntegerField()
    game_format = models.CharField(
        max_length=16, choices=GameFormat.choices, blank=True, default="", db_default=""
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    points = models.BigIntegerField(default=0)
    chips = models.BigIntegerField(default=0)
    money_minor = models.BigIntegerField(default=0)
    deals_played = models.IntegerField(default=0)
    deals_won = models.IntegerField(default=0)
    drops = models.IntegerField(default=0)
    full_counts = models.IntegerField(default=0)
    points_conceded = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "scope_id", "game_format", "player"],
                name="standing_row_unique_by_format",
            )
        ]
        indexes = [
            # The default order (points, then deals won) reads a page without sorting everyone.
            models.Index(
                "scope", "scope_id", "game_format", F("points").desc(), F("deals_won").desc(),
                name="standing_row_format_points",
            ),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.scope} {self.scope_id} {self.player_id}: {self.points}"


#: Game formats rated together (``rules.families``, the one list of them) as model choices.
GameFamily = models.TextChoices("GameFamily", [(f.name, (f.value, f.label)) for f in Family])


class TransferPaid(models.Model):
    """A settle-up transfer marked paid: who marked it and when, and the amount it was for (the
    settle-up can change after a correction; a mark for another amount no longer counts)."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="transfers_paid")
    payer = models.CharField(max_length=40, help_text="player:<id>, club or pot:<game id>")
    payee = models.CharField(max_length=40)
    amount_minor = models.BigIntegerField()
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    marked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "payer", "payee"], name="transfer_paid_once")
        ]

    def __str__(self) -> str:
        return f"{self.payer} -> {self.payee}: {self.amount_minor}"
