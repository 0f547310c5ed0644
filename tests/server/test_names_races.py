"""Issue 55, points 4 and 8: names that pass for someone else's are refused, a name is one
however it is typed (case, width, NFC or NFD), and on a site of two (PostgreSQL) a recovery code,
a new name and a seat link each have one winner at once, the other a clear refusal, never a 500."""

from __future__ import annotations

import sqlite3
import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest

from tarocchi.cli import main as cli
from tarocchi.server.accounts import COOKIE, NAME_LOOKS_LIKE, NAME_MIXED, NAME_TAKEN
from tarocchi.server.core.store import open_store
from tests.server.live import running_server
from tests.server.test_public import person

NFD = "Rene\u0301e"  # "Renée" typed decomposed
LOOKALIKES_OF_BICE = [
    "Вісе",  # Cyrillic, every letter
    "ВІСЕ",  # Cyrillic capitals: BICE
    "Bіce",  # one Cyrillic letter
    "Βice",  # a Greek capital
    "Ｂｉｃｅ",  # full width
    "𝐁𝐢𝐜𝐞",  # mathematical bold
    "BİCE",  # a dotted capital I
    "BlCE",  # a small L for the capital I
    "BICE",  # the same name, in capitals
]


# --- the store, both backends ----------------------------------------------------------------


