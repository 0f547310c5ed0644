"""Fetch axe-core 4.14.1 (the browser tests' accessibility checker) once into .vendor/.

With npm: `npm pack axe-core@4.14.1`; without it, a plain download of the registry's tarball.
Either way the tarball is checked against the registry's published sha512 integrity before
axe.min.js is taken out of it. Nothing is installed; the file is only injected by the tests.
"""

from __future__ import annotations

import base64
import hashlib
import io
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

VERSION = "4.14.1"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
TARGET = Path(__file__).resolve().parents[1] / ".vendor" / f"axe-core-{VERSION}" / "axe.min.js"


def tarball() -> bytes:
    if shutil.which("npm"):
        with tempfile.TemporaryDirectory() as tmp:
            try:
                subprocess.run(["npm", "pack", f"axe-core@{VERSION}", "--silent"], cwd=tmp, check=True,
                               stdout=subprocess.DEVNULL, timeout=300)
                return next(Path(tmp).glob("axe-core-*.tgz")).read_bytes()
            except (subprocess.SubprocessError, StopIteration, OSError):
                pass  # fall back to the plain download
    with urllib.request.urlopen(TARBALL, timeout=120) as res:
        return res.read()


def main() -> int:
    if TARGET.exists():
        return 0
    data = tarball()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != INTEGRITY:
        print(f"axe-core {VERSION}: integrity mismatch ({digest})", file=sys.stderr)
        return 1
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        script = tar.extractfile("package/axe.min.js").read()
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_bytes(script)
    print(f"axe-core {VERSION} -> {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
