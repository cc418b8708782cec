from __future__ import annotations

import re
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from config.change_times import updated_at_field

# ISO 4217 currencies a club may keep its money in, with the number of minor-unit places.
CURRENCY_PLACES: dict[str, int] = {
    "INR": 2, "USD": 2, "EUR": 2, "GBP": 2, "ILS": 2, "AUD": 2, "CAD": 2, "NZD": 2, "SGD": 2,
    "AED": 2, "CHF": 2, "SEK": 2, "NOK": 2, "DKK": 2, "PLN": 2, "ZAR": 2, "HKD": 2, "MYR": 2,
    "JPY": 0, "KRW": 0, "BHD": 3, "KWD": 3, "OMR": 3,
}  # fmt: skip


def validate_currency(value: str) -> None:
    if value not in CURRENCY_PLACES:
        raise ValidationError(
            gettext("unknown currency %(currency)s; use one of %(currencies)s")
            % {"currency": repr(value), "currencies": ", ".join(sorted(CURRENCY_PLACES))}
        )


# The IANA names this machine's time zone data knows (what validation and the API schema offer).
TIMEZONES = sorted(zoneinfo.available_timezones())


def validate_timezone(value: str) -> None:
    if value not in TIMEZONES:
        raise ValidationError(gettext("unknown time zone %(zone)s") % {"zone": repr(value)})


# A UPI id (virtual payment address) as NPCI shapes it: 2-256 characters of letters, digits,
# dots, hyphens or underscores, "@", and the payment app's handle (letters and digits).
UPI_ID_SHAPE = re.compile(r"[A-Za-z0-9._-]{2,256}@[A-Za-z0-9]+")


def validate_upi_id(value: str) -> None:
    if not UPI_ID_SHAPE.fullmatch(value):
        raise ValidationError(
            gettext(
                "%(value)s is not a UPI id: it reads name@bank, e.g. asha.k@okhdfc (2-256 "
                "letters, digits, dots, hyphens or underscores, @, then the handle's letters "
                "and digits)"
            )
            % {"value": repr(value)}
        )


def validate_payment_link(value: str) -> None:
    # Only https: a payer's phone opens it, and a plain-http or javascript: link is no place to pay.
    message = gettext("%(value)s is not an https:// link") % {"value": repr(value)}
    URLValidator(schemes=["https"], message=message)(value)


# A phone number as kept: an optional "+" and 6 to 15 digits (E.164's most), the spaces, dashes,
# dots and brackets people type taken out (``phone_kept``), so that a search by digits finds it.
PHONE_SHAPE = re.compile(r"\+?[0-9]{6,15}")
_PHONE_PUNCTUATION = re.compile(r"[\s().\-/]")


def phone_kept(value: str) -> str:
    """``value`` as a phone number is kept: without the spaces, dashes, dots and brackets."""
    return _PHONE_PUNCTUATION.sub("", str(value))


def validate_phone(value: str) -> None:
    if not PHONE_SHAPE.fullmatch(value):
        raise ValidationError(
            gettext(
                "%(value)s is not a phone number: 6 to 15 digits, with a + before a country code"
            )
            % {"value": repr(value)}
        )


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    ORGANISER = "organiser", _("Organiser")
    SCORER = "scorer", _("Scorer")
    PLAYER = "player", _("Player")


def role_word(role: str) -> str:
    """A role's name inside a sentence, in the active language: lower case ("an organiser"),
    but German keeps a noun's capital."""
    label = str(Role(role).label)
    return label if get_language() == "de" else label.lower()


# Higher rank, more rights: an owner can do what an organiser can, and so on.
ROLE_RANK: dict[str, int] = {Role.PLAYER: 1, Role.SCORER: 2, Role.ORGANISER: 3, Role.OWNER: 4}


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    currency = models.CharField(max_length=3, default="INR", validators=[validate_currency])
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    public_standings = models.BooleanField(
        default=False, help_text="Show standings to anyone, without login."
    )
    standings_metrics = models.JSONField(
        default=list,
        blank=True,
        help_text="Metric ids, in order, that rank the standings (empty: the default order).",
    )
    requires_confirmation = models.BooleanField(
        default=False,
        help_text="An accepted deal counts only after a second person confirms it.",
    )
    table_entry = models.CharField(
        max_length=12,
        choices=[
            ("off", _("Off: the director enters every result")),
            (
                "confirm",
                _("On: another player of the table confirms each entry, on their own phone"),
            ),
            (
                "one_phone",
                _(
                    "On, one phone per table: another player confirms each entry, "
                    "on the same phone if need be"
                ),
            ),
            ("trusted", _("On, trusted: an entry counts once it checks out")),
        ],
        default="off",
        db_default="off",
        help_text="Whether the tables of a night enter their own results through a table link.",
    )
    points_only = models.BooleanField(
        default=False,
        db_default=False,
        help_text="Play for points only: no money shown anywhere (where stakes are not allowed).",
    )
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        default="",
        db_default="",
        help_text="The language of the club's pages, public pages, table links and mails for "
        "whoever has not chosen their own (empty: each visitor's browser's).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def minor_places(self) -> int:
        return CURRENCY_PLACES[self.currency]


