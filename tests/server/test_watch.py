"""Watch links, replays and downloads on the server (issue 22, server/watch.py): the records a
table's page downloads replay with ``tarocchi replay`` for every game (deals and the match); a
replay steps through a finished deal with every hand face up, ending at its count; a table made
before there were watch links gets one without its stored events changing."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys

import httpx
import pytest

from tarocchi.bots import make_player
from tarocchi.engine.game import game_names, get_game
from tarocchi.engine.records import replay as replay_record
from tarocchi.server.app import serve_socket
from tarocchi.server.core.messages import TOO_MANY_LOOKS, Budget
from tarocchi.server.core.tables import replay as replay_table
from tarocchi.engine.playout import random_action
from tarocchi.server.watch import WATCH_SEAT, spectator_view
from tests.server.fake import Socket, new_hub, open_room, until
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.trust.harness import new_room_ids, next_deal, open_all, play_deal, run_async, running, stream

EVERY_GAME = tuple(game_names())


@pytest.mark.parametrize("game", EVERY_GAME)
def test_a_downloaded_match_replays_with_the_command_line_and_each_replay_ends_at_its_count(game, tmp_path):
    async def body(server):
        seats = get_game(game).seats[0]
        table_id, tokens = new_room_ids(server.url, seats, game)
        room = await open_all(server.ws_url, tokens)
        player = make_player("random", 5, game)
        while True:
            await play_deal(room, player)
            if not await next_deal(room):
                break
        sheet = room[0].state["table"]["sheet"]
        watch = room[0].state["table"]["watch"].removeprefix("/w/")
        return table_id, tokens, watch, sheet

    with running(seed=51, games=EVERY_GAME) as server:
        table_id, tokens, watch, sheet = run_async(body(server))
        listed = httpx.get(f"{server.url}/api/deals/{watch}").json()
        assert [d["payments"] for d in listed["deals"]] == sheet and listed["game"] == game
        download = httpx.get(f"{server.url}/api/records/{tokens[0]}")
        assert download.headers["content-disposition"] == f'attachment; filename="tarocchi-{game}-{table_id}.jsonl"'
        assert download.text == httpx.get(f"{server.url}/api/records/{watch}").text  # a seat's link or the watch link
        lines = [json.loads(x) for x in download.text.splitlines()]
        assert len(lines) == len(sheet) + 1 and "deals" in lines[-1] and lines[-1]["result"]["over"]
        for number, record in enumerate(lines[:-1], 1):
            assert replay_record(record).returns() == sheet[number - 1]
            shown = httpx.get(f"{server.url}/api/replay/{watch}/{number}").json()
            steps = shown["steps"]
            assert len(steps) == len(record["actions"]) + 1
            assert [(s["seat"], s["action"]) for s in steps[1:]] == [(a["seat"], a["action"]) for a in record["actions"]]
            assert shown["payments"] == sheet[number - 1] and shown["count"] is not None
            # Face up: the hands at the start are the deal's, each seat's alone.
            dealt = [set(h) for h in steps[0]["hands"]]
            assert all(not (a & b) for i, a in enumerate(dealt) for b in dealt[i + 1:])
            assert set().union(*dealt) <= set(record["deck"])
        assert httpx.get(f"{server.url}/api/replay/{watch}/{len(sheet) + 1}").status_code == 404
        file = tmp_path / "records.jsonl"
        file.write_text(download.text)
        done = subprocess.run([sys.executable, "-m", "tarocchi.cli", "replay", str(file)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        printed = [json.loads(x) for x in done.stdout.splitlines()]
        assert [{k: v for k, v in p.items() if k != "record"} for p in printed[:-1]] == \
            [replay_record(r).count.to_json() for r in lines[:-1]]
        assert printed[-1]["deals"] == len(sheet) and printed[-1]["winners"] == lines[-1]["result"]["winners"]


def test_looking_back_has_a_budget_per_address_apart_from_the_lobbys():
    """A deal's list, a replay and the records each replay a stored stream: past a burst, an
    address gets 429 with the reason (an unknown link spends it too: a scan of links is the
    flood it stops); the lobby's budget, the same size, is counted apart."""
    with running_server(lobby=(4, 0.01)) as server:
        base = server.url
        token = httpx.post(f"{base}/api/rooms", json={"seats": 3}).json()["links"][0].removeprefix("/t/")
        paths = [f"/api/deals/{token}", f"/api/records/{token}", f"/api/replay/{token}/1", f"/api/deals/{'A' * 32}"]
        assert [httpx.get(base + p).status_code for p in paths] == [200, 200, 404, 404]
        for p in paths:
            over = httpx.get(base + p)
            assert over.status_code == 429 and over.json()["error"] == TOO_MANY_LOOKS
        assert httpx.get(f"{base}/api/public").status_code == 200


