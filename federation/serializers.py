"""The federation's API input and output: the two lists, a player's page, the officer's queue
and the decisions the officer and the clubs send."""

from __future__ import annotations

from rest_framework import serializers

from config.fields import id_field


class FederationScoredResultOutput(serializers.Serializer[dict]):
    event_id = serializers.IntegerField()
    event = serializers.CharField()
    played_on = serializers.DateField()
    base = serializers.DecimalField(max_digits=12, decimal_places=2, help_text="Place points.")
    weight = serializers.DecimalField(
        max_digits=12, decimal_places=6, help_text="The decay by age (1 full, 0 none)."
    )
    points = serializers.DecimalField(max_digits=12, decimal_places=2)
    counted = serializers.BooleanField(help_text="One of the best N that count.")


class FederationRankingLineOutput(serializers.Serializer[dict]):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    federation_id = serializers.CharField()
    name = serializers.CharField()
    total = serializers.DecimalField(max_digits=14, decimal_places=2)
    results = FederationScoredResultOutput(many=True)


class FederationRankingOutput(serializers.Serializer[dict]):
    as_of = serializers.DateField()
    results = FederationRankingLineOutput(many=True)


class FederationRatingLineOutput(serializers.Serializer[dict]):
    rank = serializers.IntegerField(allow_null=True, help_text="Null while provisional.")
    player_id = serializers.IntegerField()
    federation_id = serializers.CharField()
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma, the listed rating.")
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class FederationPeriodOutput(serializers.Serializer[dict]):
    index = serializers.IntegerField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(help_text="The list takes events released before this day.")
    published = serializers.BooleanField()


class FederationRatingListOutput(serializers.Serializer[dict]):
    period = FederationPeriodOutput(allow_null=True)
    results = FederationRatingLineOutput(many=True)


class FederationRatingHistoryOutput(serializers.Serializer[dict]):
    period = serializers.IntegerField()
    ends_on = serializers.DateField()
    rank = serializers.IntegerField(allow_null=True)
    ordinal = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class FederationPlayerOutput(serializers.Serializer[dict]):
    player_id = serializers.IntegerField()
    federation_id = serializers.CharField()
    name = serializers.CharField()
    counts_as = serializers.IntegerField(help_text="The player a merged duplicate counts as.")
    ranking = FederationRankingLineOutput(allow_null=True)
    rating_history = FederationRatingHistoryOutput(many=True)


class FederationProposalOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    club = serializers.CharField()
    name = serializers.CharField()
    date_of_birth = serializers.DateField(allow_null=True)
    email = serializers.CharField()
    federation_player_id = serializers.IntegerField(allow_null=True)


class FederationEventOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    club = serializers.CharField()
    name = serializers.CharField()
    tier = serializers.CharField()
    status = serializers.CharField()
    reason = serializers.CharField()
    version = serializers.IntegerField()
    played_on = serializers.DateField(allow_null=True)
    release_seq = serializers.IntegerField(allow_null=True)


class FederationDuplicateOutput(serializers.Serializer[dict]):
    first_id = serializers.IntegerField()
    first = serializers.CharField()
    second_id = serializers.IntegerField()
    second = serializers.CharField()
    why = serializers.CharField()


class FederationQueueOutput(serializers.Serializer[dict]):
    proposals = FederationProposalOutput(many=True)
    requests = FederationEventOutput(many=True)
    submissions = FederationEventOutput(many=True)
    duplicates = FederationDuplicateOutput(many=True)


class FederationLinkDecisionInput(serializers.Serializer[dict]):
    confirm = serializers.BooleanField()
    federation_player = id_field(required=False, allow_null=True, default=None)
    reason = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class FederationDecisionInput(serializers.Serializer[dict]):
    approve = serializers.BooleanField()
    reason = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class FederationReasonInput(serializers.Serializer[dict]):
    reason = serializers.CharField(max_length=300)


class FederationMergeInput(serializers.Serializer[dict]):
    source = id_field()
    target = id_field()


class FederationMergeOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    source = serializers.IntegerField(source="source_id")
    target = serializers.IntegerField(source="target_id")
    undone_at = serializers.DateTimeField(allow_null=True)


class FederationAnswerInput(serializers.Serializer[dict]):
    accept = serializers.BooleanField()


class FederationMembershipOutput(serializers.Serializer[dict]):
    federation = serializers.CharField(source="federation.slug")
    status = serializers.CharField()


class FederationLinkInput(serializers.Serializer[dict]):
    player = id_field()
    date_of_birth = serializers.DateField(required=False, allow_null=True, default=None)
    email = serializers.EmailField(required=False, default="", allow_blank=True)
    federation_player = id_field(required=False, allow_null=True, default=None)


class FederationLinkOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    federation_player = serializers.IntegerField(source="federation_player_id", allow_null=True)
    status = serializers.CharField()


class FederationSanctionInput(serializers.Serializer[dict]):
    tier = serializers.CharField(max_length=40)
    session_id = id_field(required=False, allow_null=True, default=None)
    tournament_id = id_field(required=False, allow_null=True, default=None)
    held_elsewhere = serializers.ChoiceField(
        choices=["night", "tournament"],
        required=False,
        help_text="Held on the club's own instance: its signed export is imported once finished.",
    )
    name = serializers.CharField(
        max_length=120, required=False, default="", help_text="The name of one held elsewhere."
    )


# --- the event exchange (docs/architecture.md, "Event exchange") -----------------------------


class FederationExportKeyOutput(serializers.Serializer[dict]):
    format = serializers.CharField(help_text="rummyclub.federation-export-key")
    federation = serializers.CharField()
    club = serializers.CharField(help_text="The club's slug on the federation's instance.")
    key_id = serializers.CharField()
    private_key = serializers.CharField(
        help_text="Ed25519, base64url: install it on the club's own instance; not shown again."
    )


class FederationExportPresetSchema(serializers.Serializer[dict]):
    key = serializers.CharField()
    version = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    variant = serializers.CharField()
    params = serializers.DictField()


class FederationExportPlayerSchema(serializers.Serializer[dict]):
    ref = serializers.CharField(help_text="The player's id on the club's instance.")
    name = serializers.CharField()


class FederationExportGameSchema(serializers.Serializer[dict]):
    ranks = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Player ref -> finishing place; null for a tie-breaker or an abandoned game.",
    )
    ledger = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Quantity -> account (player:<ref>, game, club) -> balance; each sums to 0.",
    )


class FederationEventExportSchema(serializers.Serializer[dict]):
    """A signed event export, version 1 (docs/architecture.md, "Event exchange")."""

    format = serializers.CharField(help_text="rummyclub.federation-event")
    version = serializers.IntegerField(help_text="1: another version is refused.")
    federation = serializers.CharField()
    club = serializers.CharField(help_text="The club's slug on the federation's instance.")
    event = serializers.IntegerField(help_text="The sanctioned event's id there.")
    kind = serializers.CharField(help_text="night or tournament")
    tier = serializers.CharField()
    name = serializers.CharField()
    started_at = serializers.DateTimeField()
    played_on = serializers.DateField()
    preset = FederationExportPresetSchema()
    players = FederationExportPlayerSchema(many=True)
    places = serializers.DictField(child=serializers.IntegerField())
    games = FederationExportGameSchema(many=True)
    exported_at = serializers.DateTimeField()
    key_id = serializers.CharField()
    signature = serializers.CharField(help_text="Ed25519 over the canonical JSON, base64url.")
