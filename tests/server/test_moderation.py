"""Reports, moderators and their log, chat bans, the word list and blocks at the chat (issue 58,
its moderation half): every moderator's route as a stranger and as a player, a report's privacy,
its budgets and bad bodies, the bans honoured, the log that nobody edits, a voided match's
ratings equal to a fresh rebuild; on both stores."""

from __future__ import annotations

import asyncio
import inspect

import httpx

from tarocchi.cli import main as cli
from tarocchi.server.core.sessions import COOKIE
from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import Ended, People, Player
from tarocchi.server.moderation import (
    CHAT_BANNED, NO_SUCH_TABLE, NOT_A_MODERATOR, REPORTS_PER_ACCOUNT, SIGNED_OUT, TOO_MANY_REPORTS,
)
from tarocchi.server.ratings import RATED_BANNED, ordinal, rate, recompute
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_public import person
from tests.server.test_social import sign_up

MOD_ROUTES = [("GET", "/api/mod/reports", None), ("POST", "/api/mod/reports/x/close", {"why": "done"}),
              ("GET", "/api/mod/players/Bruno", None), ("GET", "/api/mod/log", None),
              ("POST", "/api/mod/actions", {"name": "Bruno", "action": "warn", "why": "be nice"}),
              ("POST", "/api/mod/actions", {"name": "Bruno", "action": "close", "why": "gone"})]


def moderator(server, n: int, name: str) -> httpx.Client:
    """Person ``n`` signs up as ``name`` and the operator makes them a moderator (the CLI)."""
    client = sign_up(server, n, name)
    assert cli(["account", "mod", name, "--db", server.db]) == 0
    return client


def test_every_moderator_route_answers_a_stranger_401_and_a_player_403_with_no_data(capsys):
    with running_server() as server:
        anna, bruno = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno")
        mara = moderator(server, 3, "Mara")
        assert anna.post("/api/reports", json={"name": "Bruno", "reason": "abuse", "text": "rude"}).status_code == 204
        with httpx.Client(base_url=server.url, headers=person(9)) as stranger:
            for method, path, body in MOD_ROUTES + [("POST", "/api/reports", {"name": "Bruno", "reason": "other"})]:
                r = stranger.request(method, path, json=body)
                assert (r.status_code, r.json()) == (401, {"error": SIGNED_OUT}), (method, path)
        for method, path, body in MOD_ROUTES:
            r = anna.request(method, path, json=body)
            assert (r.status_code, r.json()) == (403, {"error": NOT_A_MODERATOR}), (method, path)
        # Nothing happened: Bruno is there, unwarned; the one report is still open; no log.
        assert bruno.get("/api/me/bell").json() == {"items": [], "unread": 0}
        assert [r["reported"] for r in mara.get("/api/mod/reports").json()["reports"]] == ["Bruno"]
        assert mara.get("/api/mod/log").json() == {"log": []}
        # Each account is told its own role alone (its account page then links /mod).
        assert mara.get("/api/me").json()["moderator"] is True and anna.get("/api/me").json()["moderator"] is False
        # The role taken back: 403 from then on.
        assert cli(["account", "mod", "Mara", "--remove", "--db", server.db]) == 0
        assert mara.get("/api/mod/reports").status_code == 403
        assert mara.get("/api/me").json()["moderator"] is False
        assert cli(["account", "mod", "Nobody", "--db", server.db]) == 1


