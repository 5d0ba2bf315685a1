# The moved tables take the kernel's names (rows, keys and references kept: a rename).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("tournaments", "0010_clubs_players_state_removed"),
    ]

    operations = [
        migrations.AlterModelTable(name="club", table=None),
        migrations.AlterModelTable(name="player", table=None),
    ]
