"""Packs in the media store (issue #27 item 1, shared/deploy-v1.md): each build stores its file
under a new name and switches the pack to it; the old file and the orphans go; downloads
stream from the disk or redirect to a signed URL of the bucket (moto's S3 server here)."""
from __future__ import annotations

import time
import urllib.request
import uuid
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import boto3
import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from prometheus_client import REGISTRY

from printing import tasks
from printing.models import MissionPack
from printing.services import pack_files, packs
from tests.printing.test_mission_packs import (
    check_pack_pdf,
    media,  # noqa: F401  (fixture)
    paired_round,
    staff_client,
)
from tests.site.own_redis import free_port
from tests.site.test_storage import s3_endpoint, s3_environ, storages_for  # noqa: F401

Status = MissionPack.Status


@pytest.fixture
def bucket(s3_endpoint: str) -> Iterator[str]:  # noqa: F811
    """A fresh bucket of moto's server (the module's) as STORAGES["default"]; its URL."""
    name = f"packs-{uuid.uuid4().hex[:12]}"
    boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1", aws_access_key_id="k",
                 aws_secret_access_key="s").create_bucket(Bucket=name)
    with storages_for(s3_environ(s3_endpoint, bucket=name)):
        yield f"{s3_endpoint}/{name}"


def built(kind: str) -> float:
    return REGISTRY.get_sample_value("muster_packs_built_total", {"kind": kind}) or 0.0


def stored_names() -> list[str]:
    _dirs, files = default_storage.listdir("packs")
    return sorted(f"packs/{name}" for name in files)


@pytest.mark.django_db
def test_a_pack_in_the_bucket_downloads_through_a_signed_url(bucket: str,
                                                             django_capture_on_commit_callbacks):
    round_ = paired_round(4)
    before = built("mission_pack")
    staff = staff_client()
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    assert pack.file.name.startswith(f"packs/pack-{pack.pk}-")
    assert stored_names() == [pack.file.name]
    response = staff.get(f"/api/v1/mission-packs/{pack.pk}/download/")
    assert response.status_code == 302 and response["Cache-Control"] == "private, no-store"
    url = response["Location"]
    query = parse_qs(urlsplit(url).query)
    assert url.startswith(f"{bucket}/{pack.file.name}?")
    assert "X-Amz-Signature" in query and query["X-Amz-Expires"] == ["300"]
    with urllib.request.urlopen(url, timeout=30) as answer:
        assert answer.headers["Content-Type"] == "application/pdf"
        assert answer.headers["Content-Disposition"] == (
            f'attachment; filename="{pack.download_name}"')
        check_pack_pdf(answer.read(), round_)
    # A file lost from the store: the download says so; the next delivery builds it again, under
    # a new name.
    old = pack.file.name
    default_storage.delete(old)
    response = staff.get(f"/api/v1/mission-packs/{pack.pk}/download/")
    assert (response.status_code, response.json()["code"]) == (404, "pack_file_missing")
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    assert pack.file.name != old and stored_names() == [pack.file.name]
    with django_capture_on_commit_callbacks(execute=True):
        pack.delete()  # takes its file along, once committed
    assert stored_names() == []
    assert built("mission_pack") == before + 2  # config.metrics: each successful build


@pytest.mark.django_db
def test_a_rebuild_switches_to_a_new_file_and_deletes_the_old_one(bucket: str):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    first = pack.file.name
    # As if the pack were found running again (its worker lost): a new run rebuilds it.
    MissionPack.objects.filter(pk=pack.pk).update(status=Status.RUNNING, progress=50)
    _, attempt = packs.claim(pack.pk)
    with default_storage.open(first, "rb") as reader:  # a download under way: the old file
        start = reader.read(8)
        packs.store_atomically(pack, lambda out: out.write(b"%PDF-1.7 new") and 1,
                               publish=packs._publisher(pack, attempt))
        pack.refresh_from_db()
        assert pack.file.name != first
        check_pack_pdf(start + reader.read(), round_)  # whole, though deleted meanwhile
    assert stored_names() == [pack.file.name]  # the old one is gone
    with default_storage.open(pack.file.name, "rb") as stored:
        assert stored.read() == b"%PDF-1.7 new"


@pytest.mark.django_db
def test_the_sweep_deletes_the_buckets_orphans_only(bucket: str):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    orphan = default_storage.save(f"packs/pack-{pack.pk}-never-switched.pdf",
                                  ContentFile(b"%PDF-1.7"))
    assert pack_files.sweep_orphans() == 0  # young: maybe a build about to switch to it
    time.sleep(1.1)  # the store's clock has whole seconds
    assert pack_files.sweep_orphans(older_than=0.5) == 1
    assert stored_names() == [pack.file.name]
    assert not default_storage.exists(orphan)


@pytest.mark.django_db
def test_on_disk_the_download_streams_the_file(media):  # noqa: F811
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    response = staff_client().get(f"/api/v1/mission-packs/{pack.pk}/download/")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    body = b"".join(response.streaming_content)
    assert body == (media / pack.file.name).read_bytes()
    assert response["Content-Length"] == str(len(body))


@pytest.mark.django_db
def test_a_store_that_does_not_answer_is_a_503_not_a_500():
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_, status=Status.DONE,
                                      file=f"packs/pack-1-{uuid.uuid4().hex}.pdf")
    with storages_for(s3_environ(f"http://127.0.0.1:{free_port()}")):
        response = staff_client().get(f"/api/v1/mission-packs/{pack.pk}/download/")
    assert (response.status_code, response.json()["code"]) == (503, "pack_store_unavailable")
