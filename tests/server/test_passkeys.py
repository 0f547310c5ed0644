"""Passkeys (issue 40): the WebAuthn ceremonies against a real server, the browser's side played
by a software authenticator written here (an EC P-256 key, an attestation of format "none",
the client data and authenticator data built and signed by hand, as a browser and its
authenticator would): sign-up with a passkey alone, a passkey added to an account, sign-in
without a name; challenges used once, over after their time, bound to the site's origin; an
unknown passkey answered as a wrong password; the account found by its passkey."""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import secrets
import sqlite3
import struct
import time

import cbor2
import httpx
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

from tarocchi.server.accounts import NAME_TAKEN, WRONG
from tarocchi.server.accounts.passkeys import COOKIE, EXPIRED, KNOWN, NOT_REGISTERED
from tarocchi.server.core.store import open_store

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, verified, attested data


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """A platform authenticator in software: resident credentials (one per site and user
    handle, as a real one keeps them), each an EC P-256 key with a sign count. ``create`` and
    ``get`` take the server's options and answer as ``navigator.credentials`` would, in the JSON
    the client sends (docs/protocol.md); ``origin`` is the page's, as the browser writes it."""

    def __init__(self, origin: str, counts: bool = True):
        self.origin = origin
        self.counts = counts  # (many passkeys keep their sign count at 0)
        self.credentials: list[dict] = []

    def create(self, options: dict, *, origin: str | None = None, rp_id: str | None = None) -> dict:
        assert options["authenticatorSelection"]["residentKey"] == "required"
        excluded = {c["id"] for c in options.get("excludeCredentials", [])}
        assert not excluded & {c["id"] for c in self.credentials}, "a browser refuses: registered already"
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        raw_id = secrets.token_bytes(16)
        rp = rp_id or options["rp"]["id"]
        user = options["user"]["id"]
        # A new credential for the same site and user replaces the one kept (as on a real authenticator).
        self.credentials = [c for c in self.credentials if (c["rp"], c["user"]) != (rp, user)]
        self.credentials.append({"id": b64(raw_id), "key": key, "rp": rp, "user": user, "count": 0})
        auth_data = (hashlib.sha256(rp.encode()).digest() + bytes([UP | UV | AT]) + struct.pack(">I", 0)
                     + bytes(16) + struct.pack(">H", len(raw_id)) + raw_id + cose)
        client_data = self.client_data("webauthn.create", options["challenge"], origin)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(raw_id), "rawId": b64(raw_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "attestationObject": b64(attestation),
                             "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def get(self, options: dict, *, which: int = -1, origin: str | None = None, count: int | None = None,
            user: str | None = None) -> dict:
        """An assertion with the credential ``which`` of those for the options' site (the
        browser's list: a person picks one)."""
        assert options["allowCredentials"] == [] and options["userVerification"] == "preferred"
        mine = [c for c in self.credentials if c["rp"] == options["rpId"]]
        credential = mine[which]
        if self.counts:
            credential["count"] += 1
        auth_data = (hashlib.sha256(credential["rp"].encode()).digest() + bytes([UP | UV])
                     + struct.pack(">I", credential["count"] if count is None else count))
        client_data = self.client_data("webauthn.get", options["challenge"], origin)
        signature = credential["key"].sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": credential["id"], "rawId": credential["id"], "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
                             "signature": b64(signature), "userHandle": user or credential["user"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}).encode()


ADDRESSES = itertools.cycle(range(1, 255))


def browser(server) -> httpx.Client:
    """A browser of its own (its cookies) at an address of its own (the sign-in budgets)."""
    return httpx.Client(base_url=server.url, headers={"X-Forwarded-For": f"203.0.113.{next(ADDRESSES)}",
                                                      "Origin": server.url})


def sign_up(client: httpx.Client, authenticator: Authenticator, name: str) -> dict:
    options = client.post("/api/passkeys/signup/options", json={"name": name})
    assert options.status_code == 200, options.text
    done = client.post("/api/passkeys/signup", json={"credential": authenticator.create(options.json())})
    assert done.status_code == 201, done.text
    return done.json()


