"""The daily deal in a browser (issue 59): from the lobby's link to the day's page, its Play button
to a table of the day's deals, played to the end by clicking; back on the day's page the result,
the standings and the share text (no card named) with its Copy button; the page at 360x640,
390x844 and on a desktop, in English and Italian, axe-clean and never wider than the screen. A
visitor signed out is offered the same deals unranked. One flow: the deals are played once."""

from __future__ import annotations

import time

import pytest

from tarocchi.engine.game import get_game
from tarocchi.server.core.store import open_store
from tarocchi.server.daily import DEALS, today
from tests.browser.checks import DESKTOP, PHONE, SMALL, check_axe, check_inside
from tests.browser.driver import deal_over, play_deal
from tests.browser.test_accounts import sign_up

pytestmark = pytest.mark.browser

FITS = """() => ({scroll: document.documentElement.scrollWidth, width: innerWidth,
  outside: [...document.querySelectorAll('button, a, textarea, table')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width && (r.left < -1 || r.right > innerWidth + 1) && !el.closest('.board-scroll');
  }).map((el) => el.id || el.className || el.tagName)})"""


def check_page(page, where: str) -> None:
    fits = page.evaluate(FITS)
    assert fits["scroll"] <= fits["width"] and fits["outside"] == [], f"{where}: {fits}"
    check_axe(page, where)


def card_words() -> set[str]:
    """Every Sicilian card's name, in English and Italian."""
    described = get_game("sicilian").deck.describe()
    return {name for names in described["names"].values() for name in names.values()}


def test_the_daily_deal_from_the_lobby_to_the_shared_result(live_server, new_page):
    # Bruno played today's deals already (stored as the server stores them): Anna is compared.
    store = open_store(live_server.db)
    bruno = store.people.create_account("Bruno", None, [])
    store.dailies.begin("bruno-try", today(time.time()), "sicilian", bruno, "t", "x")
    store.dailies.score("bruno-try", [0.0] * DEALS, True)
    store.close()

    page = new_page(DESKTOP)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_up(page, live_server.url, "Anna")
    page.goto(live_server.url + "/")
    page.locator("#daily-link-sicilian").wait_for()
    check_page(page, "the lobby with its daily deal links")
    page.click("#daily-link-sicilian")
    page.wait_for_url("**/daily/sicilian")
    page.locator("#daily-play").wait_for()
    assert page.locator("#daily-played").inner_text() == "Players today: 1"
    check_page(page, "the day's page before playing")
    page.click("#daily-play")
    page.wait_for_url("**/t/**")
    page.locator(".hand .card").first.wait_for()

    for n in range(1, DEALS + 1):
        play_deal(page, timeout=120)
        assert deal_over(page)
        page.locator("#daily-note").wait_for()
        assert f"deal {n} of {DEALS}" in page.locator("#daily-note").inner_text()
        if page.get_attribute(".table-page", "data-status") == "over":
            break
        page.click("#next-deal")
        page.wait_for_function("n => document.querySelector('.table-page')?.dataset.status === 'playing'", arg=n)
    # The match's end on a small phone: the note and its way back fit, axe-clean.
    page.set_viewport_size(SMALL)
    page.locator("#daily-note-back").wait_for()
    check_axe(page, "a daily table's end, 360x640")
    check_inside(page, "a daily table's end, 360x640")
    page.set_viewport_size(DESKTOP)
    page.click("#daily-note-back")
    page.wait_for_url("**/daily/sicilian")
    page.locator("#daily-done").wait_for()
    assert page.locator("#daily-play").count() == 0  # one ranked try a day
    share = page.locator("#daily-share-text").input_value()
    lines = share.split("\n")
    assert lines[0].startswith("Tarocchi daily · Sicilian tarocchi · ") and lines[-1] == f"{live_server.url}/daily/sicilian"
    assert "%" in lines[1] and f"/{DEALS} deals" in lines[1] and lines[2] == "streak 1"
    assert not [w for w in card_words() if w in share]
    page.click("#daily-copy")
    page.wait_for_function("() => document.querySelector('#daily-copied')?.textContent")
    assert page.locator("#daily-copied").inner_text() == "Copied."
    assert page.evaluate("() => navigator.clipboard.readText()") == share
    assert page.locator(".daily-standings tbody tr").count() == 2
    assert page.locator(".daily-standings tr.you").count() == 1

    for size, label in ((SMALL, "360x640"), (PHONE, "390x844"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        for lang in ("en", "it"):
            if page.evaluate("() => document.documentElement.lang") != lang:
                page.click("button.lang")
                page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            title = page.locator("h1#page-h").inner_text()
            assert title == ("Daily deal · Sicilian tarocchi" if lang == "en" else "Smazzata del giorno · Tarocchi siciliani"), title
            check_page(page, f"the day's page after playing, {label}, {lang}")
    # (Italian now: the share text is the page's language)
    assert page.locator("#daily-share-text").input_value().startswith("Tarocchi del giorno · Tarocchi siciliani · ")

    # Signed out, on a phone in Italian: the same deals, unranked; Anna's result in the standings.
    visitor = new_page(SMALL, locale="it-IT")
    visitor.goto(live_server.url + "/")
    visitor.locator("#daily-link-sicilian").wait_for()
    check_page(visitor, "the lobby with its daily deal links, 360x640, it")
    visitor.goto(live_server.url + "/daily/sicilian")
    visitor.locator("#daily-play").wait_for()
    assert visitor.locator("#daily-play").inner_text() == "Gioca le smazzate di oggi (fuori classifica)"
    assert visitor.locator("#daily-sign-in").count() == 1 and visitor.locator("#daily-share-text").count() == 0
    assert visitor.locator(".daily-standings tbody tr").count() == 2
    check_page(visitor, "the day's page signed out, 360x640, it")
    visitor.goto(live_server.url + "/daily/nogame")
    visitor.locator(".missing").wait_for()
    check_page(visitor, "no such daily deal")
    assert page.errors == [] and visitor.errors == []
