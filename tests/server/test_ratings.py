"""Ratings (issue 40, server/ratings.py): a rated room's match is rated exactly once, in the commit
of the event that ends it (a failed commit leaves neither record nor rating, and the table plays
on from the store); a room its host left unrated, a seat without an account and a computer table
are recorded but not rated; Ottocento's partners are one team (B5); a person the computer played
for most of a deal finishes last; ``tarocchi ratings rebuild`` gives back exactly the live
values; the profile and leaderboard routes answer as docs/protocol.md says, and carry no seat
link. The store tests run on SQLite and PostgreSQL (``store_db``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tarocchi.bots import make_player
from tarocchi.cli import main as tarocchi
from tarocchi.server.app import assemble
from tarocchi.server.core.hub import CLOSE_NOT_STORED, Chance
from tarocchi.server.core.messages import Budget
from tarocchi.server.core.sessions import COOKIE
from tarocchi.server.core.sockets import serve_socket
from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import Ended, Player, places
from tarocchi.server.core.tables import Table
from tarocchi.server.ratings import (
    LEADERBOARD_SIZE, PROVISIONAL_SIGMA, Ratings, ordinal, provisional, rate, recompute,
)
from tests.server.fake import RecordingStore, Socket, until
from tests.server.live import running_server

KINDS = [("sicilian", 3), ("sicilian", 4), ("renaissance", 3), ("calabresella", 3), ("ottocento", 4)]
RATED = {"rated": True}  # a private room its host chose to rate (a public one is rated by default)


class EndsStore(RecordingStore):
    """A RecordingStore that notes which matches each commit recorded, and fails the commits
    that record a match's end while ``fail_ends`` says so (``fail_next``)."""

    def __init__(self, db: str):
        super().__init__(db)
        self.fail_ends = 0
        self.ends: list[tuple[list[tuple[str, int]], list[str]]] = []  # (events, ended tables) a commit

    def append_many(self, events, finished=(), reopened=(), ended=()):
        ended = list(ended)
        if ended and self.fail_ends:
            self.fail_ends -= 1
            self.fail_next = True
        super().append_many(events, finished, reopened, ended)
        self.ends.append(([(t, v) for t, v, *_ in events], [e.table_id for e in ended]))


def new_hub(db: str, **options):
    store = EndsStore(db)
    hub = assemble(store, ThreadPoolExecutor(1), bot_delay=0.0, trick_pause=0.0,
                   chance=Chance(random.Random(options.pop("seed", 3))), **options)
    return hub, store


def accounts(store, *names: str) -> list[str]:
    return [store.people.create_account(name, None, []) for name in names]


def signed_in(store, socket: Socket, account: str | None) -> Socket:
    """The socket is opened signed in to ``account`` (its session cookie), None: signed out."""
    if account is not None:
        socket.cookies = {COOKIE: store.people.new_session(account, "test")}
    return socket


def seat_all(hub, store, tokens, game: str, seed: int, playing: bool = True, sitters=()):
    """A socket at each seat of ``tokens``, each opened signed in to the account of
    ``sitters`` at its place (None, or none given: signed out), playing at random."""
    rng = random.Random(seed)
    sitters = list(sitters) + [None] * (len(tokens) - len(sitters))
    sockets = [signed_in(store, Socket(store, rng), account) for account in sitters]
    tasks = []
    for s, token in zip(sockets, tokens):
        s.playing = playing
        s.choose = make_player("random", rng.randrange(1 << 30), game)  # (any game's random legal action)
        tasks.append(asyncio.create_task(serve_socket(hub, s, token, Budget(10_000, 10_000.0))))
        s.say({"type": "hello", "since": 0})
    return sockets, tasks


def over(socket: Socket) -> bool:
    return bool(socket.frames) and socket.state["table"]["status"] == "over"


async def leave(sockets, tasks) -> None:
    for s in sockets:
        s.leave()
    await asyncio.gather(*tasks)


