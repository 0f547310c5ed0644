"""The installable app (issue 41): Chromium finds the page installable (its manifest parses, its
icons load, a service worker controls it), the worker keeps the static files, and with no
network the lobby and a table still open, from the worker's cache, and say "Offline"; back
online the banner goes."""

from __future__ import annotations

import json
import shutil
import time

import httpx
import pytest

from tarocchi.server import app as server_app
from tests.conftest import ARGS, CHROMIUM, DESKTOP, PHONE
from tests.server.live import running_server
from tests.server.seat import new_computer

from .checks import check_axe
from .driver import version

# The full Chromium (tests/conftest.py): the headless shell shows no notification (the worker's
# showNotification and getNotifications find none); the installability check launches the full
# browser with a profile of its own too.
pytestmark = [pytest.mark.browser, pytest.mark.full_browser]

# The worker registered by the page is active (its files kept): true when it is.
ACTIVE = """async () => {
  const reg = await navigator.serviceWorker.ready;
  const w = reg.active;
  if (w.state !== 'activated') await new Promise((done) => w.addEventListener('statechange', () => w.state === 'activated' && done()));
  return true;
}"""
CONTROLLED = "() => !!navigator.serviceWorker.controller"
BANNER = ".net-banner"
GAMES = "[data-focus^='computer-game']"  # the lobby's games, once it has them from the server


def worker_in_charge(page) -> None:
    """Wait for the worker to be active, then reload: the page is now its."""
    assert page.evaluate(ACTIVE)
    page.reload()
    page.wait_for_function(CONTROLLED)


def test_chromium_finds_the_page_installable(live_server, browser, tmp_path):
    # A profile on disk: Chromium installs nothing from a private (incognito) context, which is
    # what every other test's page is in ("in-incognito").
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, headless=True, viewport=DESKTOP)
    try:
        found_installable(context, live_server.url)
    finally:
        context.close()


def found_installable(context, url: str) -> None:
    page = context.pages[0] if context.pages else context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/")
    worker_in_charge(page)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == url + "/manifest.webmanifest"
    assert manifest["errors"] == []
    data = json.loads(manifest["data"])
    assert (data["name"], data["start_url"], data["scope"], data["display"]) == ("Tarocchi", "/", "/", "standalone")
    assert {i["purpose"] for i in data["icons"]} == {"any", "maskable"}
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    # Every icon the manifest and the page name is there, of the size it says.
    for icon in data["icons"]:
        size = page.evaluate("""async (src) => { const img = new Image(); img.src = src; await img.decode();
                                return `${img.naturalWidth}x${img.naturalHeight}`; }""", icon["src"])
        assert icon["sizes"] in ("any", size), icon
    assert errors == []


