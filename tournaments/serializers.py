from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.fields import id_field
from rules.prizes import STRUCTURES
from tournaments.kinds import DEFAULT_KIND, KINDS
from tournaments.kinds.chips.serializers import BIG, ChipLevelsSettings
from tournaments.models import Entry, Round, Tournament


# A new tournament: what every kind's has, and each kind's own settings (a docstring here would be
# the schema's description).
class TournamentCreateInput(*(kind.input_fields for kind in KINDS.values())):
    name = serializers.CharField(max_length=120)
    kind = serializers.ChoiceField(choices=Tournament.Kind.choices, default=DEFAULT_KIND)
    preset = id_field(help_text="What each table plays.")
    final_preset = id_field(required=False, allow_null=True)
    table_max = serializers.IntegerField(min_value=2, max_value=6, default=6)
    table_min = serializers.IntegerField(min_value=2, max_value=6, default=2)
    seeding = serializers.ChoiceField(choices=Tournament.Seeding.choices, default="random")
    avoid_same_club = serializers.BooleanField(default=False)
    table_entry = serializers.ChoiceField(
        choices=["", "off", "confirm", "one_phone", "trusted"], default="", allow_blank=True,
        help_text="Whether the tables enter their own results through a table link: off, "
        "confirm (another player of the table confirms each entry, on another phone), "
        "one_phone (the same, on the same phone if need be), trusted; empty: as the club's "
        "nights.",
    )  # fmt: skip
    max_entries = serializers.IntegerField(min_value=2, max_value=100_000, required=False)
    entry_fee_minor = serializers.IntegerField(min_value=0, max_value=BIG, default=0)
    club_fee_minor = serializers.IntegerField(min_value=0, max_value=BIG, default=0)
    late_entry_until_round = serializers.IntegerField(min_value=1, max_value=50, default=1)
    payout = serializers.JSONField(
        default="by_field",
        help_text="winner_takes_all, seventy_thirty, top_quarter, by_field, or a list of "
        "percentages by place (adding up to 100).",
    )
    seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)


class EntryInput(serializers.Serializer[dict]):
    player = id_field()
    affiliation = serializers.CharField(max_length=120, required=False, allow_blank=True)
    paid = serializers.BooleanField(
        default=False,
        help_text="True when the fee is paid at registration (into the purse now); a "
        "waitlisted entry's fee stays due.",
    )


class SignupSettingsInput(serializers.Serializer[dict]):
    signup_open = serializers.BooleanField(help_text="Players sign up on the public page.")
    signup_closes_at = serializers.DateTimeField(
        required=False, allow_null=True,
        help_text="When the public sign-up closes (null: open until the start).",
    )  # fmt: skip


class RemarksInput(serializers.Serializer[dict]):
    remarks = serializers.CharField(max_length=200, required=False, allow_blank=True)


class StartInput(serializers.Serializer[dict]):
    seeds = serializers.ListField(
        child=id_field(), required=False,
        help_text="Manual seeding: player ids, best first.",
    )  # fmt: skip


class UnwindInput(serializers.Serializer[dict]):
    confirm = serializers.BooleanField(
        default=False,
        help_text="True to take the later rounds out of the tournament (the refusal without it "
        "names them).",
    )


class SwapInput(serializers.Serializer[dict]):
    first = id_field(help_text="A player id.")
    second = id_field(help_text="Another player id.")


class PlayerMergeInput(serializers.Serializer[dict]):
    into = id_field(help_text="The player who stays: the duplicate's history becomes theirs.")


class EntryOutput(serializers.ModelSerializer[Entry]):
    name = serializers.CharField(source="player.name")
    # The prize won, read from the purse; shown as the column it once was (a 64-bit amount).
    prize_minor = serializers.IntegerField(
        source="prize_won_minor", required=False, min_value=-(2**63), max_value=2**63 - 1
    )

    class Meta:
        model = Entry
        fields = [
            "id", "player", "name", "status", "seed", "rating", "affiliation", "place",
            "prize_minor", "out_in_round", "table_place", "remarks", "chips", "rebuys",
            "fee_status", "paid_at", "checked_in_at", "self_signed_up", "updated_at",
        ]  # fmt: skip
        read_only_fields = fields

    # A chip-level tournament's chips, read from the purse; null for the other kinds.
    chips = serializers.IntegerField(read_only=True, allow_null=True, min_value=-BIG, max_value=BIG)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": list(STRUCTURES), "description": "A structure's name."},
            {
                "type": "array",
                "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                "description": "Percentages by place, first place first (whole numbers or "
                'decimal strings such as "33.3"), adding up to 100.',
            },
        ]
    }
)
class PayoutField(serializers.JSONField):
    """A payout structure as set: a structure's name, or percentages by place."""


