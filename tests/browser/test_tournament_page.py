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


LISTS = {"upcoming": [{"id": "up1", "game": "ottocento", "seats": 4, "kind": "duplicate", "status": "upcoming",
                       "rounds": 3, "round": 0, "rated": False, "public": True, "starts": 1_900_000_000, "ends": None,
                       "players": 1, "link": "/tournament/up1"}],
         "running": [], "finished": []}


@pytest.mark.parametrize("size", ["small", "desktop"])
def test_the_list_and_the_form_to_make_one(live_server, new_page, size):
    """The lobby links to /tournaments; signed out it lists them and says to sign in; signed in
    the form makes one (POST /api/tournaments, as the test answers it) and opens its page."""
    base = live_server.url
    page = new_page(SIZES[size])
    page.route(f"{base}/api/tournaments", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(LISTS)) if route.request.method == "GET"
        else route.fulfill(status=201, content_type="application/json",
                           body=json.dumps({"id": "new1", "link": "/tournament/new1", "sent": route.request.post_data})))
    page.goto(base + "/")
    page.locator("a[href='/tournaments']").click()
    page.locator(".tournament-list li").first.wait_for()
    assert page.locator("h1").inner_text() == "Tournaments"
    assert page.locator(".tournament-list li a").get_attribute("href") == "/tournament/up1"
    assert "1 player" in page.locator(".tournament-list li").inner_text()
    assert page.locator("a[data-focus=sign-in]").count() == 1
    check_axe(page, f"the tournaments, signed out, {size}")
    # signed in (the page asks GET /api/me only with the hint cookie: given by a real sign-up)
    r = page.request.post(base + "/api/account", data=json.dumps({"name": f"Maker{size}", "password": "segreto123"}),
                          headers={"Content-Type": "application/json"})
    assert r.status == 201
    page.reload()
    page.locator("form.tournament-make").wait_for()
    page.select_option("#make-kind", "swiss")
    page.locator("#make-rounds").fill("5")
    check_axe(page, f"the form, {size}")
    sent = []
    page.on("request", lambda req: sent.append(req.post_data) if req.method == "POST" and req.url.endswith("/api/tournaments") else None)
    page.locator("button[data-focus=make-go]").click()
    page.wait_for_url("**/tournament/new1")
    assert json.loads(sent[0]) == {"game": "sicilian", "seats": 3, "kind": "swiss", "starts": 600, "rated": False,
                                   "public": True, "rounds": 5}
    assert page.errors == []
