"""The deployment files (deploy/, docker-compose.yml, Dockerfile): valid YAML by yamllint, valid
Kubernetes objects by kubernetes-validate (the kustomization rendered here: kustomize itself is
not installed), nginx's own syntax check, and the rules of shared/deploy-v1.md: migrations are
a release step that no web or worker process runs, the web pods are ready on the deep health
check. No database, no network: a few seconds."""
from __future__ import annotations

import configparser
import copy
import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from yamllint import linter
from yamllint.config import YamlLintConfig

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
YAML_FILES = sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml"), ROOT / "docker-compose.yml"])
KUBERNETES_VERSION = "1.30.0"  # the oldest we support; also valid on newer clusters
APP_SERVICES = ("migrate", "web", "worker")


def load_all(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def command_of(service: dict[str, Any]) -> str:
    command = service.get("command", "")
    return " ".join(command) if isinstance(command, list) else command


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_yamllint(path):
    config = YamlLintConfig(file=str(DEPLOY / "yamllint.yaml"))
    problems = [f"{p.line}:{p.column} {p.message}" for p in linter.run(path.read_text(), config)]
    assert problems == []


def render_kustomization() -> list[dict[str, Any]]:
    """What `kustomize build deploy/k8s` gives for the features used there: its resources, in
    the namespace, with the common labels (not in selectors) and the image named."""
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    images = {image["name"]: f"{image['newName']}:{image['newTag']}"
              for image in kustomization.get("images", [])}
    labels: dict[str, str] = {}
    for entry in kustomization.get("labels", []):
        assert entry.get("includeSelectors") is False
        labels.update(entry["pairs"])
    rendered = []
    for name in kustomization["resources"]:
        for doc in load_all(K8S / name):
            doc = copy.deepcopy(doc)
            if doc["kind"] != "Namespace":
                doc["metadata"]["namespace"] = kustomization["namespace"]
            doc["metadata"].setdefault("labels", {}).update(labels)
            for container in pod_spec(doc).get("containers", []):
                container["image"] = images.get(container["image"], container["image"])
            rendered.append(doc)
    return rendered


def pod_spec(doc: dict[str, Any]) -> dict[str, Any]:
    return doc.get("spec", {}).get("template", {}).get("spec", {})


def by_kind_and_name(docs: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(doc["kind"], doc["metadata"]["name"]): doc for doc in docs}


def test_every_manifest_is_in_the_kustomization_but_the_secret_template():
    listed = set(yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"])
    present = {path.name for path in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed <= present
    assert present - listed == {"secret.example.yaml"}  # never applied with placeholder values


def test_kubernetes_objects_are_valid():
    docs = [*render_kustomization(), *load_all(K8S / "secret.example.yaml")]
    for doc in docs:
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
    for doc in docs:
        for container in pod_spec(doc).get("containers", []):
            assert container["image"] == "registry.example.org/muster:1.0.0"
    kinds = sorted(kind for kind, _name in by_kind_and_name(docs))
    assert kinds == ["ConfigMap", "Deployment", "Deployment", "Deployment", "Job", "Namespace",
                     "Secret", "Service"]


def test_web_pods_are_ready_on_the_deep_check_and_alive_on_the_shallow_one():
    objects = by_kind_and_name(render_kustomization())
    web = pod_spec(objects["Deployment", "muster-web"])["containers"][0]
    assert web["readinessProbe"]["httpGet"]["path"] == "/healthz/?deep=1"
    assert web["livenessProbe"]["httpGet"]["path"] == "/healthz/"
    worker = pod_spec(objects["Deployment", "muster-worker"])["containers"][0]
    assert worker["readinessProbe"]["exec"]["command"] == ["python", "-m", "config.health"]
    assert objects["Deployment", "muster-web"]["spec"]["replicas"] >= 2
    assert objects["Deployment", "muster-beat"]["spec"]["replicas"] == 1


def test_only_the_migrate_job_migrates_in_kubernetes():
    for (kind, name), doc in by_kind_and_name(render_kustomization()).items():
        for container in pod_spec(doc).get("containers", []):
            migrates = "migrate" in " ".join(container.get("command", []) + container.get("args", []))
            assert migrates == (kind == "Job" and name == "muster-migrate"), (kind, name)


@pytest.mark.parametrize("path", [ROOT / "docker-compose.yml", DEPLOY / "compose" / "docker-compose.yml"],
                         ids=["docker-compose.yml", "deploy/compose"])
def test_compose_migrates_once_before_web_and_workers(path):
    services = yaml.safe_load(path.read_text())["services"]
    migrate = services["migrate"]
    assert command_of(migrate) == "python manage.py migrate --noinput"
    assert migrate["restart"] == "no"
    apps = {name: s for name, s in services.items() if name.startswith(APP_SERVICES)}
    for name, service in apps.items():
        if name == "migrate":
            continue
        assert "migrate" not in command_of(service), name
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_the_compose_stack_of_several_machines():
    services = yaml.safe_load((DEPLOY / "compose" / "docker-compose.yml").read_text())["services"]
    webs = [name for name in services if name.startswith("web-")]
    workers = [name for name in services if name.startswith("worker-")]
    assert len(webs) == 2 and len(workers) == 2
    assert {"nginx", "postgres", "redis", "minio", "migrate"} <= set(services)
    assert {services[name]["environment"]["MUSTER_NODE_NAME"] for name in webs} == set(webs)
    assert all(services[name]["environment"]["MEDIA_STORAGE"] == "s3" for name in webs + workers)
    assert all("volumes" not in services[name] for name in webs + workers)  # nothing local
    assert sum(" -B" in command_of(services[name]) for name in workers) == 1
    upstream = (DEPLOY / "nginx" / "muster.conf").read_text()
    assert all(f"server {name}:8000" in upstream for name in webs)


def test_no_image_migrates_when_it_starts():
    dockerfile = (ROOT / "Dockerfile").read_text()
    instructions = [line for line in dockerfile.splitlines() if line.startswith(("CMD", "ENTRYPOINT"))]
    assert instructions and not any("migrate" in line for line in instructions)
    assert "deploy/gunicorn.conf.py" in instructions[-1]


def systemd_unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # keys are case-sensitive
    unit.read_string((DEPLOY / "systemd" / name).read_text())
    return unit


def test_systemd_units():
    web, worker, migrate = (systemd_unit(f"muster-{n}.service") for n in ("web", "worker", "migrate"))
    assert "gunicorn -c deploy/gunicorn.conf.py config.wsgi" in web["Service"]["ExecStart"]
    assert "celery -A config worker" in worker["Service"]["ExecStart"]
    assert "migrate" not in web["Service"]["ExecStart"] + worker["Service"]["ExecStart"]
    assert migrate["Service"]["Type"] == "oneshot"
    assert migrate["Service"]["ExecStart"].endswith("manage.py migrate --noinput")
    for unit in (web, worker):
        assert unit["Service"]["EnvironmentFile"] == "/etc/muster/muster.env"
        assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert web["Service"]["Environment"] == "PROMETHEUS_MULTIPROC_DIR=/run/muster-web"


@pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx")
def test_nginx_accepts_the_configuration(tmp_path):
    """`nginx -t` on deploy/nginx/muster.conf, its upstream names pointed at this machine."""
    site = (DEPLOY / "nginx" / "muster.conf").read_text()
    (tmp_path / "muster.conf").write_text(site.replace("web-1:", "127.0.0.1:")
                                          .replace("web-2:", "127.0.0.2:"))
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
        "events {}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {tmp_path};\n"
        f"  include {tmp_path}/muster.conf;\n}}\n")
    result = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
