"""A person's API tokens as the API reads and shows them."""

from __future__ import annotations

from rest_framework import serializers

from clubs.models import ApiToken
from clubs.signin import scopes as app_scopes


class ApiTokenOutput(serializers.ModelSerializer[ApiToken]):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "scope", "created_at", "last_used_at", "revoked_at"]
        extra_kwargs = {
            "scope": {
                "help_text": "What the token may do and in which clubs: scopes (read, score, "
                "manage) and club:<id> words, space-separated, as an OAuth2 token's scope."
            }
        }


class ApiTokenCreatedOutput(ApiTokenOutput):
    key = serializers.CharField(help_text="Shown only once: store it now.")

    class Meta(ApiTokenOutput.Meta):
        fields = [*ApiTokenOutput.Meta.fields, "key"]


class ApiTokenCreateInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=80)
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=list(app_scopes.SCOPES)),
        min_length=1,
        required=False,
        help_text="What the token may do; left out, all of read, score and manage.",
    )
    clubs = serializers.ListField(
        child=serializers.SlugField(),
        min_length=1,
        required=False,
        help_text="Slugs of the clubs the token may act in (yours); left out, all your clubs.",
    )