class LanguageChoice(models.Model):
    """The language a person chose for their account, whatever the club or the device."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = updated_at_field()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_one_per_user_club"),
            models.CheckConstraint(
                condition=models.Q(role__in=[r.value for r in Role]), name="membership_role_known"
            ),
        ]
        ordering = ["club_id", "user_id"]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} as {self.role}"


class Player(models.Model):
    """A club's roster entry; optionally the account of the person it is."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    merged_into = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="merged_from",
        help_text="The player this duplicate entry was merged into: its history is theirs now.",
    )
    updated_at = updated_at_field()
    upi_id = models.CharField(
        "UPI id",
        max_length=300,
        blank=True,
        default="",
        db_default="",
        validators=[validate_upi_id],
        help_text="Where a payer's UPI app sends their money, e.g. asha.k@okhdfc.",
    )
    payment_link = models.CharField(
        "payment link",
        max_length=500,
        blank=True,
        default="",
        db_default="",
        validators=[validate_payment_link],
        help_text="Any https:// page that takes a payment to this player (any currency).",
    )
    nickname = models.CharField(
        max_length=40, blank=True, default="", db_default="", help_text="What the club calls them."
    )
    email = models.EmailField(max_length=254, blank=True, default="", db_default="")
    phone = models.CharField(
        max_length=16,
        blank=True,
        default="",
        db_default="",
        validators=[validate_phone],
        help_text="Digits with an optional + and country code, e.g. +919845012345.",
    )
    membership_number = models.CharField(
        "membership number",
        max_length=40,
        blank=True,
        default="",
        db_default="",
        help_text="The club's own number for the player; one player each.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "membership_number"],
                condition=~models.Q(membership_number=""),
                name="player_membership_number_unique_in_club",
            ),
            models.UniqueConstraint("club", Lower("name"), name="player_name_unique_in_club_ci"),
            models.CheckConstraint(
                condition=~models.Q(merged_into=models.F("pk")), name="player_not_merged_into_self"
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="player_one_per_user_in_club",
            ),
        ]
        indexes = [models.Index(fields=["club", "updated_at"], name="player_club_updated")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ApiToken(models.Model):
    """A revocable key a score app sends as ``Authorization: Token <key>``.

    Only a SHA-256 digest of the key is stored; the key is shown once, when created. Its
    ``scope`` says what it may do and in which clubs, as an OAuth2 token's does
    (``clubs.signin.scopes``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=80)
    prefix = models.CharField(max_length=8, help_text="First characters, to tell keys apart.")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    scope = models.TextField(
        default="",
        blank=True,
        help_text="Scopes and clubs, space-separated, e.g. 'read score club:12'.",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class Invitation(models.Model):
    """An invitation to join a club with a role: sent to an email address, handed out as a link,
    or made out to an account by its username (accepted by that account from its home page); it
    works once, until it expires. Only a digest of its key is stored."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=16, choices=Role.choices)
    email = models.EmailField(blank=True, help_text="Where it was sent; blank for a link.")
    username = models.CharField(
        max_length=150, blank=True, help_text="The account it was made out to, as typed."
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations_received",
        help_text="That account, when it existed (none: nobody can accept it).",
    )
    digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.club_id} {self.role} ({self.email or self.username or 'link'})"


class AuditEntry(models.Model):
    """One state change: who did what to which object, with the state before and after."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    action = models.CharField(max_length=64)
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "-created_at"], name="audit_club_time")]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} {self.object_type}#{self.object_id}"


class IdempotentRequest(models.Model):
    """A write sent with an ``Idempotency-Key`` header and the answer it got, so a retry of the
    same request gets the same answer instead of doing the work twice."""

    identity = models.CharField(max_length=80, help_text="Who sent it (token digest or user).")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64, help_text="Method, path and body, hashed.")
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    location = models.CharField(max_length=500, blank=True)
    body = models.BinaryField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    claimed_at = models.DateTimeField(
        null=True, help_text="When the request now holding the key started (unanswered keys)."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["identity", "key"], name="idempotency_key_unique")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status_code or 'in progress'})"


class SpentAuthorizationCode(models.Model):
    """An OAuth2 authorization code already traded for tokens. The same code traded again is
    refused and revokes the tokens it gave (RFC 6749 section 4.1.2: a code seen twice may have
    been stolen). Only a SHA-256 digest of the code is kept; rows older than the refresh
    tokens' lifetime are pruned, since nothing issued from them is still alive."""

    digest = models.CharField(max_length=64, unique=True)
    client_id = models.CharField(max_length=255, help_text="The app the code was issued to.")
    token_family = models.UUIDField(
        null=True, help_text="The refresh token it gave, and every rotation of it since."
    )
    spent_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"code spent by {self.client_id} at {self.spent_at:%Y-%m-%d %H:%M}"


class Tombstone(models.Model):
    """A synced row that is gone: deleted, or (a player) merged into another. Written by the
    database in the transaction that deletes or merges (``config.tombstones``), whatever the
    write path, so an app's incremental sync learns of it (docs/api.md)."""

    class Resource(models.TextChoices):
        PLAYER = "player", "Player"
        MEMBER = "member", "Member"
        SESSION = "session", "Night"
        GAME = "game", "Game"
        DEAL = "deal", "Deal"
        SUBMISSION = "submission", "Submission"
        TOURNAMENT = "tournament", "Tournament"
        ENTRY = "entry", "Tournament entry"

    class Kind(models.TextChoices):
        DELETED = "deleted", "Deleted"
        MERGED = "merged", "Merged into another"

    # No database constraint: a club's own deletion writes its rows' tombstones as it goes.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    resource = models.CharField(max_length=12, choices=Resource.choices)
    resource_id = models.BigIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    merged_into = models.BigIntegerField(
        null=True, blank=True, help_text="The player a merged player's history went to."
    )
    updated_at = models.DateTimeField(
        default=timezone.now, help_text="When the row was deleted or merged."
    )

    class Meta:
        indexes = [models.Index(fields=["club", "updated_at"], name="tombstone_club_updated")]
        ordering = ["updated_at", "id"]

    def __str__(self) -> str:
        return f"{self.resource} #{self.resource_id} {self.kind}"