def test_a_report_is_private_carries_its_tables_chat_and_the_log_is_never_edited(store_db):
    async def body(server):
        anna, bruno, carla = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno"), sign_up(server, 3, "Carla")
        mara = moderator(server, 4, "Mara")
        room = anna.post("/api/rooms", json={"seats": 3}).json()
        seats = [await Seat.open(server.ws_url, link.removeprefix("/t/"),
                                 headers={"Cookie": f"{COOKIE}={c.cookies[COOKIE]}"})
                 for link, c in zip(room["links"], (anna, bruno))]
        await seats[1].send({"type": "chat", "text": "you play like a donkey"})
        await seats[0].until(lambda m: m["type"] == "chat")
        # A stranger to the table cannot pull its chat through a report (nor tell it exists).
        for table in (room["table"], "no-such-table"):
            r = carla.post("/api/reports", json={"name": "Bruno", "reason": "abuse", "table": table})
            assert (r.status_code, r.json()) == (404, {"error": NO_SUCH_TABLE})
        r = anna.post("/api/reports", json={"name": "bruno", "reason": "abuse", "text": "insults",
                                            "table": room["table"]})
        assert r.status_code == 204, r.text
        reports = mara.get("/api/mod/reports").json()["reports"]
        assert [(x["reporter"], x["reported"], x["reason"], x["text"], x["table"]) for x in reports] == [
            ("Anna", "Bruno", "abuse", "insults", room["table"])]
        assert [line["text"] for line in reports[0]["chat"]] == ["you play like a donkey"]
        # The reported is told nothing: no bell, nothing in their download of the reporter.
        assert bruno.get("/api/me/bell").json() == {"items": [], "unread": 0}
        # A warning reaches Bruno's bell, naming neither the reporter nor the moderator.
        r = mara.post("/api/mod/actions", json={"name": "Bruno", "action": "warn", "why": "mind your words"})
        assert r.status_code == 200, r.text
        bell = bruno.get("/api/me/bell").json()
        assert [(i["kind"], i["data"]) for i in bell["items"]] == [("warning", {"text": "mind your words"})]
        assert "Anna" not in str(bell) and "Mara" not in str(bell)
        # The file: the report about Bruno, his chat line, Anna's report by her.
        file = mara.get("/api/mod/players/Bruno").json()
        assert [x["reporter"] for x in file["reports_about"]] == ["Anna"] and file["reports_by"] == []
        assert [c["text"] for c in file["chat"]] == ["you play like a donkey"]
        assert [e["action"] for e in file["log"]] == ["warn"]
        assert mara.post(f"/api/mod/reports/{reports[0]['id']}/close", json={"why": "warned"}).status_code == 204
        assert mara.get("/api/mod/reports").json() == {"reports": []}
        log = mara.get("/api/mod/log").json()["log"]
        assert [(e["moderator"], e["target"], e["action"], e["why"]) for e in log] == [
            ("Mara", "Bruno", "close_report", "warned"), ("Mara", "Bruno", "warn", "mind your words")]
        # The log is append-only: no route edits it, and the store has no statement that would.
        for method in ("PUT", "PATCH", "DELETE", "POST"):
            assert mara.request(method, "/api/mod/log", json={}).status_code == 405, method
            assert mara.request(method, f"/api/mod/log/{log[0]['id']}", json={}).status_code == 404, method
        source = inspect.getsource(People)
        assert "UPDATE mod_log" not in source and "DELETE FROM mod_log" not in source
        assert mara.get("/api/mod/log").json()["log"] == log
        for seat in seats:
            await seat.close()

    with running_server(db=store_db) as server:
        asyncio.run(body(server))


