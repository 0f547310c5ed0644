"""The installable app's server side (tarocchi/server/installable.py): /sw.js is the worker with
this build written above it, a version that follows the static files' contents (so a deploy, or
a file edited under a running server, gives a new worker), and the manifest with its type.
The browser's side: tests/browser/test_installable.py."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import warnings

with warnings.catch_warnings():  # Starlette asks for httpx2, which the project does not pin
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from starlette.applications import Starlette

from tarocchi.server import assets, installable
from tarocchi.server.app import STATIC, create_app
from tarocchi.server.installable import Build


def build_of(worker: str) -> dict:
    first = worker.split("\n", 1)[0]
    assert first.startswith("self.BUILD = ") and first.endswith(";")
    return json.loads(first.removeprefix("self.BUILD = ").removesuffix(";"))


def test_the_worker_and_the_manifest_from_the_root(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.sqlite3"))) as client:
        worker = client.get("/sw.js")
        assert worker.status_code == 200
        assert worker.headers["content-type"] == "text/javascript; charset=utf-8"
        assert worker.headers["cache-control"] == "no-cache"
        assert worker.text.endswith((STATIC / "sw.js").read_text(encoding="utf-8"))
        build = build_of(worker.text)
        assert build == Build(STATIC).current()
        manifest = client.get("/manifest.webmanifest")
        assert manifest.status_code == 200
        assert manifest.headers["content-type"] == "application/manifest+json"
        assert manifest.headers["cache-control"] == "no-cache"
        data = manifest.json()
        assert (data["start_url"], data["scope"], data["display"]) == ("/", "/", "standalone")
        # Every file the worker keeps at install, and every icon, is served: one missing would
        # fail the worker's install.
        for url in build["files"] + [i["src"] for i in data["icons"]]:
            assert client.get(url).status_code == 200, url


def plain(url: str) -> str:
    return url.split("?", 1)[0]


def test_the_files_kept_at_once_are_the_pages_scripts_and_styles():
    hashed = Build(STATIC).current()["files"]
    assert hashed[:2] == ["/", "/manifest.webmanifest"]
    # Named as the page names them (issue 60): /static/<file>?v=<its content's hash>.
    for url in hashed[2:]:
        assert url == f"{plain(url)}?v={hashlib.sha256((STATIC / plain(url).removeprefix('/static/')).read_bytes()).hexdigest()[:12]}"
    files = [plain(u) for u in hashed]
    on_disk = {f"/static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*.js")} - {"/static/sw.js"}
    assert on_disk <= set(files)
    assert "/static/style.css" in files
    assert not [f for f in files if f.startswith(("/static/help/", "/static/icons/"))]


def test_the_version_follows_the_files_contents(tmp_path):
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    build = Build(static)
    first = build.current()["version"]
    assert len(first) == 16 and build.current()["version"] == first
    assert first == Build(STATIC).current()["version"]  # the contents, not where they lie
    css = static / "style.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* a deploy */\n", encoding="utf-8")
    second = build.current()["version"]
    assert second != first
    assert b"a deploy" not in build.worker() and second.encode() in build.worker()
    # Touched, not changed: the same version.
    os.utime(css, ns=(css.stat().st_atime_ns, css.stat().st_mtime_ns + 10**9))
    assert build.current()["version"] == second
    (static / "games" / "new.js").write_text("export default {name: 'new'};\n", encoding="utf-8")
    third = build.current()
    assert third["version"] != second and "/static/games/new.js?v=" + assets.content_hash(b"export default {name: 'new'};\n") in third["files"]


def test_a_folder_without_the_client_answers_404(tmp_path):
    app = Starlette(routes=installable.routes(tmp_path))
    with TestClient(app) as client:
        assert client.get("/sw.js").status_code == 404
        assert client.get("/manifest.webmanifest").status_code == 404
