"""Issue 58 in the browser (reports, mutes, moderators; the server's side is
tarocchi/server/moderation.py): a player reports another from the table (the report carries the
table, the reported is told nothing); a moderator, made by the operator's command, reads it on
/mod, opens the player's file, warns and chat-bans them, closes the report, and the banned
player's next chat line is refused at the table; a seat muted at a table has its lines left out
of the page (and kept muted after a reload), and the chat off shows no chat at all; the Report
dialog, the table's Players and chat, and /mod (also as a stranger's and a player's page) axe
clean at 360x640 and desktop, in English and Italian."""

from __future__ import annotations

import json

import pytest

from tarocchi.cli import main as cli
from tarocchi.server.core.store import SqliteStore
from tests.server.seat import Seat, new_room
from tests.trust.harness import run_async

from .checks import DESKTOP, SMALL, check_axe
from .test_accounts import fits
from .test_screens import switch

pytestmark = pytest.mark.browser

PASSWORD = "tarocco di Sicilia"
RUDE = "<img src=x onerror=alert(1)> you play like a donkey"  # (shown as text, never as HTML)


def signed_up(page, base: str, name: str) -> None:
    """The page's browser signs up as ``name`` (its session cookie), and knows its name."""
    r = page.context.request.post(f"{base}/api/account", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    page.context.add_init_script(f"localStorage.setItem('tarocchi.account', {json.dumps(name)})")


def at_table(page, base: str, token: str) -> None:
    page.goto(f"{base}/t/{token}")
    page.locator(".conn.ok").wait_for()


def say(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click(".chat-form button[type=submit]")


def people(page) -> None:
    """The chat panel's Players and chat, opened."""
    details = page.locator("details.chat-people")
    if details.get_attribute("open") is None:
        details.locator("summary").click()


def says_from_seat(base_ws: str, token: str, *lines: str) -> None:
    """A seat (a socket of its own) says ``lines`` and goes."""
    async def go():
        seat = await Seat.open(base_ws, token)
        for line in lines:
            await seat.send({"type": "chat", "text": line})
            await seat.until(lambda m, line=line: m["type"] == "chat" and m["text"] == line)
        await seat.close()
    run_async(go())


def bell(page) -> dict:
    return page.context.request.get(page.url.split("/t/")[0].split("/mod")[0] + "/api/me/bell").json()


def test_a_report_from_the_table_reaches_a_moderator_who_warns_and_stops_the_chat(live_server, new_page):
    base = live_server.url
    tokens = new_room(base, 3)
    anna, bruno, mara = new_page(DESKTOP), new_page(DESKTOP), new_page(DESKTOP)
    for page, name in ((anna, "Anna"), (bruno, "Bruno"), (mara, "Mara")):
        signed_up(page, base, name)
    assert cli(["account", "mod", "Mara", "--db", live_server.db]) == 0  # (the operator's command)
    at_table(anna, base, tokens[0])
    at_table(bruno, base, tokens[1])
    say(bruno, RUDE)
    anna.locator(".chat .chat-text", has_text="donkey").wait_for()

    # Anna reports Bruno from the table: the dialog asks why, and says it went.
    people(anna)
    anna.get_by_role("button", name="Report Bruno").click()
    dialog = anna.get_by_role("dialog", name="Report Bruno")
    dialog.wait_for()
    assert "The table, this deal and its chat go with the report." in dialog.inner_text()
    dialog.get_by_label("Abuse in the chat").check()
    dialog.get_by_label("A few words (optional)").fill("insults at the table")
    dialog.get_by_role("button", name="Send the report").click()
    dialog.get_by_text("Thank you: your report about Bruno is with the moderators.").wait_for()
    anna.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert anna.evaluate("() => document.activeElement.dataset.focus") == "report-1"
    # The reported sees nothing: no dialog, nothing on his bell.
    assert bruno.locator("dialog").count() == 0 and bell(bruno)["items"] == []

    # The moderator reads it on /mod: the reporter, the reported, why, the table and its chat as text.
    mara.goto(f"{base}/mod")
    item = mara.locator(".report-item")
    item.wait_for()
    assert item.locator("h3").inner_text() == "Anna reported Bruno"
    facts = item.locator("dl").inner_text()
    assert "Abuse in the chat" in facts and "insults at the table" in facts
    store = SqliteStore(live_server.db)
    try:
        assert store.seat_of(tokens[0])[0] in facts  # (the table it was made at)
    finally:
        store.close()
    item.locator("details.report-chat summary").click()
    assert item.locator(".mod-chat-text").all_inner_texts() == [RUDE]
    assert mara.locator(".mod-chat img").count() == 0
    # His file: his chat line, the report about him.
    item.get_by_role("button", name="Open Bruno's file").click()
    file = mara.locator("#player-file[data-name=Bruno]")
    file.wait_for()
    assert RUDE in file.inner_text() and "Anna reported Bruno" in file.inner_text()
    assert mara.input_value("#act-name") == "Bruno"

    # A warning, then a chat ban for two hours; each said done and written to the log.
    mara.fill("#act-why", "mind your words")
    mara.click("#act-submit")
    mara.locator("#mod-notice", has_text="Bruno is warned.").wait_for()
    mara.select_option("#act-action", "chat_ban")
    mara.fill("#act-hours", "2")
    mara.fill("#act-why", "insults, again")
    mara.click("#act-submit")
    mara.locator("#mod-notice", has_text="Bruno's chat ban is set.").wait_for()
    assert [i["kind"] for i in bell(bruno)["items"]] == ["warning"]
    # Closing an account is asked again; Cancel does nothing.
    mara.select_option("#act-action", "close")
    mara.fill("#act-why", "not yet")
    mara.click("#act-submit")
    assert "Close Bruno's account?" in mara.locator("#act-confirm").inner_text()
    assert mara.evaluate("() => document.activeElement.id") == "act-yes"
    mara.click("#act-cancel")
    mara.locator("#act-submit").wait_for()
    # The report closed with a why; the log has each line, the latest first.
    item.get_by_label("Why it is closed").fill("warned and banned")
    item.get_by_role("button", name="Close the report").click()
    mara.locator("#mod-notice", has_text="The report is closed.").wait_for()
    mara.get_by_text("No report is open.").wait_for()
    assert mara.locator("#mod-log .log-item").evaluate_all("els => els.map((e) => e.dataset.action)") == [
        "close_report", "chat_ban", "warn"]
    assert "Mara: Chat ban, Bruno (2 hours)" in mara.locator("#mod-log").inner_text()

    # Bruno's next chat line is refused at the table, and Anna never sees it.
    say(bruno, "sorry")
    bruno.locator("#status", has_text="a moderator has stopped your chat for a while").wait_for()
    say(anna, "ciao")
    bruno.locator(".chat .chat-text", has_text="ciao").wait_for()
    assert "sorry" not in anna.locator(".chat-lines").inner_text()
    assert anna.errors == bruno.errors == mara.errors == []


def test_a_muted_seat_has_its_lines_left_out_and_chat_off_shows_no_chat(live_server, new_page):
    base = live_server.url
    tokens = new_room(base, 3)
    page = new_page(DESKTOP)
    at_table(page, base, tokens[0])
    says_from_seat(live_server.ws_url, tokens[1], "bruno one")
    says_from_seat(live_server.ws_url, tokens[2], "carlo one")
    page.locator(".chat .chat-text", has_text="carlo one").wait_for()
    # Signed out: mute, but no Report (a report is an account's).
    people(page)
    assert page.get_by_role("button", name="Report guest 1").count() == 0
    mute = page.get_by_role("button", name="Mute guest 1 at this table")
    mute.click()
    page.locator(".chat-hidden", has_text="1 message from a muted player is hidden.").wait_for()
    assert page.locator(".chat .chat-text").all_inner_texts() == ["carlo one"]
    assert mute.get_attribute("aria-pressed") == "true"
    # Kept for this table in this browser; a new line of the muted seat is not shown either.
    page.reload()
    page.locator(".chat .chat-text", has_text="carlo one").wait_for()
    says_from_seat(live_server.ws_url, tokens[1], "bruno two")
    page.locator(".chat-hidden", has_text="2 messages from muted players are hidden.").wait_for()
    assert "bruno" not in page.locator(".chat").inner_text()
    # Chat off: no line anywhere, no chat box; kept after a reload; on again, the lines are back.
    people(page)
    page.get_by_label("Chat off: show me no chat at any table").check()
    page.get_by_text("The chat is off: you see no messages and cannot write.").wait_for()
    assert page.locator(".chat .chat-text").count() == 0 and page.locator("#chat-input").is_hidden()
    page.reload()
    page.locator(".conn.ok").wait_for()
    says_from_seat(live_server.ws_url, tokens[2], "carlo two")
    page.wait_for_function("() => document.querySelector('.chat-lines').hidden")
    assert page.locator(".chat-text").count() == 0 and page.locator("#chat-input").is_hidden()
    people(page)
    page.get_by_label("Chat off: show me no chat at any table").uncheck()
    page.locator(".chat .chat-text", has_text="carlo two").wait_for()
    assert page.locator(".chat .chat-text").all_inner_texts() == ["carlo one", "carlo two"]
    page.get_by_role("button", name="Mute guest 1 at this table").click()  # (unmuted: his lines again)
    page.locator(".chat .chat-text", has_text="bruno two").wait_for()
    assert page.locator(".chat-hidden").count() == 0
    assert page.errors == []


def look(page, where: str, ready=None) -> None:
    """axe clean and never wider than the screen, in English and Italian."""
    for code in ("en", "it"):
        switch(page, code)
        if ready:
            ready()
        fits(page, f"{where} {code}")
        check_axe(page, f"{where} {code}")
    switch(page, "en")


def test_the_report_dialog_the_tables_players_and_the_moderators_page_are_axe_clean(live_server, new_page):
    base = live_server.url
    tokens = new_room(base, 3)
    anna, mara, stranger = new_page(SMALL), new_page(SMALL), new_page(SMALL)
    signed_up(anna, base, "Anna")
    signed_up(mara, base, "Mara")
    assert cli(["account", "mod", "Mara", "--db", live_server.db]) == 0
    says_from_seat(live_server.ws_url, tokens[1], "hello from guest 1")
    r = anna.context.request.post(f"{base}/api/reports", data={"name": "Mara", "reason": "name", "text": "a <b>name</b>"})
    assert r.status == 204

    # Not a moderator: the page says so and shows nothing else, signed out or signed in.
    stranger.goto(f"{base}/mod")
    stranger.get_by_text("This page is for moderators: sign in with a moderator's account.").wait_for()
    anna.goto(f"{base}/mod")
    anna.locator("#mod-refused", has_text="This page is for moderators.").wait_for()
    assert anna.locator("#reports, #act-form").count() == 0
    look(stranger, "/mod signed out small")
    look(anna, "/mod a player small")

    # The moderator's page with a report and a file open.
    mara.goto(f"{base}/mod")
    mara.locator(".report-item").wait_for()
    mara.locator(".report-item .open-file").wait_for()
    mara.fill("#file-name", "Anna")
    mara.click("#file-form button[type=submit]")
    mara.locator("#player-file[data-name=Anna]").wait_for()
    mara.select_option("#act-action", "chat_ban")
    for size, tag in ((SMALL, "small"), (DESKTOP, "desktop")):
        mara.set_viewport_size(size)
        look(mara, f"/mod {tag}", ready=lambda: mara.locator("#act-hours").wait_for())

    # The profile's Report dialog: opened, axe clean, closed by Escape (the focus back on its button).
    def dialog_open():
        anna.click("#report-player")
        anna.get_by_role("dialog").wait_for()
    for size, tag in ((SMALL, "small"), (DESKTOP, "desktop")):
        anna.set_viewport_size(size)
        anna.goto(f"{base}/@/Mara")
        anna.locator("#report-player").wait_for()
        for code in ("en", "it"):
            switch(anna, code)
            dialog_open()
            check_axe(anna, f"report dialog {tag} {code}")
            box = anna.get_by_role("dialog").bounding_box()
            width, height = size["width"], size["height"]
            assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
            anna.keyboard.press("Escape")
            anna.get_by_role("dialog").wait_for(state="detached")
            assert anna.evaluate("() => document.activeElement.id") == "report-player"
        switch(anna, "en")

    # The table's Players and chat (a phone's chat drawer; a desktop's side), with a seat muted.
    at_table(anna, base, tokens[0])
    for size, tag in ((SMALL, "small"), (DESKTOP, "desktop")):
        anna.set_viewport_size(size)

        def chat_open():
            if anna.locator(".tab-chat").is_visible() and anna.locator(".tab-chat").get_attribute("aria-expanded") != "true":
                anna.click(".tab-chat")
            people(anna)
            anna.locator(".chat-seat").first.wait_for()
        chat_open()
        if anna.locator(".mute[aria-pressed=true]").count() == 0:
            anna.locator(".chat-seat[data-seat='1'] .mute").click()
        look(anna, f"table players {tag}", ready=chat_open)
        if size is SMALL:
            # The dialog over the chat drawer: Escape closes it alone (not the drawer behind it),
            # the focus back on its button.
            anna.get_by_role("button", name="Report guest 1").click()
            dialog = anna.get_by_role("dialog")
            dialog.get_by_label("Their name").check()
            dialog.get_by_role("button", name="Send the report").click()
            # (a seat's name that is no account's: the server's refusal, in the page's words)
            dialog.locator("#report-error", has_text="no player").wait_for()
            assert dialog.get_by_role("alert").inner_text() == "Not sent: no player has that name."
            anna.keyboard.press("Tab")
            anna.keyboard.press("Escape")
            anna.get_by_role("dialog").wait_for(state="detached")
            assert anna.locator(".table-page[data-drawer=chat]").count() == 1
            assert anna.evaluate("() => document.activeElement.dataset.focus") == "report-1"
    assert anna.errors == mara.errors == stranger.errors == []