def test_the_worker_is_served_from_the_root_and_keeps_this_builds_files(live_server, new_page):
    worker = httpx.get(live_server.url + "/sw.js")
    assert worker.status_code == 200 and worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    first = worker.text.split("\n", 1)[0]
    assert first.startswith("self.BUILD = ") and first.endswith(";")
    build = json.loads(first.removeprefix("self.BUILD = ").removesuffix(";"))
    plain = {url.split("?")[0] for url in build["files"]}  # (named by their hash: issue 60)
    assert {"/", "/manifest.webmanifest", "/static/app.js", "/static/offline.js", "/static/style.css",
            "/static/games/sicilian.js", "/static/games/sicilian.i18n.js"} <= plain
    assert "/static/sw.js" not in plain and "/static/index.html" not in plain
    manifest = httpx.get(live_server.url + "/manifest.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"

    page = new_page(PHONE, workers=True)
    page.goto(live_server.url + "/")
    assert page.evaluate(CONTROLLED) is False  # (the first page opens without it: never waits for it)
    worker_in_charge(page)
    kept = page.evaluate("""async () => { const names = await caches.keys();
        const cache = await caches.open(names[0]);
        return {names, urls: (await cache.keys()).map((r) => { const u = new URL(r.url); return u.pathname + u.search; })}; }""")
    assert kept["names"] == [f"tarocchi-{build['version']}"]
    assert set(build["files"]) <= set(kept["urls"])
    assert not [u for u in kept["urls"] if u.startswith(("/api/", "/ws/", "/t/"))]
    # A table's page, and the lobby's own requests, are not kept by it.
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    page.locator(".conn.ok").wait_for()
    urls = page.evaluate(f"""async () => (await (await caches.open('tarocchi-{build['version']}')).keys())
                             .map((r) => new URL(r.url).pathname)""")
    assert not [u for u in urls if u.startswith(("/api/", "/ws/", "/t/"))]
    assert page.evaluate(CONTROLLED)
    assert page.errors == []


def test_the_lobby_opens_offline_and_says_so(live_server, new_page):
    page = new_page(PHONE, workers=True)
    page.goto(live_server.url + "/")
    worker_in_charge(page)
    assert page.locator(BANNER).inner_text() == ""
    page.context.set_offline(True)
    page.reload()
    page.locator("h1", has_text="Tarocchi").wait_for()  # the shell and its script, from the cache
    banner = page.locator(BANNER)
    banner.wait_for(state="visible")
    assert banner.inner_text().startswith("Offline")
    assert banner.get_attribute("role") == "status"
    assert page.locator(GAMES).count() == 0  # (the games' list is the server's: none offline)
    check_axe(page, "the lobby offline")
    # In Italian too (the page's language button).
    page.click("button.lang")
    page.wait_for_function("() => document.querySelector('.net-banner').textContent.includes('Nessuna connessione')")
    page.click("button.lang")
    page.context.set_offline(False)
    banner.wait_for(state="hidden")
    assert banner.inner_text() == ""
    # And the lobby fills in by itself (the games' list, asked again).
    page.locator(GAMES).first.wait_for(timeout=3000)
    assert page.errors == []


def test_a_table_opens_offline_and_says_so(live_server, new_page):
    token = new_computer(live_server.url, 3)
    page = new_page(DESKTOP, workers=True)
    page.goto(f"{live_server.url}/t/{token}")
    page.locator(".conn.ok").wait_for()
    worker_in_charge(page)
    page.locator(".conn.ok").wait_for()
    # The network goes while the table is open: the banner and the connection line say so.
    page.context.set_offline(True)
    page.locator(BANNER).wait_for(state="visible")
    page.locator(".conn.offline").wait_for()
    page.context.set_offline(False)
    page.locator(".conn.ok").wait_for()
    assert page.locator(BANNER).inner_text() == ""
    # It goes, and the page is opened again.
    page.context.set_offline(True)
    page.reload()
    page.locator(BANNER).wait_for(state="visible")
    assert page.locator(BANNER).inner_text().startswith("Offline")
    # Its connection line says the same, not "reconnecting" again and again.
    assert page.locator(".conn.offline").inner_text() == "Offline, waiting for the network…"
    assert page.url == f"{live_server.url}/t/{token}"
    check_axe(page, "a table offline")
    page.context.set_offline(False)
    page.locator(".conn.ok").wait_for()
    assert page.locator(BANNER).inner_text() == ""
    assert page.errors == []


def test_with_the_server_gone_a_kept_page_still_opens_and_says_offline(new_page):
    """No offline emulation: the server itself stops. The browser still believes it is online;
    the page says offline because its requests find no one."""
    page = new_page(DESKTOP, workers=True)
    with running_server() as server:
        token = new_computer(server.url, 3)
        page.goto(f"{server.url}/t/{token}")
        page.locator(".conn.ok").wait_for()
        worker_in_charge(page)
        page.locator(".conn.ok").wait_for()
    page.reload()
    page.locator(".topbar .home").wait_for()
    page.locator(BANNER).wait_for(state="visible")
    assert page.locator(BANNER).inner_text().startswith("Offline")
    page.locator(".conn.offline").wait_for()
    assert page.errors == []


def test_a_deploy_replaces_the_kept_files(new_page, tmp_path, monkeypatch):
    """A file of the client changes under the server (a deploy): the next page the browser opens
    finds a new worker, which keeps the new files under a new name and drops the old; the page
    after runs the new file, not the kept old one."""
    static = tmp_path / "static"
    shutil.copytree(server_app.STATIC, static)
    monkeypatch.setattr(server_app, "STATIC", static)
    monkeypatch.setattr(server_app, "INDEX", static / "index.html")
    with running_server() as server:
        page = new_page(DESKTOP, workers=True)
        page.goto(server.url + "/")
        worker_in_charge(page)
        old = page.evaluate("() => caches.keys()")
        css = static / "style.css"
        css.write_text(css.read_text(encoding="utf-8") + "\nbody { --deployed: 2; }\n", encoding="utf-8")
        page.reload()
        deadline = time.monotonic() + 15
        while (now := page.evaluate("() => caches.keys()")) == old or len(now) != 1:
            assert time.monotonic() < deadline, f"the caches stayed {now}"
            page.wait_for_timeout(50)
        page.reload()
        assert page.evaluate("() => getComputedStyle(document.body).getPropertyValue('--deployed').trim()") == "2"
        assert page.errors == []


def shown_notifications(page) -> list[list]:
    return page.evaluate("""async () => (await (await navigator.serviceWorker.ready).getNotifications())
                            .map((n) => [n.title, n.body, n.tag, n.data])""")


def push_through_devtools(page, origin: str, push: dict) -> list[list]:
    """Deliver ``push`` to the page's worker as a push service would (the DevTools protocol's
    deliverPushMessage), and wait for the worker to show it: the notifications shown then."""
    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not registrations and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    (registration,) = [r for r in registrations if not r["isDeleted"]]
    before = len(shown_notifications(page))
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": origin, "registrationId": registration["registrationId"],
                                                  "data": json.dumps(push)})
    shown = []
    while len(shown) <= before and time.monotonic() < deadline + 20:  # (a loaded machine: the worker wakes when it can)
        page.wait_for_timeout(100)
        shown = shown_notifications(page)
    cdp.detach()
    return shown


