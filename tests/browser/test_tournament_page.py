"""A tournament's page, /tournament/<id> (issue 59, tournament.js), on answers the test gives
(GET /api/tournaments/<id>): the standings, the tables now with their watch links, the asker's
seat, the podium at the end, a missing tournament; axe-clean at phone and desktop sizes, in
English and Italian, every text set as text."""

from __future__ import annotations

import json

import pytest

from tests.browser.checks import SIZES, check_axe

RUNNING = {
    "id": "abc123", "game": "sicilian", "seats": 3, "kind": "swiss", "status": "running", "rounds": 3, "round": 2,
    "rated": True, "public": True, "starts": 1_700_000_000, "ends": None, "link": "/tournament/abc123",
    "players": [
        {"number": 2, "name": "Bruno", "points": 3.0, "matches": 2, "firsts": 1, "buchholz": 4.5, "rank": 1, "present": True},
        {"number": 1, "name": "<b>Anna</b>", "points": 2.5, "matches": 2, "firsts": 1, "buchholz": 3.0, "rank": 2, "present": True},
        {"number": 3, "name": "Carla", "points": 1.0, "matches": 2, "firsts": 0, "buchholz": 5.0, "rank": 3, "present": False},
        {"number": 4, "name": "Dario", "points": 0.0, "matches": 2, "firsts": 0, "buchholz": 5.5, "rank": 4, "present": True},
    ],
    "rounds": [
        {"round": 1, "tables": [{"table": 1, "names": ["Bruno", "<b>Anna</b>", "Carla"], "done": True, "watch": "/w/one"},
                                {"table": 2, "names": ["Dario", None, None], "done": True, "watch": "/w/two"}]},
        {"round": 2, "tables": [{"table": 1, "names": ["<b>Anna</b>", "Dario", None], "done": False, "watch": "/w/three"},
                                {"table": 2, "names": ["Bruno", "Carla", None], "done": False, "watch": "/w/four"}]},
    ],
    "podium": None, "joined": True, "seat": "/t/seat-token",
}
FINISHED = {**RUNNING, "kind": "duplicate", "status": "finished", "round": 3, "seat": None,
            "players": [{"number": p["number"], "name": p["name"], "matchpoints": 10.0 - i, "percent": 70.0 - 10 * i,
                         "groups": 12, "rank": i + 1, "present": True} for i, p in enumerate(RUNNING["players"])],
            "podium": [{"name": "Bruno", "rank": 1}, {"name": "<b>Anna</b>", "rank": 2}, {"name": "Carla", "rank": 3}]}


def serve(page, base: str, answer: dict | None) -> None:
    def fulfil(route):
        if answer is None:
            route.fulfill(status=404, content_type="application/json", body=json.dumps({"error": "no such tournament"}))
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))
    page.route(f"{base}/api/tournaments/*", fulfil)


@pytest.mark.parametrize("size", ["small", "phone", "desktop"])
def test_the_page_shows_the_standings_the_tables_and_the_seat(live_server, new_page, size):
    base = live_server.url
    page = new_page(SIZES[size])
    serve(page, base, RUNNING)
    page.goto(base + "/tournament/abc123")
    rows = page.locator(".tournament-standings tbody tr")
    rows.nth(3).wait_for()
    assert page.locator("h1").inner_text() == "Swiss tournament of Sicilian tarocchi"
    assert rows.nth(1).locator("th").inner_text() == "<b>Anna</b>"  # (a name is text, never markup)
    assert [rows.nth(0).locator("td").nth(i).inner_text() for i in range(4)] == ["1", "3", "2", "4.5"]
    assert "(left)" in rows.nth(2).inner_text()
    assert page.locator(".tournament-seat a").get_attribute("href") == "/t/seat-token"
    watch = page.locator(".tournament-tables a")
    assert [watch.nth(i).get_attribute("href") for i in range(watch.count())] == ["/w/three", "/w/four"]  # (the tables now)
    assert "computer" in page.locator(".tournament-round").first.inner_text()
    assert page.locator("button[data-focus=leave]").count() == 0  # (signed out: the way to sign in)
    check_axe(page, f"a tournament under way, {size}")
    page.locator(".topbar button").last.click()  # the language
    page.locator("text=Torneo svizzero di").wait_for()
    check_axe(page, f"a tournament under way, {size}, in Italian")
    assert page.errors == []


def test_the_podium_at_the_end_and_a_missing_tournament(live_server, new_page):
    base = live_server.url
    page = new_page(SIZES["phone"])
    serve(page, base, FINISHED)
    page.goto(base + "/tournament/abc123")
    page.locator(".podium li").nth(2).wait_for()
    assert [page.locator(".podium li").nth(i).inner_text() for i in range(3)] == ["1. Bruno", "2. <b>Anna</b>", "3. Carla"]
    assert page.locator(".tournament-standings thead").inner_text().split() == ["#", "Player", "Matchpoints", "%"]
    assert page.locator(".tournament-standings tbody tr").nth(0).locator("td").nth(1).inner_text() == "70"
    check_axe(page, "a finished duplicate")
    other = new_page(SIZES["desktop"])
    serve(other, base, None)
    other.goto(base + "/tournament/nope")
    other.locator(".missing").wait_for()
    assert other.locator("h1").inner_text() == "No such tournament"
    check_axe(other, "a missing tournament")
    assert page.errors == [] and other.errors == []
