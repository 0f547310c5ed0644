"""Issue 37, item 6: a move sent at the deadline must not land on the next turn. The page's
``act`` says the table version it answers; once the turn it answered is over (the clock's
computer played it, or the table moved on) the server refuses it with the reason and sends the
state, and the stream never holds it. A chat line or a name, which bump the version but begin
no turn, make no card stale; an act without a version is judged as before.

The hub runs on the test's clocks (test_public.Tables): the deadlines pass when the test says,
so nothing here races. The last test is the same on a site of two processes, the player's
socket on the one that does not drive the table."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from tarocchi.server.core.hub import Chance
from tarocchi.server.core.messages import Act, Chat, Name
from tarocchi.server.core.tables import MOVED_ON, PLAYING, TOO_LATE, replay
from tests.server.live import running_server
from tests.server.seat import Seat, pick_action, play_room_deal
from tests.server.test_away_timer import Clock
from tests.server.test_public import Tables, settle, until_state
from tests.server.test_site import lease_of, redis, site_db  # noqa: F401  (fixtures)


def legal(table, seat: int) -> list[str]:
    return [c["action"] for c in table.deal.view(seat)["choices"] if c["reason"] is None]


def frames_of(page) -> list:
    """What the hub sends the page's socket, in order; "state" where it pushes the state."""
    frames: list = []
    page.conn.send = frames.append
    page.conn.push_state = lambda: frames.append("state")
    return frames


def kinds(frames: list) -> list[str]:
    return [f if f == "state" else f["type"] for f in frames]


def act_ids(store, table_id: str) -> list:
    return [d.get("id") for _, kind, d in store.events(table_id) if kind == "act"]


async def clock_plays(tables: Tables, table) -> None:
    """The turn's deadline passes: the computer plays it (or presses Next deal)."""
    version = table.version
    await settle(tables.clock, table.deadline() + 0.1)
    await until_state(lambda: table.version > version, tables.clock)


async def won_at_the_deadline(tables: Tables, table) -> tuple[int, int, str]:
    """Every turn runs out, until a person's card played by the clock takes the trick and that
    person leads next (the report: the last card of a trick): (the seat, the version its page
    showed when the clock played for it, a card it could play then that it may lead now)."""
    while True:
        seat = table.deal.to_act if table.status == PLAYING else None
        if seat is not None and table.deal.view(seat)["phase"] == "play":
            version, then = table.version, legal(table, seat)
            await clock_plays(tables, table)
            if table.status == PLAYING and table.deal.to_act == seat and not table.deal.trick:
                still = [card for card in then if card in legal(table, seat)]
                if still:
                    return seat, version, still[0]
        else:
            await clock_plays(tables, table)


def clocked(tables: Tables, game: str = "renaissance"):
    tables.hub.chance = Chance(random.Random(37))  # (the same deals every run)
    table_id, tokens = tables.hub.lobby.new_room(3, game, public=False, clock=5)
    pages = [tables.page(token) for token in tokens]
    return table_id, pages


def test_a_card_that_answers_a_turn_the_clock_played_is_refused_and_never_stored(store_db):
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(store_db, clock)
        table_id, pages = clocked(tables)
        await settle()
        table = pages[0].conn.table
        seat, seen, card = await won_at_the_deadline(tables, table)
        assert table.played_for[seat] > seen >= 1
        page = pages[seat]
        frames = frames_of(page)
        version, acted = table.version, list(table.acted)
        # The card the player clicked as the deadline passed arrives now, answering the old state.
        tables.hub.handle(page.conn, Act(action=card, id="late", version=seen))
        await settle()
        # Refused with the reason, then where things stand now.
        assert kinds(frames) == ["refused", "state"], "the late card was played on a turn the player never saw"
        refused = frames[0]
        assert refused["id"] == "late" and (refused["reason"], refused["reason_id"]) == (str(TOO_LATE), "too_late")
        assert (table.version, table.acted) == (version, acted) and not table.deal.trick
        assert "late" not in act_ids(tables.store, table_id)
        # The stream replays to the same turn, the clock's card known (a restart, a move).
        again = replay(table_id, tables.store.events(table_id))
        assert (again.turn_version, again.played_for) == (table.turn_version, table.played_for)
        # Nothing is lost: the player, having seen the table, leads; that card is taken.
        tables.hub.handle(page.conn, Act(action=card, id="seen", version=table.version))
        await settle()
        assert table.deal.view(seat)["trick"] == [{"seat": seat, "card": card}]
        assert act_ids(tables.store, table_id)[-1] == "seen"
        tables.store.close()

    asyncio.run(body())


def test_a_chat_line_or_a_name_does_not_make_a_card_stale(tmp_path):
    """The version goes up with every stored event, a chat line and a name too; the turn does
    not. An act answering the state before them is the player's turn still: applied. Resent
    (the page reconnected), it gets the state, not a refusal."""
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(str(tmp_path / "t.sqlite3"), clock)
        table_id, pages = clocked(tables, game="sicilian")
        await settle()
        table = pages[0].conn.table
        seat = table.deal.to_act
        page, other = pages[seat], pages[(seat + 1) % 3]
        seen, action = table.version, legal(table, seat)[0]
        tables.hub.handle(other.conn, Chat(text="forza!"))
        tables.hub.handle(page.conn, Chat(text="un momento"))
        tables.hub.handle(other.conn, Name(name="Turi"))
        await settle()
        assert table.version == seen + 3 and table.deal.to_act == seat
        frames = frames_of(page)
        tables.hub.handle(page.conn, Act(action=action, id="mine", version=seen))
        await settle()
        assert "refused" not in kinds(frames)
        assert act_ids(tables.store, table_id)[-1] == "mine" and table.acted[seat] == 1
        frames.clear()
        tables.hub.handle(page.conn, Act(action=action, id="mine", version=seen))  # resent
        await settle()
        assert frames == ["state"] and act_ids(tables.store, table_id).count("mine") == 1
        tables.store.close()

    asyncio.run(body())


