"""Your games (issue 58, server/archive.py, games/figures.py): each deal's figures are stored with
its match's record, on SQLite and PostgreSQL (``store_db``); the archive's filters and the figures
per game answer what hand-played deals of known contracts give, worked out here from the
engine's own deals (their payments and public counts), not from the stored rows; a backfill from
the stored events writes the same rows again; a private archive answers as no account does; a
deleted account leaves nothing of itself; a bad query is a 400."""

from __future__ import annotations

import asyncio
import datetime
import random
import sqlite3

import httpx
import pytest

from tarocchi.cli import main as tarocchi
from tarocchi.games.figures import deal_figures
from tarocchi.server.core.hub import stored_table
from tarocchi.server.core.sessions import COOKIE
from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import NEUTRAL_NAME
from tarocchi.server.ratings import shown
from tests.server.fake import until
from tests.server.live import running_server
from tests.server.seat import pick_action
from tests.server.test_ratings import RATED, accounts, leave, new_hub, over, seat_all


async def play_solo_room(hub, store, holders, soloist: int, settings, seed: int) -> str:
    """A three-seat Sicilian room played to its end, ``soloist``'s seat saying vado solo at its
    first word of every deal (on five cards: a stata, R5, R7) and the others passo whenever they
    may; the rest (discard, announcements, cards) at random. Its table id."""
    table_id, tokens = hub.new_room(3, "sicilian", settings=settings)
    sockets, tasks = seat_all(hub, store, tokens, "sicilian", seed, sitters=holders)
    for s, socket in enumerate(sockets):
        rng = random.Random(seed * 10 + s)
        prefer = ("vado solo",) if s == soloist else ("passo",)
        socket.choose = lambda view, rng=rng, prefer=prefer: pick_action(view, rng, prefer=prefer)
    await until(lambda: over(sockets[0]), seconds=30)
    await leave(sockets, tasks)
    return table_id


def deal_rows(store) -> list[tuple]:
    with store.people.read() as tx:
        return sorted(tuple(r) for r in tx.run("SELECT * FROM deal_seats"))


def played_deals(store, table_id: str) -> list:
    """The engine's deals of the table's one match, replayed from its stored events."""
    (match,) = stored_table(table_id, store.events(table_id)).matches
    return match.deals


