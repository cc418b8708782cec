from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from clubs.models import (
    CURRENCY_PLACES,
    TIMEZONES,
    Club,
    Invitation,
    Membership,
    Player,
    Role,
    Tombstone,
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

    default_error_messages = {"unknown": gettext_lazy("unknown time zone '{input}'")}

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
            "upi_id", "payment_link", "nickname", "email", "phone", "membership_number",
        ]  # fmt: skip


class TombstoneOutput(serializers.ModelSerializer[Tombstone]):
    resource = serializers.ChoiceField(
        choices=Tombstone.Resource.choices, help_text="The list the row was in."
    )
    resource_id = serializers.IntegerField(help_text="The id the row had in its list.")
    kind = serializers.ChoiceField(choices=Tombstone.Kind.choices)
    merged_into = serializers.IntegerField(
        allow_null=True, help_text="A merged player: the player who holds their history now."
    )
    updated_at = serializers.DateTimeField(help_text="When the row was deleted or merged.")

    class Meta:
        model = Tombstone
        fields = ["id", "resource", "resource_id", "kind", "merged_into", "updated_at"]


class PlayerDetailsInput(serializers.Serializer[dict]):
    """A player's contact details and membership number (empty removes one)."""

    nickname = serializers.CharField(max_length=40, required=False, allow_blank=True)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True)
    phone = serializers.CharField(
        max_length=40, required=False, allow_blank=True,
        help_text="6 to 15 digits, with a + before a country code; spaces, dashes and brackets "
        "are taken out (+91 98450-12345 is kept as +919845012345).",
    )  # fmt: skip
    membership_number = serializers.CharField(
        max_length=40, required=False, allow_blank=True,
        help_text="The club's own number for the player: no two players share one.",
    )  # fmt: skip


class PlayerCreateInput(PlayerDetailsInput):
    name = serializers.CharField(max_length=80)
    username = serializers.CharField(
        max_length=150,
        required=False,
        allow_null=True,
        help_text="Link to the account of this member of the club.",
    )


class PlayerUpdateInput(PlayerDetailsInput):
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


class PlayerImportPreviewInput(serializers.Serializer[dict]):
    """A sheet to preview: its text (a CSV file's or a pasted list's), or a file as base64."""

    text = serializers.CharField(
        required=False, allow_blank=False, trim_whitespace=False, max_length=512 * 1024,
        help_text="A CSV text whose first row names the columns (one of them name), cells "
        "copied from a spreadsheet with their header row, or a list of names, one a line or "
        "with commas between them.",
    )  # fmt: skip
    file_base64 = serializers.CharField(
        required=False, max_length=700_000,
        help_text="A CSV or XLSX file, base64-encoded (at most 512 KB before encoding).",
    )  # fmt: skip
    filename = serializers.CharField(
        required=False, max_length=200, default="",
        help_text="The file's name: its ending (.csv or .xlsx) says what it is.",
    )  # fmt: skip


class ImportMatchOutput(serializers.Serializer[dict]):
    player = serializers.IntegerField(help_text="The roster player's id.")
    name = serializers.CharField()
    reasons = serializers.ListField(child=serializers.CharField(), help_text="Strongest first.")
    strong = serializers.BooleanField(help_text="Same name, email, phone or membership number.")


class ImportRowValues(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=200, allow_blank=True)
    nickname = serializers.CharField(max_length=200, required=False, allow_blank=True)
    email = serializers.CharField(max_length=400, required=False, allow_blank=True)
    phone = serializers.CharField(max_length=100, required=False, allow_blank=True)
    membership_number = serializers.CharField(max_length=200, required=False, allow_blank=True)
    upi_id = serializers.CharField(max_length=400, required=False, allow_blank=True)


IMPORT_CHOICES = ["merge", "new", "skip"]


class ImportRowOutput(serializers.Serializer[dict]):
    row = serializers.IntegerField(help_text="The row's number in the sheet (its header is 1).")
    values = ImportRowValues(help_text="The row as it will be stored.")
    errors = serializers.DictField(
        child=serializers.CharField(), help_text="What is wrong, by column; such a row is skipped."
    )
    matches = ImportMatchOutput(many=True, help_text="Roster players this row may be.")
    choice = serializers.ChoiceField(choices=IMPORT_CHOICES, help_text="The default choice.")
    merge_into = serializers.IntegerField(allow_null=True)
    choices = serializers.ListField(child=serializers.ChoiceField(choices=IMPORT_CHOICES))
    fills = serializers.DictField(
        child=serializers.CharField(), help_text="What a merge fills in the player's empty fields."
    )


class PlayerImportPreviewOutput(serializers.Serializer[dict]):
    columns = serializers.ListField(child=serializers.CharField(), help_text="The columns found.")
    ignored = serializers.ListField(child=serializers.CharField(), help_text="Headers left out.")
    notes = serializers.ListField(child=serializers.CharField())
    rows = ImportRowOutput(many=True)


class ImportRowInput(ImportRowValues):
    row = serializers.IntegerField(min_value=1, max_value=1_000_000)
    choice = serializers.ChoiceField(choices=IMPORT_CHOICES)
    merge_into = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1,
        help_text="For a merge: the id of one of the players the row matches.",
    )  # fmt: skip


class PlayerImportInput(serializers.Serializer[dict]):
    rows = ImportRowInput(many=True, help_text="The preview's rows, each with its choice.")

    def validate_rows(self, rows: list[dict]) -> list[dict]:
        if not rows:
            raise serializers.ValidationError(_("give at least one row"))
        if len(rows) > 2000:
            raise serializers.ValidationError(_("at most 2000 rows at once"))
        return rows


class PlayerImportOutput(serializers.Serializer[dict]):
    created = PlayerOutput(many=True)
    merged = PlayerOutput(many=True, help_text="Players whose empty fields the import filled.")
    unchanged = serializers.IntegerField(help_text="Rows of players who had it all already.")
    skipped = serializers.IntegerField()
