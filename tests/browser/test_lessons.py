"""Learn to play (issue 42): every lesson of every game that has lessons, completed by clicking
on the page, from the lobby's "Learn to play" to the last lesson's "Back to the lobby": at
390x844 in Italian and at 1366x800 in English. At each step the guide says the step's text;
a card the step forbids is refused by the rules (the status line's reason) and the guide adds
what to look at; a card the rules allow but the step does not teach is held back (nothing
sent) and the guide says so; a quiz takes a wrong answer, then the right one. axe-core finds
no fault and nothing needs scrolling at the introduction, the first step and the end of each
lesson. The time the test's own steps took is printed (pytest -s): a person adds reading."""

from __future__ import annotations

import time

import pytest

from tarocchi.server.lessons import is_step, lessons_of
from tests.conftest import shot
from .checks import DESKTOP, PHONE, check_axe, check_inside
from .driver import phase, take_turn, version, wait_version_after

pytestmark = pytest.mark.browser

GAMES = ["sicilian", "calabresella", "renaissance", "ottocento"]  # the games whose lessons are complete (issue 42)
PHASES = ("speak", "announce", "monte", "call", "give", "discard", "lay", "take", "declare", "play")
INSIDE_GUIDE = """() => { const r = document.querySelector('#guide').getBoundingClientRect();
  return r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; }"""


def text_of(data: dict, lang: str, key: str) -> str:
    """The start of a lesson text, up to its first card name (the page names the card)."""
    return data["texts"][lang][key].split("[[")[0][:48]


def guide_says(page, text: str) -> None:
    page.wait_for_function("t => (document.querySelector('#guide')?.textContent || '').includes(t)", arg=text)


def check_screen(page, where: str) -> None:
    check_axe(page, where)
    check_inside(page, where)
    assert page.evaluate(INSIDE_GUIDE), f"the guide lies outside the viewport at {where}"


def press(page, selector: str, keyboard: bool) -> None:
    """A click, or (keyboard) the element focused and Enter pressed, as a keyboard player does."""
    if keyboard:
        page.locator(selector).focus()
        page.keyboard.press("Enter")
    else:
        page.click(selector)


def play_step(page, data: dict, lang: str, step: dict, checks: bool, keyboard: bool = False) -> None:
    guide_says(page, text_of(data, lang, step["text"]))
    page.wait_for_selector(".status.yours")
    now = phase(page)
    if checks:
        for f in step.get("forbid", []):
            words = f["action"].split()
            codes = words[1:] if len(words) > 1 and words[0].islower() and words[1][0] not in "abcdefghijklmnopqrstuvwxyz" else words
            card = page.locator(f".hand .card[data-card='{codes[0]}']") if codes[0][0].isupper() or codes[0][0].isdigit() else None
            if card is not None and card.count() and card.get_attribute("aria-disabled") == "true":
                why = card.get_attribute("title")
                before = version(page)
                card.click(force=True)
                page.locator(".status .status-note").wait_for()
                assert why in page.locator(".status .status-note").inner_text()  # the rules' reason
                guide_says(page, text_of(data, lang, f["look"]))
                assert version(page) == before
            else:  # a word the rules switch off: its button is off, and the guide says why
                assert page.locator(f".actions button[data-action='{f['action']}']").is_disabled()
                guide_says(page, text_of(data, lang, f["look"]))
        if step["do"] != "any" and now == "play":
            others = [c for c in page.locator(".hand .card:not([aria-disabled='true'])").evaluate_all("els => els.map(e => e.dataset.card)")
                      if c not in step["do"]]
            if others:
                before = version(page)
                press(page, f".hand .card[data-card='{others[0]}']", keyboard)
                guide_says(page, text_of(data, lang, step["wrong"]) if "wrong" in step else "")
                page.wait_for_timeout(150)
                assert version(page) == before, "a card the step does not teach is not sent"
                assert page.locator(f".hand .card[data-card='{others[0]}']").count() == 1
    before = version(page)
    if step["do"] == "any":
        take_turn(page, prefer="vado solo")
        return
    action = step["do"][0]
    if now == "play":
        press(page, f".hand .card[data-card='{action}']", keyboard)
    elif now == "call":  # Calabresella's chiamo: the card picked in the deck (C10)
        press(page, f".call-picker button[data-card='{action.split()[1]}']", keyboard)
    elif now in ("discard", "give", "lay"):  # cards picked on the hand, then confirmed
        for code in action.split()[1:]:
            press(page, f".hand .card[data-card='{code}']", keyboard)
        page.locator(".hand .card[aria-pressed='true']").nth(len(action.split()) - 2).wait_for()
        press(page, "#confirm-discard", keyboard)
    elif now == "declare":  # Ottocento: the table proposes the best declaration; confirmed, or none (B9)
        press(page, "#confirm-declare" if action != "declare" else ".actions.declare button[data-action='declare']", keyboard)
    else:
        press(page, f".actions button[data-action='{action}']", keyboard)
    wait_version_after(page, before)


