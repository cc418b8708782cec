from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.fields import id_field, int32_field
from config.openapi import PageOutput, ReasonOutput
from ledger.models import LedgerEntry, Quantity
from scoring.formats import (
    format_tagged,
    payload_fields,
    payload_keys,
    payload_union,
    preset_params_schema,
    result_outcomes,
    result_union,
    state_union,
    variants,
)
from scoring.models import Deal, Game, GameFormat, RulePreset, Seat, Session, Submission, Table

#: A preset's settings by section: each format's own, then the common ones (``fee``, ``table``).
PresetParamsSchema = preset_params_schema(
    fee=serializers.DictField(required=False), table=serializers.DictField(required=False)
)


@extend_schema_field(PresetParamsSchema)
class PresetParamsField(serializers.DictField):
    """A preset's ``params``: read as an object here, checked section by section by the rules
    engine (``scoring.preset_rules``), typed in the schema."""


class PresetOutput(serializers.ModelSerializer[RulePreset]):
    variant = serializers.ChoiceField(choices=variants())
    params = PresetParamsField()
    builtin = serializers.SerializerMethodField()

    class Meta:
        model = RulePreset
        fields = ["id", "key", "version", "name", "format", "variant", "params", "builtin"]

    def get_builtin(self, preset: RulePreset) -> bool:
        return preset.club_id is None


class PresetCreateInput(serializers.Serializer[dict]):
    key = serializers.SlugField(max_length=60)
    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=GameFormat.choices)
    variant = serializers.ChoiceField(choices=variants(), default=variants()[0])
    params = PresetParamsField(default=dict)


class SeatOutput(serializers.ModelSerializer[Seat]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Seat
        fields = ["player", "name", "position"]


class PresetBrief(serializers.ModelSerializer[RulePreset]):
    class Meta:
        model = RulePreset
        fields = ["id", "key", "version", "name"]


class GameOutput(serializers.ModelSerializer[Game]):
    preset = PresetBrief()
    seats = SeatOutput(many=True)
    table = serializers.IntegerField(source="table_id")

    class Meta:
        model = Game
        fields = [
            "id", "table", "format", "preset", "status", "point_value_minor", "entry_fee_minor",
            "started_at", "finished_at", "updated_at", "seats",
        ]  # fmt: skip


class TableOutput(serializers.ModelSerializer[Table]):
    games = GameOutput(many=True)

    class Meta:
        model = Table
        fields = ["id", "name", "games"]


class SessionOutput(serializers.ModelSerializer[Session]):
    table_count = serializers.IntegerField(read_only=True)
    deal_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Session
        fields = [
            "id", "name", "status", "started_at", "closed_at", "updated_at", "table_count",
            "deal_count",
        ]  # fmt: skip


class SessionDetailOutput(serializers.ModelSerializer[Session]):
    tables = TableOutput(many=True)

    class Meta:
        model = Session
        fields = ["id", "name", "status", "started_at", "closed_at", "tables"]


class SessionCreateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=120)
    started_at = serializers.DateTimeField(required=False)


class TableCreateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=40, required=False)


class GameCreateInput(serializers.Serializer[dict]):
    preset = id_field(help_text="Id of a preset the club can use.")
    players = serializers.ListField(
        child=id_field(), min_length=2, max_length=100, help_text="Player ids in seat order."
    )
    point_value_minor = int32_field(min_value=0, required=False)
    entry_fee_minor = int32_field(min_value=0, required=False)


class SeatCreateInput(serializers.Serializer[dict]):
    player = id_field()