def test_an_act_for_a_turn_the_table_left_is_refused_and_one_without_a_version_judged_as_before(tmp_path):
    """Not the clock: the player answers a state in which another seat was to act (that seat
    acted meanwhile): "the table moved on". An act that says no version (an older page, a
    script) is judged by the rules alone, as before."""
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(str(tmp_path / "t.sqlite3"), clock)
        table_id, pages = clocked(tables, game="sicilian")
        await settle()
        table = pages[0].conn.table
        first = table.deal.to_act
        seen = table.version
        tables.hub.handle(pages[first].conn, Act(action=legal(table, first)[0], id="in-time", version=seen))
        await settle()
        seat = table.deal.to_act
        assert seat != first and table.played_for == [0, 0, 0]
        frames = frames_of(pages[seat])
        tables.hub.handle(pages[seat].conn, Act(action=legal(table, seat)[0], id="stale", version=seen))
        await settle()
        assert kinds(frames) == ["refused", "state"], "the act was played on a turn the player never saw"
        assert (frames[0]["reason"], frames[0]["reason_id"]) == (str(MOVED_ON), "moved_on")
        assert "stale" not in act_ids(tables.store, table_id) and table.deal.to_act == seat
        tables.hub.handle(pages[seat].conn, Act(action=legal(table, seat)[0], id="old-page"))
        await settle()
        assert act_ids(tables.store, table_id)[-1] == "old-page"
        tables.store.close()

    asyncio.run(body())


@pytest.mark.slow
def test_on_a_site_a_late_card_relayed_by_the_other_process_is_refused(redis, site_db):  # noqa: F811
    """A room with a 5 s clock driven by A, every seat's socket on B (relayed over the bus).
    A player lets the deadline pass; the computer plays the card; the others play on in time;
    on the player's next turn the card clicked at the deadline arrives, carrying the version it
    answered: refused (too late), then the state, and the stream never holds it. Nothing races:
    the late act is sent once the computer's card has been seen."""
    async def body():
        with running_server(site_db, bus=redis.url, process="A", lease=2.0, chance=Chance(random.Random(37))) as a, \
                running_server(site_db, bus=redis.url, process="B", lease=2.0) as b:
            made = httpx.post(f"{a.url}/api/rooms", json={"game": "sicilian", "seats": 3, "clock": 5}).json()
            tokens = [link.removeprefix("/t/") for link in made["links"]]
            seats = [await Seat.open(b.ws_url, token) for token in tokens]
            for s in seats:
                await s.wait_state(lambda st: st["table"]["status"] == "playing")
            assert lease_of(site_db, made["table"]) == "A"
            rng = random.Random(6)
            await play_room_deal(seats, rng, stop=lambda st: st["view"]["phase"] == "play")
            version = max(s.state["version"] for s in seats)
            for s in seats:
                await s.wait_state(lambda st: st["version"] >= version)
            (late,) = [s for s in seats if s.my_turn()]
            you, seen, then = late.you, late.state["version"], late.view
            played = late.state["acted"][you]
            # The deadline passes; the computer plays for the player (every page sees it).
            for s in seats:
                await s.wait_state(lambda st: st["acted"][you] > played, timeout=20)
            version = max(s.state["version"] for s in seats)
            for s in seats:
                await s.wait_state(lambda st: st["version"] >= version)
            # The others play on in time, to the player's next turn.
            await play_room_deal(seats, rng, stop=lambda st: st["view"]["turn"] == you)
            now = await late.wait_state(lambda st: st["view"]["turn"] == you)
            allowed = [c["action"] for c in now["view"]["choices"] if c["reason"] is None]
            both = [c["action"] for c in then["choices"] if c["reason"] is None and c["action"] in allowed]
            card = (both or allowed)[0]
            await late.act(card, "late", version=seen)
            answer = await late.until(lambda m: m["type"] == "refused"
                                      or (m["type"] == "state" and m["acted"][you] > now["acted"][you]))
            assert answer["type"] == "refused", "the late card was played on a turn the player never saw"
            assert (answer["id"], answer["reason_id"], answer["reason"]) == ("late", "too_late", str(TOO_LATE))
            state = await late.until(lambda m: m["type"] == "state")
            assert state["version"] == answer["version"] and state["view"]["turn"] == you
            store_ids = act_ids_of(site_db, made["table"])
            assert "late" not in store_ids
            # Having seen the table, the player plays: taken.
            await late.act(pick_action(late.view, rng), "seen", version=late.state["version"])
            await late.wait_state(lambda st: st["acted"][you] > now["acted"][you])
            for s in seats:
                await s.close()

    asyncio.run(body())


def act_ids_of(db: str, table_id: str) -> list:
    from tarocchi.server.core.store import open_store

    store = open_store(db)
    try:
        return act_ids(store, table_id)
    finally:
        store.close()
