"""The account's keys (issue 55, points 2 and 3), tried as a thief would: a stolen session alone
adds no way in (the password or a passkey asked again, as GitHub's sudo mode), passkeys listed
and removable but never the last way in, a new password ends every other session, sessions end
unused and past their longest life; and budgets that slow a guesser without ever locking the
owner's own browser out (OWASP's device cookies), kept where a flood of other names cannot
evict them. Both stores where the store is involved."""

from __future__ import annotations

import sqlite3
import time

import httpx
import pytest

from tarocchi.server.accounts import (
    CONFIRM_FIRST, CONFIRM_SECONDS, DEVICE_COOKIE, LAST_WAY_IN, SIGN_IN_BURST, TOO_MANY_SIGN_INS, UNKNOWN_PASSKEY, WRONG,
)
from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import SESSION_IDLE, SESSION_LONGEST
from tests.server.live import running_server
from tests.server.test_passkeys import Authenticator, browser
from tests.server.test_passkeys import sign_up as passkey_sign_up

NO_REFILL = (SIGN_IN_BURST, 1e-4)  # (as test_accounts.py: a budget no slow run refills meanwhile)
PASSWORD = "segreto123"


def stale(db: str) -> None:
    """Every session's last proof of the password or a passkey long past (as after
    ``CONFIRM_SECONDS``): what a thief's stolen cookie has."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sessions SET confirmed_at = ?", (time.time() - CONFIRM_SECONDS - 1,))


def confirm_with_passkey(client: httpx.Client, key: Authenticator, **how) -> httpx.Response:
    options = client.post("/api/passkeys/confirm/options")
    assert options.status_code == 200, options.text
    mine = options.json()
    # (the server allows only the account's own passkeys; a browser would offer just those, and
    # the software one here offers whichever it holds: the server must tell them apart)
    assert [c["id"] for c in mine["allowCredentials"]] == [k["id"] for k in client.get("/api/me").json()["passkeys"]]
    return client.post("/api/passkeys/confirm", json={"credential": key.get({**mine, "allowCredentials": []}, **how)})


def add_passkey(client: httpx.Client, key: Authenticator) -> httpx.Response:
    options = client.post("/api/passkeys/options")
    if options.status_code != 200:
        return options
    return client.post("/api/passkeys", json={"credential": key.create(options.json())})


def test_a_stolen_session_alone_adds_no_way_in_to_a_passkey_account(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with running_server(db) as server, browser(server) as anna, browser(server) as thief:
        key = Authenticator(server.url)
        passkey_sign_up(anna, key, "Anna")
        thief.cookies.update(anna.cookies)  # (the session cookie, copied off her machine)
        stale(db)
        refused = {"confirm": True, "error": CONFIRM_FIRST}
        their_key = Authenticator(server.url)
        assert add_passkey(thief, their_key).json() == refused
        assert thief.post("/api/me/password", json={"password": "the thief's own"}).json() == refused
        assert thief.get("/api/me/export").json() == refused
        assert thief.post("/api/me/recovery-codes").json() == refused
        mine = thief.get("/api/me").json()["passkeys"][0]["id"]
        assert thief.request("DELETE", f"/api/passkeys/{mine}").json() == refused
        assert thief.request("DELETE", "/api/account", json={"confirm": "Anna"}).json() == refused
        # Another account's passkey proves nothing about Anna.
        passkey_sign_up(browser(server), their_key, "Mallory")
        assert confirm_with_passkey(thief, their_key).json() == {"error": WRONG}
        assert thief.post("/api/me/confirm", json={"password": "any guess"}).status_code == 401  # (she has none)
        assert thief.get("/api/me").json()["password"] is False and len(thief.get("/api/me").json()["passkeys"]) == 1
        # Anna, her passkey in hand, proves it: her keys open for a while.
        assert confirm_with_passkey(anna, key).status_code == 204
        assert anna.get("/api/me/export").status_code == 200
        assert anna.post("/api/me/password", json={"password": "her own password"}).status_code == 204
        codes = anna.post("/api/me/recovery-codes")
        assert codes.status_code == 201 and len(codes.json()["recovery_codes"]) == 8
        assert anna.request("DELETE", "/api/account", json={"confirm": "Anna"}).status_code == 204


def test_passkeys_are_listed_with_their_use_and_removable_but_never_the_last_way_in(live_server):
    anna, key = browser(live_server), Authenticator(live_server.url)
    passkey_sign_up(anna, key, "Anna")
    first = anna.get("/api/me").json()["passkeys"]
    assert len(first) == 1 and first[0]["created"] and first[0]["used"] is None
    assert anna.request("DELETE", f"/api/passkeys/{first[0]['id']}").json() == {"error": LAST_WAY_IN}
    phone = Authenticator(live_server.url)
    assert add_passkey(anna, phone).status_code == 201
    # Signed in with the phone's: its use is dated.
    again = browser(live_server)
    options = again.post("/api/passkeys/signin/options").json()
    assert again.post("/api/passkeys/signin", json={"credential": phone.get(options)}).status_code == 200
    listed = {k["id"]: k for k in anna.get("/api/me").json()["passkeys"]}
    assert listed[phone.credentials[0]["id"]]["used"] and listed[first[0]["id"]]["used"] is None
    # Another account cannot remove it, nor learn whether it exists.
    other = browser(live_server)
    passkey_sign_up(other, Authenticator(live_server.url), "Bruno")
    assert other.request("DELETE", f"/api/passkeys/{first[0]['id']}").json() == {"error": UNKNOWN_PASSKEY}
    removed = anna.request("DELETE", f"/api/passkeys/{first[0]['id']}")
    assert removed.status_code == 200 and [k["id"] for k in removed.json()["passkeys"]] == [phone.credentials[0]["id"]]
    # The removed passkey signs in no more.
    options = again.post("/api/passkeys/signin/options").json()
    assert again.post("/api/passkeys/signin", json={"credential": key.get(options)}).json() == {"error": WRONG}
    # With a password set, the last passkey may go.
    assert anna.post("/api/me/password", json={"password": PASSWORD}).status_code == 204
    assert anna.request("DELETE", f"/api/passkeys/{phone.credentials[0]['id']}").status_code == 200


def test_a_password_account_confirms_with_its_password_and_a_change_ends_every_other_session(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with running_server(db) as server, browser(server) as laptop, browser(server) as phone:
        assert laptop.post("/api/account", json={"name": "Mario", "password": PASSWORD}).status_code == 201
        assert phone.post("/api/session", json={"name": "Mario", "password": PASSWORD}).status_code == 200
        stale(db)
        assert laptop.get("/api/me/export").status_code == 403
        assert laptop.post("/api/me/confirm", json={"password": "not it"}).json() == {"error": WRONG}
        assert laptop.post("/api/me/confirm", json={"password": PASSWORD}).status_code == 204
        assert laptop.get("/api/me/export").json()["account"]["name"] == "Mario"
        # A password is never changed without the old one, however fresh the session.
        assert laptop.post("/api/me/password", json={"password": "nuovo-segreto"}).json() == {"error": WRONG}
        assert laptop.post("/api/me/password", json={"password": "nuovo-segreto", "old": PASSWORD}).status_code == 204
        assert laptop.get("/api/me").status_code == 200 and phone.get("/api/me").status_code == 401


def test_a_thief_guessing_the_password_in_a_stolen_session_locks_nobody_else_out(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with running_server(db, sign_in=NO_REFILL) as server, browser(server) as owner, browser(server) as thief:
        assert owner.post("/api/account", json={"name": "Mario", "password": PASSWORD}).status_code == 201
        thief.cookies.set("tarocchi_session", owner.cookies["tarocchi_session"])
        answers = [thief.post("/api/me/confirm", json={"password": f"guess {i}"}).status_code
                   for i in range(SIGN_IN_BURST + 1)]
        assert answers[-1] == 429 and set(answers[:-1]) == {401}
        assert browser(server).post("/api/session", json={"name": "Mario", "password": PASSWORD}).status_code == 200


@pytest.mark.parametrize("old", ["idle", "longest"])
def test_a_session_ends_unused_and_past_its_longest_life_and_use_renews_it(store_db, old):
    store = open_store(store_db)
    try:
        people = store.people
        mario = people.create_account("Mario", "hash", [])
        used, dormant = people.new_session(mario, "a laptop"), people.new_session(mario, "a phone")
        column, by = ("seen_at", SESSION_IDLE) if old == "idle" else ("created_at", SESSION_LONGEST)
        with people.write() as tx:
            tx.run(f"UPDATE sessions SET {column} = %s", (time.time() - by + 5,))
        assert people.session_account(used, seen_every=0) is not None  # (in time; use renews its idle clock)
        time.sleep(0.01)
        with people.write() as tx:  # five seconds on: past its time, unless it was renewed
            tx.run(f"UPDATE sessions SET {column} = {column} - 6")
        assert people.session_account(dormant) is None
        if old == "idle":
            assert people.session_account(used) is not None  # (seen just now: renewed)
        else:
            assert people.session_account(used) is None  # (a year is a year, used or not)
        assert len(people.sessions(mario)) == (1 if old == "idle" else 0)  # (ended ones are gone)
    finally:
        store.close()


# --- budgets -----------------------------------------------------------------------------------


def test_a_flood_of_guesses_at_a_name_slows_strangers_but_never_locks_the_owners_browser_out():
    with running_server(sign_in=NO_REFILL) as server, browser(server) as owner:
        assert owner.post("/api/account", json={"name": "Bice", "password": PASSWORD}).status_code == 201
        assert DEVICE_COOKIE in owner.cookies
        assert owner.delete("/api/session").status_code == 204
        # Guesses from many addresses: the name's budget runs out for browsers it never knew...
        guesses = [browser(server).post("/api/session", json={"name": "Bice", "password": f"guess {i}"}).status_code
                   for i in range(SIGN_IN_BURST + 2)]
        assert guesses[:SIGN_IN_BURST] == [401] * SIGN_IN_BURST and guesses[-1] == 429
        stranger = browser(server)
        assert stranger.post("/api/session", json={"name": "Bice", "password": PASSWORD}).json() \
            == {"error": TOO_MANY_SIGN_INS}
        # ... and the owner, in the browser she signed in from before, signs in at once.
        assert owner.post("/api/session", json={"name": "bice", "password": PASSWORD}).json() == {"name": "Bice"}
        # A device cookie of hers names her account alone, and a forged one is nobody's.
        forged = browser(server)
        forged.cookies.set(DEVICE_COOKIE, owner.cookies[DEVICE_COOKIE][:-2] + "00", path="/api/")
        assert forged.post("/api/session", json={"name": "Bice", "password": PASSWORD}).status_code == 429
        # It names the account, not the name: deleted, and the name taken anew, it trusts nobody.
        assert owner.request("DELETE", "/api/account", json={"confirm": "Bice", "password": PASSWORD}).status_code == 204
        assert browser(server).post("/api/account", json={"name": "Bice", "password": "another one!"}).status_code == 201
        for i in range(SIGN_IN_BURST):
            browser(server).post("/api/session", json={"name": "Bice", "password": f"guess {i}"})
        assert owner.post("/api/session", json={"name": "Bice", "password": "another one!"}).status_code == 429


def test_passkey_sign_up_options_for_a_taken_name_spend_nothing_of_that_name():
    with running_server(sign_in=NO_REFILL) as server, browser(server) as owner:
        assert owner.post("/api/account", json={"name": "Bice", "password": PASSWORD}).status_code == 201
        for _ in range(SIGN_IN_BURST + 2):  # (cheap for an attacker: no hash is checked)
            assert browser(server).post("/api/passkeys/signup/options", json={"name": "Bice"}).status_code == 409
        assert browser(server).post("/api/session", json={"name": "Bice", "password": PASSWORD}).status_code == 200


def test_a_spent_budget_is_kept_until_it_refills_and_then_forgotten(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        assert [people.spend_budget("sign-in-name:bice", 3, 1e-4) for _ in range(4)] == [True, True, True, False]
        assert people.spend_budget("sign-in-name:other", 3, 1e-4)
        assert not people.spend_budget("sign-in-name:bice", 3, 1e-4)
        # (a try every half second: a slow store's two calls in a row are well within one)
        assert people.spend_budget("quick", 1, 2.0) and not people.spend_budget("quick", 1, 2.0)
        time.sleep(0.6)
        assert people.spend_budget("quick", 1, 2.0)  # (refilled)
        with people.read() as tx:
            keys = [r[0] for r in tx.run("SELECT key FROM budgets")]
        assert len(keys) == 3 and not any("bice" in k for k in keys)  # (kept hashed: no name, no address)
        time.sleep(0.6)
        people.spend_budget("later", 1, 1.0)
        with people.read() as tx:
            assert tx.run("SELECT count(*) FROM budgets")[0][0] == 3  # ("quick" refilled: forgotten)
    finally:
        store.close()


def test_a_flood_of_other_names_never_evicts_a_spent_budget(tmp_path):
    """10,001 names tried (more than the old per-process memory held) and the target's budget
    is still spent: no flood gives an attacker a fresh burst."""
    store = open_store(str(tmp_path / "t.sqlite3"))
    try:
        people = store.people
        while people.spend_budget("sign-in-name:bice", 10, 0.1):
            pass
        for i in range(10_001):
            people.spend_budget(f"sign-in-name:n{i}", 10, 0.1)
        assert not people.spend_budget("sign-in-name:bice", 10, 0.1)
    finally:
        store.close()


def test_a_version_5_database_opens_with_its_sessions_and_learns_the_new_columns(store_db):
    store = open_store(store_db)
    people = store.people
    mario = people.create_account("Mario", "hash", [])
    cookie = people.new_session(mario, "a laptop")
    with people.write() as tx:  # version 5, as its code made it
        tx.run("ALTER TABLE sessions DROP COLUMN confirmed_at")
        tx.run("ALTER TABLE passkeys DROP COLUMN used_at")
        tx.run("DROP TABLE budgets")
        if store_db.startswith("postgresql"):
            tx.run("UPDATE schema_version SET version = 5")
    if not store_db.startswith("postgresql"):
        store.db.execute("PRAGMA user_version = 5")
    store.close()
    store = open_store(store_db)
    try:
        found = store.people.session_account(cookie)
        assert found["name"] == "Mario" and time.time() - found["confirmed"] > CONFIRM_SECONDS  # (asked again)
        assert store.people.spend_budget("k", 1, 1.0) and store.people.passkeys(mario) == []
    finally:
        store.close()
