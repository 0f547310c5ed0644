"""Who a request is signed in as (issue 40): the session cookie, looked up in the store. In the
core because more than one feature asks (the accounts, the notifications) and a socket's
connection carries it (``serve_socket``); what an account is, and how one signs in, is the
accounts feature's (server/accounts/).

And who a request or socket is as a person, for "one seat a person" at a table (issue 56,
point 7): its account where signed in, else its browser (the ``tarocchi_browser`` cookie), else
(no cookie: a script) its address. Two people behind one address (a household, an office, a
phone carrier) are two people; the address counts only in budgets."""

from __future__ import annotations

import hashlib
import re
import secrets

from .store import address_key
from .store.people import People

COOKIE = "tarocchi_session"
BROWSER_COOKIE = "tarocchi_browser"  # a browser's random id (128 bits), first-party, HttpOnly
BROWSER_SECONDS = 365 * 24 * 3600  # ... kept a year
_BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)


def signed_in(people: People, request) -> dict | None:
    """The account a request (or a websocket's handshake) is signed in to: {id, name,
    session}; None without a live session."""
    cookie = request.cookies.get(COOKIE)
    if not cookie or len(cookie) > 100:
        return None
    return people.session_account(cookie)


def browser_id(connection) -> str | None:
    """The browser id a request or a websocket's handshake carries (``BROWSER_COOKIE``), or
    None (none, or not one the server gives: it counts as none)."""
    cookies = getattr(connection, "cookies", None) or {}
    value = cookies.get(BROWSER_COOKIE)
    return value if value and _BROWSER_ID.fullmatch(value) else None


def person_key(kind: str, value: str) -> str:
    """An account or a browser as the store keeps it among the visits and claims: a hash, as
    ``address_key`` hashes an address (an address's key is ``address_key`` itself)."""
    return hashlib.sha256(f"tarocchi-person:{kind}:{value}".encode()).hexdigest()[:32]


def persons(people: People, connection, address: str | None, given: str | None = None) -> list[str]:
    """The keys a request or socket counts as for one seat a person (issue 56): its account's
    when signed in, its browser's (``given``: the id this very answer gives a browser that had
    none), and its address's when it carries no browser id (a script, or a browser's very first
    request). A table any of them has been at is one it may not take a seat of. A socket a relay
    passed on carries the keys the relay found (``RemoteSocket.persons``, site.py)."""
    relayed = getattr(connection, "persons", None)
    if relayed is not None:
        return list(relayed)
    keys = []
    if getattr(connection, "cookies", None) is not None:
        account = signed_in(people, connection)
        if account is not None:
            keys.append(person_key("account", account["id"]))
    browser = browser_id(connection)
    if browser is not None:
        keys.append(person_key("browser", browser))
    else:
        if given is not None:
            keys.append(person_key("browser", given))
        if address is not None:
            keys.append(address_key(address))
    return keys


def device_of(connection, account: str | None, address: str | None) -> str | None:
    """The browser a seat's socket came from, as its key (``person_key``), or None (a script,
    a test's socket): two accounts that sat down from one browser are not rated against each
    other (issue 56). A relayed socket's is among the keys its relay found: what is neither its
    account's nor its address's."""
    relayed = getattr(connection, "persons", None)
    if relayed is not None:
        others = set(relayed) - {person_key("account", account or ""), address_key(address or "")}
        return min(others) if others else None
    browser = browser_id(connection)
    return person_key("browser", browser) if browser is not None else None


def gives_browser_id(handler):
    """``handler`` (a route's), answering a request that carries no browser id with a new one
    (``BROWSER_COOKIE``): the handler finds it as ``request.state.browser`` (else None), for
    ``persons``. The pages and the lobby's routes give one, so a browser has its id before it
    opens a seat or takes one."""
    async def serve(request):
        request.state.browser = secrets.token_urlsafe(16) if browser_id(request) is None else None
        response = await handler(request)
        if request.state.browser is not None:
            response.set_cookie(BROWSER_COOKIE, request.state.browser, max_age=BROWSER_SECONDS, path="/",
                                httponly=True, samesite="lax", secure=request.url.scheme in ("https", "wss"))
        return response
    return serve
