from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="observed",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text=(
                    'Per audience ("*": spectators and visitors, "0", "1"...: seats), the change counter of what '
                    "it can see and the digest of its last view: the counter moves only when that view changes."
                ),
                verbose_name="observed",
            ),
        ),
    ]