def test_reports_have_a_budget_and_bad_bodies_a_400_that_changes_nothing():
    with running_server() as server:
        anna, _ = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno")
        mara = moderator(server, 3, "Mara")
        bad = [{"name": "Bruno", "reason": "boring"}, {"name": "Bruno"}, {"name": "", "reason": "other"},
               {"name": "Bruno", "reason": "other", "text": "x" * 501}, {"name": "Bruno", "reason": "other", "x": 1}]
        for body in bad:
            r = anna.post("/api/reports", json=body)
            assert r.status_code == 400 and r.json()["error"], (body, r.text)
        assert mara.get("/api/mod/reports").json() == {"reports": []}
        assert anna.post("/api/reports", json={"name": "Anna", "reason": "other"}).status_code == 429  # (spent)
        with httpx.Client(base_url=server.url, headers=person(1), cookies={COOKIE: anna.cookies[COOKIE]}) as again:
            assert again.post("/api/reports", json={"name": "Bruno", "reason": "other"}).json() == {
                "error": TOO_MANY_REPORTS}
        # Another account from another address has a budget of its own.
        carla = sign_up(server, 4, "Carla")
        for _ in range(REPORTS_PER_ACCOUNT[0]):
            assert carla.post("/api/reports", json={"name": "Bruno", "reason": "leaving"}).status_code == 204
        assert carla.post("/api/reports", json={"name": "Bruno", "reason": "leaving"}).status_code == 429
        assert len(mara.get("/api/mod/reports").json()["reports"]) == REPORTS_PER_ACCOUNT[0]
        # A moderator's bad action: 400, nothing logged.
        for body in ({"name": "Bruno", "action": "chat_ban", "why": "x"}, {"name": "Bruno", "action": "ban", "why": "x"},
                     {"name": "Bruno", "action": "warn", "why": ""}, {"name": "Bruno", "action": "void", "why": "x"}):
            assert mara.post("/api/mod/actions", json=body).status_code == 400, body
        assert mara.get("/api/mod/log").json() == {"log": []}


