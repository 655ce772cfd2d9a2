"""Settings the environment switches on for several machines (shared/deploy-v1.md): where media
go (``MEDIA_STORAGE``) and, with metrics on, the instrumented database and cache backends.

Plain functions of the environment, called by config/settings.py: nothing here imports Django's
settings, so the tests call them with the values they want."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FILESYSTEM = "django.core.files.storage.FileSystemStorage"
S3 = "storages.backends.s3.S3Storage"
MEDIA_STORAGES = ("filesystem", "s3")
S3_REQUIRED = ("S3_BUCKET", "S3_ACCESS_KEY", "S3_SECRET_KEY")

# django-prometheus's wrappers count queries and cache reads as they pass; they add no query.
INSTRUMENTED_ENGINES = {
    "django.db.backends.postgresql": "django_prometheus.db.backends.postgresql",
    "django.db.backends.sqlite3": "django_prometheus.db.backends.sqlite3",
}
INSTRUMENTED_CACHES = {
    "django.core.cache.backends.redis.RedisCache":
        "django_prometheus.cache.backends.redis.NativeRedisCache",
    "django.core.cache.backends.locmem.LocMemCache":
        "django_prometheus.cache.backends.locmem.LocMemCache",
}


class SettingsError(ValueError):
    """A setting whose value cannot work; raised while the settings load, so nothing starts."""


def media_storage(environ: Mapping[str, str]) -> dict[str, Any]:
    """STORAGES["default"] from ``MEDIA_STORAGE``: ``filesystem`` (the default) keeps media
    under MEDIA_ROOT; ``s3`` puts them in the bucket ``S3_BUCKET`` of an S3-compatible store
    (S3_ENDPOINT_URL: MinIO, Ceph, ...; unset: AWS itself)."""
    kind = environ.get("MEDIA_STORAGE", "").strip().lower() or "filesystem"
    if kind not in MEDIA_STORAGES:
        raise SettingsError(f"MEDIA_STORAGE={kind!r}: expected one of {', '.join(MEDIA_STORAGES)}")
    if kind == "filesystem":
        # No location of its own: it follows MEDIA_ROOT, even when a test overrides it. Saving
        # under a name that exists replaces the file, as in the bucket (a pack's name is fixed).
        return {"BACKEND": FILESYSTEM, "OPTIONS": {"allow_overwrite": True}}
    missing = [name for name in S3_REQUIRED if not environ.get(name)]
    if missing:
        raise SettingsError(f"MEDIA_STORAGE=s3 needs {', '.join(missing)}")
    endpoint = environ.get("S3_ENDPOINT_URL") or None
    options = {
        "bucket_name": environ["S3_BUCKET"],
        "access_key": environ["S3_ACCESS_KEY"],
        "secret_key": environ["S3_SECRET_KEY"],
        "region_name": environ.get("S3_REGION") or "us-east-1",
        "endpoint_url": endpoint,
        # Downloads may be answered with a signed URL of the store, valid this long.
        "querystring_auth": True,
        "querystring_expire": int(environ.get("S3_QUERYSTRING_EXPIRE") or 300),
        "signature_version": "s3v4",  # what every store accepts (v2 is retired)
        # Private objects: a pack is only ever handed out through a signed URL or the view.
        "default_acl": None,
        "file_overwrite": True,  # a pack's name is fixed; a rebuild replaces its file
    }
    if endpoint:
        # Stores other than AWS (MinIO, moto) address buckets by path, not by host name.
        options["addressing_style"] = "path"
    return {"BACKEND": S3, "OPTIONS": options}


def instrumented_database(database: dict[str, Any]) -> dict[str, Any]:
    """``database`` with django-prometheus's counting engine when it has one for it."""
    engine = INSTRUMENTED_ENGINES.get(database.get("ENGINE", ""))
    return {**database, "ENGINE": engine} if engine else database


def instrumented_cache(cache: dict[str, Any]) -> dict[str, Any]:
    """``cache`` with django-prometheus's hit/miss counting backend when it has one for it."""
    backend = INSTRUMENTED_CACHES.get(cache.get("BACKEND", ""))
    return {**cache, "BACKEND": backend} if backend else cache
