"""What the tests' own servers (Redis, nginx) have in common: a program started in a temporary
directory of its own, stopped and the directory deleted at the end (a context manager)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


class Service:
    proc: subprocess.Popen
    dir: Path

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