def test_a_name_that_looks_like_an_accounts_is_refused_and_any_spelling_finds_the_account(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        bice = people.create_account("Bice", "h", [])
        for name in LOOKALIKES_OF_BICE:
            assert people.create_account(name, "h", []) is None, name
            assert people.name_clash(name) in ("taken", "lookalike"), name
        assert people.name_clash("Вісе") == "lookalike" and people.name_clash("ｂｉｃｅ") == "taken"
        assert people.account_named("ＢＩＣＥ")["id"] == bice
        # Typed decomposed, it is the account made composed (and the other way round).
        renee = people.create_account(unicodedata.normalize("NFC", NFD), "h", [])
        assert people.account_named(NFD)["id"] == renee
        assert people.create_account(NFD, "h", []) is None and people.create_account("Renee", "h", []) is None
        # Names that only share letters stand: a whole Cyrillic name, Elia beside Ella.
        assert people.create_account("Мария", "h", []) and people.create_account("Ella", "h", [])
        assert people.create_account("Elia", "h", []) and people.name_clash("Mario") is None
        # A deleted account's name, and its look-alikes, are free again.
        people.delete_account(bice)
        assert people.name_clash("Вісе") is None and people.create_account("Вісе", "h", [])
    finally:
        store.close()


def test_an_older_database_folds_its_names_anew_and_lookalikes_from_before_do_not_stop_it(store_db):
    """Version 6: names made before (compared by case alone) are compared as now; two of them
    that look alike, or fold alike, open as they are (the older one keeps the name)."""
    store = open_store(store_db)
    store.close()
    old = [("a1", "Bice", "bice", 1.0), ("a2", "Вісе", "вісе", 2.0),  # look alike
           ("a3", "Luca", "luca", 3.0), ("a4", "Ｌｕｃａ", "ｌｕｃａ", 4.0),  # fold alike
           ("a5", "Ｍａｒｉｏ", "ｍａｒｉｏ", 5.0)]
    insert = "INSERT INTO accounts (id, name, name_key, password, created_at) VALUES (%s, %s, %s, 'h', %s)"
    if store_db.startswith("postgresql"):
        with psycopg.connect(store_db, autocommit=True) as conn:
            conn.execute("DROP TABLE name_lookalikes")
            conn.execute("UPDATE schema_version SET version = 5")
            for row in old:
                conn.execute(insert, row)
    else:
        with sqlite3.connect(store_db) as db:
            db.execute("DROP TABLE name_lookalikes")
            db.execute("PRAGMA user_version = 5")
            db.executemany(insert.replace("%s", "?"), old)
    store = open_store(store_db)
    try:
        people = store.people
        assert people.account_named("mario")["id"] == "a5"  # (folded by width now)
        assert people.account_named("luca")["id"] == "a3" and people.account_named("Вісе")["id"] == "a2"
        assert people.account_named("ｌｕｃａ")["id"] == "a3"  # (the newer keeps its old key, found by id)
        assert people.name_clash("BlCE") == "lookalike" and people.create_account("BICE", "h", []) is None
        assert people.account("a4")["name"] == "Ｌｕｃａ"  # (kept, its old key unchanged)
    finally:
        store.close()


def race(store_db: str, n: int, work) -> list:
    """``work(people, i)`` in ``n`` threads at once, each on a store of its own (one process of a
    site each); what each returned (or raised)."""
    stores = [open_store(store_db) for _ in range(n)]
    start = threading.Barrier(n)

    def one(i):
        start.wait()
        try:
            return work(stores[i].people, i)
        except Exception as e:  # (what the test must never see)
            return e
    try:
        with ThreadPoolExecutor(n) as pool:
            return list(pool.map(one, range(n)))
    finally:
        for s in stores:
            s.close()


ROUNDS = 6


def test_one_recovery_code_spent_at_once_by_many_is_spent_once(store_db):
    store = open_store(store_db)
    codes = [f"aaaa-bbbb-{i:04x}" for i in range(ROUNDS)]
    account = store.people.create_account("Mario", "h", codes)
    store.close()
    for code in codes:
        spent = race(store_db, 4, lambda people, i: people.spend_recovery_code(account, code))
        assert sorted(spent, key=str) == [False, False, False, True], spent


def test_one_name_signed_up_at_once_by_many_has_one_account(store_db):
    for r in range(ROUNDS):
        forms = [f"Nina{r}", f"NINA{r}", f"Nіna{r}", f"ｎｉｎａ{r}"]  # (the third: a Cyrillic і)
        made = race(store_db, 4, lambda people, i: people.create_account(forms[i], "h", ["c"]))
        assert [type(m) for m in made].count(str) == 1 and made.count(None) == 3, made


def test_one_seat_link_held_at_once_by_many_accounts_is_one_accounts(store_db):
    store = open_store(store_db)
    accounts = [store.people.create_account(f"Player{i}", "h", []) for i in range(4)]
    solos = [store.people.create_account(f"Solo{r}", "h", []) for r in range(ROUNDS)]
    for r in range(ROUNDS):
        store.create_table(f"t{r}", "room", [f"t{r}s0", f"t{r}s1", f"t{r}s2"], {"kind": "room"})
    store.close()
    for r in range(ROUNDS):
        held = race(store_db, 4, lambda people, i: people.hold_seat(accounts[i], f"t{r}s0"))
        assert held.count((f"t{r}", 0)) == 1 and held.count("other") == 3, held
        # One account, two seats of one table at once: still one seat a person.
        both = race(store_db, 2, lambda people, i: people.hold_seat(solos[r], f"t{r}s{i + 1}"))
        assert both.count("table") == 1 and ((f"t{r}", 1) in both or (f"t{r}", 2) in both), both


# --- the routes: every door a name comes in by -------------------------------------------------


def sign_up(client: httpx.Client, name: str, password: str = "segreto123") -> httpx.Response:
    return client.post("/api/account", json={"name": name, "password": password})


def test_every_door_takes_a_name_however_typed_and_refuses_one_that_passes_for_anothers(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite3")
    with running_server(db=db) as server, httpx.Client(base_url=server.url, headers=person(1)) as c, \
            httpx.Client(base_url=server.url, headers=person(2)) as stranger:
        assert sign_up(c, "Bice").status_code == 201
        # Sign-up, with a password or a passkey: look-alikes refused, each with its reason.
        for door in ("/api/account", "/api/passkeys/signup/options"):
            body = {"password": "segreto123"} if door == "/api/account" else {}
            answers = {name: stranger.post(door, json={"name": name, **body}) for name in
                       ("Вісе", "BİCE", "Ｂｉｃｅ", "Bіce", "Βice")}
            assert {name: (r.status_code, r.json()["error"]) for name, r in answers.items()} == {
                "Вісе": (409, NAME_LOOKS_LIKE), "BİCE": (409, NAME_LOOKS_LIKE), "Ｂｉｃｅ": (409, NAME_TAKEN),
                "Bіce": (400, NAME_MIXED), "Βice": (400, NAME_MIXED)}, door
        # Full width is shown as plain letters; typed decomposed, a name signs in to the composed one.
        made = sign_up(stranger, "Ｒｅｎéｅ")
        assert made.status_code == 201 and made.json()["name"] == "Renée"
        stranger.delete("/api/session")
        assert stranger.post("/api/session", json={"name": NFD, "password": "segreto123"}).json() == {"name": "Renée"}
        assert stranger.post("/api/session", json={"name": "ＲＥＮÉＥ", "password": "segreto123"}).status_code == 200
        # A profile by any spelling of the name; the operator's hand too.
        assert c.get("/api/players/" + "ＢＩＣＥ").json()["name"] == "Bice"
        assert c.get("/api/players/" + NFD).json()["name"] == "Renée"
        assert cli(["account", "reset", "ｂｉｃｅ", "--db", db]) == 0
        assert capsys.readouterr().out.startswith("Bice: new password ")
        # Deleting the account: its name confirmed, as typed decomposed.
        assert stranger.request("DELETE", "/api/account", json={"confirm": NFD, "password": "segreto123"}).status_code == 204


@pytest.fixture(scope="module")
def redis():
    from tests.redis_server import RedisServer
    with RedisServer() as server:
        yield server


def test_on_a_site_of_two_on_postgresql_each_race_has_one_winner_and_never_a_500(redis, postgres):
    """Two processes of one site, one database: the same requests sent to both at once."""
    db = postgres.new_database()
    with running_server(db, bus=redis.url, process="A") as a, running_server(db, bus=redis.url, process="B") as b:
        urls = [a.url, b.url]

        def both(send, cookies: list[str] | None = None) -> list[httpx.Response]:
            start = threading.Barrier(2)

            def one(i):
                with httpx.Client(base_url=urls[i], headers=person(10 + i),
                                  cookies={COOKIE: cookies[i]} if cookies else None) as c:
                    start.wait()
                    return send(c, i)
            with ThreadPoolExecutor(2) as pool:
                return list(pool.map(one, range(2)))

        for r in range(4):
            made = both(lambda c, i: sign_up(c, f"Zoe{r}" if i else f"ZOE{r}"))
            assert sorted(m.status_code for m in made) == [201, 409], [m.text for m in made]
            codes = next(m for m in made if m.status_code == 201).json()["recovery_codes"]
            spent = both(lambda c, i: c.post("/api/session", json={"name": f"zoe{r}", "recovery_code": codes[0],
                                                                    "password": f"nuovo-segreto-{i}"}))
            assert sorted(s.status_code for s in spent) == [200, 401], [s.text for s in spent]
        # Two accounts (one on each process) hold one seat link at once: one holds it, the
        # other is told so (200, the link refused as another's), never a 500.
        for r in range(4):
            with httpx.Client(base_url=a.url, headers=person(20)) as owner:
                link = owner.post("/api/rooms", json={"seats": 3, "game": "calabresella"}).json()["links"][0]
            cookies = []
            for i, url in enumerate(urls):
                with httpx.Client(base_url=url, headers=person(30 + i)) as c:
                    sign_up(c, f"Seat{r}x{i}")
                    cookies.append(c.cookies[COOKIE])
            held = both(lambda c, i: c.post("/api/me/seats", json={"links": [link]}), cookies)
            assert [h.status_code for h in held] == [200, 200], [h.text for h in held]
            answers = sorted((len(h.json()["held"]), [x["why"] for x in h.json()["refused"]]) for h in held)
            assert answers == [(0, ["other"]), (1, [])], answers