def test_the_archive_and_the_figures_answer_what_the_deals_were(store_db, capsys):
    async def played():
        hub, store = new_hub(store_db)
        hub.start()
        people = accounts(store, "Anna", "Bruno", "Carla", "Dario")
        # Anna goes solo in every deal of a rated match; in a casual one Bruno does.
        rated = await play_solo_room(hub, store, people[:3], 0, RATED, seed=1)
        casual = await play_solo_room(hub, store, [people[1], people[0], people[2]], 0, {}, seed=2)
        await hub.stop()
        store.close()
        return people, rated, casual

    (anna, bruno, carla, dario), rated, casual = asyncio.run(played())
    store = open_store(store_db)
    rows = deal_rows(store)
    deals = {rated: played_deals(store, rated), casual: played_deals(store, casual)}
    seat_of_anna = {rated: 0, casual: 1}
    profile_rating = store.people.ratings(anna)["sicilian/3"]
    cookie = {who: store.people.new_session(account, "test") for who, account in
              (("anna", anna), ("bruno", bruno))}
    store.close()

    # What the deals were for Anna, from the engine's deals alone.
    dealt = [(t, d) for t in (rated, casual) for d in deals[t]]
    mine = [(t, d, seat_of_anna[t]) for t, d in dealt]
    solos = [(t, d, s) for t, d, s in mine if t == rated and not d.count.abandoned]
    assert solos and all(d.count.bidder == 0 and d.stata for _, d, _ in solos)  # (as played: Anna's stata)
    made = sum(1 for _, d, s in solos if d.returns()[s] > 0)
    points = sum(d.returns()[s] for _, d, s in mine)
    announced: dict[str, list[int]] = {}
    for _, d, s in mine:
        said = ("scommessa" if d.count.bidder == s and d.scommessa else
                "rivanto" if not d.count.abandoned and d.rivanto == s else None)
        if said:
            jochi = {j["name"]: j["side"] for j in d.count.to_json()["jochi"]}
            side = "bidder" if s in d.count.sides["bidder"] else "others"
            tally = announced.setdefault(said, [0, 0])
            tally[0] += 1
            tally[1] += jochi.get("scommessa" if said == "scommessa" else "vanto") == side
    opposed = [(t, d) for t, d, s in mine if t == casual and not d.count.abandoned]
    assert all(d.count.bidder == 0 for _, d in opposed)  # (Bruno's solos: Anna an opponent)

    addresses = iter(range(1, 250))

    def get(server, path: str, who: str | None = None) -> httpx.Response:
        cookies = {COOKIE: cookie[who]} if who else None
        return httpx.get(server.url + path, cookies=cookies, headers={"X-Forwarded-For": f"198.51.100.{next(addresses)}"})

    def post(server, path: str, body, who: str | None = None) -> httpx.Response:
        cookies = {COOKIE: cookie[who]} if who else None
        return httpx.post(server.url + path, cookies=cookies, content=body if isinstance(body, bytes) else None,
                          json=None if isinstance(body, bytes) else body,
                          headers={"X-Forwarded-For": "198.51.100.250", "Origin": server.url})

    with running_server(store_db) as server:
        answer = get(server, "/api/players/anna/games")
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
        listed = answer.json()
        assert listed["name"] == "Anna" and listed["games_public"] is True and listed["next"] is None
        assert [m["table"] for m in listed["matches"]] == [casual, rated]  # (the latest first)
        by_table = {m["table"]: m for m in listed["matches"]}
        for t in (rated, casual):
            m = by_table[t]
            s = seat_of_anna[t]
            assert m["points"] == sum(d.returns()[s] for d in deals[t]) and m["deals"] == len(deals[t])
            assert sorted(m["opponents"]) == ["Bruno", "Carla"] and m["game"] == "sicilian" and m["seats"] == 3
            totals = [sum(d.returns()[q] for d in deals[t]) for q in range(3)]
            assert m["place"] == 1 + sum(1 for q in totals if q > totals[s])
        assert by_table[rated]["replay"] == f"/r/{rated}.1/1" and by_table[rated]["rated"] is True
        assert by_table[casual]["replay"] is None and by_table[casual]["rated"] is False
        # A rated match's replay link opens its deals.
        assert httpx.get(server.url + f"/api/deals/{rated}.1").json()["deals"][0]["number"] == 1

        def tables(query: str, who: str | None = None) -> list[str]:
            found = get(server, f"/api/players/anna/games?{query}", who)
            assert found.status_code == 200, found.text
            return [m["table"] for m in found.json()["matches"]]

        assert tables("rated=true") == [rated] and tables("rated=false") == [casual]
        assert tables("game=sicilian&seats=3") == [casual, rated] and tables("seats=4") == []
        assert tables("game=ottocento") == []
        won = [t for t in (casual, rated) if by_table[t]["place"] == 1]
        assert tables("result=won") == won and tables("result=lost") == [t for t in (casual, rated) if t not in won]
        assert tables("opponent=carla") == [casual, rated] and tables("opponent=Dario") == []
        assert tables("opponent=nobody-at-all") == [] and tables("opponent=anna") == []
        today = datetime.datetime.now(datetime.timezone.utc).date()
        assert tables(f"from={today}&to={today}") == [casual, rated]
        assert tables(f"from={today + datetime.timedelta(days=1)}") == [] and tables(f"to={today - datetime.timedelta(days=1)}") == []
        # One page at a time: the next page starts after the last one shown.
        from tarocchi.server import archive
        archive.PAGE = 1
        try:
            first = get(server, "/api/players/anna/games").json()
            assert [m["table"] for m in first["matches"]] == [casual] and first["next"] is not None
            assert tables(f"before={first['next']}") == [rated]
        finally:
            archive.PAGE = 50

        for bad in ("game=chess", "seats=5", "seats=x", "rated=maybe", "result=draw", "from=2026-13-01",
                    "to=yesterday", "from=2026-02-02&to=2026-02-01", "before=-1", "before=abc"):
            refused = get(server, f"/api/players/anna/games?{bad}")
            assert refused.status_code == 400 and refused.json()["error"], bad

        figures = get(server, "/api/players/anna/figures")
        assert figures.status_code == 200 and figures.headers["cache-control"] == "no-store"
        (sicilian,) = figures.json()["games"]
        assert sicilian["game"] == "sicilian" and sicilian["matches"] == 2 and sicilian["deals"] == len(mine)
        assert sicilian["thrown"] == sum(1 for _, d, _ in mine if d.count.abandoned)
        assert sicilian["points"] == points and sicilian["average"] == round(points / len(mine), 2)
        assert sicilian["contracts"] == [{"role": "declarer", "contract": "stata", "taken": len(solos), "made": made}]
        assert {a["announce"]: [a["said"], a["made"]] for a in sicilian["announced"]} == announced
        totals = {t: by_table[t]["points"] for t in (rated, casual)}
        best, worst = max(totals, key=lambda t: (totals[t], t == casual)), min(totals, key=lambda t: (totals[t], t != casual))
        assert sicilian["best"]["table"] == best and sicilian["worst"]["table"] == worst
        assert sicilian["best"]["points"] == totals[best] and sicilian["won"] == len(won)
        (curve,) = sicilian["ratings"]
        assert curve["key"] == "sicilian/3" and [p["table"] for p in curve["points"]] == [rated]
        assert curve["points"][0]["rating"] == shown(profile_rating["mu"], profile_rating["sigma"])
        # Bruno declared the casual match's deals: his figures say so, Anna's opposition not.
        bruno_figures = get(server, "/api/players/bruno/figures").json()["games"][0]["contracts"]
        assert bruno_figures == [{"role": "declarer", "contract": "stata", "taken": len(opposed),
                                  "made": sum(1 for _, d in opposed if d.returns()[0] > 0)}]

        # Private: the account itself still sees it; anyone else gets what no account gets.
        assert post(server, "/api/me/settings", {"games_public": False}).status_code == 401
        assert post(server, "/api/me/settings", {"games_public": "no"}, "anna").status_code == 400
        assert post(server, "/api/me/settings", {"games_public": False, "x": 1}, "anna").status_code == 400
        assert post(server, "/api/me/settings", b"{", "anna").status_code == 400
        assert get(server, "/api/players/anna/games").json()["games_public"] is True  # (nothing changed)
        changed = post(server, "/api/me/settings", {"games_public": False}, "anna")
        assert changed.status_code == 200 and changed.json() == {"games_public": False}
        assert get(server, "/api/me/settings", "anna").json() == {"games_public": False}
        nobody = get(server, "/api/players/nobody/games")
        for path in ("/api/players/anna/games", "/api/players/ANNA/figures", "/api/players/anna/games?rated=true"):
            for who in (None, "bruno"):
                hidden = get(server, path, who)
                assert (hidden.status_code, hidden.content) == (404, nobody.content), (path, who)
        assert get(server, "/api/players/anna/games", "anna").status_code == 200
        assert get(server, "/api/players/anna/figures", "anna").json()["games"][0]["deals"] == len(mine)
        assert get(server, "/api/players/" + "x" * 500 + "/games").status_code == 404
        post(server, "/api/me/settings", {"games_public": True}, "anna")

    # A deleted account: nothing of it is shown or counted; its place in the others' matches is
    # a former player's.
    store = open_store(store_db)
    store.people.delete_account(carla)
    store.close()
    with running_server(store_db) as server:
        shown_now = get(server, "/api/players/anna/games")
        assert "Carla" not in shown_now.text and carla not in shown_now.text
        assert all(NEUTRAL_NAME in m["opponents"] for m in shown_now.json()["matches"])
        assert get(server, "/api/players/anna/games?opponent=Carla").json()["matches"] == []
        assert get(server, "/api/players/carla/games").status_code == 404
        assert carla not in get(server, "/api/players/anna/figures").text

    # The figures of matches recorded before (schema 7) from their stored events: the same rows.
    store = open_store(store_db)
    with store.people.write() as tx:
        tx.run("DELETE FROM deal_seats")
    store.close()
    assert tarocchi(["archive", "backfill", "--db", store_db]) == 0
    assert capsys.readouterr().out.startswith("2 matches given their deals' figures")
    store = open_store(store_db)
    assert deal_rows(store) == rows and len(rows) == 3 * len(dealt)
    store.close()
    assert tarocchi(["archive", "backfill", "--db", store_db]) == 0  # (nothing more to do)
    assert capsys.readouterr().out.startswith("0 matches")


