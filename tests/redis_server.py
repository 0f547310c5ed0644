"""A throwaway Redis for tests: Debian's ``redis-server`` on a Unix socket in a temporary
directory (no TCP port, nothing saved), stopped and deleted at the end (scripts/test.sh
installs the package when it is missing).

    with RedisServer() as redis:
        redis.url   # unix:///tmp/tarocchi-redis-.../redis.sock
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.services import Service


class RedisServer(Service):
    def __init__(self):
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(binary).exists():
            raise RuntimeError("redis-server is not installed: apt-get install redis-server (scripts/test.sh does)")
        self.dir = Path(tempfile.mkdtemp(prefix="tarocchi-redis-"))
        self.socket = self.dir / "redis.sock"
        self.proc = subprocess.Popen(
            [binary, "--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700",
             "--save", "", "--appendonly", "no", "--dir", str(self.dir), "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not self.socket.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"