async def play_room(hub, store, game: str, seats: int, holders, settings=RATED, seed: int = 1):
    """A room of ``game`` played to the end of its match, its seats held by ``holders``
    (account ids, None: nobody's); (table id, seat tokens)."""
    table_id, tokens = hub.new_room(seats, game, settings=settings)
    sockets, tasks = seat_all(hub, store, tokens, game, seed, sitters=holders)
    await until(lambda: over(sockets[0]), seconds=30)
    await leave(sockets, tasks)
    return table_id, tokens


def recorded(store, table_id: str) -> list[tuple[int, int]]:
    """The table's match records: (match, rated)."""
    with store.people.read() as tx:
        return [tuple(r) for r in tx.run("SELECT match, rated FROM matches WHERE table_id = %s ORDER BY match",
                                         (table_id,))]


def players_of(store, table_id: str, match: int = 1) -> list[tuple]:
    """(seat, account, team, total, absent, place) of a recorded match, by seat."""
    with store.people.read() as tx:
        return [tuple(r) for r in tx.run(
            "SELECT seat, account_id, team, total, absent, place FROM match_players WHERE table_id = %s AND match = %s "
            "ORDER BY seat", (table_id, match))]


def all_ratings(store) -> dict[tuple[str, str], tuple[float, float, float, int]]:
    with store.people.read() as tx:
        return {(a, k): (mu, s, o, n) for a, k, mu, s, o, n in
                tx.run("SELECT account_id, key, mu, sigma, ordinal, matches FROM ratings")}


# --- the rater ---------------------------------------------------------------------------------

def test_the_rater_wants_every_seat_an_account_and_each_its_own():
    players = [Player(s, f"p{s}", s, t, False, f"a{s}") for s, t in enumerate((10, 0, -10))]
    places(players)
    after = rate(players, {})
    assert set(after) == {"a0", "a1", "a2"} and after["a0"][0] > after["a1"][0] > after["a2"][0]
    assert all(type(mu) is float and type(sigma) is float for mu, sigma in after.values())
    assert rate(players, {}) == after  # (a pure function: a rebuild gets the same)
    players[2].account = None
    assert rate(players, {}) is None
    players[2].account = "a0"
    assert rate(players, {}) is None


def test_a_computer_table_is_never_rated_and_a_room_only_when_it_is_to_be():
    ratings = Ratings(SimpleNamespace())
    played = SimpleNamespace(deals=[SimpleNamespace(done=True, count=SimpleNamespace(abandoned=False))])
    for kind, rated, expected in (("computer", True, False), ("room", False, False), ("room", True, True)):
        ended = Ended("t", 1, "sicilian", 3, 0.0, [])
        table = Table("t", {"kind": kind, "seats": 3, "names": ["a", "b", "c"], "bots": [None] * 3, "rated": rated})
        table.match = played
        ratings.ended(table, ended)
        assert (ended.rater is rate and ended.ordinal is ordinal) is expected
        assert (ended.rater is None) is not expected


def test_ottocento_partners_are_one_team_and_sicilian_seats_each_their_own():
    model = PlackettLuce()
    before = {"a0": (30.0, 5.0), "a2": (20.0, 7.0), "a1": (25.0, 6.0), "a3": (25.0, 8.0)}
    team = [Player(s, f"p{s}", s % 2, total, False, f"a{s}") for s, total in enumerate((800, 650, 800, 650))]
    places(team)
    after = rate(team, before)
    # Partners move together: both up (the winning side), both down, as openskill rates two teams.
    expected = model.rate([[model.rating(*before["a0"]), model.rating(*before["a2"])],
                           [model.rating(*before["a1"]), model.rating(*before["a3"])]], ranks=[1.0, 2.0])
    assert after["a0"] == (expected[0][0].mu, expected[0][0].sigma)
    assert after["a3"] == (expected[1][1].mu, expected[1][1].sigma)
    assert after["a0"][0] > 30 and after["a2"][0] > 20 and after["a1"][0] < 25 and after["a3"][0] < 25
    # Sicilian at four: the called partner (R15) is a side for one deal only; each seat by its total.
    alone = [Player(s, f"p{s}", s, total, False, f"a{s}") for s, total in enumerate((12, 12, -4, -20))]
    places(alone)
    assert [p.place for p in alone] == [1, 1, 3, 4]  # (as sport counts places: issue 56)
    after = rate(alone, {})
    assert after["a0"] == after["a1"]  # a shared place: a draw between them
    # (Weng and Lin's ties: after two tied at the top of four, the third gains as they do.)
    assert after["a1"][0] >= after["a2"][0] > after["a3"][0]


