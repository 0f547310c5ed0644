"""A front proxy for tests: Debian's nginx, as a load balancer would stand before the server
processes of several hosts (scripts/test.sh installs it when missing). Each listening port has
its own primary server and the others as backups: a page that came in on port ``i`` reaches
``servers[i]``, and the next one when that process is dead (``proxy_next_upstream``), as a page
on a host that died is sent to a live one.

    with Proxy([8001, 8002]) as proxy:
        proxy.urls      # ["http://127.0.0.1:9001", "http://127.0.0.1:9002"]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.services import Service

import httpx

from tests.server.live import free_port


def nginx() -> str:
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(found).exists():
        raise RuntimeError("nginx is not installed: apt-get install nginx-light (scripts/test.sh does)")
    return found


class Proxy(Service):
    def __init__(self, servers: list[int]):
        self.dir = Path(tempfile.mkdtemp(prefix="tarocchi-nginx-"))
        os.chmod(self.dir, 0o777)  # nginx's workers run as nobody: its temporary files go here
        self.ports = [free_port() for _ in servers]
        blocks = []
        for i, port in enumerate(self.ports):
            order = servers[i:] + servers[:i]
            upstream = "\n".join(f"    server 127.0.0.1:{p}{'' if k == 0 else ' backup'} max_fails=1 fail_timeout=2s;"
                                 for k, p in enumerate(order))
            blocks.append(f"""
  upstream site{i} {{
{upstream}
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://site{i};
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header Host $http_host;  # (as docs/operations.md's: the server checks Origin against it)
      proxy_read_timeout 3600s;
      proxy_connect_timeout 1s;
      proxy_next_upstream error timeout;
    }}
  }}""")
        d = self.dir
        (d / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {d}/body;
  proxy_temp_path {d}/proxy;
  fastcgi_temp_path {d}/fastcgi;
  uwsgi_temp_path {d}/uwsgi;
  scgi_temp_path {d}/scgi;
{''.join(blocks)}
}}
""")
        self.proc = subprocess.Popen([nginx(), "-p", str(d), "-c", str(d / "nginx.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                httpx.get(self.urls[0] + "/api/games", timeout=1)
                break
            except httpx.HTTPError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    log = (d / "error.log").read_text() if (d / "error.log").exists() else ""
                    self.stop()
                    raise RuntimeError(f"nginx did not start: {log[-2000:]}")
                time.sleep(0.05)

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]