def test_a_table_from_before_watch_links_gets_one_and_its_stored_events_stay_as_they_were(tmp_path):
    db = str(tmp_path / "old.sqlite3")

    async def start(server):
        _, tokens = new_room_ids(server.url, 3, "sicilian")
        room = await open_all(server.ws_url, tokens)
        for s in room:
            await s.close()
        return tokens

    with running_server(db) as server:
        tokens = run_async(start(server))
    # As an older Tarocchi left it: no watch token in the created event, no watch row.
    with sqlite3.connect(db) as conn:
        (table_id, data), = conn.execute("SELECT table_id, data FROM events WHERE kind = 'created'").fetchall()
        created = json.loads(data)
        del created["watch"]
        conn.execute("UPDATE events SET data = ? WHERE kind = 'created'", (json.dumps(created),))
        conn.execute("DELETE FROM seats WHERE seat = ?", (WATCH_SEAT,))
    before = stream(db, table_id)
    assert replay_table(table_id, before).watch_token is None

    async def again(server):
        seat = await Seat.open(server.ws_url, tokens[1])
        link = seat.state["table"]["watch"]
        assert link.startswith("/w/")
        spectator = await Seat.open(server.ws_url, link.removeprefix("/w/"))
        assert spectator.state["version"] == seat.state["version"] and spectator.view["hand"] == []
        await seat.close()
        await spectator.close()
        return link

    with running_server(db) as server:
        link = run_async(again(server))
    after = stream(db, table_id)
    assert after[:len(before)] == before
    assert [(kind, data) for _, kind, data in after[len(before):]] == [("watch", {"token": link.removeprefix("/w/")})]
    assert replay_table(table_id, after).watch_token == link.removeprefix("/w/")
    with running_server(db) as server:  # one link for good: the next hello adds nothing
        run_async(again(server))
    assert len(stream(db, table_id)) == len(after)


def test_the_spectator_view_has_a_seat_views_shape_with_its_own_parts_empty():
    """Issue 37: a spectator's view is the game's public projection, the keys every seat's view
    has (none that only some seats get, such as Sicilian's ``i_am_partner`` or ``automatic``),
    ``seat`` None, no hand, no choices."""
    for game in EVERY_GAME:
        rules = get_game(game)
        rng = random.Random(f"shape:{game}")
        for seats in rules.seats:
            for _ in range(6):
                deal = rules.shuffled(seats, rng.randrange(seats), rng)
                while deal.to_act is not None:
                    views = [deal.view(s) for s in range(seats)]
                    shown = spectator_view(deal)
                    assert set(shown) == set.intersection(*(set(v) for v in views)) - {"actions"}, game
                    assert (shown["seat"], shown["hand"], shown["choices"]) == (None, [], [])
                    deal.apply(random_action(deal, rng))


