"""One "entered by" for every kind (issue 32), the schema: a room result's text ``entered_by``
becomes its name shown (``entered_by_label``), beside its account (``entered_by``) and path
(``entered_via``). 0008 fills them from the ``director`` flag and the history, 0009 removes the
flag."""

from django.conf import settings
from django.db import migrations, models
from django.db.models.deletion import SET_NULL

CHOICES = [("table", "table's phone"), ("api", "API"), ("organiser", "director"),
           ("import", "import")]  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [
        ("teammatch", "0006_late_arrivals_bounded"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name="roomresult", old_name="entered_by", new_name="entered_by_label"
        ),
        migrations.AddField(
            model_name="roomresult",
            name="entered_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="roomresult",
            name="entered_via",
            field=models.CharField(
                blank=True, choices=CHOICES, max_length=12, verbose_name="entered via"
            ),
        ),
    ]