def sign_in(client: httpx.Client, authenticator: Authenticator, **how) -> httpx.Response:
    options = client.post("/api/passkeys/signin/options")
    assert options.status_code == 200, options.text
    return client.post("/api/passkeys/signin", json={"credential": authenticator.get(options.json(), **how)})


def test_sign_up_with_a_passkey_then_sign_in_with_it(live_server):
    anna, key = browser(live_server), Authenticator(live_server.url)
    options = anna.post("/api/passkeys/signup/options", json={"name": "Anna"})
    body = options.json()
    assert body["rp"] == {"name": "Tarocchi", "id": "127.0.0.1"}
    assert body["user"]["name"] == "Anna" and len(unb64(body["challenge"])) >= 16
    assert body["attestation"] == "none" and body["authenticatorSelection"]["userVerification"] == "preferred"
    cookie = options.headers["set-cookie"].lower()
    assert cookie.startswith(COOKIE) and "httponly" in cookie and "samesite=strict" in cookie
    assert "path=/api/passkeys" in cookie and "max-age=120" in cookie
    done = anna.post("/api/passkeys/signup", json={"credential": key.create(body)})
    assert done.status_code == 201
    assert done.json()["name"] == "Anna" and len(done.json()["recovery_codes"]) == 8
    me = anna.get("/api/me").json()
    assert me["name"] == "Anna" and me["password"] is False and len(me["passkeys"]) == 1
    assert me["passkeys"][0]["id"] == key.credentials[0]["id"]

    elsewhere = browser(live_server)  # another browser, the same passkey (synced, or a key)
    assert elsewhere.get("/api/me").status_code == 401
    signed = sign_in(elsewhere, key)
    assert signed.status_code == 200 and signed.json() == {"name": "Anna"}
    assert elsewhere.get("/api/me").json()["name"] == "Anna"
    assert len(elsewhere.get("/api/me").json()["sessions"]) == 2


def test_a_name_is_checked_as_at_sign_up(live_server):
    anna = browser(live_server)
    sign_up(anna, Authenticator(live_server.url), "Anna")
    other = browser(live_server)
    taken = other.post("/api/passkeys/signup/options", json={"name": "anna"})
    assert taken.status_code == 409 and taken.json()["error"] == NAME_TAKEN
    assert other.post("/api/passkeys/signup/options", json={"name": "a b"}).status_code == 400
    # Taken between the two steps (by a password's sign-up): still refused, nothing made.
    key = Authenticator(live_server.url)
    options = other.post("/api/passkeys/signup/options", json={"name": "Bruno"}).json()
    password = browser(live_server).post("/api/account", json={"name": "bruno", "password": "secret words"})
    assert password.status_code == 201
    late = other.post("/api/passkeys/signup", json={"credential": key.create(options)})
    assert late.status_code == 409 and late.json()["error"] == NAME_TAKEN
    assert sign_in(browser(live_server), key).status_code == 401


def test_signing_in_finds_the_account_of_the_passkey(live_server):
    shared = Authenticator(live_server.url)  # one device, two people's passkeys on it
    sign_up(browser(live_server), shared, "Anna")
    sign_up(browser(live_server), shared, "Bruno")
    sign_up(browser(live_server), Authenticator(live_server.url), "Carla")
    for which, name in ((0, "Anna"), (1, "Bruno")):
        client = browser(live_server)
        assert sign_in(client, shared, which=which).json() == {"name": name}
        assert client.get("/api/me").json()["name"] == name
    # A passkey whose user handle names another account (the authenticator's bookkeeping is
    # not the site's): refused.
    anna_handle = shared.credentials[0]["user"]
    mixed = sign_in(browser(live_server), shared, which=1, user=anna_handle)
    assert mixed.status_code == 401 and mixed.json() == {"error": WRONG}


def replay(server, path: str, cookie: str, credential: dict) -> httpx.Response:
    """The same request again, its challenge's cookie and all."""
    return httpx.post(server.url + path, json={"credential": credential}, headers={"Cookie": f"{COOKIE}={cookie}"})