def test_a_push_shows_a_notification(live_server, new_page):
    """The worker's push handler (the notifications' own tests send real ones): a push's JSON
    {title, body, url, tag} is shown, the url kept for the click."""
    page = new_page(DESKTOP, workers=True)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto(live_server.url + "/")
    worker_in_charge(page)
    push = {"title": "Your turn", "body": "Sicilian tarocchi", "url": "/t/abc", "tag": "turn-1"}
    assert push_through_devtools(page, live_server.url, push) == [["Your turn", "Sicilian tarocchi", "turn-1", {"url": "/t/abc"}]]


# A click on the notification shown, run in the worker. Chromium lets only a click a person made
# open or focus a window (the DevTools protocol has no way to click a notification, and an event
# made by script is refused both), so the two calls that need that are recorded instead: the
# handler itself, the notification and what it asks for are the real ones.
CLICK = """async () => {
  const [shown] = await self.registration.getNotifications();
  const asked = [];
  self.clients.openWindow = async (url) => { asked.push(["open", url]); return null; };
  const focus = WindowClient.prototype.focus;
  WindowClient.prototype.focus = async function () { asked.push(["focus", this.url]); return this; };
  try {
    const click = new NotificationEvent("notificationclick", { notification: shown });
    let work = null;
    click.waitUntil = (promise) => { work = promise; };  // (a trusted event's own, refused to a made one)
    self.dispatchEvent(click);
    await work;
  } finally {
    delete self.clients.openWindow;
    WindowClient.prototype.focus = focus;
  }
  return { asked, left: (await self.registration.getNotifications()).length };
}"""


def test_a_notifications_click_opens_the_seat(live_server, new_page):
    """Issue 41: the notification of a turn opens the table at the player's seat: a new window
    with the seat's link where none of its pages is open, that page brought forward where one
    is; the notification closes either way."""
    links = httpx.post(live_server.url + "/api/rooms", json={"seats": 3}).json()["links"]
    seat_url = live_server.url + links[1]
    page = new_page(DESKTOP, workers=True)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto(live_server.url + "/")
    worker_in_charge(page)
    (worker,) = page.context.service_workers
    push = {"title": "Your turn", "body": "Sicilian tarocchi", "url": links[1], "tag": "turn-1"}
    assert len(push_through_devtools(page, live_server.url, push)) == 1
    assert worker.evaluate(CLICK) == {"asked": [["open", seat_url]], "left": 0}
    # The window it asks for is that seat's table.
    page.goto(seat_url)
    page.locator(".waiting .joined li.in").first.wait_for()
    assert page.locator(".waiting .joined li.in").count() == 1
    # The seat's page is open now (in the background, say): the next click brings it forward.
    assert len(push_through_devtools(page, live_server.url, {**push, "tag": "turn-2"})) == 1
    assert worker.evaluate(CLICK) == {"asked": [["focus", seat_url]], "left": 0}
    # Another site's link in a push opens nothing.
    push_through_devtools(page, live_server.url, {**push, "url": "https://example.org/t/x", "tag": "turn-3"})
    assert worker.evaluate(CLICK) == {"asked": [], "left": 0}
    assert page.errors == []


