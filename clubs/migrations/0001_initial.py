# Clubs and players move from the ``tournaments`` app to the kernel: the models change app in
# the migration state only; their tables (and every row) stay as they are here, and are
# renamed to the kernel's names by 0002 once no state refers to the old app's models.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("club", "player")


def relabel_content_types(apps, schema_editor):
    """Keep the content types (and so the permissions granted on them) of the moved models."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        if ContentType.objects.using(db).filter(app_label="clubs", model=model).exists():
            continue
        ContentType.objects.using(db).filter(app_label="tournaments", model=model).update(
            app_label="clubs"
        )


def unlabel_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        if ContentType.objects.using(db).filter(app_label="tournaments", model=model).exists():
            continue
        ContentType.objects.using(db).filter(app_label="clubs", model=model).update(
            app_label="tournaments"
        )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0008_event_ruleset"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Club",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120, unique=True, verbose_name="name")),
                        ("city", models.CharField(blank=True, max_length=120, verbose_name="city")),
                        ("organisers", models.ManyToManyField(blank=True, related_name="clubs", to=settings.AUTH_USER_MODEL, verbose_name="organisers")),
                    ],
                    options={
                        "verbose_name": "club",
                        "verbose_name_plural": "clubs",
                        "ordering": ["name"],
                        "db_table": "tournaments_club",
                    },
                ),
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("first_name", models.CharField(max_length=80, verbose_name="first name")),
                        ("last_name", models.CharField(max_length=80, verbose_name="last name")),
                        ("licence", models.CharField(blank=True, max_length=20, null=True, unique=True, verbose_name="licence number")),
                        ("series", models.CharField(blank=True, max_length=20, verbose_name="series")),
                        ("club", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="players", to="clubs.club", verbose_name="club")),
                    ],
                    options={
                        "verbose_name": "player",
                        "verbose_name_plural": "players",
                        "ordering": ["last_name", "first_name"],
                        "db_table": "tournaments_player",
                        "indexes": [models.Index(fields=["last_name", "first_name"], name="tournaments_last_na_3afdca_idx")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(relabel_content_types, unlabel_content_types),
    ]
