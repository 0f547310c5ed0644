"""A player's games in the browser (issue 58, archive.js at /@/<name>/games): a player with two
finished matches (one rated, one casual) is looked up by a visitor; the list shows both, a filter
narrows it (and the address keeps it), the figures name the contract the player took, the rating
over time is a line with its numbers in a table for a screen reader, and a rated match's link
opens its replay; the player's own page has the switch that makes it private. axe-clean and
nothing wider than the screen at 360x640 and on a desktop, in English and Italian."""

from __future__ import annotations

import asyncio
import re

import pytest

from tarocchi.server.accounts import SIGNED_IN_HINT
from tarocchi.server.core.sessions import COOKIE
from tests.browser.checks import DESKTOP, SMALL, check_axe
from tests.browser.test_accounts import fits
from tests.server.live import running_server
from tests.server.test_archive import play_solo_room
from tests.server.test_ratings import RATED, accounts, new_hub

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[str, str, str, str]:
    """A database where Anna went solo in every deal of a rated match and sat through a casual
    one: (its path, the rated table, the casual one, a session cookie of Anna's). Made before the
    module's browser starts (its event loop and asyncio.run do not mix)."""
    db = str(tmp_path_factory.mktemp("archive") / "games.sqlite3")

    async def play():
        hub, store = new_hub(db)
        hub.start()
        people = accounts(store, "Anna", "Bruno", "Carla")
        rated = await play_solo_room(hub, store, people, 0, RATED, seed=1)
        casual = await play_solo_room(hub, store, [people[1], people[0], people[2]], 0, {}, seed=2)
        session = store.people.new_session(people[0], "test")
        await hub.stop()
        store.close()
        return rated, casual, session

    return (db, *asyncio.run(play()))


def test_a_player_s_games_list_filter_figures_chart_and_replay(played, new_page):
    db, rated, casual, session = played
    with running_server(db) as server:
        page = new_page(SMALL)
        page.goto(server.url + "/@/anna/games")
        matches = page.locator(".archive-list .match")
        matches.nth(1).wait_for()
        assert matches.evaluate_all("els => els.map(e => e.dataset.table)") == [casual, rated]
        assert page.locator("h1").inner_text() == "Anna's games"
        # The figures: Anna's stata (vado solo on five cards) taken in the rated match's deals.
        figures = page.locator(".game-figures[data-game='sicilian']")
        assert figures.locator("tr[data-contract='stata'][data-role='declarer']").count() == 1
        assert figures.locator(".figure-average").count() == 1
        # The rating over time: a drawn line, named for a screen reader, its numbers in a table.
        chart = figures.locator("figure[data-key='sicilian/3']")
        assert chart.locator("svg[role='img'] polyline").count() == 1
        assert chart.locator("table tbody tr").count() == 1
        assert page.locator(".archive-privacy").count() == 0  # (a visitor: not their switch)
        fits(page, "a player's games, 360x640")
        check_axe(page, "a player's games, 360x640, en")
        page.set_viewport_size(DESKTOP)
        fits(page, "a player's games, desktop")
        check_axe(page, "a player's games, desktop, en")
        page.set_viewport_size(SMALL)

        page.select_option("#f-rated", "true")
        page.click("#filters-apply")
        page.wait_for_function("document.querySelectorAll('.archive-list .match').length === 1")
        assert matches.first.get_attribute("data-table") == rated and page.url.endswith("?rated=true")
        replay = matches.first.locator("a.replay-link")
        assert replay.get_attribute("href") == f"/r/{rated}.1/1"
        replay.click()
        page.wait_for_url(re.compile(rf"/r/{re.escape(rated)}\.1/1$"))
        page.get_by_text(re.compile(r"deal 1 of \d+")).first.wait_for()

        italian = new_page(DESKTOP, locale="it-IT")
        italian.goto(server.url + "/@/Anna/games?result=won&rated=false")
        italian.locator(".archive-filters").wait_for()
        assert italian.locator("h1").inner_text() == "Le partite di Anna"
        assert italian.locator("#f-rated").input_value() == "false"  # (the filters from the address)
        italian.locator(".game-figures").first.wait_for()
        fits(italian, "a player's games, desktop")
        check_axe(italian, "a player's games, desktop, it")
        italian.goto(server.url + "/@/nobody-here/games")
        italian.locator(".missing").wait_for()
        check_axe(italian, "no such player's games, it")

        # Anna's own page: her switch makes the archive hers alone, and a visitor then finds
        # what a name no account has shows.
        own = new_page(SMALL, locale="it-IT")
        own.context.add_cookies([{"name": COOKIE, "value": session, "url": server.url},
                                 {"name": SIGNED_IN_HINT, "value": "1", "url": server.url}])
        own.goto(server.url + "/account")
        own.locator("#my-games").click()
        own.wait_for_url("**/@/Anna/games")
        switch = own.locator("#games-public")
        assert switch.is_checked()
        switch.uncheck()
        own.locator(".archive-privacy .ok-note").wait_for()
        assert not own.locator("#games-public").is_checked()
        assert own.locator("h1").inner_text() == "Le partite di Anna"
        fits(own, "one's own games, 360x640")
        check_axe(own, "one's own games, private, 360x640, it")
        page.goto(server.url + "/@/Anna/games")
        page.locator(".missing").wait_for()
        assert page.locator(".archive-list").count() == 0
        assert page.errors == [] and italian.errors == [] and own.errors == []
