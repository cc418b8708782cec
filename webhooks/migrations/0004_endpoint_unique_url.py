from django.db import migrations, models


class Migration(migrations.Migration):
    """Apart from 0003: on PostgreSQL a table cannot be altered in the transaction that deleted
    rows others refer to (their checks are deferred to the commit)."""

    dependencies = [("webhooks", "0003_endpoint_one_per_url_honest_health")]

    operations = [
        migrations.AddConstraint(
            model_name="endpoint",
            constraint=models.UniqueConstraint(
                fields=("club", "url"), name="webhook_endpoint_one_per_url"
            ),
        ),
    ]
