from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from clubs.models import (
    CURRENCY_PLACES,
    TIMEZONES,
    Club,
    Invitation,
    Membership,
    Player,
    Role,
)
from config.money import money_withheld


class ClubOutput(serializers.ModelSerializer[Club]):
    role = serializers.SerializerMethodField(help_text="The caller's role in this club.")

    class Meta:
        model = Club
        fields = [
            "slug", "name", "currency", "timezone", "public_standings",
            "requires_confirmation", "table_entry", "points_only", "language", "created_at",
            "role",
        ]  # fmt: skip

    def to_representation(self, instance: Club) -> dict:
        data = super().to_representation(instance)
        # A club that plays for points only shows no money: its currency is null too.
        return money_withheld(data) if instance.points_only else data

    def get_role(self, club: Club) -> str | None:
        return getattr(club, "caller_role", None)


class TimezoneField(serializers.CharField):
    """An IANA time zone name, checked against the zone data the server has. A plain string in
    the schema: its 599 names as an enum break generated clients (``Etc/GMT+1`` and ``Etc/GMT-1``,
    ``GMT0`` and ``GMT-0`` become one identifier)."""

    default_error_messages = {"unknown": "unknown time zone '{input}'"}

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault(
            "help_text", "An IANA time zone name, e.g. Asia/Kolkata or Europe/London."
        )
        super().__init__(**kwargs)  # type: ignore[arg-type]

    def to_internal_value(self, data: object) -> str:
        value = super().to_internal_value(data)
        if value not in KNOWN_TIMEZONES:
            self.fail("unknown", input=value)
        return value


KNOWN_TIMEZONES = frozenset(TIMEZONES)
LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]
LANGUAGE_HELP = (
    "The language of the club's pages, public pages, table links and mails for whoever has not "
    f"chosen their own: {', '.join(LANGUAGE_CODES)}, or empty for each visitor's browser's."
)


class ClubCreateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60, required=False)
    currency = serializers.ChoiceField(choices=sorted(CURRENCY_PLACES), default="INR")
    timezone = TimezoneField(default="UTC")
    public_standings = serializers.BooleanField(default=False)
    requires_confirmation = serializers.BooleanField(default=False)
    table_entry = serializers.ChoiceField(
        choices=["off", "confirm", "one_phone", "trusted"], default="off",
        help_text="Whether the tables of a night enter their own results through a table link: "
        "off, confirm (another player of the table confirms each entry, on another phone), "
        "one_phone (the same, on the same phone if need be) or trusted.",
    )  # fmt: skip
    points_only = serializers.BooleanField(
        default=False,
        help_text="Play for points only: no money shown anywhere (every money field of the "
        "club's answers is null) and no money taken in (point values, fees, prizes).",
    )
    language = serializers.ChoiceField(
        choices=["", *LANGUAGE_CODES], default="", help_text=LANGUAGE_HELP
    )


class ClubUpdateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=120, required=False)
    slug = serializers.SlugField(max_length=60, required=False)
    currency = serializers.ChoiceField(choices=sorted(CURRENCY_PLACES), required=False)
    timezone = TimezoneField(required=False)
    public_standings = serializers.BooleanField(required=False)
    requires_confirmation = serializers.BooleanField(required=False)
    table_entry = serializers.ChoiceField(
        choices=["off", "confirm", "one_phone", "trusted"], required=False
    )
    points_only = serializers.BooleanField(
        required=False, help_text="Play for points only: no money shown anywhere."
    )
    language = serializers.ChoiceField(
        choices=["", *LANGUAGE_CODES], required=False, help_text=LANGUAGE_HELP
    )


class MembershipOutput(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "created_at", "updated_at"]


class MembershipCreateInput(serializers.Serializer[dict]):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Role.choices)


class MembershipRequestOutput(serializers.Serializer[dict]):
    username = serializers.CharField()
    role = serializers.CharField()
    status = serializers.CharField(help_text="Always `invited`, whoever the username names.")


class InvitationReceivedOutput(serializers.ModelSerializer[Invitation]):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    club_name = serializers.CharField(source="club.name")
    invited_by = serializers.CharField(source="created_by.username")

    class Meta:
        model = Invitation
        fields = ["id", "club", "club_name", "role", "invited_by", "created_at", "expires_at"]


class MembershipJoinedOutput(serializers.ModelSerializer[Membership]):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "club", "role", "created_at"]


class MembershipUpdateInput(serializers.Serializer[dict]):
    role = serializers.ChoiceField(choices=Role.choices)


class PlayerOutput(serializers.ModelSerializer[Player]):
    username = serializers.CharField(source="user.username", default=None, allow_null=True)

    class Meta:
        model = Player
        fields = [
            "id", "name", "username", "active", "created_at", "updated_at", "merged_into",
            "upi_id", "payment_link",
        ]  # fmt: skip


class PlayerCreateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=80)
    username = serializers.CharField(
        max_length=150,
        required=False,
        allow_null=True,
        help_text="Link to the account of this member of the club.",
    )


class PlayerUpdateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=80, required=False)
    username = serializers.CharField(
        max_length=150,
        required=False,
        allow_null=True,
        help_text="Link to the account of this member of the club (null unlinks).",
    )
    active = serializers.BooleanField(required=False)
    upi_id = serializers.CharField(
        max_length=300, required=False, allow_blank=True,
        help_text="The player's UPI id (name@handle), where settle-up payments to them go; "
        "empty removes it. The player themself may change it, as an organiser may.",
    )  # fmt: skip
    payment_link = serializers.CharField(
        max_length=500, required=False, allow_blank=True,
        help_text="An https:// link that takes a payment to the player; empty removes it. The "
        "player themself may change it, as an organiser may.",
    )  # fmt: skip
