"""One "entered by" for every kind (issue 32): a room result's director flag, read into its
path by 0008, is removed (put back empty when undone: 0008 fills it again)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("teammatch", "0008_entered_by_from_director_flag"),
    ]

    operations = [
        migrations.RemoveField(model_name="roomresult", name="director"),
    ]