def test_the_provisional_threshold_and_the_ordinal():
    assert provisional(PlackettLuce().sigma) and not provisional(PROVISIONAL_SIGMA)
    assert ordinal(25.0, 25 / 3) == pytest.approx(0.0) and ordinal(30.0, 2.0) == 24.0


# --- rated in the commit that ends the match -------------------------------------------------------

@pytest.mark.parametrize(("game", "seats"), KINDS)
def test_a_rated_match_of_each_kind_is_rated_exactly_once_with_its_last_event(store_db, game, seats):
    async def body():
        hub, store = new_hub(store_db)
        hub.start()
        people = accounts(store, *[f"player{s}" for s in range(seats)])
        table_id, tokens = hub.new_room(seats, game, settings=RATED)
        sockets, tasks = seat_all(hub, store, tokens, game, seed=7, sitters=people)
        await until(lambda: over(sockets[0]), seconds=30)
        last = hub.tables[table_id].version
        # The commit that stored the match's last event is the one that recorded it, once.
        carrying = [ended for events, ended in store.ends if (table_id, last) in events]
        assert carrying == [[table_id]]
        assert sum(ended.count(table_id) for _, ended in store.ends) == 1
        assert recorded(store, table_id) == [(1, 1)]
        key = f"{game}/{seats}"
        first = {a: store.people.ratings(a)[key] for a in people}
        assert all(r["matches"] == 1 and r["ordinal"] == ordinal(r["mu"], r["sigma"]) for r in first.values())
        # What the store kept of the match rates it again to the same values (floats in, out).
        kept = [Player(s, "", team, total, bool(absent), account, place)
                for s, account, team, total, absent, place in players_of(store, table_id)]
        assert rate(kept, {}) == {a: (r["mu"], r["sigma"]) for a, r in first.items()}
        if game == "ottocento":  # partners (B5) start equal and move together
            assert first[people[0]]["mu"] == first[people[2]]["mu"] and first[people[1]]["mu"] == first[people[3]]["mu"]
        # A rematch is another match: rated once more, from the ratings the first left.
        for s in sockets:
            s.say({"type": "rematch"})
        await until(lambda: len(recorded(store, table_id)) == 2, seconds=30, every=0.02)
        assert recorded(store, table_id) == [(1, 1), (2, 1)]
        assert all(store.people.ratings(a)[key]["matches"] == 2 for a in people)
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


