"""Who a request is signed in as (issue 40): the session cookie, looked up in the store. In the
core because more than one feature asks (the accounts, the notifications) and a socket's
connection carries it (``serve_socket``); what an account is, and how one signs in, is the
accounts feature's (server/accounts/)."""

from __future__ import annotations

from .store.people import People

COOKIE = "tarocchi_session"


def signed_in(people: People, request) -> dict | None:
    """The account a request (or a websocket's handshake) is signed in to: {id, name,
    session}; None without a live session."""
    cookie = request.cookies.get(COOKIE)
    if not cookie or len(cookie) > 100:
        return None
    return people.session_account(cookie)
