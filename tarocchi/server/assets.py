"""The web client's files as a browser gets them (issue 60; docs/protocol.md, "The page and its
files"): each file under ``static/`` named by its content's hash, compressed once, and the page
(``index.html``) written with an import map and the preloads of the modules it shows.

- ``/static/<file>?v=<hash>`` is kept a year by browsers (``immutable``): ``<hash>`` is the first
  12 hex digits of the file's SHA-256, so a changed file has a new name. Without ``?v=`` (or with
  an old hash) the file is answered with ``no-cache`` and its ETag (a 304 on repeat).
- A text file is gzipped once (at its first request, again only when it changes) and the gzipped
  bytes sent to a browser that accepts them (``Vary: Accept-Encoding``).
- The page maps each module's plain URL (``/static/lobby.js``, what the sources import) to its
  hashed one, and preloads (``<link rel="modulepreload">``) what ``app.js`` imports statically
  (found by reading its ``import`` lines) and the modules ``app.js`` imports for that page alone
  (PAGE_MODULES). It is answered with ``no-cache`` and an ETag.

A file is read again only when its size or time changes (one ``stat`` a request), so a file edited
under a running server (a deploy) is seen at once, as the service worker's build sees it.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

HASH_DIGITS = 12
YEAR = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
# What the page's import map names (and import.meta.resolve finds): the modules, the styles the
# modules add and the lessons they fetch.
MAPPED = (".js", ".css", ".json")
COMPRESSED = (".js", ".css", ".json", ".html", ".svg", ".webmanifest", ".txt")
ENTRY = "app.js"
# The modules app.js imports with import() for one kind of page only (issue 60): preloaded with
# that page, so that they come beside app.js, not after it. The first prefix that a path starts
# with (or pattern that matches it from its start) decides; the lobby is "/" alone.
PAGE_MODULES: tuple[tuple[str | re.Pattern, tuple[str, ...]], ...] = (
    (re.compile(r"/@/[^/]+/games/?$"), ("archive.js",)),  # a player's games (issue 58)
    ("/t/", ("hint.js", "replay.js")),   # a seat's table: its hints and the deal's replay link
    ("/w/", ("hint.js", "replay.js")),   # a watched table
    ("/r/", ("replay.js",)),             # a replay
    ("/@/", ("players.js",)),            # a profile
    ("/leaderboard/", ("players.js",)),  # a leaderboard
    ("/daily/", ("daily.js",)),          # the daily deal's page (issue 59)
    ("/tournament/", ("tournament.js",)),  # a tournament's page (issue 59)
    ("/tournaments", ("tournament.js",)),  # the tournaments' list and the form to make one
    ("/mod", ("mod.js",)),               # the moderators' page (issue 58)
)
LOBBY_MODULES = ("players.js",)          # the lobby's leaderboards' links
# (social.js, a signed-in page's bell, challenges and friends, is preloaded by no page: a
# signed-out visitor's page never loads it, and a first visit is most often signed out.)
STATIC_IMPORT = re.compile(r"""^\s*import\s+(?:[^'";]*?\s+from\s+)?["'](\.{1,2}/[^"']+)["']""", re.MULTILINE)
STATIC_URL = re.compile(r"""(["'])/static/([^"'?#]+)\1""")

mimetypes.add_type("text/javascript", ".js")  # (Python 3.11 says application/javascript)
mimetypes.add_type("application/manifest+json", ".webmanifest")


def content_hash(data: bytes) -> str:
    """The name's hash of a file's bytes (the service worker's build uses the same)."""
    return hashlib.sha256(data).hexdigest()[:HASH_DIGITS]


def media_type(rel: str) -> str:
    kind = mimetypes.guess_type(rel)[0] or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith("text/") or kind.endswith(("javascript", "json")) else kind


@dataclass
class File:
    seen: tuple[int, int]
    body: bytes
    hash: str
    gzipped: bytes | None = field(default=None)
    imports: list[str] | None = field(default=None)

    def compressed(self, rel: str) -> bytes | None:
        """The gzipped bytes, made at the first ask and kept; None where gzip gains nothing."""
        if self.gzipped is None and rel.endswith(COMPRESSED):
            packed = gzip.compress(self.body, compresslevel=9, mtime=0)
            self.gzipped = packed if len(packed) < len(self.body) else b""
        return self.gzipped or None


class Assets:
    """The static folder: each file's bytes, hash and gzipped bytes, kept until it changes."""

    def __init__(self, static: Path):
        self.static = static
        self.kept: dict[str, File] = {}

    def file(self, rel: str) -> File | None:
        """The file at ``rel`` (a path under the folder; nothing hidden, nothing outside it)."""
        parts = rel.split("/")
        if not rel or any(p in ("", ".", "..") or p.startswith(".") or "\\" in p for p in parts):
            return None
        path = self.static.joinpath(*parts)
        try:
            stat = path.stat()
        except OSError:
            return None
        if not path.is_file():
            return None
        seen = (stat.st_size, stat.st_mtime_ns)
        kept = self.kept.get(rel)
        if kept is None or kept.seen != seen:
            body = path.read_bytes()
            kept = self.kept[rel] = File(seen, body, content_hash(body))
        return kept

    def names(self) -> list[str]:
        return sorted(p.relative_to(self.static).as_posix() for p in self.static.rglob("*")
                      if p.is_file() and not any(part.startswith(".") for part in p.relative_to(self.static).parts))

    def url(self, rel: str) -> str:
        """The hashed URL of a file (the plain one where it is missing)."""
        f = self.file(rel)
        return f"/static/{rel}?v={f.hash}" if f else f"/static/{rel}"

    def import_map(self) -> dict[str, str]:
        return {f"/static/{rel}": self.url(rel) for rel in self.names() if rel.endswith(MAPPED) and rel != "sw.js"}

    def static_imports(self, rel: str) -> list[str]:
        """``rel`` and every module it imports statically, itself first (import() not followed)."""
        order: list[str] = []
        todo = [rel]
        while todo:
            name = todo.pop(0)
            f = self.file(name)
            if name in order or f is None:
                continue
            order.append(name)
            if f.imports is None:
                base = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
                found = []
                for spec in STATIC_IMPORT.findall(f.body.decode("utf-8", "replace")):
                    parts: list[str] = []
                    for part in (base + spec).split("/"):
                        if part == "..":
                            if parts:
                                parts.pop()
                        elif part not in (".", ""):
                            parts.append(part)
                    found.append("/".join(parts))
                f.imports = found
            todo.extend(f.imports)
        return order

    def preloads(self, path: str) -> list[str]:
        """The modules the page at ``path`` loads at once: app.js's static graph and the page's own."""
        extra = LOBBY_MODULES if path == "/" else ()
        for prefix, modules in PAGE_MODULES:
            if prefix.match(path) if isinstance(prefix, re.Pattern) else path.startswith(prefix):
                extra = modules
                break
        order: list[str] = []
        for rel in [ENTRY, *extra]:
            order.extend(m for m in self.static_imports(rel) if m not in order)
        return order

    def page(self, path: str) -> bytes | None:
        """index.html for the page at ``path``: its /static/ URLs hashed, the import map and the
        preloads written before its first script."""
        index = self.file("index.html")
        if index is None:
            return None
        html = STATIC_URL.sub(lambda m: f"{m[1]}{self.url(m[2])}{m[1]}", index.body.decode("utf-8"))
        mapping = json.dumps({"imports": self.import_map()}, separators=(",", ":"))
        head = [f'<script type="importmap">{mapping}</script>']
        head += [f'<link rel="modulepreload" href="{self.url(rel)}">' for rel in self.preloads(path)]
        at = html.find("<script")
        at = at if at >= 0 else html.find("</head>")
        return (html[:at] + "\n  ".join(head) + "\n  " + html[at:]).encode("utf-8")


def answer(request: Request, body: bytes, *, media: str, etag: str, cache: str,
           gzipped: bytes | None = None) -> Response:
    """``body`` with its ETag (a 304 when the browser has it), gzipped where it may be."""
    headers = {"ETag": f'"{etag}"', "Cache-Control": cache}
    if gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if etag in [t.strip().removeprefix("W/").strip('"') for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    if gzipped is not None and accepts_gzip(request):
        headers["Content-Encoding"] = "gzip"
        body = gzipped
    if request.method == "HEAD":
        return Response(status_code=200, headers={**headers, "Content-Length": str(len(body)), "Content-Type": media})
    return Response(body, media_type=media, headers=headers)


def accepts_gzip(request: Request) -> bool:
    for item in request.headers.get("accept-encoding", "").split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().removeprefix("q=")
            return not (params.strip().startswith("q=") and _zero(q))
    return False


def _zero(q: str) -> bool:
    try:
        return float(q) == 0
    except ValueError:
        return False


@functools.lru_cache(maxsize=32)
def page_gzipped(body: bytes) -> bytes:
    """A page's gzip, made once per page as written (a few kinds of page: not at every request)."""
    return gzip.compress(body, compresslevel=6, mtime=0)


def index_page(assets: Assets):
    """The handler of every page's path: index.html written for that page, its ETag, never kept
    by a shared cache (``private``: the answer may set this browser's own id, issue 56)."""
    async def serve(request: Request):
        body = assets.page(request.url.path)
        if body is None:
            return PlainTextResponse("the web client is not built yet", status_code=503)
        return answer(request, body, media="text/html; charset=utf-8", etag=content_hash(body),
                      cache=f"{NO_CACHE}, private", gzipped=page_gzipped(body))
    return serve


def static_file(assets: Assets):
    """The handler of ``/static/{path}``."""
    async def serve(request: Request):
        rel = request.path_params["path"]
        f = assets.file(rel)
        if f is None:
            return PlainTextResponse("Not Found", status_code=404)
        cache = YEAR if request.query_params.get("v") == f.hash else NO_CACHE
        return answer(request, f.body, media=media_type(rel), etag=f.hash, cache=cache, gzipped=f.compressed(rel))
    return serve
