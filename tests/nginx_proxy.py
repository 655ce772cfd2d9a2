"""nginx in front of Muster's web nodes for the served tests and benchmarks, as
deploy/nginx/muster.conf puts it there: one configuration writer for both (the two-node test's
proxy retries a lost answer on the other node; the benchmarks' has one upstream)."""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

NGINX = os.environ.get("MUSTER_NGINX", "/usr/sbin/nginx")


def write_conf(folder: Path, port: int, upstreams: Sequence[int], *, retry: bool = False) -> Path:
    """``folder``/nginx.conf: nginx on 127.0.0.1:``port``, round-robin over the loopback
    ``upstreams``; ``retry``: a node that fails or answers 502 is tried no more for 3 s and the
    request goes to the next one (at most two tries). The command line that runs it: ``command``."""
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "".join(f"  {kind}_temp_path {folder}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    failing = " max_fails=1 fail_timeout=3s" if retry else ""
    servers = "".join(f"    server 127.0.0.1:{upstream}{failing};\n" for upstream in upstreams)
    retries = ("      proxy_next_upstream error timeout http_502;\n"
               "      proxy_next_upstream_tries 2;\n") if retry else ""
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}worker_processes 1;\ndaemon off;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log warn;\nevents {{ worker_connections 1024; }}\n"
        f"http {{\n  access_log off;\n{temp}"
        f"  upstream muster {{\n{servers}  }}\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n    location / {{\n"
        "      proxy_pass http://muster;\n      proxy_set_header Host $http_host;\n"
        "      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
        f"      proxy_set_header X-Forwarded-Proto $scheme;\n{retries}    }}\n  }}\n}}\n")
    return conf


def command(folder: Path) -> list[str]:
    """nginx in the foreground on ``folder``'s configuration (write_conf)."""
    return [NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder), "-e", str(folder / "error.log")]
