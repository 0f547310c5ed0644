"""Driving the table page like a player: only clicks on what the page shows.

Each turn clicks the first enabled button or card (a "vado solo" when it is enabled, so that
deals get played to the count), selects three allowed cards for a discard and confirms, and
answers the Scommessa/Rivanto question with its first enabled button.
"""

from __future__ import annotations

import re
import time

TURN_OR_COUNT = "() => document.querySelector('.status.yours') || document.querySelector('.center.count')"


def version(page) -> int:
    return int(page.get_attribute(".table-page", "data-version") or 0)


def phase(page) -> str:
    classes = page.get_attribute(".table-page", "class") or ""
    m = re.search(r"phase-(\w+)", classes)
    return m.group(1) if m else ""


def my_turn(page) -> bool:
    return page.locator(".status.yours").count() > 0


def deal_over(page) -> bool:
    return page.locator(".center.count").count() > 0


def wait_version_after(page, before: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('.table-page')?.dataset.version || 0) > v", arg=before)


def check_dimmed_reason(page) -> bool:
    """Click a dimmed card: nothing is played and the status line says why. True if checked."""
    dimmed = page.locator(".hand .card[aria-disabled='true']")
    if not dimmed.count():
        return False
    card = dimmed.first
    code = card.get_attribute("data-card")
    why = card.get_attribute("title")
    assert why, "a dimmed card carries its reason"
    assert why in card.locator(".card-label").text_content()  # the name a screen reader says
    before = version(page)
    card.click(force=True)  # aria-disabled: a player can still press it, and learns why
    note = page.locator(".status .status-note")
    note.wait_for()
    assert why in note.inner_text()
    assert version(page) == before, "a dimmed card is not sent"
    assert page.locator(f".hand .card[data-card='{code}']").count() == 1
    return True


def take_turn(page, *, check_dimmed: list | None = None, prefer: str = "vado solo") -> str:
    """One action for this page's seat, by clicking; returns what was done."""
    before = version(page)
    now = phase(page)
    if now in ("speak", "announce"):
        solo = page.locator(f".actions button[data-action='{prefer}']:not([disabled])")
        button = solo.first if solo.count() else page.locator(".actions button.word:not([disabled])").first
        done = button.get_attribute("data-action")
        button.click()
    elif now == "discard":
        allowed = page.locator(".hand .card:not([aria-disabled='true'])")
        chosen = [allowed.nth(i).get_attribute("data-card") for i in range(3)]
        confirm = page.locator("#confirm-discard")
        for code in chosen:
            assert confirm.is_disabled()
            page.click(f".hand .card[data-card='{code}']")
        page.locator(".hand .card[aria-pressed='true']").nth(2).wait_for()
        confirm.click()
        done = "discard " + " ".join(chosen)
    elif now == "play":
        if check_dimmed is not None and not check_dimmed:
            if check_dimmed_reason(page):
                check_dimmed.append(True)
        card = page.locator(".hand .card:not([aria-disabled='true'])").first
        done = card.get_attribute("data-card")
        card.click()
        page.locator(f".hand .card[data-card='{done}']").wait_for(state="detached")
    else:
        raise AssertionError(f"my turn in phase {now!r}")
    wait_version_after(page, before)
    return done


def play_deal(page, *, check_dimmed: list | None = None, on_turn=None, timeout: float = 90,
              prefer: str = "vado solo") -> list[str]:
    """Play this page's seat until the count shows; returns the actions taken."""
    taken = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.wait_for_function(TURN_OR_COUNT)
        if deal_over(page):
            return taken
        if on_turn:
            on_turn(page, taken)
        taken.append(take_turn(page, check_dimmed=check_dimmed, prefer=prefer))
    raise AssertionError("the deal did not finish in time")


def payments(page) -> list[int]:
    """The payments of the count, in seat order."""
    return [int(x) for x in page.locator(".payments li b").all_inner_texts()]


def seat_totals(page) -> dict[str, int]:
    """Each seat panel's running jochi total, by seat number."""
    out = {}
    for panel in page.locator(".seats .seat").all():
        text = panel.locator(".stat.jochi").inner_text()
        out[panel.get_attribute("data-seat")] = int(text.split()[0])
    return out


def open_panel(page, name: str) -> None:
    """Open a side panel ("info", "log", "played", "sheet", "chat") unless it shows already:
    on a small screen the panels are drawers opened from the tabs."""
    if not page.locator(".panel-tabs").count():
        return  # a page without panels (an older client): everything is on the page
    panel = page.locator(f"#panel-{name}")
    if not panel.is_visible():
        page.click(f".panel-tabs .tab-{name}")
        panel.wait_for(state="visible")


def close_panels(page) -> None:
    """Close an open drawer (a small screen), back to the table."""
    if page.get_attribute(".table-page", "data-drawer"):
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('.table-page').dataset.drawer")


def resize(page, size: dict) -> None:
    """The viewport made ``size``, and the page's own resize handling done: a resize event is
    dispatched before the next frame's callbacks, so two frames later the hand is laid out."""
    page.set_viewport_size(size)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
