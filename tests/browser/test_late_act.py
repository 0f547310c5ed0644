"""Issue 37, item 6, the page's side: every act says the table version it answers (so the
server can refuse one that answers a turn already over), and a refusal for being late is said
as it is, in both languages, and stays up a moment while the table moves on. The page's
websocket goes to the test (tests/browser/fake.py), which answers as the server would."""

from __future__ import annotations

import pytest

from tests.conftest import DESKTOP

from .fake import open_fake, table, view
from .test_issue12 import find_deal

pytestmark = pytest.mark.browser


def acts(fake, page, at_least: int = 0) -> list[dict]:
    """The acts the page sent, once there are ``at_least`` (the socket's messages reach the
    test while Playwright waits)."""
    for _ in range(200):
        sent = [m for m in fake.sent if m.get("type") == "act"]
        if len(sent) >= at_least:
            return sent
        page.wait_for_timeout(25)
    raise AssertionError(f"the page sent {fake.sent}")


def test_every_act_says_the_version_it_answers_and_a_late_one_is_told_why(live_server, new_page):
    deal = find_deal(lambda d: d.phase == "play" and d.to_act == 0 and len(d.view(0)["hand"]) > 3)
    page = new_page(DESKTOP)
    fake = open_fake(page, live_server.url, table(kind="room"), view(deal))
    shown = fake.version
    card = page.locator(".hand .card:not([aria-disabled='true'])").first
    code = card.get_attribute("data-card")
    card.click()
    (act,) = acts(fake, page, 1)
    assert (act["action"], act["version"]) == (code, shown)
    # Meanwhile the clock's computer played the turn (that card, as it happens), then the late
    # act arrives: refused with its reason, and the page says so.
    deal.apply(code)
    fake.push(v=view(deal))
    fake.send({"type": "refused", "id": act["id"], "reason": "too late: the computer played for you",
               "reason_id": "too_late", "version": fake.version})
    note = page.locator(".status .status-note")
    note.filter(has_text="Too late: the computer played for you.").wait_for()
    assert "Not allowed" not in note.inner_text()
    # The table moves on at once (the next seat plays): the reason stays up a moment.
    deal.apply(deal.legal_actions()[0])
    fake.push(v=view(deal))
    page.locator(f".table-page[data-version='{fake.version}']").wait_for(state="attached")
    assert note.inner_text() == "Too late: the computer played for you."
    # In Italian, by its id; and the next act answers the state the page shows then.
    page.click("button.lang")
    fake.send({"type": "refused", "id": None, "reason": "the table moved on: look again", "reason_id": "moved_on",
               "version": fake.version})
    note.filter(has_text="Il tavolo è andato avanti: guarda di nuovo.").wait_for()
    while deal.to_act != 0:
        deal.apply(deal.legal_actions()[0])
    fake.push(v=view(deal))
    page.locator(f".table-page[data-version='{fake.version}']").wait_for(state="attached")
    page.locator(".hand .card:not([aria-disabled='true'])").first.click()
    assert [a["version"] for a in acts(fake, page, 2)] == [shown, fake.version]
    assert page.errors == []
