"""Passkeys in a real browser (issue 40): static/passkeys.js against the server, with Chromium's
virtual authenticator (the DevTools protocol's WebAuthn domain) in place of a person's device.
The page is on http://localhost (a secure context, and a host name: an IP address is no RP ID)."""

from __future__ import annotations

import pytest

from tarocchi.server.accounts import NAME_TAKEN

pytestmark = pytest.mark.browser

CALL = "async ([fn, ...args]) => { const m = await import('/static/passkeys.js'); return await m[fn](...args); }"
# The same, answering {error: message, kind: the Error's name} instead of throwing.
TRY = ("async ([fn, ...args]) => { const m = await import('/static/passkeys.js');"
       " try { return await m[fn](...args); } catch (e) { return {error: e.message, kind: e.name}; } }")
FETCH = ("async ([method, path, body]) => { const r = await fetch(path, {method,"
         " headers: {'Content-Type': 'application/json'}, body: body && JSON.stringify(body)});"
         " return {status: r.status, body: r.status === 204 ? null : await r.json()}; }")


def device(page) -> None:
    """A platform authenticator that keeps passkeys and verifies its person without asking."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    page.cdp = cdp


def open_site(live_server, new_page):
    page = new_page()
    page.goto(f"http://localhost:{live_server.port}/")
    device(page)
    return page


def test_sign_up_with_a_passkey_then_sign_in_with_it(live_server, new_page):
    page = open_site(live_server, new_page)
    assert page.evaluate(CALL, ["passkeysOffered"]) is True
    made = page.evaluate(CALL, ["passkeySignUp", "Anna"])
    assert made["name"] == "Anna" and len(made["recovery_codes"]) == 8
    me = page.evaluate(FETCH, ["GET", "/api/me", None])
    assert me["status"] == 200 and me["body"]["password"] is False and len(me["body"]["passkeys"]) == 1

    assert page.evaluate(FETCH, ["DELETE", "/api/session", None])["status"] == 204
    assert page.evaluate(FETCH, ["GET", "/api/me", None])["status"] == 401
    assert page.evaluate(CALL, ["passkeySignIn"]) == {"name": "Anna"}
    me = page.evaluate(FETCH, ["GET", "/api/me", None])
    assert me["status"] == 200 and me["body"]["name"] == "Anna"

    # The server's refusal comes back as the Error's message.
    taken = page.evaluate(TRY, ["passkeySignUp", "anna"])
    assert taken == {"error": NAME_TAKEN, "kind": "Error"}
    assert page.errors == []


def test_a_passkey_added_to_a_password_account(live_server, new_page):
    page = open_site(live_server, new_page)
    made = page.evaluate(FETCH, ["POST", "/api/account", {"name": "Bruno", "password": "secret words"}])
    assert made["status"] == 201
    added = page.evaluate(CALL, ["addPasskey"])
    assert len(added["passkeys"]) == 1
    # The same device again: the account's passkey is excluded, the browser refuses.
    again = page.evaluate(TRY, ["addPasskey"])
    assert again["kind"] == "InvalidStateError", again

    page.evaluate(FETCH, ["DELETE", "/api/session", None])
    assert page.evaluate(CALL, ["passkeySignIn"]) == {"name": "Bruno"}
    assert page.evaluate(FETCH, ["GET", "/api/me", None])["body"]["password"] is True
    assert page.errors == []