def test_a_version_6_database_is_brought_to_version_7_with_its_archive_public(store_db):
    store = open_store(store_db)
    anna = store.people.create_account("Anna", None, [])
    store.close()
    undo = ["DROP TABLE deal_seats", "ALTER TABLE accounts DROP COLUMN games_public"]
    if "://" in store_db:
        import psycopg
        with psycopg.connect(store_db, autocommit=True) as conn:
            for statement in [*undo, "UPDATE schema_version SET version = 6"]:
                conn.execute(statement)
    else:
        with sqlite3.connect(store_db) as db:
            for statement in [*undo, "PRAGMA user_version = 6"]:
                db.execute(statement)
    store = open_store(store_db)
    assert store.people.games_public(anna) is True and store.people.matches_without_deals() == []
    assert store.people.figures_of(anna)["deals"] == {}
    store.people.set_games_public(anna, False)
    assert store.people.games_public(anna) is False
    store.close()


@pytest.mark.parametrize(("game", "seats"), [("sicilian", 4), ("calabresella", 3), ("renaissance", 3),
                                             ("ottocento", 4)])
def test_each_games_figures_say_its_own_contracts(game, seats):
    """Over many random deals, each game's figures agree with its count: the declarer is the
    count's bidder or challenger, made as its payment says, and a game without bidding has none."""
    from tarocchi.engine.game import get_game
    from tarocchi.engine.playout import play_out

    g = get_game(game)
    kinds = set()
    for n in range(120):
        rng = random.Random(n)
        deal = play_out(g.shuffled(seats, n % seats, rng), rng)
        figures = deal_figures(game, deal)
        assert [f.points for f in figures] == deal.returns()
        declarers = [s for s, f in enumerate(figures) if f.role == "declarer"]
        if game in ("renaissance", "ottocento"):
            assert declarers == [] and all(f.contract is None for f in figures)
            if game == "ottocento":
                assert [f.declared for f in figures] == deal.count.declared
            continue
        if getattr(deal.count, "abandoned", False):
            assert declarers == [] and all(f.thrown for f in figures)
            continue
        (declarer,) = declarers
        assert declarer == deal.count.bidder
        assert all(f.made == (deal.returns()[declarer] > 0) for f in figures)
        kinds.add(figures[declarer].contract)
        if game == "sicilian" and deal.count.partner is not None:
            assert figures[deal.count.partner].role == "partner"
    if game == "sicilian":
        assert kinds <= {"solo", "stata", "chiamo", "forced"} and "stata" in kinds
    if game == "calabresella":
        assert kinds <= {"chiamo", "solo", "solissimo", "solissimo dividete", "solissimo scegliete"} and len(kinds) >= 3


