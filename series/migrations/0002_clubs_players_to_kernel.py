# The club and player references now point at the kernel's models (``clubs``): the same
# tables, so the state alone changes.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("series", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="series",
                    name="club",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="series_set", to="clubs.club", verbose_name="club"),
                ),
            ],
            database_operations=[],
        ),
    ]