class TournamentOutput(serializers.ModelSerializer[Tournament]):
    chip_levels = ChipLevelsSettings(
        source="chip_rules", allow_null=True, read_only=True,
        help_text="A chip-level tournament's settings; null for the other kinds.",
    )  # fmt: skip
    payout = PayoutField(help_text="A payout structure's name, or percentages by place.")

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "kind", "status", "preset", "final_preset", "table_max", "table_min",
            "advance_per_table", "rounds", "cut", "seeding", "avoid_same_club", "table_entry",
            "max_entries", "entry_fee_minor", "club_fee_minor", "late_entry_until_round", "payout",
            "seed", "session", "purse", "created_at", "started_at", "finished_at", "updated_at",
            "chip_levels", "signup_open", "signup_closes_at",
        ]  # fmt: skip


class RoundTableOutput(serializers.Serializer[dict]):
    number = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True, help_text="Null while the round is drawn.")
    table = serializers.IntegerField(
        source="table_id",
        allow_null=True,
        help_text="The night's table its games are played at (its table links, `.../tables/<id>/`);"
        " null while the round is drawn.",
    )
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Seat order.")
    status = serializers.ChoiceField(
        choices=["draft", "playing", "finished", "tiebreaker", "settled"],
        help_text="Drawn; being played; played out; its tied players play a tie-breaker; "
        "settled (who goes on is known).",
    )
    tiebreaker = serializers.ListField(
        child=serializers.IntegerField(), help_text="Players who must play a tie-breaker."
    )
    tiebreaker_game = serializers.IntegerField(allow_null=True)
    advancing = serializers.ListField(
        child=serializers.IntegerField(), help_text="Who goes on from the table, once settled."
    )


class DrawCostOutput(serializers.Serializer[dict]):
    repeat_pairs = serializers.IntegerField(help_text="Pairs who met at a table before.")
    same_club_pairs = serializers.IntegerField(help_text="Pairs from one club at a table.")


class RoundOutput(serializers.Serializer[dict]):
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=Round.Stage.choices)
    status = serializers.ChoiceField(choices=Round.Status.choices)
    cost = DrawCostOutput(help_text="The draw's repeat and same-club pairs.")
    advanced = serializers.ListField(child=serializers.IntegerField())
    byes = serializers.ListField(child=serializers.IntegerField())
    tables = RoundTableOutput(many=True)
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="The round clock: when the director calls time; null if unset."
    )
    level = serializers.IntegerField(
        allow_null=True, help_text="A chip-level tournament's level this round plays; else null."
    )


class PlaceOutput(serializers.Serializer[dict]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    place = serializers.IntegerField()
    prize_minor = serializers.IntegerField(source="prize_won_minor")


class TournamentDetailOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField(source="tournament.pk")
    status = serializers.ChoiceField(choices=Tournament.Status.choices, source="tournament.status")
    tournament = TournamentOutput()
    prize_pool_minor = serializers.IntegerField(
        help_text="The paid fees of the entries that count less the club's fee of each (plus "
        "a chip-level tournament's rebuys): an unpaid fee is not in it."
    )
    entries_counted = serializers.IntegerField(
        help_text="How many entries count (the field): not those waitlisted, nor those "
        "withdrawn or disqualified before the start."
    )
    entries_paid = serializers.IntegerField(
        source="paid",
        help_text="How many of the entries that count have their fee marked paid: the fees "
        "in the prize pool.",
    )
    entries = EntryOutput(many=True, help_text="Every entry, whatever its status.")
    rounds = RoundOutput(many=True)
    places = PlaceOutput(many=True)
