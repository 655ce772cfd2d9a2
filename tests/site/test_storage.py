"""MEDIA_STORAGE (shared/deploy-v1.md): files on disk by default, or an S3-compatible object
store through django-storages, here moto's S3 server on a free port; and what the deep health
check says of each."""
from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import boto3
import pytest
from django.conf import settings as django_settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.test import override_settings
from moto.server import ThreadedMotoServer

from config import health
from config.deploy_settings import FILESYSTEM, S3, SettingsError, media_storage
from tests.site.own_redis import free_port

BUCKET = "muster-media"


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="k",
                 aws_secret_access_key="s").create_bucket(Bucket=BUCKET)
    yield endpoint
    server.stop()


def s3_environ(endpoint: str, bucket: str = BUCKET, **more: str) -> dict[str, str]:
    return {"MEDIA_STORAGE": "s3", "S3_ENDPOINT_URL": endpoint, "S3_BUCKET": bucket,
            "S3_ACCESS_KEY": "k", "S3_SECRET_KEY": "s", **more}


def storages_for(environ: dict[str, str]):
    """STORAGES as settings.py builds them from ``environ`` (static files unchanged); Django
    drops its storages when the setting changes."""
    return override_settings(STORAGES={**django_settings.STORAGES,
                                       "default": media_storage(environ)})


def test_filesystem_is_the_default(settings, tmp_path):
    assert media_storage({}) == media_storage({"MEDIA_STORAGE": "filesystem"})
    assert media_storage({})["BACKEND"] == FILESYSTEM
    assert django_settings.STORAGES["default"]["BACKEND"] == FILESYSTEM
    settings.MEDIA_ROOT = tmp_path  # the storage follows MEDIA_ROOT
    name = default_storage.save("packs/pack-2-x.pdf", ContentFile(b"first"))
    assert default_storage.save(name, ContentFile(b"again")) == name  # replaced, not renamed
    assert (tmp_path / name).read_bytes() == b"again"


def test_s3_settings_and_their_defaults():
    storage = media_storage(s3_environ("http://minio:9000"))
    assert storage["BACKEND"] == S3
    options = storage["OPTIONS"]
    assert (options["bucket_name"], options["region_name"]) == (BUCKET, "us-east-1")
    assert (options["querystring_expire"], options["addressing_style"]) == (300, "path")
    on_aws = media_storage({**s3_environ(""), "S3_REGION": "eu-west-3",
                            "S3_QUERYSTRING_EXPIRE": "60"})["OPTIONS"]
    assert (on_aws["endpoint_url"], on_aws["region_name"]) == (None, "eu-west-3")
    assert on_aws["querystring_expire"] == 60 and "addressing_style" not in on_aws


@pytest.mark.parametrize("environ, words", [
    ({"MEDIA_STORAGE": "ftp"}, "MEDIA_STORAGE='ftp'"),
    ({"MEDIA_STORAGE": "s3", "S3_BUCKET": "b"}, "S3_ACCESS_KEY, S3_SECRET_KEY"),
])
def test_a_storage_setting_that_cannot_work_stops_the_start(environ, words):
    with pytest.raises(SettingsError, match=words):
        media_storage(environ)


def test_a_file_saved_through_the_storage_is_read_back(s3_endpoint):
    with storages_for(s3_environ(s3_endpoint)):
        name = default_storage.save("packs/pack-1-abc.pdf", ContentFile(b"%PDF-1.7 pack"))
        assert name == "packs/pack-1-abc.pdf"
        with default_storage.open(name, "rb") as stored:
            assert stored.read() == b"%PDF-1.7 pack"
        # A rebuild replaces the file under the same name.
        default_storage.save(name, ContentFile(b"%PDF-1.7 rebuilt"))
        with default_storage.open(name, "rb") as stored:
            assert stored.read() == b"%PDF-1.7 rebuilt"
        url = default_storage.url(name)
        default_storage.delete(name)
        assert not default_storage.exists(name)
    query = parse_qs(urlsplit(url).query)
    assert url.startswith(f"{s3_endpoint}/{BUCKET}/packs/")
    assert query["X-Amz-Expires"] == ["300"] and "X-Amz-Signature" in query


def test_the_storage_check(s3_endpoint):
    with storages_for(s3_environ(s3_endpoint)):
        assert health.storage() == "ok"
    with storages_for(s3_environ(s3_endpoint, bucket="nobody-made-this-bucket")):
        assert health.storage() == "bucket missing"
    with storages_for(s3_environ(f"http://127.0.0.1:{free_port()}")):
        assert health.run_checks({"storage": health.storage}) == {"storage": "unreachable"}
    assert health.storage() == "ok"  # the default: MEDIA_ROOT on disk


@pytest.mark.django_db
def test_a_missing_bucket_fails_the_deep_health_check(client, s3_endpoint):
    with storages_for(s3_environ(s3_endpoint, bucket="nobody-made-this-bucket")):
        response = client.get("/healthz/?deep=1")
    assert response.status_code == 503
    checks = json.loads(response.content)["checks"]
    assert checks["storage"] == "bucket missing"
    assert {name: value for name, value in checks.items() if name != "storage"} == {
        "database": "ok", "cache": "ok", "broker": "ok", "migrations": "ok"}
