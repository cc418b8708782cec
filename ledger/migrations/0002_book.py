"""Books: what holds a set of accounts' entries (a game's, later a tournament's purse, a
club's)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0011_updated_at"),
        ("ledger", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="Book",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("owner", models.CharField(help_text="The kind of thing that holds the book.", max_length=16)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="books", to="clubs.club")),
            ],
            options={"ordering": ["id"]},
        ),
    ]