def test_a_challenge_is_used_once(live_server):
    key = Authenticator(live_server.url)
    anna = browser(live_server)
    options = anna.post("/api/passkeys/signup/options", json={"name": "Anna"}).json()
    credential = key.create(options)
    cookie = anna.cookies.get(COOKIE)
    assert anna.post("/api/passkeys/signup", json={"credential": credential}).status_code == 201
    assert anna.cookies.get(COOKIE) is None  # (the cookie goes with its challenge)
    again = replay(live_server, "/api/passkeys/signup", cookie, credential)
    assert again.status_code == 400 and again.json()["error"] == EXPIRED

    client = browser(live_server)
    options = client.post("/api/passkeys/signin/options").json()
    assertion = key.get(options)
    cookie = client.cookies.get(COOKIE)
    assert client.post("/api/passkeys/signin", json={"credential": assertion}).status_code == 200
    replayed = replay(live_server, "/api/passkeys/signin", cookie, assertion)
    assert replayed.status_code == 400 and replayed.json()["error"] == EXPIRED
    # With a new challenge of its own, the old answer (signed over the old one) is refused.
    client.post("/api/passkeys/signin/options")
    stale = client.post("/api/passkeys/signin", json={"credential": assertion})
    assert stale.status_code == 401 and stale.json() == {"error": WRONG}
    # A challenge is for its own ceremony: a sign-in's cannot finish a sign-up.
    client.post("/api/passkeys/signin/options")
    assert client.post("/api/passkeys/signup", json={"credential": credential}).json()["error"] == EXPIRED


def test_another_origin_or_site_is_refused(live_server):
    key = Authenticator(live_server.url)
    anna = browser(live_server)
    for how in ({"origin": "https://tarocchi.example.org"}, {"origin": f"https://127.0.0.1:{live_server.port}"},
                {"rp_id": "tarocchi.example.org"}):
        options = anna.post("/api/passkeys/signup/options", json={"name": "Anna"}).json()
        refused = anna.post("/api/passkeys/signup", json={"credential": key.create(options, **how)})
        assert refused.status_code == 400 and refused.json()["error"] == NOT_REGISTERED, how
    sign_up(anna, key, "Anna")  # (the name was not taken by the refused ones)
    phished = sign_in(browser(live_server), key, origin="https://tarocchi.example.org")
    assert phished.status_code == 401 and phished.json() == {"error": WRONG}
    assert sign_in(browser(live_server), key).status_code == 200


def test_an_unknown_passkey_is_answered_as_a_wrong_password(live_server):
    sign_up(browser(live_server), Authenticator(live_server.url), "Anna")
    stranger = Authenticator(live_server.url)
    stranger.create({"authenticatorSelection": {"residentKey": "required"}, "rp": {"id": "127.0.0.1"},
                     "user": {"id": b64(b"someone")}, "challenge": b64(b"x")})
    client = browser(live_server)
    unknown = sign_in(client, stranger)
    password = browser(live_server).post("/api/session", json={"name": "Anna", "password": "not the password"})
    assert (unknown.status_code, unknown.json()) == (password.status_code, password.json()) == (401, {"error": WRONG})
    assert client.get("/api/me").status_code == 401
    client.post("/api/passkeys/signin/options")
    garbage = client.post("/api/passkeys/signin", json={"credential": {"id": 5, "response": "?"}})
    assert (garbage.status_code, garbage.json()) == (401, {"error": WRONG})


def test_an_expired_challenge_is_refused(live_server):
    key = Authenticator(live_server.url)
    sign_up(browser(live_server), key, "Anna")
    client = browser(live_server)
    options = client.post("/api/passkeys/signin/options").json()
    with sqlite3.connect(live_server.db) as db:  # two minutes later
        db.execute("UPDATE passkey_challenges SET expires_at = %s" % (time.time() - 1))
    late = client.post("/api/passkeys/signin", json={"credential": key.get(options)})
    assert late.status_code == 400 and late.json()["error"] == EXPIRED
    assert client.get("/api/me").status_code == 401
    # Those past their time are gone with the next one made.
    client.post("/api/passkeys/signin/options")
    with sqlite3.connect(live_server.db) as db:
        assert db.execute("SELECT count(*) FROM passkey_challenges").fetchone()[0] == 1


