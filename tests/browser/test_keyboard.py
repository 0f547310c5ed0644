"""Every action reachable by keyboard: a whole deal at the computer table with Tab, Enter and
Space only. Cards and buttons are focusable buttons with labels for screen readers."""

from __future__ import annotations

import pytest

from tests.conftest import DESKTOP
from .driver import TURN_OR_COUNT, deal_over, phase, wait_version_after, version

pytestmark = pytest.mark.browser

MATCHES = "sel => !!document.activeElement && document.activeElement.matches(sel)"


def tab_to(page, selector: str, backwards: bool = False, limit: int = 120) -> str:
    """Press Tab (or Shift+Tab) until the focused element matches; returns its label."""
    key = "Shift+Tab" if backwards else "Tab"
    for _ in range(limit):
        if page.evaluate(MATCHES, selector):
            return page.evaluate("() => document.activeElement.querySelector('.card-label')?.textContent || document.activeElement.getAttribute('aria-label') || document.activeElement.textContent")
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached {selector}")


def keyboard_turn(page) -> None:
    before = version(page)
    now = phase(page)
    if now in ("speak", "announce"):
        solo = ".actions button[data-action='vado solo']:not([disabled])"
        tab_to(page, solo if page.locator(solo).count() else ".actions button.word:not([disabled])")
        page.keyboard.press("Enter")
    elif now == "discard":
        for n in range(3):
            label = tab_to(page, ".hand .card:not([aria-disabled='true']):not([aria-pressed='true'])")
            assert "point" in label
            page.keyboard.press("Space")
            page.wait_for_function("n => document.querySelectorAll('.hand .card[aria-pressed=\"true\"]').length === n", arg=n + 1)
        tab_to(page, "#confirm-discard", backwards=True)
        page.keyboard.press("Enter")
    elif now == "play":
        label = tab_to(page, ".hand .card:not([aria-disabled='true'])")
        assert "point" in label
        page.keyboard.press("Enter")
    else:
        raise AssertionError(now)
    wait_version_after(page, before)


def test_whole_deal_by_keyboard(live_server, new_page):
    page = new_page(DESKTOP)
    page.goto(live_server.url + "/")
    tab_to(page, "input[name='computer-seats'][value='3']")
    tab_to(page, "#sit-down")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/**")
    page.locator(".hand .card").first.wait_for()
    for card in page.locator(".hand .card").all():
        assert card.evaluate("el => el.tagName") == "BUTTON"
        assert card.locator(".card-label").text_content()
    turns = 0
    while True:
        page.wait_for_function(TURN_OR_COUNT)
        if deal_over(page):
            break
        keyboard_turn(page)
        turns += 1
        assert turns < 40
    assert turns >= 20  # the solo's discard and its twenty cards, at least
    tab_to(page, "#next-deal")
    page.keyboard.press("Enter")
    page.wait_for_function("() => /Deal 2 of 3/.test(document.querySelector('.deal-no')?.textContent || '')")
    assert page.errors == []
