"""Notices kept as rows until the broker has them (notices/outbox.py)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('notices', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='QueuedNotice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('task', models.CharField(max_length=60, verbose_name='task')),
                ('args', models.JSONField(default=list, verbose_name='arguments')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('queued_at', models.DateTimeField(blank=True, null=True, verbose_name='queued')),
                ('tries', models.PositiveSmallIntegerField(default=0, verbose_name='tries')),
            ],
            options={
                'verbose_name': 'queued notice',
                'verbose_name_plural': 'queued notices',
                'ordering': ['pk'],
            },
        ),
    ]