class ResultFields(serializers.Serializer[dict]):
    """A deal's result: ``results`` per player (Indian rummy), or ``racks`` (Rummikub)."""

    # The docstring is the schema's description. The fields besides the wild joker are every
    # format's own (``scoring.formats.payload_fields``), side by side.

    wild = serializers.CharField(
        max_length=8, required=False, allow_blank=True, help_text="The cut card, e.g. QH or JK."
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        return {"wild": fields.pop("wild"), **payload_fields(), **fields}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        keys = payload_keys()
        named = [f"{key} ({family})" for key, family in keys]
        given = [key for key, _ in keys if key in attrs]
        if len(given) > 1:
            either = " or ".join([named[0], *(key for key, _ in keys[1:])])
            raise serializers.ValidationError(f"give {either}, not both")
        if self.require_result and not given:
            raise serializers.ValidationError(f"give {' or '.join(named)}")
        return attrs

    require_result = True


class SubmissionInput(ResultFields):
    pass


class DealCreateInput(ResultFields):
    dealer = id_field(required=False, allow_null=True)
    number = int32_field(min_value=1, required=False)
    tiebreaker = serializers.BooleanField(default=False)

    require_result = False


class DealOutput(serializers.ModelSerializer[Deal]):
    game = serializers.IntegerField(source="game_id")
    dealer = serializers.IntegerField(source="dealer_id", allow_null=True)

    class Meta:
        model = Deal
        fields = [
            "id", "game", "number", "wild", "dealer", "status", "is_tiebreaker", "created_at",
            "updated_at",
        ]  # fmt: skip


def submission_url(submission: Submission, club_slug: str) -> str:
    return reverse(
        "scoring:submission-detail",
        kwargs={"club_slug": club_slug, "submission_id": submission.pk},
    )


class FormatTaggedField(serializers.Field):
    """A submission's stored ``payload`` or ``result`` with its game's ``format`` (the key the
    schema's union of the formats' components is told apart by)."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(source="*", read_only=True, **kwargs)
        self.key = key

    def to_representation(self, submission: Submission) -> dict[str, Any] | None:
        return format_tagged(submission.deal.game.format, getattr(submission, self.key))


@extend_schema_field(payload_union())
class PayloadField(FormatTaggedField):
    pass


@extend_schema_field(result_union())
class ResultField(FormatTaggedField):
    pass


@extend_schema_field(result_union())
class TaggedResultField(serializers.JSONField):
    """A result already tagged with its ``format`` (``format_tagged``)."""


class SubmissionOutput(serializers.ModelSerializer[Submission]):
    deal = serializers.IntegerField(source="deal_id")
    format = serializers.ChoiceField(
        source="deal.game.format", choices=GameFormat.choices, read_only=True,
        help_text="The game's format: the shape of `payload` and `result`.",
    )  # fmt: skip
    payload = PayloadField("payload", help_text="The result as entered.")
    result = ResultField(
        "result", allow_null=True,
        help_text="Points as the rules computed them (null until the version checks out).",
    )  # fmt: skip
    reasons = ReasonOutput(many=True, help_text="Why it did not count (empty when it did).")
    submitted_by = serializers.CharField(
        source="submitted_by.username", default=None, allow_null=True
    )
    confirmed_by = serializers.CharField(
        source="confirmed_by.username", default=None, allow_null=True
    )
    superseded_by = serializers.IntegerField(source="superseded_by_id", allow_null=True)

    class Meta:
        model = Submission
        fields = [
            "id", "deal", "format", "version", "status", "source", "payload", "result", "reasons",
            "submitted_by", "submitted_at", "validated_at", "confirmed_by", "confirmed_at",
            "superseded_by", "table_link", "entered_seat", "confirmed_seat", "dispute",
            "disputed_seat", "disputed_at", "updated_at",
        ]  # fmt: skip


class SubmissionAccepted(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    deal = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Submission.Status.choices)
    url = serializers.URLField(help_text="The submission, to poll (also in `Location`).")


#: The game as it stands: one component per format, told apart by ``format``.
GameStateOutput = state_union()


class RejoinInput(serializers.Serializer[dict]):
    player = id_field()


class RejoinOutput(serializers.Serializer[dict]):
    player = serializers.IntegerField()
    score = serializers.IntegerField()


class SplitInput(serializers.Serializer[dict]):
    kind = serializers.ChoiceField(choices=["drops", "equal"])
    agreed = serializers.ListField(
        child=id_field(),
        min_length=1,
        max_length=12,
        help_text="Ids of the players who agree: every remaining player.",
    )


class SplitOfferOutput(serializers.Serializer[dict]):
    offers = serializers.ListField(child=serializers.ChoiceField(choices=["drops", "equal"]))
    shares_minor = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Per offer (`drops`, `equal`): player id (as a string, a JSON object's key) "
        "-> what the split would pay them, in minor units.",
    )


class SplitOutput(serializers.Serializer[dict]):
    kind = serializers.ChoiceField(choices=["drops", "equal"])
    shares_minor = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Player id (a JSON key) -> what the split paid them, in minor units.",
    )


class ScoreLineOutput(serializers.Serializer[dict]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    money_minor = serializers.IntegerField()
    chips = serializers.IntegerField()
    deals_played = serializers.IntegerField()
    deals_won = serializers.IntegerField()
    points_by_format = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Points of each game format the night counted points in (see `formats`), as "
        "the ledger counts them: a rummy point, a pool score (points given up, negative) and a "
        "Rummikub score are different units and are never added together.",
    )


class PaidMarkOutput(serializers.Serializer[dict]):
    by = serializers.CharField(source="marked_by.username")
    at = serializers.DateTimeField(source="marked_at")


class TransferOutput(serializers.Serializer[dict]):
    payer = serializers.CharField()
    payer_id = serializers.IntegerField(allow_null=True)
    payer_key = serializers.CharField(help_text='"player:<id>", "club" or "pot:<game id>".')
    payee = serializers.CharField()
    payee_id = serializers.IntegerField(allow_null=True)
    payee_key = serializers.CharField()
    amount_minor = serializers.IntegerField(allow_null=True, help_text="Null: points only.")
    # A club that plays for points only settles in points, format by format; else both null.
    points = serializers.IntegerField(allow_null=True, help_text="Points given (points only).")
    game_format = serializers.CharField(allow_null=True, help_text="Whose points (points only).")
    paid = PaidMarkOutput(allow_null=True, help_text="Marked paid (by whom, when), or null.")
    # Where to pay: the payee's UPI id as a upi://pay link (INR), their own link (docs/api.md).
    upi_uri = serializers.CharField(source="pay.upi_uri", allow_null=True, help_text="Or null.")
    payment_link = serializers.CharField(source="pay.payment_link", allow_null=True)


class TransferPaidInput(serializers.Serializer[dict]):
    payer = serializers.CharField(max_length=40, help_text="The transfer's payer_key.")
    payee = serializers.CharField(max_length=40, help_text="The transfer's payee_key.")
    paid = serializers.BooleanField(default=True)


class HeldPotOutput(serializers.Serializer[dict]):
    book = serializers.IntegerField(source="book_id", help_text="The ledger book holding it.")
    game = serializers.IntegerField(
        source="game_id", allow_null=True, help_text="None for an account of the night."
    )
    table = serializers.CharField(help_text="The game's table, or the account's name.")
    game_format = serializers.ChoiceField(
        choices=[*GameFormat.choices, ("", "An account's: no format")]
    )
    amount_minor = serializers.IntegerField()


class ColumnOutput(serializers.Serializer[dict]):
    key = serializers.CharField()
    label = serializers.CharField()
    quantity = serializers.ChoiceField(choices=Quantity.choices)
    unit = serializers.CharField()


class ScoreboardOutput(serializers.Serializer[dict]):
    session = serializers.IntegerField(source="session.pk")
    currency = serializers.CharField()
    deals_counted = serializers.IntegerField()
    club_money_minor = serializers.IntegerField()
    formats = serializers.ListField(
        child=serializers.CharField(),
        help_text="The game formats whose points the night counted, in their usual order.",
    )
    columns = ColumnOutput(many=True, help_text="The figures of a line, in the order shown.")
    pots = HeldPotOutput(
        many=True, help_text="Entry fees still held in the pot of a game not yet decided."
    )
    lines = ScoreLineOutput(many=True)


class SettlementOutput(serializers.Serializer[dict]):
    session = serializers.IntegerField()
    currency = serializers.CharField()
    transfers = TransferOutput(many=True)


class SeasonOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


#: What a line of a player's history is: a deal, or a ledger entry of another kind (a corrected
#: deal's reversal is netted into the deal's line).
HISTORY_KINDS = [kind for kind in LedgerEntry.Kind.values if kind != LedgerEntry.Kind.REVERSAL]


class HistoryLineOutput(serializers.Serializer[dict]):
    kind = serializers.ChoiceField(
        source="line.kind",
        choices=HISTORY_KINDS,
        help_text="`deal`, or the ledger entry (a fee, a rejoin, a prize, a refund, ...).",
    )
    deal = serializers.IntegerField(
        source="line.deal_id", allow_null=True, help_text="The deal's id; `null` for other kinds."
    )
    deal_number = serializers.IntegerField(
        source="line.deal_number",
        allow_null=True,
        help_text="The deal's number in its game, voided or not; `null` only for kinds but `deal`.",
    )
    deal_voided = serializers.BooleanField(
        source="line.deal_voided",
        help_text="The deal was voided: its entry and the reversal net to nothing, and it has "
        "no counted result (`version`, `outcome`, `counted` empty).",
    )
    version = serializers.IntegerField(
        source="line.version", allow_null=True, help_text="The counted version."
    )
    session = serializers.IntegerField(source="line.session_id")
    session_name = serializers.CharField(source="line.session_name")
    started_at = serializers.DateTimeField(source="line.started_at")
    season = serializers.IntegerField(source="line.season_id", allow_null=True)
    game = serializers.IntegerField(
        source="line.game_id",
        allow_null=True,
        help_text="None for a line of one of the night's accounts (a tournament's purse).",
    )
    game_format = serializers.ChoiceField(
        source="line.game_format",
        choices=[*GameFormat.choices, ("", "An account's: no format")],
        help_text="Empty for a line of an account.",
    )
    outcome = serializers.ChoiceField(
        source="line.outcome",
        choices=["", *result_outcomes()],
        help_text="The player's outcome in the counted deal (empty: other kinds, voided deals).",
    )
    counted = serializers.IntegerField(
        source="line.counted",
        allow_null=True,
        help_text="What the rules counted for the player: in Indian rummy the points against "
        "(as `against`), in Rummikub the signed score (as `points`).",
    )
    against = serializers.IntegerField(
        source="line.against",
        allow_null=True,
        help_text="Indian rummy: the points the rules counted against the player (a loser's "
        "count or drop, the winner 0); `null` in Rummikub and on lines other than a deal.",
    )
    won = serializers.BooleanField(source="line.won")
    points = serializers.IntegerField(
        source="line.points",
        help_text="The ledger's move in the format's points, signed (pool losers': to the pot).",
    )
    chips = serializers.IntegerField(source="line.chips")
    money_minor = serializers.IntegerField(source="line.money_minor")
    running_points = serializers.IntegerField(
        allow_null=True,
        help_text="The player's running points in this game format after this line.",
    )
    running_money_minor = serializers.IntegerField()


class HistoryTotalOutput(serializers.Serializer[dict]):
    deals_played = serializers.IntegerField()
    deals_won = serializers.IntegerField()
    points_by_format = serializers.DictField(child=serializers.IntegerField())
    chips = serializers.IntegerField()
    money_minor = serializers.IntegerField()


class HistorySeasonOutput(serializers.Serializer[dict]):
    season = serializers.IntegerField(source="season_id", allow_null=True)
    name = serializers.CharField()
    totals = HistoryTotalOutput()


class PlayerHistoryOutput(PageOutput):
    player = serializers.IntegerField()
    name = serializers.CharField()
    formats = serializers.ListField(
        child=serializers.CharField(),
        help_text="The game formats the player has points in, in their usual order.",
    )
    total = HistoryTotalOutput()
    seasons = HistorySeasonOutput(
        many=True, help_text="Totals per season, newest first: the season standings' figures."
    )
    results = HistoryLineOutput(
        many=True,
        help_text="A page of the player's ledger, newest first: each deal (net of corrections) "
        "and each fee, rejoin, prize, refund or settlement.",
    )


class GameEndInput(serializers.Serializer[dict]):
    end = serializers.ChoiceField(
        choices=["by_organiser", "abandoned"],
        default="by_organiser",
        help_text="`by_organiser`: close a points table or finish a Rummikub match; "
        "`abandoned`: stop a pool or deals game and refund its pot.",
    )


class CloseBlockerOutput(serializers.Serializer[dict]):
    kind = serializers.CharField(
        help_text="`deal_waiting`, `game_open`, or `account_open` (an account of the night, "
        "such as a running tournament's purse, still holds money)."
    )
    game_id = serializers.IntegerField(allow_null=True, help_text="None for an account.")
    table = serializers.CharField(help_text="The table's name, or the account's.")
    deal_id = serializers.IntegerField(allow_null=True)
    deal_number = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()
    actions = serializers.ListField(child=serializers.CharField())


# --- table links (scoring.table_links) -----------------------------------------------------------
PHONE = 'as the link names its phones, in the order they first entered or confirmed ("phone A")'


class TableLinkCreateInput(serializers.Serializer[dict]):
    mode = serializers.ChoiceField(
        choices=["confirm", "one_phone", "trusted"], required=False,
        help_text="confirm: another seat confirms each entry, on another phone; one_phone: on any "
        "phone; trusted: an entry counts once it checks out. Left out: the club's setting.",
    )  # fmt: skip


class TableLinkOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=["confirm", "one_phone", "trusted"])
    token = serializers.CharField(help_text="The link's secret: whoever holds it enters the table.")
    url = serializers.CharField(help_text="The table's own page (what its QR code opens).")
    api_url = serializers.CharField(help_text="The table's API root, for a scorer app.")
    created_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)


class TableSeatOutput(serializers.Serializer[dict]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class TableWaitingOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField(help_text="The submission waiting for a confirmation.")
    deal = serializers.IntegerField()
    number = serializers.IntegerField()
    entered_seat = serializers.IntegerField(allow_null=True)
    entered_device = serializers.CharField(allow_null=True, help_text=f"Entered on: {PHONE}.")
    dispute = serializers.CharField(allow_blank=True)
    disputed_seat = serializers.IntegerField(allow_null=True)
    result = TaggedResultField(
        allow_null=True,
        help_text="The result as the rules computed it, as a submission's `result` (each "
        "player's `points` signed, `against` the rules' count).",
    )


class TableAtLinkOutput(serializers.Serializer[dict]):
    table = serializers.CharField()
    session = serializers.CharField()
    game = serializers.IntegerField()
    format = serializers.ChoiceField(choices=GameFormat.choices)
    mode = serializers.ChoiceField(choices=["confirm", "one_phone", "trusted"])
    seats = TableSeatOutput(many=True)
    next_deal = serializers.IntegerField(help_text="The number the next entry gets.")
    can_enter = serializers.BooleanField()
    device = serializers.CharField(allow_null=True, help_text=f"This caller's phone, {PHONE}.")
    waiting = TableWaitingOutput(allow_null=True)


class TableEntryInput(ResultFields):
    """A deal's result entered at the table: the entrant's seat, the deal's wild joker and
    dealer, and the result as for ``submissions_create``."""

    seat = int32_field(min_value=1, help_text="The entrant's seat number at the table (1 first).")
    dealer = id_field(required=False, allow_null=True)


class TableEntryOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    deal = serializers.IntegerField()
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Submission.Status.choices)
    entered_seat = serializers.IntegerField(allow_null=True)
    confirmed_seat = serializers.IntegerField(allow_null=True)
    entered_device = serializers.CharField(allow_null=True, help_text=f"Entered on: {PHONE}.")
    confirmed_device = serializers.CharField(allow_null=True, help_text=f"Confirmed on: {PHONE}.")
    dispute = serializers.CharField(allow_blank=True)


class TableSeatInput(serializers.Serializer[dict]):
    seat = int32_field(min_value=1, help_text="Your seat number at the table (1 first).")


class TableDisputeInput(TableSeatInput):
    reason = serializers.CharField(max_length=300, help_text="What is wrong with the entry.")
