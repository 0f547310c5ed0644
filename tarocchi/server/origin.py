"""Requests from other sites' pages are refused (issue 40): every request that may change
something (any method but GET, HEAD and OPTIONS) and every websocket handshake whose ``Origin``
is not this site's. A browser always sends ``Origin`` with those; a script sends none, and
holds no cookie of a player's (SameSite=Lax keeps it out of other sites' requests besides), so
it is let through as before. This site's origin is the scheme the request came over (http or
https: as uvicorn reports it, which is the trusted proxy's ``X-Forwarded-Proto`` behind one;
a websocket's ws and wss are http and https) with the ``Host`` it came to (the proxy passes it
on, docs/operations.md): scheme, host and port must all be the same (issue 55: an https page
is not an http site's, nor an http page an https site's)."""

from __future__ import annotations

import json
import urllib.parse

OTHER_SITE = "this request comes from another site's page"
CLOSE_OTHER_SITE = 4403
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
PAGE_SCHEME = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
DEFAULT_PORT = {"http": 80, "https": 443}


def same_site(scope) -> bool:
    """Whether the request's ``Origin``, if it has one, is the site's own origin (above)."""
    headers = dict(scope["headers"])
    origin = headers.get(b"origin")
    if origin is None:
        return True
    ours = site_origin(PAGE_SCHEME.get(scope.get("scheme", ""), ""), headers.get(b"host", b"").decode("latin-1"))
    theirs = site_origin(*origin.decode("latin-1").split("://", 1)) if b"://" in origin else None
    return ours is not None and ours == theirs  # ("null": a sandboxed frame, a file: never ours)


def site_origin(scheme: str, authority: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin written as its scheme and ``host[:port]``, the port
    filled in from the scheme; None if it is not an http or https origin."""
    scheme = scheme.lower()
    if scheme not in DEFAULT_PORT or not authority or any(c in authority for c in "/?#@\\"):
        return None
    try:
        parts = urllib.parse.urlsplit(f"{scheme}://{authority}")
        port = DEFAULT_PORT[scheme] if parts.port is None else parts.port
    except ValueError:
        return None
    return (scheme, parts.hostname, port) if parts.hostname else None


class SameSiteOnly:
    """ASGI middleware: the check above before the app sees the request. Not a coroutine of its
    own: it hands back the app's (or the refusal's), so it adds no level to the coroutines a
    socket resumes with each message."""

    def __init__(self, app):
        self.app = app

    def __call__(self, scope, receive, send):
        if (scope["type"] == "http" and scope["method"] not in SAFE or scope["type"] == "websocket") \
                and not same_site(scope):
            return refuse(scope, send)
        return self.app(scope, receive, send)


async def refuse(scope, send) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": CLOSE_OTHER_SITE, "reason": OTHER_SITE})
        return
    body = json.dumps({"error": OTHER_SITE}).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
