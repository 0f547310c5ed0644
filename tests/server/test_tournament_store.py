"""The tournaments' store (issue 59, core/store/tournaments.py) on both backends: entries
numbered once each, a round formed by one process, a stale claim taken again by one."""

from __future__ import annotations

import concurrent.futures

from tarocchi.server.core.store import open_store


def test_entries_rounds_and_results_on_both_stores(store_db):
    store = open_store(store_db)
    try:
        people, t = store.people, store.tournaments
        anna, bruno = people.create_account("Anna", "h", []), people.create_account("Bruno", "h", [])
        t.create({"id": "T1", "maker": anna, "game": "sicilian", "seats": 3, "kind": "swiss", "starts_at": 10.0,
                  "ends_at": None, "rounds": 2, "rated": False, "public": True, "settings": {}, "seed": "s"})
        assert [x["id"] for x in t.listed("upcoming", 10)] == ["T1"] and t.due(5.0) == [] and t.due(10.0) == ["T1"]
        assert t.join("T1", anna, 2) == 1 and t.join("T1", anna, 2) == 1  # (again: the same number)
        assert t.join("T1", bruno, 2) == 2 and t.join("T1", people.create_account("Carla", "h", []), 2) == "full"
        assert t.leave("T1", bruno, before_start=False) and not t.players("T1")[1]["present"]
        assert t.join("T1", bruno, 2) == 2 and t.players("T1")[1]["present"]
        assert t.set_status("T1", "upcoming", "running") and not t.set_status("T1", "upcoming", "running")
        # one process forms round 1; the other's claim fails
        assert t.claim_round("T1", 0, 1, 100.0) and not t.claim_round("T1", 0, 1, 100.5)
        # left without tables: claimed again once, with the claim's time seen
        assert t.claim_round("T1", 1, 1, 200.0, claimed_at=100.0) and not t.claim_round("T1", 1, 1, 200.1, claimed_at=100.0)
        t.put_tables("T1", 1, [(1, "table-a", [1, 2, None])])
        assert t.of_table("table-a") == ("T1", 1, 1) and t.ended() == []
        assert t.set_result("table-a", [{"player": 1}], 300.0) and not t.set_result("table-a", [], 301.0)
        assert t.tables("T1")[0]["result"] == [{"player": 1}] and t.get("T1")["round_at"] == 200.0
    finally:
        store.close()


def test_one_account_joining_twice_at_once_is_one_entry(postgres):
    """Two joins of one account at once on PostgreSQL (two tabs, two processes of a site): one
    entry, the same number to both, never a database error (a 500). (SQLite's writes are one at
    a time already: one connection a process, each write transaction taking the file's lock.)"""
    store = open_store(postgres.new_database())
    try:
        people, t = store.people, store.tournaments
        anna = people.create_account("Anna", "h", [])
        for n in range(8):
            tid = f"T{n}"
            t.create({"id": tid, "maker": anna, "game": "sicilian", "seats": 3, "kind": "arena", "starts_at": 10.0,
                      "ends_at": 70.0, "rounds": None, "rated": False, "public": True, "settings": {}, "seed": "s"})
            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                numbers = list(pool.map(lambda _: t.join(tid, anna, 200), range(2)))
            assert numbers == [1, 1] and t.get(tid)["entries"] == 1 and len(t.players(tid)) == 1
    finally:
        store.close()
