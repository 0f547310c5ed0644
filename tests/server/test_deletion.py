"""A deleted account (issues 55 and 56): its name leaves the tables' stored events, the match
records, the looking back (``/api/deals``, ``/api/records``) and the profiles, a match in play
at its deletion ends without it, and the SQLite file and its WAL keep none of its rows' bytes;
its seats keep an anonymous identity, so ``tarocchi ratings rebuild`` still gives the live values
bit for bit; and a profile's link to a rated match opens that match's deals alone, never the
table's rematch in play or its chat. The store tests run on SQLite and PostgreSQL (``store_db``)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import httpx

from tarocchi.cli import main as tarocchi
from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import GONE, NEUTRAL_NAME, Ended, Player, digest
from tarocchi.server.ratings import ordinal, rate, recompute
from tests.server.fake import until
from tests.server.live import running_server
from tests.server.test_ratings import RATED, accounts, all_ratings, leave, new_hub, over, seat_all

NAME = "Zelinda"  # (a name no other text of a table holds, even in part)


def stored_text(store, table_id: str) -> str:
    return json.dumps(store.events(table_id))


# --- the store -------------------------------------------------------------------------------------

def test_a_deleted_name_leaves_the_events_the_listing_and_the_records(store_db):
    store = open_store(store_db)
    try:
        zelinda, bruno = accounts(store, NAME, "Bruno")
        store.create_table("t1", "room", ["s0", "s1"], {"kind": "room", "seats": 2, "names": ["Player 1", "Player 2"]})
        store.append_many([("t1", 2, "name", {"seat": 0, "name": NAME}), ("t1", 3, "name", {"seat": 1, "name": "Bruno"}),
                           ("t1", 4, "chat", {"seat": 0, "text": "ciao", "name": NAME}),
                           ("t1", 5, "chat", {"seat": 1, "text": "ciao", "name": "Bruno"})],
                          ended=[Ended("t1", 1, "sicilian", 2, 1.0, [Player(0, NAME, 0, 5, False), Player(1, "Bruno", 1, 3, False)])])
        store.put_listing("t1", {"game": "sicilian", "status": "waiting", "since": 1.0, "open": [],
                                 "names": [NAME.upper(), "Bruno"]})  # (case folded, as names are matched)
        for account, token in ((zelinda, "s0"), (bruno, "s1")):
            assert store.people.hold_seat(account, token) == ("t1", int(token[1]))
        # (the record was written before the seats were held: it names, but links no account)
        with store.people.write() as tx:
            tx.run("UPDATE match_players SET account_id = %s WHERE seat = 0", (zelinda,))
            tx.run("UPDATE match_players SET account_id = %s WHERE seat = 1", (bruno,))

        forgotten = store.people.delete_account(zelinda)
        assert forgotten.name == NAME and forgotten.tables == ["t1"]
        assert store.people.delete_account(zelinda) is None  # (gone already: nothing to forget)

        assert NAME.casefold() not in stored_text(store, "t1").casefold()
        events = store.events("t1")
        assert events[1][2] == {"seat": 0, "name": NEUTRAL_NAME} and events[3][2]["name"] == NEUTRAL_NAME
        assert events[2][2]["name"] == "Bruno" and events[4][2]["name"] == "Bruno"  # (the others keep theirs)
        assert store.listings(None, 30)[0]["names"] == [NEUTRAL_NAME, "Bruno"]
        with store.people.read() as tx:
            rows = tx.run("SELECT seat, account_id, name, gone FROM match_players ORDER BY seat")
        assert rows[0][:3] == (0, None, None) and rows[0][3].startswith(GONE) and rows[1] == (1, bruno, "Bruno", None)
        seen = store.people.matches_of(bruno)[0]["players"]
        assert [(p["name"], p["account"]) for p in seen] == [(NEUTRAL_NAME, False), ("Bruno", True)]
        assert store.people.account_named(NAME) is None
    finally:
        store.close()


def test_a_rebuild_after_a_deletion_gives_the_live_ratings_bit_for_bit(store_db, capsys):
    """Matches rated with an account, the account deleted, more matches of the others: the
    rebuild rates the deleted seats under their anonymous identity, as the live server rated the
    account, so every rating comes out the same float."""
    store = open_store(store_db)
    try:
        people = [store.people.create_account(f"player{i}", None, []) for i in range(5)]
        rng = random.Random(5)
        for n in range(14):
            if n == 8:
                assert store.people.delete_account(people[0]) is not None
            who = rng.sample(people[1:] if n >= 8 else people, 3)
            if n < 8 and people[0] not in who:
                who[0] = people[0]
            table_id, tokens = f"t{n}", [f"seat{n}-{s}" for s in range(3)]
            store.create_table(table_id, "room", tokens, {"kind": "room", "seats": 3})
            # (each seat's account the one that sat there, as the table says: issue 56)
            players = [Player(s, f"p{s}", s, rng.randrange(-3, 4), False, who[s]) for s in range(3)]
            store.append_many([(table_id, 2, "chat", {"seat": 0, "text": "."})],
                              ended=[Ended(table_id, 1, "sicilian", 3, float(n), players, rate, ordinal)])
        live = {k: (mu, s, n) for k, (mu, s, _, n) in all_ratings(store).items()}
        assert {a for a, _ in live} == set(people[1:])
        rebuilt, rated, departed = recompute(store.people.rated_matches())
        assert (rebuilt, rated, departed) == (live, 14, 0)
        with store.people.write() as tx:
            tx.run("UPDATE ratings SET mu = 0")
    finally:
        store.close()
    assert tarocchi(["ratings", "rebuild", "--db", store_db]) == 0
    assert "deleted" not in capsys.readouterr().out
    store = open_store(store_db)
    try:
        assert {k: (mu, s, n) for k, (mu, s, _, n) in all_ratings(store).items()} == live
    finally:
        store.close()


def test_the_sqlite_file_and_its_wal_keep_nothing_of_a_deleted_account(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    store = open_store(db)
    try:
        zelinda, bruno = accounts(store, NAME, "Bruno")
        cookie = store.people.new_session(zelinda, "Firefox")
        credential, endpoint = "cred-QWERTYuiop-1234567890", "https://push.example/endpoint-ASDFGHjkl-0987654321"
        store.people.add_passkey(zelinda, credential, "public-key-of-zelinda", 0)
        store.people.subscribe(zelinda, endpoint, "p256dh-key", "auth-key", "it")
        store.create_table("t1", "room", ["s0", "s1"], {"kind": "room", "seats": 2, "names": ["Player 1", "Player 2"]})
        assert store.people.hold_seat(zelinda, "s0") == ("t1", 0)
        assert store.people.hold_seat(bruno, "s1") == ("t1", 1)
        store.append_many([("t1", 2, "name", {"seat": 0, "name": NAME}), ("t1", 3, "chat", {"seat": 0, "text": "hi", "name": NAME})],
                          ended=[Ended("t1", 1, "sicilian", 2, 1.0, [Player(0, NAME, 0, 5, False), Player(1, "Bruno", 1, 3, False)],
                                       rate, ordinal)])
        secrets = [NAME.encode(), NAME.casefold().encode(), digest(cookie).encode(), credential.encode(),
                   endpoint.encode(), zelinda.encode()]
        on_disk = Path(db).read_bytes() + Path(db + "-wal").read_bytes()
        assert all(s in on_disk for s in secrets[:1] + secrets[2:])  # (there before: the test reads the right bytes)
        store.people.delete_account(zelinda)
        # The server still running: the file and its WAL as they are now.
        on_disk = Path(db).read_bytes() + (Path(db + "-wal").read_bytes() if Path(db + "-wal").exists() else b"")
        assert [s for s in secrets if s in on_disk] == []
        assert b"Bruno" in on_disk
    finally:
        store.close()


# --- the server -------------------------------------------------------------------------------------

async def rated_match_then_rematch(db: str, delete_midway: bool = False):
    """A rated room of Zelinda, Bruno and Carla (each seat named with the account's name) played
    to its end, then a rematch begun with a chat line. ``delete_midway``: Zelinda deletes her
    account in the middle of the first match (as ``DELETE /api/account`` does), which then ends."""
    hub, store = new_hub(db)
    hub.start()
    people = accounts(store, NAME, "Bruno", "Carla")
    table_id, tokens = hub.new_room(3, "sicilian", settings=RATED)
    sockets, tasks = seat_all(hub, store, tokens, "sicilian", 4, playing=False, sitters=people)
    await until(lambda: all(s.frames for s in sockets))
    # (each seat named by the account that sat there: issue 56)
    await until(lambda: hub.tables[table_id].names[:3] == [NAME, "Bruno", "Carla"])
    sockets[0].say({"type": "chat", "text": "first match line"})
    await until(lambda: len(hub.tables[table_id].chat) == 1)
    for s in sockets:
        s.playing = True
    sockets[0].say({"type": "hello", "since": 0})  # (a state frame: they play)
    if delete_midway:
        await until(lambda: sockets[0].state["view"] is not None and sockets[0].state["table"]["deal_number"] >= 1)
        forgotten = store.people.delete_account(people[0])
        await hub.forget(forgotten.name, forgotten.tables, forgotten.account)
        assert hub.tables[table_id].names[0] == NEUTRAL_NAME
    await until(lambda: over(sockets[0]), seconds=30)
    for s in sockets:
        s.playing = False
        s.say({"type": "rematch"})
    await until(lambda: sockets[1].state["table"]["status"] != "over")
    sockets[1].say({"type": "chat", "text": "the rematch's own talk"})
    await until(lambda: len(hub.tables[table_id].chat) == 2)
    watch = hub.tables[table_id].watch_token
    await leave(sockets, tasks)
    await hub.stop()
    store.close()
    return table_id, people, watch


def test_a_profile_links_a_rated_match_to_its_own_deals_alone(store_db):
    table_id, people, watch = asyncio.run(rated_match_then_rematch(store_db))
    with running_server(store_db) as server:
        profile = httpx.get(server.url + "/api/players/Bruno")
        assert profile.status_code == 200 and watch not in profile.text  # (the table's watch link: never)
        match = profile.json()["matches"][0]
        assert match["rated"] and match["replay"] == f"/r/{table_id}.1/1" and "watch" not in match
        reference = f"{table_id}.1"
        deals = httpx.get(server.url + f"/api/deals/{reference}").json()
        assert deals["watch"] is None and deals["names"] == [NAME, "Bruno", "Carla"]
        assert deals["deals"] and {d["match"] for d in deals["deals"]} == {1}
        assert [d["number"] for d in deals["deals"]] == list(range(1, len(deals["deals"]) + 1))
        replay = httpx.get(server.url + f"/api/replay/{reference}/1")
        assert replay.status_code == 200 and replay.json()["match"] == 1
        assert httpx.get(server.url + f"/api/replay/{reference}/{len(deals['deals']) + 1}").status_code == 404
        records = httpx.get(server.url + f"/api/records/{reference}").text.splitlines()
        assert {json.loads(line)["meta"]["match"] for line in records} == {1} and len(records) == len(deals["deals"]) + 1
        for looked in (deals, replay.text, records):
            assert "rematch's own talk" not in json.dumps(looked) and watch not in json.dumps(looked)
        # No other match, no unknown one, no table by its id alone.
        for wrong in (f"{table_id}.2", f"{table_id}.0", f"{table_id}.x", f"{table_id}.", "nothing.1", table_id,
                      f"{table_id}.1.1"):
            assert httpx.get(server.url + f"/api/deals/{wrong}").status_code == 404, wrong


def test_a_deleted_account_leaves_no_name_in_looking_back_nor_in_the_profiles(store_db):
    table_id, people, watch = asyncio.run(rated_match_then_rematch(store_db))
    store = open_store(store_db)
    cookie = store.people.new_session(people[0], "test")
    store.close()
    with running_server(store_db) as server:
        before = httpx.get(server.url + f"/api/deals/{watch}").json()
        assert before["names"][0] == NAME  # (the test looks where the name was)
        gone = httpx.request("DELETE", server.url + "/api/account", json={"confirm": NAME},
                             cookies={"tarocchi_session": cookie})
        assert gone.status_code == 204
        for path in (f"/api/deals/{watch}", f"/api/records/{watch}", f"/api/deals/{table_id}.1",
                     f"/api/records/{table_id}.1", f"/api/replay/{table_id}.1/1", "/api/players/Bruno",
                     "/api/leaderboard/sicilian"):
            answer = httpx.get(server.url + path)
            assert answer.status_code == 200 and NAME.casefold() not in answer.text.casefold(), path
        assert httpx.get(server.url + f"/api/deals/{watch}").json()["names"] == [NEUTRAL_NAME, "Bruno", "Carla"]
        assert NEUTRAL_NAME in httpx.get(server.url + "/api/players/Bruno").text
        if "://" not in store_db:  # SQLite: nor the file, nor its WAL
            on_disk = Path(store_db).read_bytes() + Path(store_db + "-wal").read_bytes()
            assert NAME.encode() not in on_disk and digest(cookie).encode() not in on_disk
    store = open_store(store_db)
    try:
        assert NAME.casefold() not in stored_text(store, table_id).casefold()
    finally:
        store.close()


def test_a_match_in_play_when_an_account_is_deleted_ends_without_its_name(store_db):
    table_id, people, watch = asyncio.run(rated_match_then_rematch(store_db, delete_midway=True))
    store = open_store(store_db)
    try:
        assert NAME.casefold() not in stored_text(store, table_id).casefold()
        assert people[0] not in stored_text(store, table_id)  # (its seat's ``sit`` keeps no id of it)
        with store.people.read() as tx:
            names = [r[0] for r in tx.run("SELECT name FROM match_players WHERE table_id = %s ORDER BY seat", (table_id,))]
        assert names == [None, "Bruno", "Carla"]  # (no name kept there: shown as the neutral one)
        matches = store.people.matches_of(people[1])
        assert [p["name"] for p in matches[0]["players"]] == [NEUTRAL_NAME, "Bruno", "Carla"]
    finally:
        store.close()