def test_a_spectator_of_four_sicilian_seats_learns_nothing_of_the_called_trump_or_a_forced_no():
    """Issue 37, as probed: where seat 0 held the called trump, every spectator frame from the
    announcements on carried ``i_am_partner`` (null), absent in other deals; and a seat's
    "no Scommessa" forced by its own hand read ``possible: null``. Both are a seat's own."""
    rules = get_game("sicilian")
    rng = random.Random("partner")
    seen_partner = seen_forced = 0
    for _ in range(300):
        deal = rules.shuffled(4, rng.randrange(4), rng)
        while deal.to_act is not None:
            views = [deal.view(s) for s in range(4)]
            shown = spectator_view(deal)
            assert "i_am_partner" not in shown and "automatic" not in shown
            seen_partner += any("i_am_partner" in v for v in views)
            for i, a in enumerate(shown["announcements"]):
                own = [v["announcements"][i]["possible"] for v in views]
                # False only where every seat can tell (R12); a No only its seat knew was forced reads as any No
                assert a["possible"] is any(own)
                seen_forced += any(own) and not all(own)
            deal.apply(random_action(deal, rng))
    assert seen_partner and seen_forced  # both cases were there to leak


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_both_stores_keep_a_watch_token_beside_the_seats(kind, tmp_path, request):
    from tarocchi.server.core.store import open_store

    url = str(tmp_path / "s.sqlite3") if kind == "sqlite" else request.getfixturevalue("postgres").new_database()
    store = open_store(url)
    try:
        store.create_table("t1", "room", ["a", "b", None], {"kind": "room"}, more=[(WATCH_SEAT, "w1")])
        assert [store.seat_of(t) for t in ("a", "b", "w1")] == [("t1", 0), ("t1", 1), ("t1", WATCH_SEAT)]
        store.add_token("t1", WATCH_SEAT, "w2")  # an older table's, added later
        assert store.seat_of("w2") == ("t1", WATCH_SEAT) and store.seat_of("zz") is None
        assert [kind for _, kind, _ in store.events("t1")] == ["created"]  # a token is no event
    finally:
        store.close()


def test_a_watched_finished_match_stays_in_memory_until_its_last_spectator_goes(tmp_path):
    """A finished match leaves memory when its last page goes (test_unload): a spectator's page
    counts, and the spectator is told the table as it ended."""
    async def body():
        hub, store = new_hub(str(tmp_path / "watched.sqlite3"))
        hub.start()
        rng = random.Random(6)
        table_id, tokens, sockets, tasks = await open_room(hub, store, 3, rng)
        await until(lambda: sockets[0].frames and sockets[0].state["table"]["status"] == "over", 60)
        watch = sockets[0].state["table"]["watch"].removeprefix("/w/")
        spectator = Socket(store, rng)
        spectator.playing = False
        task = asyncio.create_task(serve_socket(hub, spectator, watch, Budget()))
        spectator.say({"type": "hello", "since": 0})
        await until(lambda: spectator.frames and spectator.state["table"]["status"] == "over")
        assert spectator.state["version"] == sockets[0].state["version"] and spectator.state["table"]["you"] is None
        for s in sockets:
            s.leave()
        await asyncio.sleep(0.05)
        assert table_id in hub.tables  # the spectator still has it open
        spectator.leave()
        await until(lambda: table_id not in hub.tables)
        assert not hub.watch.watching(table_id)
        await hub.stop()
        for t in [*tasks, task]:
            t.cancel()
        store.close()

    asyncio.run(body())


def _cards_in(value) -> set[str]:
    """Every string of a JSON value (card codes among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize("game", [g if g == "renaissance" else pytest.param(g, marks=pytest.mark.slow) for g in game_names()])
def test_the_spectator_view_names_no_card_some_seat_does_not_see(game):
    """At every step of random deals, every card the spectator's view names is in every seat's
    view: a card only some seats see (the monte the Sicilian dealer looked at, R11, seat 0
    among them; a discard) never reaches the spectator. (Seat 0's monte once did.)"""
    rules = get_game(game)
    rng = random.Random(f"spectator:{game}")
    codes = set(rules.deck.codes)
    for _ in range(150):
        seats = rng.choice(rules.seats)
        deal = rules.shuffled(seats, rng.randrange(seats), rng)
        while deal.to_act is not None:
            views = [deal.view(s) for s in range(seats)]
            everyone = set.intersection(*(_cards_in({k: v for k, v in view.items() if k != "actions"}) for view in views))
            named = _cards_in(spectator_view(deal)) & codes
            assert named <= everyone, f"{game}: the spectator sees {sorted(named - everyone)}"
            deal.apply(random_action(deal, rng))