def test_a_sign_count_that_goes_back_is_refused(live_server):
    key = Authenticator(live_server.url)
    sign_up(browser(live_server), key, "Anna")
    assert sign_in(browser(live_server), key).status_code == 200  # count 1
    assert sign_in(browser(live_server), key).status_code == 200  # count 2
    clone = sign_in(browser(live_server), key, count=2)  # a copy of the key, behind the original
    assert clone.status_code == 401 and clone.json() == {"error": WRONG}
    # A passkey that keeps no count (0 always) signs in every time.
    still = Authenticator(live_server.url, counts=False)
    sign_up(browser(live_server), still, "Bruno")
    for _ in range(2):
        assert sign_in(browser(live_server), still).json() == {"name": "Bruno"}


def test_a_passkey_added_to_an_account_signs_in_to_it(live_server):
    anna = browser(live_server)
    assert anna.post("/api/passkeys/options").status_code == 401  # signed out
    assert anna.post("/api/account", json={"name": "Anna", "password": "secret words"}).status_code == 201
    key = Authenticator(live_server.url)
    options = anna.post("/api/passkeys/options").json()
    assert options["user"]["name"] == "Anna" and options["excludeCredentials"] == []
    added = anna.post("/api/passkeys", json={"credential": key.create(options)})
    assert added.status_code == 201 and [p["id"] for p in added.json()["passkeys"]] == [key.credentials[0]["id"]]
    # Its passkeys are excluded from the next one's options (a browser then says so).
    options = anna.post("/api/passkeys/options").json()
    assert [c["id"] for c in options["excludeCredentials"]] == [key.credentials[0]["id"]]

    client = browser(live_server)
    assert sign_in(client, key).json() == {"name": "Anna"}
    me = client.get("/api/me").json()
    assert me["name"] == "Anna" and me["password"] is True and len(me["passkeys"]) == 1
    # A challenge asked for while signed in to one account cannot add to another.
    options = anna.post("/api/passkeys/options").json()
    anna.delete("/api/session")
    assert anna.post("/api/account", json={"name": "Bruno", "password": "secret words"}).status_code == 201
    other = anna.post("/api/passkeys", json={"credential": Authenticator(live_server.url).create(options)})
    assert other.status_code == 400 and other.json()["error"] == EXPIRED


def test_a_passkey_is_registered_once(live_server):
    key = Authenticator(live_server.url)
    anna = browser(live_server)
    sign_up(anna, key, "Anna")
    first = key.credentials[0]["id"]
    options = anna.post("/api/passkeys/options").json()
    # The authenticator's very credential again, under a new challenge (past the browser, which
    # would refuse it as excluded).
    credential = key.create(options | {"excludeCredentials": []})
    raw = unb64(credential["response"]["attestationObject"])
    assert first != credential["id"]
    swapped = cbor2.loads(raw)
    auth = swapped["authData"]
    swapped["authData"] = auth[:55] + unb64(first) + auth[55 + 16:]
    credential = credential | {"id": first, "rawId": first}
    credential["response"] = credential["response"] | {"attestationObject": b64(cbor2.dumps(swapped))}
    known = anna.post("/api/passkeys", json={"credential": credential})
    assert known.status_code == 409 and known.json()["error"] == KNOWN


def test_sign_in_options_spend_the_addresss_sign_in_budget():
    # (the address's budget: three times a name's, as a household shares an address)
    from tarocchi.server.accounts import SIGN_IN_BURST
    from tests.server.live import running_server
    with running_server(sign_in=(SIGN_IN_BURST, 1e-4)) as server:
        client = browser(server)
        codes = [client.post("/api/passkeys/signin/options").status_code for _ in range(3 * SIGN_IN_BURST + 2)]
    assert codes[:3 * SIGN_IN_BURST] == [200] * (3 * SIGN_IN_BURST) and codes[-1] == 429


def test_a_challenge_is_taken_once_on_either_store(store_db):
    store = open_store(store_db)
    people = store.people
    key = people.new_challenge("signin", b"challenge", {"account": "a1"}, 60)
    assert people.take_challenge(key, "signup") is None  # (for another ceremony: and used up)
    key = people.new_challenge("signin", b"challenge", {"account": "a1"}, 60)
    assert people.take_challenge(key, "signin") == (b"challenge", {"account": "a1"})
    assert people.take_challenge(key, "signin") is None
    gone = people.new_challenge("signin", b"old", {}, -1)
    assert people.take_challenge(gone, "signin") is None
    assert people.take_challenge("no such key", "signin") is None
    store.close()
