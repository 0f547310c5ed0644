"""The page and its files (issue 60, tarocchi/server/assets.py): the static files named by their
content's hash and kept a year, the page with no-cache and an ETag (a 304 on repeat), gzip for
the files and the large JSON answers, an import map that names only files that exist, by their
hash, and the signed-in hint cookie beside the session (the page asks GET /api/me only then)."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import warnings

import httpx
import pytest

with warnings.catch_warnings():  # Starlette asks for httpx2, which the project does not pin
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from tarocchi.server import app as server_app
from tarocchi.server.accounts import SIGNED_IN_HINT
from tarocchi.server.app import STATIC, create_app
from tests.server.live import running_server
from tests.server.test_public import person

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
PLAIN = {"Accept-Encoding": "identity"}
YEAR = "public, max-age=31536000, immutable"


def digest(rel: str) -> str:
    return hashlib.sha256((STATIC / rel).read_bytes()).hexdigest()[:12]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(str(tmp_path_factory.mktemp("db") / "t.sqlite3"))) as c:
        yield c


def import_map(page: str) -> dict[str, str]:
    (found,) = re.findall(r'<script type="importmap">(.*?)</script>', page)
    return json.loads(found)["imports"]


def test_a_static_file_comes_gzipped_to_a_browser_that_takes_it_and_plain_to_one_that_does_not(client):
    body = (STATIC / "app.js").read_bytes()
    packed = client.get("/static/app.js", headers=GZIP)
    assert packed.headers["content-encoding"] == "gzip" and "Accept-Encoding" in packed.headers["vary"]
    assert int(packed.headers["content-length"]) < len(body) / 2  # (what goes over the wire)
    assert packed.content == body  # (httpx undoes the gzip: the bytes are the file's)
    assert packed.headers["content-type"].startswith("text/javascript")
    plain = client.get("/static/app.js", headers=PLAIN)
    assert "content-encoding" not in plain.headers and plain.content == body
    # Compressed once, not at every request: the same bytes each time (gzip's time left out).
    with client.stream("GET", "/static/app.js", headers=GZIP) as r:
        first = b"".join(r.iter_raw())
    with client.stream("GET", "/static/app.js", headers=GZIP) as r:
        assert b"".join(r.iter_raw()) == first
    assert gzip.decompress(first) == body
    # An image is not gzipped again.
    assert "content-encoding" not in client.get("/static/icons/icon-192.png", headers=GZIP).headers


def test_a_hashed_name_is_kept_a_year_and_a_plain_one_revalidated(client):
    h = digest("style.css")
    hashed = client.get(f"/static/style.css?v={h}")
    assert hashed.status_code == 200 and hashed.headers["cache-control"] == YEAR
    assert hashed.headers["etag"] == f'"{h}"'
    plain = client.get("/static/style.css")
    assert plain.headers["cache-control"] == "no-cache" and plain.headers["etag"] == f'"{h}"'
    assert client.get("/static/style.css", headers={"If-None-Match": f'"{h}"'}).status_code == 304
    # An old page's name (another hash): the file now, not kept as if it were that name's.
    old = client.get("/static/style.css?v=000000000000")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    for bad in ("/static/../server/app.py", "/static/%2e%2e/server/app.py", "/static/nothing.js", "/static/help"):
        assert client.get(bad).status_code == 404, bad


@pytest.mark.parametrize("path", ["/", "/t/abcdef", "/account", "/mod"])
def test_the_page_is_revalidated_with_its_etag_and_names_only_files_that_exist_by_their_hash(client, path):
    page = client.get(path, headers=GZIP)
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache, private"
    assert page.headers["content-encoding"] == "gzip"
    assert client.get(path, headers={"If-None-Match": page.headers["etag"]}).status_code == 304
    names = import_map(page.text)
    assert "/static/app.js" in names and "/static/games/sicilian.js" in names
    for plain, hashed in names.items():
        rel = plain.removeprefix("/static/")
        assert hashed == f"{plain}?v={digest(rel)}", plain
    # Every /static/ URL the page names (its style, icons, script, preloads) is hashed and exists.
    urls = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    assert any("modulepreload" in line for line in page.text.splitlines())
    for url in urls:
        rel, _, v = url.removeprefix("/static/").partition("?v=")
        assert v == digest(rel), url


def test_each_page_preloads_its_own_modules_and_not_the_others(client):
    def preloads(path):
        return {u.split("?")[0] for u in re.findall(r'<link rel="modulepreload" href="([^"]+)"', client.get(path).text)}
    lobby, table = preloads("/"), preloads("/t/abcdef")
    assert {"/static/app.js", "/static/lobby.js", "/static/i18n.js", "/static/players.js"} <= lobby
    assert not lobby & {"/static/hint.js", "/static/replay.js"}
    assert {"/static/app.js", "/static/hint.js", "/static/replay.js", "/static/lines.js"} <= table
    assert "/static/players.js" not in table
    # A player's games (issue 58): its own module, on its page alone; the profile's stays its own.
    games, profile = preloads("/@/Anna/games"), preloads("/@/Anna")
    assert {"/static/archive.js", "/static/players.js"} <= games and not games & {"/static/hint.js", "/static/replay.js"}
    assert "/static/archive.js" not in profile | lobby | table and "/static/players.js" in profile
    # The daily deal's page (issue 59): its module and catalogue, and neither anywhere else.
    daily = preloads("/daily/sicilian")
    assert {"/static/app.js", "/static/daily.js", "/static/daily.i18n.js"} <= daily
    assert not daily & {"/static/hint.js", "/static/replay.js", "/static/players.js"}
    assert not (lobby | table) & {"/static/daily.js", "/static/daily.i18n.js"}
    tournament = preloads("/tournament/abcdef")  # (issue 59: its page and what it imports, no table's)
    assert {"/static/tournament.js", "/static/tournament.i18n.js", "/static/players.js"} <= tournament
    assert not tournament & {"/static/hint.js", "/static/replay.js"}
    assert "/static/tournament.js" not in lobby | table
    # The moderators' page (issue 58) preloads its own module, and no other page does; the Report
    # dialog's module comes when its button is pressed, with no page.
    moderation = preloads("/mod")
    assert {"/static/app.js", "/static/mod.js"} <= moderation
    assert not moderation & {"/static/hint.js", "/static/replay.js", "/static/players.js"}
    for path in ("/", "/t/abcdef", "/@/Anna", "/leaderboard/sicilian", "/account"):
        assert not preloads(path) & {"/static/mod.js", "/static/report.js"}, path


def test_a_deploy_is_seen_at_once(tmp_path, monkeypatch):
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    monkeypatch.setattr(server_app, "STATIC", static)
    with TestClient(create_app(str(tmp_path / "t.sqlite3"))) as c:
        before = import_map(c.get("/").text)["/static/lobby.js"]
        (static / "lobby.js").write_text((static / "lobby.js").read_text(encoding="utf-8") + "\n// deployed\n")
        after = import_map(c.get("/").text)["/static/lobby.js"]
        assert after != before and c.get(after).text.endswith("// deployed\n")
        assert c.get(after).headers["cache-control"] == YEAR
        assert c.get(before).headers["cache-control"] == "no-cache"  # (the old name: not the old bytes)


def test_a_large_json_answer_is_gzipped_and_a_small_one_is_not(client):
    games = client.get("/api/games", headers=GZIP)
    assert games.status_code == 200 and games.headers["content-encoding"] == "gzip"
    assert games.json()["games"]  # (decoded: the same JSON)
    small = client.get("/api/levels", headers=GZIP)
    assert small.status_code == 200 and "content-encoding" not in small.headers


def test_the_socket_is_not_touched_by_the_compression(client):
    with client.websocket_connect("/ws/nothere") as ws:
        first = ws.receive_json()
        assert first["type"] == "error"


def test_signing_in_sets_a_readable_hint_beside_the_session_and_signing_out_takes_it():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(7)) as c:
        r = c.post("/api/account", json={"name": "Hinta", "password": "segreto123"})
        assert r.status_code == 201
        cookies = r.headers.get_list("set-cookie")
        (hint,) = [k for k in cookies if k.startswith(f"{SIGNED_IN_HINT}=1")]
        assert "httponly" not in hint.lower() and "path=/" in hint.lower()
        assert c.cookies.get(SIGNED_IN_HINT) == "1"
        assert c.delete("/api/session").status_code == 204
        assert c.cookies.get(SIGNED_IN_HINT) is None
        signed_in_again = c.post("/api/session", json={"name": "Hinta", "password": "segreto123"})
        assert signed_in_again.status_code == 200 and c.cookies.get(SIGNED_IN_HINT) == "1"