def any_turn(page, game: str) -> None:
    """One action of a whole guided deal, the game's own way (the person's choices are free)."""
    if game == "calabresella":
        from .test_calabresella import take_turn as calabresella_turn
        calabresella_turn(page, prefer=("vado solo",), seen=dict.fromkeys(PHASES, 1))  # (screens: checked above)
    elif game == "ottocento":
        from .test_ottocento import take_turn as ottocento_turn
        ottocento_turn(page, seen=dict.fromkeys(PHASES, True))
    else:
        take_turn(page, prefer="vado solo")


def do_lesson(page, game: str, n: int, lang: str, tag: str, checks: bool) -> None:
    data = lessons_of(game)
    one = data["lessons"][n - 1]
    page.wait_for_url(f"**lesson={game}/{n}")
    guide_says(page, text_of(data, lang, f"{one['id']}.intro"))
    page.locator(".hand .card").first.wait_for()
    if checks:
        check_screen(page, f"{tag} lesson {n} intro")
    keyboard = n == 1  # the first lesson by keyboard alone: Enter on the focused button or card
    press(page, "#guide-start", keyboard)
    steps = [e for e in one["script"] if is_step(e)]
    for i, step in enumerate(steps):
        play_step(page, data, lang, step, checks, keyboard)
        if checks and i == 0:
            check_screen(page, f"{tag} lesson {n} step 1")
    if one.get("free"):
        while True:
            page.wait_for_function("() => document.querySelector('.status.yours') || document.querySelector('.center.count')")
            if page.locator(".center.count").count():
                break
            any_turn(page, game)
    for quiz in one.get("quiz", []):
        guide_says(page, text_of(data, lang, quiz["ask"]))
        wrong = next(o for o in quiz["options"] if o != quiz["answer"])
        page.click(f".guide .quiz-option[data-value='{wrong}']")
        page.locator(".guide .guide-note").wait_for()
        page.click(f".guide .quiz-option[data-value='{quiz['answer']}']")
    guide_says(page, text_of(data, lang, f"{one['id']}.done"))
    if checks:
        check_screen(page, f"{tag} lesson {n} done")
    shot(page, f"lesson-{tag}-{game}-{n}")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size,locale", [(PHONE, "it-IT"), (DESKTOP, "en-GB")], ids=["phone-it", "desktop-en"])
def test_every_lesson_completed_on_the_table(live_server, new_page, game, size, locale):
    page = new_page(size, locale=locale)
    lang = locale[:2]
    tag = f"{'phone' if size is PHONE else 'desktop'}-{lang}"
    page.goto(live_server.url + "/")
    start = page.locator(f".lobby-learn .learn-start[data-game='{game}']")
    start.wait_for()
    total = len(lessons_of(game)["lessons"])
    progress = f".lobby-learn li:has(.learn-start[data-game='{game}']) .learn-progress"
    assert page.locator(progress).inner_text().startswith("0")
    page.check(f"input[name='computer-game'][value='{game}']")  # the game chosen: its lessons suggested
    assert page.locator(".learn-suggest").count() == 1  # a first visit to the game suggests its lessons
    began = time.monotonic()
    timings = []
    start.click()
    for n in range(1, total + 1):
        t0 = time.monotonic()
        do_lesson(page, game, n, lang, tag, checks=True)
        timings.append(round(time.monotonic() - t0, 1))
        page.click("#guide-next" if n < total else "#guide-lobby")
    page.wait_for_url(live_server.url + "/")
    page.locator(f".lobby-learn .learn-start[data-game='{game}']").wait_for()
    assert page.locator(progress).inner_text().startswith(str(total))
    page.check(f"input[name='computer-game'][value='{game}']")
    assert page.locator(".learn-suggest").count() == 0
    print(f"\n{game} {tag}: {total} lessons in {time.monotonic() - began:.1f} s (each: {timings})")
    assert page.errors == []
