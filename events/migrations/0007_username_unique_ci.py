"""Usernames unique whatever their case, enforced by the database: the sign-up forms check
first, and this index settles two sign-ups sent at the same moment (one gets a 400).

lower() is an expression index on SQLite (3.9+) and PostgreSQL alike. A database that already
holds two names differing only in case cannot take the index and the migration fails: merge or
rename those accounts first (a project that has always run this code has none: the sign-up
forms refused them)."""
from django.conf import settings
from django.db import migrations

INDEX = "auth_user_username_lower_uniq"


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0006_missionpack_staleness'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        # After every migration of auth_user: on SQLite a later one rebuilds the table and would
        # drop this index.
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (lower(username))",
            reverse_sql=f"DROP INDEX {INDEX}",
        ),
    ]
