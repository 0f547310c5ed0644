"""Requests from other sites' pages are refused (issue 40): every request that may change
something (any method but GET, HEAD and OPTIONS) and every websocket handshake whose ``Origin``
is not this site's. A browser always sends ``Origin`` with those; a script sends none, and
holds no cookie of a player's (SameSite=Lax keeps it out of other sites' requests besides), so
it is let through as before. This site is the ``Host`` the request came to (the proxy passes
it on, docs/operations.md)."""

from __future__ import annotations

import json
import urllib.parse

OTHER_SITE = "this request comes from another site's page"
CLOSE_OTHER_SITE = 4403
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def same_site(headers: dict[bytes, bytes]) -> bool:
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"").decode("latin-1").lower()
    try:
        parts = urllib.parse.urlsplit(origin.decode("latin-1"))
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False  # ("null": a sandboxed frame, a file)
    default = 443 if parts.scheme == "https" else 80
    netloc = parts.netloc.lower()
    theirs = netloc if parts.port else f"{netloc}:{default}"
    ours = host if ":" in host.rpartition("]")[2] else f"{host}:{default}"
    return theirs == ours


class SameSiteOnly:
    """ASGI middleware: the check above before the app sees the request. Not a coroutine of its
    own: it hands back the app's (or the refusal's), so it adds no level to the coroutines a
    socket resumes with each message."""

    def __init__(self, app):
        self.app = app

    def __call__(self, scope, receive, send):
        if (scope["type"] == "http" and scope["method"] not in SAFE or scope["type"] == "websocket") \
                and not same_site(dict(scope["headers"])):
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
