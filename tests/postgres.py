"""A throwaway PostgreSQL cluster for tests and benchmarks: ``initdb`` in a temporary directory,
the server listening only on a Unix socket in that directory (no TCP port), stopped and deleted
at the end. Debian's ``postgresql`` package provides the programs (scripts/test.sh installs it).

As root (CI), initdb refuses to run: the cluster is then made and run by the ``postgres`` user,
in a directory that user owns. Either way the superuser role is ``postgres`` and connections
from this machine are trusted (no password).

    with Cluster() as cluster:
        url = cluster.new_database()   # postgresql://postgres@/db1?host=/tmp/...
        cluster.restart()              # stop -m immediate (a crash) and start again
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg


def programs() -> Path:
    """The folder of initdb and pg_ctl: PATH first, else the newest Debian version."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if not versions:
        raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql (scripts/test.sh does)")
    return Path(versions[-1]).parent


class Cluster:
    def __init__(self, *, durable: bool = False):
        """``durable=False`` (tests): fsync off, so creating a database per test is quick; a
        stop, even an immediate one, still loses no commit (the OS keeps what was written).
        ``durable=True`` (benchmarks): the server's defaults, every commit flushed to disk."""
        self.bin = programs()
        self.base = Path(tempfile.mkdtemp(prefix="tarocchi-pg-"))
        self.data = self.base / "data"
        self.user = None
        if os.geteuid() == 0:
            self.user = "postgres"
            entry = pwd.getpwnam(self.user)
            os.chown(self.base, entry.pw_uid, entry.pw_gid)
        self.options = f"-c listen_addresses='' -c unix_socket_directories='{self.base}'"
        if not durable:
            self.options += " -c fsync=off -c full_page_writes=off"
        self.names = itertools.count(1)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        self.start()

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> None:
        self._run("pg_ctl", "start", "-w", "-D", str(self.data), "-l", str(self.base / "log"),
                  "-o", self.options)

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "stop", "-w", "-D", str(self.data), "-m", mode)

    def restart(self, mode: str = "immediate") -> None:
        """Stop (``immediate``: as in a crash, no shutdown checkpoint) and start again."""
        self.stop(mode)
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.base}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        name = f"db{next(self.names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def close(self) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
