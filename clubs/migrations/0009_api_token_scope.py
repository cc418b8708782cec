"""Personal tokens get a scope (what they may do, in which clubs). Tokens made before act as
they did: every scope, in every club their user belongs to now."""

from django.db import migrations, models

ALL_SCOPES = ("read", "score", "manage")


def give_existing_tokens_everything(apps, schema_editor):
    ApiToken = apps.get_model("clubs", "ApiToken")
    Membership = apps.get_model("clubs", "Membership")
    clubs_of: dict[int, list[int]] = {}
    for user_id, club_id in Membership.objects.values_list("user_id", "club_id"):
        clubs_of.setdefault(user_id, []).append(club_id)
    for token in ApiToken.objects.all().only("pk", "user_id"):
        clubs = " ".join(f"club:{c}" for c in sorted(clubs_of.get(token.user_id, [])))
        scope = " ".join(ALL_SCOPES) + (f" {clubs}" if clubs else "")
        ApiToken.objects.filter(pk=token.pk).update(scope=scope)


class Migration(migrations.Migration):
    dependencies = [("clubs", "0008_player_name_prefix_index")]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="scope",
            field=models.TextField(
                blank=True,
                default="",
                help_text="Scopes and clubs, space-separated, e.g. 'read score club:12'.",
            ),
        ),
        migrations.RunPython(give_existing_tokens_everything, migrations.RunPython.noop),
    ]
