"""The installable app (issue 41): the web app manifest at ``/manifest.webmanifest`` and the
service worker at ``/sw.js`` (docs/protocol.md, "The installable app"). Both from the site's root:
a worker's scope is at most the folder of its script, and it must be every page (``/``, ``/t/...``),
so its script cannot be ``/static/sw.js`` (nor need a ``Service-Worker-Allowed`` header).

The worker is ``static/sw.js`` with one line written above it, ``self.BUILD = {version, files}``:
the files a page may need (the shell ``/``, the manifest, every file under ``/static/``) and a
version that is a hash of their contents. A deploy that changes any of them changes the script's
bytes, and a browser that opens a page finds a new worker (``/sw.js`` is never cached): it keeps the
new files under a new cache name and drops the old. The files are named as the page names them,
by their content's hash (``/static/app.js?v=<hash>``, tarocchi/server/assets.py, issue 60): a
new version is new names. The hash is computed again only when a file's
size or time changes (a few ``stat`` calls a request), so a file edited under a running server is
seen too.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route

from .assets import content_hash

WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
NO_CACHE = {"Cache-Control": "no-cache"}


def opens_a_page(rel: str) -> bool:
    """A file the worker keeps when it installs: the pages' scripts and styles (the shell itself is
    "/"). The rest (the rules' pages, the icons) it keeps when a page first asks for them: a
    browser's first page installs the worker, and the whole folder would double its requests."""
    return rel.endswith((".js", ".css")) and rel != WORKER and not rel.startswith("help/")


class Build:
    """The static folder as the worker keeps it: its version and the URLs to keep."""

    def __init__(self, static: Path):
        self.static = static
        self.seen: tuple | None = None
        self.value: dict | None = None

    def files(self) -> list[Path]:
        return sorted(p for p in self.static.rglob("*")
                      if p.is_file() and not any(part.startswith(".") for part in p.relative_to(self.static).parts))

    def relative(self, path: Path) -> str:
        return path.relative_to(self.static).as_posix()

    def current(self) -> dict:
        paths = self.files()
        seen = tuple((str(p), s.st_size, s.st_mtime_ns) for p in paths for s in [p.stat()])
        if seen != self.seen:
            digest = hashlib.sha256()
            urls = ["/", f"/{MANIFEST}"]
            for path in paths:
                body, rel = path.read_bytes(), self.relative(path)
                digest.update(rel.encode() + b"\0" + body + b"\0")
                if opens_a_page(rel):
                    urls.append(f"/static/{rel}?v={content_hash(body)}")
            self.value = {"version": digest.hexdigest()[:16], "files": urls}
            self.seen = seen
        return self.value

    def worker(self) -> bytes:
        source = (self.static / WORKER).read_bytes()
        return b"self.BUILD = " + json.dumps(self.current()).encode() + b";\n" + source


def routes(static: Path) -> list[Route]:
    build = Build(static)

    async def worker(request: Request):
        if not (static / WORKER).exists():
            return PlainTextResponse("the web client is not built yet", status_code=404)
        # (never from a cache: the browser compares these bytes to find a new deploy)
        return Response(build.worker(), media_type="text/javascript; charset=utf-8", headers=NO_CACHE)

    async def manifest(request: Request):
        if not (static / MANIFEST).exists():
            return PlainTextResponse("the web client is not built yet", status_code=404)
        return FileResponse(static / MANIFEST, media_type="application/manifest+json", headers=NO_CACHE)

    return [Route("/sw.js", worker), Route(f"/{MANIFEST}", manifest)]
