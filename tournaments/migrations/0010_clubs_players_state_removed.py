# Clubs and players live in the kernel (``clubs``) now: they leave this app's state once no
# app's state refers to them here. Their tables are the kernel's (renamed by clubs 0002).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_clubs_players_to_kernel"),
        ("teammatch", "0002_clubs_players_to_kernel"),
        ("freedeal", "0002_clubs_players_to_kernel"),
        ("series", "0002_clubs_players_to_kernel"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Player"),
                migrations.DeleteModel(name="Club"),
            ],
            database_operations=[],
        ),
    ]
