"""Tournaments on a site of two processes (issue 59): both look at the tournament every tick, one
forms each round (no table made twice), and when one stops mid-round the other takes its tables
over (site.py's orphans) and finishes the tournament; its standings are its records'."""

from __future__ import annotations

import contextlib

import pytest

from tarocchi.server.core.store import open_store

from tests.redis_server import RedisServer
from tests.server.live import running_server
from tests.server.test_social import on, sign_up
from tests.server.test_tournaments import NAMES, QUICK, same_standings, until


@pytest.fixture(scope="module")
def redis():
    with RedisServer() as server:
        yield server


def test_two_processes_form_each_round_once_and_one_stopped_mid_round_loses_nothing(redis, store_db, tmp_path):
    with contextlib.ExitStack() as stack:
        options = {"bus": redis.url, "lease": 2.0, "bot_delay": 0.05, "trick_pause": 0.05}
        # (A looks every 3 s, B ten times a second: B forms the first round and drives its tables)
        a = stack.enter_context(running_server(store_db, process="A", tournaments={**QUICK, "every": 3.0}, **options))
        b_stack = contextlib.ExitStack()
        b = b_stack.enter_context(running_server(store_db, process="B", tournaments=QUICK, **options))
        clients = [sign_up(a, n + 1, NAMES[n]) for n in range(4)]
        tid = clients[0].post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 2,
                                                        "starts": 2}).json()["id"]
        for n, c in enumerate(clients):  # (half of them join on the other process)
            with on(b, c, n + 1) if n % 2 else contextlib.nullcontext(c) as here:
                assert here.post(f"/api/tournaments/{tid}/join").status_code == 200
        first = until(lambda: clients[0].get(f"/api/tournaments/{tid}").json()["rounds"])
        assert not any(t["done"] for t in first[0]["tables"])
        owners = open_store(store_db)
        try:
            tables = [x["table"] for x in owners.tournaments.tables(tid)]
            assert set(owners.lease_owners(tables).values()) == {"B"}
        finally:
            owners.close()
        b_stack.close()  # B stops mid-round: A takes its tables over
        page = until(lambda: (p := clients[2].get(f"/api/tournaments/{tid}").json())["status"] == "finished" and p,
                     seconds=240)
        assert [len(r["tables"]) for r in page["rounds"]] == [2, 2]  # (each round formed once)
        assert all(t["done"] for r in page["rounds"] for t in r["tables"])
        same_standings(page, clients[0].get(f"/api/tournaments/{tid}/records").text, tmp_path)
