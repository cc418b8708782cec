from __future__ import annotations

from rest_framework import serializers

from clubs.models import (
    CURRENCY_PLACES,
    TIMEZONES,
    ApiToken,
    Club,
    Invitation,
    Membership,
    Player,
    Role,
)


class ClubOutput(serializers.ModelSerializer[Club]):
    role = serializers.SerializerMethodField(help_text="The caller's role in this club.")

    class Meta:
        model = Club
        fields = [
            "slug", "name", "currency", "timezone", "public_standings",
            "requires_confirmation", "table_entry", "created_at", "role",
        ]  # fmt: skip

    def get_role(self, club: Club) -> str | None:
        return getattr(club, "caller_role", None)


_UNKNOWN_TIMEZONE = {"invalid_choice": "unknown time zone '{input}'"}


class ClubCreateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60, required=False)
    currency = serializers.ChoiceField(choices=sorted(CURRENCY_PLACES), default="INR")
    timezone = serializers.ChoiceField(
        choices=TIMEZONES, default="UTC", error_messages=_UNKNOWN_TIMEZONE
    )
    public_standings = serializers.BooleanField(default=False)
    requires_confirmation = serializers.BooleanField(default=False)
    table_entry = serializers.ChoiceField(
        choices=["off", "confirm", "trusted"], default="off",
        help_text="Whether the tables of a night enter their own results through a table link: "
        "off, confirm (another player of the table confirms each entry) or trusted.",
    )  # fmt: skip


class ClubUpdateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=120, required=False)
    slug = serializers.SlugField(max_length=60, required=False)
    currency = serializers.ChoiceField(choices=sorted(CURRENCY_PLACES), required=False)
    timezone = serializers.ChoiceField(
        choices=TIMEZONES, required=False, error_messages=_UNKNOWN_TIMEZONE
    )
    public_standings = serializers.BooleanField(required=False)
    requires_confirmation = serializers.BooleanField(required=False)
    table_entry = serializers.ChoiceField(choices=["off", "confirm", "trusted"], required=False)


class MembershipOutput(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "created_at"]


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
        fields = ["id", "name", "username", "active", "created_at", "merged_into"]


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


class ApiTokenOutput(serializers.ModelSerializer[ApiToken]):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "last_used_at", "revoked_at"]


class ApiTokenCreatedOutput(ApiTokenOutput):
    key = serializers.CharField(help_text="Shown only once: store it now.")

    class Meta(ApiTokenOutput.Meta):
        fields = [*ApiTokenOutput.Meta.fields, "key"]


class ApiTokenCreateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=80)