def test_a_chat_ban_is_refused_with_its_reason_a_block_and_the_word_list_hide_lines(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("# the operator's own\nbrutto ceffo\n")

    async def body(server):
        anna, bruno, carla = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno"), sign_up(server, 3, "Carla")
        mara = moderator(server, 4, "Mara")
        room = anna.post("/api/rooms", json={"seats": 3}).json()
        seats = [await Seat.open(server.ws_url, link.removeprefix("/t/"),
                                 headers={"Cookie": f"{COOKIE}={c.cookies[COOKIE]}"})
                 for link, c in zip(room["links"], (anna, bruno, carla))]
        a, b, c = seats
        r = mara.post("/api/mod/actions", json={"name": "Bruno", "action": "chat_ban", "hours": 2, "why": "abuse"})
        assert r.status_code == 200, r.text
        await b.send({"type": "chat", "text": "ciao"})
        refused = await b.until(lambda m: m["type"] == "refused")
        assert refused["reason"] == CHAT_BANNED
        assert [m for m in await a.quiet(0.3) if m["type"] == "chat"] == []
        # Lifted (0 hours): Bruno chats again.
        assert mara.post("/api/mod/actions", json={"name": "Bruno", "action": "chat_ban", "hours": 0,
                                                   "why": "served"}).status_code == 200
        await b.send({"type": "chat", "text": "scusate"})
        assert (await a.until(lambda m: m["type"] == "chat"))["text"] == "scusate"
        # Anna blocks Bruno: his lines reach Carla, never Anna (nor her history on a reload).
        assert anna.post("/api/me/blocks", json={"name": "Bruno"}).status_code == 204
        await b.send({"type": "chat", "text": "ehi Anna"})
        assert (await c.until(lambda m: m["type"] == "chat" and m["text"] == "ehi Anna"))
        assert [m for m in await a.quiet(0.3) if m["type"] == "chat"] == []
        again = await Seat.open(server.ws_url, room["links"][0].removeprefix("/t/"),
                                headers={"Cookie": f"{COOKIE}={anna.cookies[COOKIE]}"})
        assert "ehi Anna" not in [m["text"] for m in again.chats]
        await again.close()
        # The word list (shipped, and the operator's own): hidden from the others, shown to its sender.
        for text in ("sei uno STRONZO", "che brutto ceffo"):
            await c.send({"type": "chat", "text": text})
            assert (await c.until(lambda m: m["type"] == "chat" and m["text"] == text))
            assert text not in [m.get("text") for m in await b.quiet(0.3) if m["type"] == "chat"]
        await c.send({"type": "chat", "text": "stronzolo is no word of the list"})  # (whole words only)
        assert await b.until(lambda m: m["type"] == "chat" and m["text"] == "stronzolo is no word of the list")
        # Hidden lines are stored: a report of Carla carries them.
        assert bruno.post("/api/reports", json={"name": "Carla", "reason": "abuse",
                                                "table": room["table"]}).status_code == 204
        chat = mara.get("/api/mod/reports").json()["reports"][0]["chat"]
        assert [(line["text"], line["hidden"]) for line in chat][-3:] == [
            ("sei uno STRONZO", True), ("che brutto ceffo", True), ("stronzolo is no word of the list", False)]
        for seat in seats:
            await seat.close()

    with running_server(chat_words=str(words)) as server:
        asyncio.run(body(server))


def test_a_rated_ban_refuses_rated_seats_as_a_leavers_pause_does():
    with running_server() as server:
        bruno = sign_up(server, 2, "Bruno")
        mara = moderator(server, 4, "Mara")
        assert bruno.post("/api/rooms", json={"seats": 3, "rated": True}).status_code == 200
        assert mara.post("/api/mod/actions", json={"name": "Bruno", "action": "rated_ban", "hours": 24,
                                                   "why": "collusion"}).status_code == 200
        r = bruno.post("/api/rooms", json={"seats": 3, "rated": True})
        assert r.status_code == 403 and r.json()["error"] == RATED_BANNED
        assert bruno.post("/api/rooms", json={"seats": 3, "rated": False}).status_code == 200  # (casual: welcome)
        assert mara.get("/api/mod/players/Bruno").json()["sanctions"].keys() == {"rated"}


def test_voiding_a_match_gives_the_ratings_a_fresh_rebuild_gives(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        names = ("Anna", "Bruno", "Carla")
        accounts = [people.create_account(n, "h", []) for n in names]
        for match, totals in enumerate([(21, 3, 0), (0, 21, 3), (3, 0, 21), (21, 0, 3)], 1):
            store.create_table(f"t{match}", "room", [f"{s}{match}" for s in "abc"], {"kind": "room"})
            players = [Player(s, n, s, t, False, a) for s, n, t, a in zip(range(3), names, totals, accounts)]
            store.append_many([(f"t{match}", 2, "join", {"seat": 0})], ended=[Ended(
                f"t{match}", 1, "calabresella", 3, 100.0 + match, players, rater=rate, ordinal=ordinal)])
        before = people.ratings(accounts[0])
    finally:
        store.close()
    with running_server(db=store_db) as server:
        mara = moderator(server, 4, "Mara")
        for wrong in ({"match": "t2.9"}, {"match": "nope"}, {"match": "t2.1", "name": "Mara"}):
            assert mara.post("/api/mod/actions", json={"name": "Anna", "action": "void", "why": "x",
                                                       **wrong}).status_code in (400, 404), wrong
        r = mara.post("/api/mod/actions", json={"name": "Anna", "action": "void", "match": "t2.1", "why": "collusion"})
        assert r.status_code == 200, r.text
        assert mara.post("/api/mod/actions", json={"name": "Anna", "action": "void", "match": "t2.1",
                                                   "why": "again"}).status_code == 404  # (unrated now)
    store = open_store(store_db)
    try:
        people = store.people
        assert [p.account for _, ps in people.rated_matches() for p in ps][:3] == accounts
        assert len(people.rated_matches()) == 3
        fresh, rated, _ = recompute(people.rated_matches())
        assert rated == 3
        for account in accounts:
            stored = {k: (r["mu"], r["sigma"], r["matches"]) for k, r in people.ratings(account).items()}
            assert stored == {key: value for (a, key), value in fresh.items() if a == account}
        assert people.ratings(accounts[0]) != before
        assert people.match_result("t2", 1)["rated"] is False
    finally:
        store.close()