def test_a_rematch_s_deals_are_its_own_and_a_backfill_finds_them_again(tmp_path, capsys):
    """Deals are numbered within their match (as a match's replay link numbers them): a rematch's
    rows are match 2's, each seat's points its deal's, and the backfill writes them alike."""
    db = str(tmp_path / "rematch.sqlite3")

    async def played():
        hub, store = new_hub(db)
        hub.start()
        table_id, tokens = hub.new_room(3, "sicilian", settings=RATED)
        sockets, tasks = seat_all(hub, store, tokens, "sicilian", 5, sitters=accounts(store, "Anna", "Bruno", "Carla"))
        await until(lambda: over(sockets[0]), seconds=30)
        for s in sockets:
            s.say({"type": "rematch"})
        await until(lambda: len(store.people.matches_without_deals()) == 0 and len(deal_matches(store)) == 2, seconds=30)
        await leave(sockets, tasks)
        await hub.stop()
        store.close()
        return table_id

    def deal_matches(store) -> set[int]:
        with store.people.read() as tx:
            return {m for (m,) in tx.run("SELECT DISTINCT match FROM deal_seats")}

    table_id = asyncio.run(played())
    store = open_store(db)
    matches = stored_table(table_id, store.events(table_id)).matches
    rows = deal_rows(store)
    for m, match in enumerate(matches, 1):
        points = {(r[2], r[3]): r[4] for r in rows if r[1] == m}
        assert points == {(k, s): p for k, d in enumerate(match.deals, 1) for s, p in enumerate(d.returns())}
    with store.people.write() as tx:
        tx.run("DELETE FROM deal_seats WHERE match = 2")
    store.close()
    assert tarocchi(["archive", "backfill", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("1 match given")
    store = open_store(db)
    assert deal_rows(store) == rows
    store.close()


def test_figures_that_cannot_be_read_never_stop_a_match_s_end(tmp_path, monkeypatch, capsys):
    from tarocchi.server import archive

    def broken(game, match):
        raise RuntimeError("a count this code cannot read")

    monkeypatch.setattr(archive, "deals_of", broken)
    db = str(tmp_path / "broken.sqlite3")

    async def played():
        hub, store = new_hub(db)
        hub.start()
        table_id = await play_solo_room(hub, store, accounts(store, "Anna", "Bruno", "Carla"), 0, RATED, seed=3)
        await hub.stop()
        store.close()
        return table_id

    table_id = asyncio.run(played())
    store = open_store(db)
    assert store.people.matches_without_deals() == [(table_id, 1, "sicilian")]  # (recorded, and rated)
    assert store.people.ratings(store.people.account_named("Anna")["id"])["sicilian/3"]["matches"] == 1
    store.close()
    monkeypatch.undo()
    assert tarocchi(["archive", "backfill", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("1 match given")
    store = open_store(db)
    assert store.people.matches_without_deals() == [] and deal_rows(store)
    store.close()
