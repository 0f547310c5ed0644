"""Fixtures shared by every test folder: headless Debian Chromium (one per test module: its
headless shell, or the full browser where a module needs it) and pages in their own browser
contexts, and screenshots (with --screenshots); a throwaway PostgreSQL cluster; the order the
files run in."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.postgres import Cluster

# No per-example deadline: the suite runs more workers than cores (scripts/test.sh), and a loaded
# moment must not fail a property; speed lives in the benchmarks, not in timed tests.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

# Debian's Chromium twice over (the same version, packages chromium and chromium-headless-shell):
# the headless shell draws pages with the same Blink and V8 at a fifth of the CPU a new page
# (75 against 326 ms in a new context, bench/browser_pages.py: the full browser builds a hidden
# window for each), and the browser tests were two thirds of the suite's CPU (docs/benchmarks.md
# "The test suite's time"). The full browser for the modules marked ``full_browser`` (what only
# it has: notifications), and for every module with --full-browser.
CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture(scope="module")
def browser(request):
    # Module scope, not session: Playwright's sync API keeps an event loop running in the
    # thread while it is open, which would break asyncio.run() in the next module's tests.
    full = request.config.getoption("--full-browser") or request.node.get_closest_marker("full_browser") is not None
    path = CHROMIUM if full else HEADLESS_SHELL
    if not os.path.exists(path):
        pytest.fail(f"{path} is missing: install Debian's {'chromium' if full else 'chromium-headless-shell'} (scripts/test.sh does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=path, args=ARGS, headless=True)
        yield chromium
        chromium.close()


ADDRESSES = itertools.cycle(range(1, 255))  # documentation addresses (RFC 5737), one per page


@pytest.fixture
def new_page(browser):
    """new_page(size, locale="en-GB", workers=False): a page in its own browser context (own
    storage). Service workers are blocked unless ``workers``: a test that fakes the server's
    answers (``page.route``) must see the page's requests, not the worker's (the installable
    app's tests let it run)."""
    contexts = []

    def make(size=DESKTOP, locale="en-GB", workers=False):
        # Each page a person at an address of their own, as a proxy forwards it (the test
        # servers believe 127.0.0.1's X-Forwarded-For): a seat a person (issue 37).
        address = f"198.51.100.{next(ADDRESSES)}"
        context = browser.new_context(viewport=size, locale=locale, extra_http_headers={"X-Forwarded-For": address},
                                      service_workers="allow" if workers else "block")
        context.set_default_timeout(15_000)
        # A page's load waits for the server and the browser both: a loaded machine has taken
        # longer than 15 s (Play now's table, once in a suite run); nothing here times a load.
        context.set_default_navigation_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster per test process (each xdist worker has its own: no
    lock to share), started when a test first needs it; ``postgres.new_database()`` is the URL
    of a new, empty database."""
    with Cluster() as cluster:
        yield cluster


def pytest_addoption(parser):
    parser.addoption("--full-browser", action="store_true",
                     help="every browser test in the full Chromium (/usr/bin/chromium), not its headless shell")
    parser.addoption("--screenshots", action="store_true",
                     help="write the browser tests' screenshots to artifacts/screenshots/ (to look at; nothing asserts on them)")


def pytest_configure(config):
    global SCREENSHOTS_WANTED
    SCREENSHOTS_WANTED = config.getoption("--screenshots")


# The files that took longest, in seconds: the sum of their tests' rows (setup, call, teardown)
# in a whole suite's --durations=0 list (7 December 2026, beside other work: load average 3-18 on
# the two cores; what counts is their order). Handed out in xdist's order (the files with the
# most tests first), a file of a few long browser tests (the lessons: 8 tests, 290 s) started
# late and ran on alone at the end. Measure again when a file's tests change much; a file not
# listed goes after these, in xdist's order.
LONGEST = {
    "tests/browser/test_lessons.py": 291,
    "tests/browser/test_screens.py": 256,
    "tests/server/test_tournaments.py": 230,  # (issue 59: each kind played to its end, both stores)
    "tests/browser/test_correspondence_match.py": 224,  # one test: a match of 228 moves from ~150 pages
    "tests/browser/test_tournament_play.py": 186,  # (issue 59: each kind played to its podium; the arena's minute 101 s)
    "tests/browser/test_public.py": 152,
    "tests/browser/test_hint.py": 149,
    "tests/browser/test_social.py": 136,  # (two tests: a challenge's match of three deals, the bell; beside other work)
    "tests/trust/test_hint_leaks.py": 125,
    "tests/browser/test_calabresella.py": 117,
    "tests/trust/test_watch_leaks.py": 103,
    "tests/browser/test_daily.py": 97,  # one flow: the day's three deals played by clicking, the page at 3 sizes x 2 languages
    "tests/browser/test_issue22.py": 93,
    "tests/browser/test_accounts.py": 86,
    "tests/browser/test_ottocento.py": 80,
    "tests/server/test_daily.py": 79,
    "tests/server/test_accounts.py": 77,
    "tests/server/test_one_database.py": 73,
    "tests/browser/test_watch.py": 72,
    "tests/trust/test_every_game.py": 72,
    "tests/browser/test_site_failover.py": 68,
    "tests/server/test_ratings.py": 65,
    "tests/browser/test_words.py": 65,
    "tests/faults/test_sigkill.py": 58,
    "tests/browser/test_issue12.py": 57,
    "tests/server/test_site.py": 56,
}


def pytest_collection_modifyitems(config, items):
    """The order xdist hands out the files in (``--dist loadfile --no-loadscope-reorder``,
    scripts/test.sh): the longest files first (``LONGEST``), so that none starts late and runs
    on with the other workers idle, then xdist's own order (the files with the most tests
    first), which keeps the waiting tests and the computing ones side by side (the browser
    tests all first, the suite took as long as with a tail: 1,072 s against 1,057 s, 6
    December 2026)."""
    tests_in: dict[str, int] = {}
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        path = item.nodeid.split("::")[0]
        tests_in[path] = tests_in.get(path, 0) + 1
        first.setdefault(path, i)

    def order(item) -> tuple:
        path = item.nodeid.split("::")[0]
        return (-LONGEST.get(path, 0), -tests_in[path], first[path])
    items.sort(key=order)


SCREENSHOTS_WANTED = False


def shot(page, name: str, full_page: bool = True) -> None:
    """A screenshot to artifacts/screenshots/<name>.png, when asked (--screenshots): each costs
    the browser some 0.1 s of CPU, and the suite took some 700."""
    if not SCREENSHOTS_WANTED:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)
