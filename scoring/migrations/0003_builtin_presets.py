"""The built-in presets every club can use (a snapshot: later changes come as new versions)."""

from django.db import migrations

PRESETS = [
    {
        "key": "points",
        "name": "Points rummy (20/40/80)",
        "format": "points",
        "variant": "indian",
        "params": {},
    },
    {
        "key": "points-10-30",
        "name": "Points rummy (10/30/80)",
        "format": "points",
        "variant": "indian",
        "params": {"indian": {"first_drop": 10, "middle_drop": 30}},
    },
    {
        "key": "pool-101",
        "name": "Pool 101",
        "format": "pool",
        "variant": "indian",
        "params": {"pool": {"limit": 101}},
    },
    {
        "key": "pool-201",
        "name": "Pool 201",
        "format": "pool",
        "variant": "indian",
        "params": {"pool": {"limit": 201}},
    },
    {
        "key": "pool-61",
        "name": "Pool 61",
        "format": "pool",
        "variant": "indian",
        "params": {"pool": {"limit": 61}},
    },
    {
        "key": "deals-2",
        "name": "Best of 2 deals",
        "format": "deals",
        "variant": "indian",
        "params": {"deals": {"deals": 2}},
    },
    {
        "key": "deals-3",
        "name": "Best of 3 deals",
        "format": "deals",
        "variant": "indian",
        "params": {"deals": {"deals": 3}},
    },
    {
        "key": "deals-6",
        "name": "Best of 6 deals",
        "format": "deals",
        "variant": "indian",
        "params": {"deals": {"deals": 6}},
    },
    {
        "key": "sabra",
        "name": "Rummikub Sabra",
        "format": "rummikub",
        "variant": "sabra",
        "params": {},
    },
    {
        "key": "american",
        "name": "Rummikub American",
        "format": "rummikub",
        "variant": "american",
        "params": {},
    },
    {
        "key": "international",
        "name": "Rummikub International",
        "format": "rummikub",
        "variant": "international",
        "params": {},
    },
]


def create(apps, schema_editor):
    RulePreset = apps.get_model("scoring", "RulePreset")
    for preset in PRESETS:
        RulePreset.objects.get_or_create(
            club=None,
            key=preset["key"],
            version=1,
            defaults={
                "name": preset["name"],
                "format": preset["format"],
                "variant": preset["variant"],
                "params": preset["params"],
            },
        )


def remove(apps, schema_editor):
    RulePreset = apps.get_model("scoring", "RulePreset")
    RulePreset.objects.filter(club=None, key__in=[p["key"] for p in PRESETS]).delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0002_ledger_guards")]

    operations = [migrations.RunPython(create, remove)]