def test_a_failed_commit_leaves_neither_the_record_nor_the_rating_and_the_table_plays_on(store_db):
    async def body():
        hub, store = new_hub(store_db)
        hub.start()
        people = accounts(store, "anna", "bruno", "carla")
        table_id, tokens = hub.new_room(3, "sicilian", settings=RATED)
        store.fail_ends = 1  # the commit of the event that ends the match fails
        sockets, tasks = seat_all(hub, store, tokens, "sicilian", seed=5, sitters=people)
        await until(lambda: all(s.closed for s in sockets), seconds=30)
        assert {s.closed[0] for s in sockets} == {CLOSE_NOT_STORED}
        await asyncio.gather(*tasks)
        assert recorded(store, table_id) == [] and all(store.people.ratings(a) == {} for a in people)
        assert table_id in store.unfinished() and table_id not in hub.tables
        # The pages open the table again: it is as the store left it, and plays on to its end.
        again, tasks = seat_all(hub, store, tokens, "sicilian", seed=6, sitters=people)
        await until(lambda: over(again[0]), seconds=30)
        assert recorded(store, table_id) == [(1, 1)]
        assert all(store.people.ratings(a)["sicilian/3"]["matches"] == 1 for a in people)
        await leave(again, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


@pytest.mark.parametrize(("public", "chosen", "rated"), [(False, True, 1), (False, None, 0), (True, None, 1),
                                                         (True, False, 0)])
def test_a_room_is_rated_as_its_host_chose_else_as_public_rooms_are(tmp_path, public, chosen, rated):
    """``POST /api/rooms {"rated": false}`` (lobby.new_room): recorded, with its players, never rated."""
    async def body():
        hub, store = new_hub(str(tmp_path / "t.sqlite3"))
        hub.start()
        people = accounts(store, "anna", "bruno", "carla")
        table_id, tokens = hub.lobby.new_room(3, "sicilian", public=public, clock=None, rated=chosen)
        assert hub.tables[table_id].rated is bool(rated)
        sockets, tasks = seat_all(hub, store, tokens, "sicilian", seed=2, sitters=people)
        await until(lambda: over(sockets[0]), seconds=30)
        assert recorded(store, table_id) == [(1, rated)]
        assert [p[1] for p in players_of(store, table_id)] == people
        assert all(bool(store.people.ratings(a)) is bool(rated) for a in people)
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


def test_a_seat_without_an_account_leaves_the_match_unrated(store_db):
    async def body():
        hub, store = new_hub(store_db)
        hub.start()
        people = accounts(store, "anna", "bruno")
        table_id, _ = await play_room(hub, store, "calabresella", 3, [*people, None])
        assert recorded(store, table_id) == [(1, 0)]
        assert [p[1] for p in players_of(store, table_id)] == [*people, None]
        assert all(store.people.ratings(a) == {} for a in people)
        await hub.stop()
        store.close()

    asyncio.run(body())


def test_a_computer_table_is_recorded_and_never_rated(tmp_path):
    async def body():
        hub, store = new_hub(str(tmp_path / "t.sqlite3"))
        hub.start()
        [anna] = accounts(store, "anna")
        table_id, token = hub.new_computer(3, "random", "sicilian")
        sockets, tasks = seat_all(hub, store, [token], "sicilian", seed=4, sitters=[anna])
        await until(lambda: over(sockets[0]), seconds=30)
        assert recorded(store, table_id) == [(1, 0)] and store.people.ratings(anna) == {}
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


def test_a_person_the_computer_played_for_most_of_a_deal_finishes_last(tmp_path):
    """Seat 2 leaves as the first deal begins and the others hand it to the computer (away for
    the room's time, here none): it is absent from the match, last in its rating whatever its
    total."""
    async def body():
        hub, store = new_hub(str(tmp_path / "t.sqlite3"), away_timeout=0.0)
        hub.start()
        people = accounts(store, "anna", "bruno", "carla")
        table_id, tokens = hub.new_room(3, "sicilian", settings=RATED)
        sockets, tasks = seat_all(hub, store, tokens, "sicilian", seed=8, sitters=people)
        sockets[2].playing = False
        await until(lambda: sockets[2].frames and sockets[2].state["table"]["status"] == "playing")
        sockets[2].leave()
        await tasks[2]

        def handed() -> bool:
            if sockets[0].state["table"]["standin"][2]:
                return True
            sockets[0].say({"type": "takeover", "seat": 2})
            return False

        await until(handed, seconds=10, every=0.05)
        await until(lambda: over(sockets[0]), seconds=30)
        kept = players_of(store, table_id)
        assert kept[2][4] == 1  # absent
        assert kept[2][5] > max(kept[0][5], kept[1][5])  # last, whatever the totals
        after = {a: store.people.ratings(a)["sicilian/3"]["mu"] for a in people}
        assert after[people[2]] < min(after[people[0]], after[people[1]])
        await leave(sockets[:2], tasks[:2])
        await hub.stop()
        store.close()

    asyncio.run(body())


# --- the rebuild ---------------------------------------------------------------------------------

def test_ratings_rebuild_gives_exactly_the_live_ratings(store_db, capsys):
    async def played():
        hub, store = new_hub(store_db)
        hub.start()
        people = accounts(store, "anna", "bruno", "carla", "dario", "elena")
        rng = random.Random(11)
        for n, (game, seats) in enumerate(KINDS * 2):
            holders = rng.sample(people, seats)
            if n == 3:
                holders[1] = None  # (recorded, not rated: the rebuild passes it over)
            await play_room(hub, store, game, seats, holders, seed=n)
        live = all_ratings(store)
        await hub.stop()
        store.close()
        return live

    live = asyncio.run(played())
    assert len(live) >= 10
    store = open_store(store_db)
    with store.people.write() as tx:  # lost, or wrong: the rebuild writes them all again
        tx.run("UPDATE ratings SET mu = 0, matches = 99")
    store.close()
    assert tarocchi(["ratings", "rebuild", "--db", store_db]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"9 rated matches replayed; {len(live)} ratings written for 5 accounts (")
    store = open_store(store_db)
    assert all_ratings(store) == live  # exactly: the same floats
    store.close()


def test_ratings_rebuild_refuses_a_database_a_server_serves(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite3")
    with running_server(db):
        assert tarocchi(["ratings", "rebuild", "--db", db]) == 1
        assert "a Tarocchi server serves" in capsys.readouterr().err
    assert tarocchi(["ratings", "rebuild", "--db", db]) == 0
    assert capsys.readouterr().out == "0 rated matches replayed; 0 ratings written for 0 accounts\n"
    assert tarocchi(["ratings", "rebuild", "--db", str(tmp_path / "none.sqlite3")]) == 2


GAMES = [("sicilian", 3), ("sicilian", 4), ("calabresella", 3), ("ottocento", 4)]


@st.composite
def histories(draw):
    """Matches of a handful of accounts: game and size, who sat where, totals (ties likely),
    who was absent; a seat now and then without an account."""
    matches = []
    for _ in range(draw(st.integers(1, 12))):
        game, seats = draw(st.sampled_from(GAMES))
        who = draw(st.permutations(range(6)))[:seats]
        totals = draw(st.lists(st.integers(-3, 3), min_size=seats, max_size=seats))
        absent = draw(st.lists(st.sampled_from([False, False, False, True]), min_size=seats, max_size=seats))
        nobody = draw(st.integers(-3, seats - 1))  # (a seat of nobody's when in range)
        matches.append((game, seats, who, totals, absent, nobody))
    return matches


@settings(max_examples=40)
@given(history=histories())
def test_a_rebuild_of_any_history_gives_the_live_values(history):
    """Matches recorded as the hub records them (``record_ended`` in the commit), then
    ``recompute`` from the stored matches alone: the same (mu, sigma, matches), bit for bit."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(str(Path(folder) / "t.sqlite3"))
        with contextlib.closing(store):
            people = [store.people.create_account(f"player{i}", None, []) for i in range(6)]
            for n, (game, seats, who, totals, absent, nobody) in enumerate(history):
                table_id, tokens = f"t{n}", [f"seat{n}-{s}" for s in range(seats)]
                store.create_table(table_id, "room", tokens, {"kind": "room", "seats": seats})
                players = [Player(s, f"p{s}", s % 2 if game == "ottocento" else s, totals[s], absent[s],
                                  None if s == nobody else people[who[s]]) for s in range(seats)]
                store.append_many([(table_id, 2, "chat", {"text": "."})],
                                  ended=[Ended(table_id, 1, game, seats, float(n), players, rate, ordinal)])
            live = {k: (mu, s, n) for k, (mu, s, _, n) in all_ratings(store).items()}
            rebuilt, rated, departed = recompute(store.people.rated_matches())
            assert rebuilt == live and departed == 0
            assert rated == sum(1 for m in history if not 0 <= m[5] < m[1])


# --- the routes ------------------------------------------------------------------------------------

def test_the_profile_and_the_leaderboards_answer_as_documented_with_no_seat_link(store_db):
    async def played():
        hub, store = new_hub(store_db)
        hub.start()
        names = ["Anna", "Bruno", "Carla", "Dario"]
        people = accounts(store, *names)
        tables = {}
        for what, game, seats, settings in (("rated", "sicilian", 3, RATED), ("team", "ottocento", 4, RATED),
                                            ("private", "sicilian", 3, {})):
            tables[what] = await play_room(hub, store, game, seats, people[:seats], settings, seed=len(tables))
        await hub.stop()
        store.close()
        return tables

    tables = asyncio.run(played())
    store = open_store(store_db)
    watch = store.people.watch_tokens([t for t, _ in tables.values()])
    store.close()
    seat_tokens = [token for _, tokens in tables.values() for token in tokens]
    addresses = iter(range(1, 255))

    def get(server, path: str) -> httpx.Response:
        # Each request from an address of its own (the lobby's budget is per address).
        return httpx.get(server.url + path, headers={"X-Forwarded-For": f"198.51.100.{next(addresses)}"})

    with running_server(store_db, lobby=(3, 0.001)) as server:
        answer = get(server, "/api/players/ANNA")  # (a name is matched case folded)
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
        assert not any(token in answer.text for token in seat_tokens)
        profile = answer.json()
        assert profile["name"] == "Anna" and sorted(profile["ratings"]) == ["ottocento/4", "sicilian/3"]
        for r in profile["ratings"].values():
            assert set(r) == {"mu", "sigma", "ordinal", "matches", "provisional", "rating"}
            assert r["matches"] == 1 and r["provisional"] is True
        matches = profile["matches"]
        assert [(m["game"], m["rated"]) for m in matches] == [("sicilian", False), ("ottocento", True), ("sicilian", True)]
        by_table = {m["table"]: m for m in matches}
        for what, (table_id, _) in tables.items():
            m = by_table[table_id]
            # A rated match's own deals (issue 55), never the table's watch link.
            assert m["replay"] == (None if what == "private" else f"/r/{table_id}.1/1") and "watch" not in m
            assert watch[table_id] not in answer.text
            assert m["key"] == f"{m['game']}/{m['seats']}" and m["seat"] == 0
            assert [p["you"] for p in m["players"]][:1] == [True]
            assert (m["after"] is None) is (what == "private")
        assert get(server, "/api/players/nobody").status_code == 404
        assert get(server, "/api/players/" + "x" * 500).status_code == 404

        board = get(server, "/api/leaderboard/sicilian")
        assert board.status_code == 200 and not any(token in board.text for token in seat_tokens)
        body = board.json()
        assert body["game"] == "sicilian" and body["provisional_sigma"] == PROVISIONAL_SIGMA
        assert [(b["seats"], b["key"]) for b in body["boards"]] == [(3, "sicilian/3"), (4, "sicilian/4")]
        three = body["boards"][0]["players"]
        assert sorted(p["name"] for p in three) == ["Anna", "Bruno", "Carla"] and body["boards"][1]["players"] == []
        assert [p["ordinal"] for p in three] == sorted((p["ordinal"] for p in three), reverse=True)
        assert three[0]["rank"] == 1 and all(p["provisional"] and p["matches"] == 1 for p in three)
        assert set(three[0]) == {"rank", "name", "ordinal", "mu", "sigma", "matches", "provisional", "rating"}
        team = get(server, "/api/leaderboard/ottocento").json()["boards"][0]["players"]
        # Partners rise or fall together: two ranks, each shared by a side's two players.
        assert sorted(p["rank"] for p in team) == [1, 1, 3, 3]
        assert {p["name"] for p in team if p["rank"] == 1} in ({"Anna", "Carla"}, {"Bruno", "Dario"})
        settled = get(server, "/api/leaderboard/sicilian?provisional=false").json()
        assert all(b["players"] == [] for b in settled["boards"])
        assert get(server, "/api/leaderboard/chess").status_code == 404

        # The lobby's budget, per address: a burst of 3 here, then 429.
        answers = [httpx.get(server.url + "/api/leaderboard/sicilian", headers={"X-Forwarded-For": "203.0.113.9"})
                   for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert LEADERBOARD_SIZE == 100
