"""Every route of the server is in docs/protocol.md (issue 58): each HTTP method and path the app
answers, written as `METHOD /path` in a table of that file (a placeholder in braces or angle
brackets, whatever its name), and each WebSocket path as `/ws/...`. A route added without its
line there fails here."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.routing import Route, WebSocketRoute

from tarocchi.server.app import create_app

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
PLACEHOLDER = re.compile(r"\{[^}]*\}|<[^>]*>")


def shape(path: str) -> str:
    """A path with each placeholder as ``{}`` (``{n:int}``, ``<item id>``, ``{watch token}``)."""
    return PLACEHOLDER.sub("{}", path)


def documented() -> set[tuple[str, str]]:
    """(method, path shape) of every `METHOD /path` in the protocol's text; WEBSOCKET for the
    WebSocket paths its headings name."""
    text = PROTOCOL.read_text(encoding="utf-8")
    path = r"(/(?:\{[^}]*\}|<[^>]*>|[^`\s?{<])*)"  # (a placeholder may hold a space: {watch token})
    found = {(m, shape(p)) for m, p in re.findall(r"`(GET|POST|PUT|PATCH|DELETE) " + path, text)}
    found |= {("WEBSOCKET", shape(p)) for p in re.findall(r"WebSocket `(/[^`\s]*)`", text)}
    return found


def test_every_route_of_the_app_is_in_the_protocol(tmp_path):
    app = create_app(str(tmp_path / "routes.sqlite3"))
    wanted = set()
    for route in app.routes:
        if isinstance(route, WebSocketRoute):
            wanted.add(("WEBSOCKET", shape(route.path)))
        elif isinstance(route, Route):
            wanted |= {(m, shape(route.path)) for m in route.methods if m != "HEAD"}  # (HEAD: GET's own)
    assert len(wanted) > 60
    missing = sorted(wanted - documented())
    assert not missing, f"routes missing from docs/protocol.md: {missing}"