def test_play_now_offline_says_the_server_cannot_be_reached_in_the_pages_language(live_server, new_page):
    """Issue 57: the lobby open, then the network goes, then Play now: never the browser's
    "Failed to fetch", never blamed on the server ("Il server dice"), in either language."""
    page = new_page(PHONE, locale="it-IT")
    page.goto(live_server.url + "/")
    page.locator("#play-now-sicilian").wait_for()
    page.context.set_offline(True)
    page.click("#play-now-sicilian")
    error = page.locator("#play-now .error")
    error.wait_for()
    assert error.inner_text() == "Il server non si raggiunge: controlla la connessione e riprova."
    page.click("button.lang")
    page.click("#play-now-sicilian")
    page.wait_for_function("() => document.querySelector('#play-now .error')?.textContent.startsWith('The server cannot')")
    assert "fetch" not in error.inner_text().lower() and "said" not in error.inner_text()
    page.context.set_offline(False)
    assert page.errors == []


def test_a_phones_table_offline_keeps_the_hand_in_sight_and_says_the_card_waits(live_server, new_page):
    """Issue 57: at 390x844 the banner never covers the hand's last row, and the status line says
    that the table is out of reach and that a card played waits, not "your turn" alone."""
    token = new_computer(live_server.url, 3)
    page = new_page(PHONE, locale="it-IT")
    page.goto(f"{live_server.url}/t/{token}")
    page.locator(".status.yours").wait_for(timeout=20_000)
    page.context.set_offline(True)
    banner = page.locator(BANNER)
    banner.wait_for(state="visible")
    status = page.locator(".status")
    page.wait_for_function("() => document.querySelector('.status').textContent.startsWith('Tocca a te, ma il tavolo non si raggiunge')")
    # The banner's top is under the hand's last card (the table gave it its room).
    page.wait_for_function("""() => {
      const cards = [...document.querySelectorAll('.hand .card')];
      const top = document.querySelector('.net-banner').getBoundingClientRect().top;
      return cards.length && Math.max(...cards.map((c) => c.getBoundingClientRect().bottom)) <= top;
    }""")
    # What is played waits, and the line says so; back online it goes to the table.
    before = version(page)
    page.locator(".actions button.word:not([disabled])").first.click()  # (the deal opens with the bids)
    page.wait_for_function("() => document.querySelector('.status').textContent.startsWith('Il tavolo non si raggiunge: la tua mossa aspetta')")
    assert "Tocca a te: " not in status.inner_text()
    page.context.set_offline(False)
    page.wait_for_function("v => Number(document.querySelector('.table-page').dataset.version) > v", arg=before)
    assert page.errors == []


# The browser's push service, as the test makes it answer: refused as Chromium words it in a
# profile without one, or never answering (localStorage "push" = "hang").
PUSH_STUB = """
PushManager.prototype.subscribe = function () {
  if (localStorage.getItem('push') === 'hang') return new Promise(() => {});
  return Promise.reject(new DOMException('Registration failed - permission denied', 'NotAllowedError'));
};
"""


def test_the_notification_switch_says_why_not_in_the_pages_language_and_within_10_s(live_server, new_page):
    """Issue 57: the browser's "Registration failed - permission denied" is said in the page's
    words (Italian here), and a subscribe that never answers is given up after 10 s (the page's
    clock is the test's: no real wait) with words that say so."""
    from .test_accounts import sign_up

    page = new_page(DESKTOP, locale="it-IT", workers=True)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.add_init_script(PUSH_STUB)
    page.clock.install()
    sign_up(page, live_server.url, "Campanella")
    page.goto(live_server.url + "/account")
    assert page.evaluate(ACTIVE)
    page.click("#notify-on")
    error = page.locator("#notify-error .error")
    error.wait_for()
    assert error.inner_text() == "Il browser non permette le notifiche per questo sito: consentile nelle sue impostazioni."
    # Never answering: given up after 10 s.
    page.evaluate("() => localStorage.setItem('push', 'hang')")
    page.click("#notify-on")
    page.wait_for_function("() => !document.querySelector('#notify-error .error')")
    page.clock.fast_forward(11_000)
    error.wait_for()
    assert error.inner_text().startswith("Il browser non ha risposto entro 10 secondi")
    assert "Registration" not in error.inner_text()
    assert page.errors == []
