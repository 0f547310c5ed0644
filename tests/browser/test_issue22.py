"""Issue 22's defects of the web table, each shown to the page as the server would send it
(tests/browser/fake.py, with real engine views) or on a real server: the count's payments and
the match's result in sight at every size, the name asked on the table, the game named on a
phone and in the lobby, the score sheet in a phone's drawer, Ottocento's sides, Renaissance's
counted piles and extra cards, the chips' contrast, one naming and one wording per game."""

from __future__ import annotations

import random
import re

import pytest

from tarocchi.engine.game import get_game

from .checks import SIZES, check_axe, check_inside, screen
from .driver import close_panels, open_panel
from .fake import new_deal, open_fake, table, view

pytestmark = pytest.mark.browser

BOLD = ("vado solo", "chiamo", "scommessa", "rivanto")  # so that Sicilian deals have a contract


def finished(game: str, seats: int, want=lambda d: True, tries: int = 400, totals=None):
    """A deal of `game` played to its count by seeded random choices, the first that `want`s."""
    for seed in range(tries):
        rng = random.Random(seed)
        if totals is None:
            deal = new_deal(seats, game, dealer=seed % seats, seed=seed)
        else:
            deal = get_game(game).shuffled(seats, dealer=seed % seats, rng=random.Random(seed), totals=totals)
        while not deal.done:
            acts = deal.legal_actions()
            bold = [a for a in acts if a in BOLD]
            deal.apply(bold[0] if bold and rng.random() < 0.7 else rng.choice(acts))
        if want(deal):
            return deal
    raise AssertionError("no deal like that")


def reached(game: str, seats: int, stop, tries: int = 300):
    """A deal of `game` played by seeded random choices until stop(deal)."""
    for seed in range(tries):
        rng = random.Random(seed)
        deal = new_deal(seats, game, dealer=seed % seats, seed=seed)
        while not deal.done and not stop(deal):
            deal.apply(rng.choice(deal.legal_actions()))
        if not deal.done:
            return deal
    raise AssertionError("no deal reaches that moment")


def counted(deal) -> bool:
    k = deal.view(0)["count"]
    return not k.get("thrown_in") and not k.get("abandoned")


SEATS = {"sicilian": 3, "calabresella": 3, "renaissance": 3, "ottocento": 4}
WANT = {  # the longest counts: Sicilian with seven jochi rows, Renaissance with the Fool's line
    "sicilian": lambda d: counted(d) and len(d.view(0)["count"]["jochi"]) >= 7,
    "renaissance": lambda d: d.view(0)["count"]["fool"]["seat"] >= 0,
    "calabresella": counted,
    "ottocento": lambda d: counted(d) and not d.view(0)["count"].get("at_declarations"),
}

IN_SIGHT = """sel => {
  const box = document.querySelector('.center.count').getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.top < box.top - 1 || r.bottom > box.bottom + 1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1)
      out.push(`${el.textContent.trim().slice(0, 30)}: ${Math.round(r.top)}..${Math.round(r.bottom)} in ${Math.round(box.top)}..${Math.round(box.bottom)}`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", ["desktop", "phone", "small"])
@pytest.mark.parametrize("game", ["sicilian", "calabresella", "renaissance", "ottocento"])
def test_the_count_shows_the_payments_and_the_result_without_scrolling(live_server, new_page, game, size):
    deal = finished(game, SEATS[game], WANT[game])
    pays = deal.returns()
    page = new_page(SIZES[size])
    fake = open_fake(page, live_server.url, table(SEATS[game], game, status="between", totals=pays, sheet=[pays]), view(deal))
    page.locator(".center.count .payments").wait_for()
    assert page.locator(".payments li").count() == (2 if game == "ottocento" else SEATS[game])  # (Ottocento: the sides)
    assert page.evaluate(IN_SIGHT, ".payments li b") == []
    assert page.evaluate("() => document.querySelector('.center.count').scrollTop") == 0
    check_inside(page, f"{game} count {size}")
    screen(page, game, "count-issue22", size, "en")
    # The match's end: who won, on the status line and above the payments.
    best = max(pays)
    winners = [s for s, p in enumerate(pays) if p == best]
    fake.push(tbl=table(SEATS[game], game, status="over", totals=pays, sheet=[pays], winners=winners), v=view(deal))
    page.locator(".center.count .result .winners").wait_for()
    assert page.evaluate(IN_SIGHT, ".result .winners, .payments li b") == []
    status = page.locator("#status").inner_text()
    said = page.locator(".result .winners").inner_text()
    assert said and said in status, (status, said)
    for code in ("en", "it"):
        where = f"{game} match over {size} {code}"
        assert page.evaluate(IN_SIGHT, ".result .winners, .payments li b") == [], where
        check_inside(page, where)
        check_axe(page, where)
        screen(page, game, "match-over", size, code)
        page.click("button.lang")
        page.wait_for_function("c => document.documentElement.lang !== c", arg=code)
    assert page.errors == []


def test_the_last_guest_is_asked_his_name_on_the_table(live_server, new_page):
    from tests.conftest import DESKTOP, PHONE

    from .test_room import create_room
    host = new_page(DESKTOP)
    own, links = create_room(host, live_server.url, 3)
    host.goto(own)
    host.locator(".waiting .joined li").first.wait_for()
    # The waiting room says once what it waits for (its title), the status line how many are here.
    host.locator("#status", has_text="1 of 3").wait_for()
    body = host.locator(".table-page").inner_text()
    assert body.count("Waiting for everyone") <= 1, body
    first = new_page(PHONE)
    first.goto(links[0])
    first.locator("#my-name").fill("Bartolo")
    first.locator(".waiting-name button[type='submit']").click()
    host.locator(".waiting .joined", has_text="Bartolo").wait_for()
    last = new_page(PHONE)
    last.goto(links[1])  # the last seat: the deal starts at once
    last.locator(".hand .card").first.wait_for()
    field = last.locator("#my-name-table")
    field.wait_for()
    check_inside(last, "the name asked on the table")
    screen(last, "room", "name-asked", "phone", "en")
    check_axe(last, "the name asked on the table")
    field.fill("Cecco")
    last.locator(".table-name button[type='submit']").click()
    host.locator(".seat[data-seat='2'] .seat-name", has_text="Cecco").wait_for()
    last.locator("#my-name-table").wait_for(state="detached")
    # The host named himself nowhere: his table asks him too, and "Not now" puts it off.
    host.locator("#my-name-table").wait_for()
    host.click(".table-name .later")
    host.locator("#my-name-table").wait_for(state="detached")
    assert last.errors == [] and host.errors == []


@pytest.mark.parametrize("size", ["phone", "small"])
@pytest.mark.parametrize("game", ["sicilian", "renaissance", "calabresella", "ottocento"])
def test_a_phone_says_which_game_is_played(live_server, new_page, game, size):
    deal = new_deal(SEATS[game], game)
    page = new_page(SIZES[size])
    open_fake(page, live_server.url, table(SEATS[game], game), view(deal))
    name = page.locator(".topbar .game-name")
    assert name.is_visible()
    short = {"sicilian": "Sicilian", "renaissance": "Renaissance", "calabresella": "Calabresella", "ottocento": "Ottocento"}[game]
    assert name.inner_text() == short
    r = name.bounding_box()
    assert r["x"] >= 0 and r["x"] + r["width"] <= SIZES[size]["width"] and r["y"] + r["height"] <= 60, r
    check_inside(page, f"{game} {size}")
    page.click("button.lang")
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    assert name.is_visible() and name.inner_text()
    check_inside(page, f"{game} {size} it")


def test_the_lobby_names_and_describes_every_game_with_its_rules(live_server, new_page):
    page = new_page(SIZES["desktop"])
    page.goto(live_server.url + "/")
    page.locator("input[name='room-game']").first.wait_for()
    games = page.locator("input[name='computer-game']").evaluate_all("els => els.map(e => e.value)")
    assert sorted(games) == ["calabresella", "ottocento", "renaissance", "sicilian"]
    for code in ("en", "it"):
        tagline = page.locator(".tagline").inner_text()
        for word in ("Sicil", "Renaissance" if code == "en" else "Rinascimento", "Calabresella", "Ottocento"):
            assert word.lower() in tagline.lower(), (code, tagline)
        for picker in ("computer-game", "room-game"):
            for g in games:
                row = page.locator(f".game-row:has(input[name='{picker}'][value='{g}'])")
                about = row.locator("small")
                assert about.count() == 1 and about.inner_text().strip(), (picker, g)  # a one-line description
                link = row.locator("a.help-link")
                assert link.count() == 1 and link.get_attribute("href") == f"/static/help/{g}.{code}.html", (picker, g)
        check_axe(page, f"the lobby {code}")
        page.click("button.lang")
        page.wait_for_function("c => document.documentElement.lang !== c", arg=code)


def test_the_four_seat_sheet_fits_a_phone_drawer(live_server, new_page):
    deal = finished("sicilian", 4, counted, tries=60)
    sheet = [deal.returns()] * 5
    totals = [sum(x) for x in zip(*sheet)]
    page = new_page(SIZES["phone"])
    open_fake(page, live_server.url, table(4, "sicilian", status="between", totals=totals, sheet=sheet), view(deal))
    open_panel(page, "sheet")
    box = page.evaluate("""() => { const p = document.querySelector('#panel-sheet'); const t = p.querySelector('.sheet-table');
        const pr = p.getBoundingClientRect(), tr = t.getBoundingClientRect();
        const cells = [...t.querySelectorAll('th, td')].map(c => c.getBoundingClientRect().right);
        return {panel: pr.right, table: tr.right, cells: Math.max(...cells), scroll: p.scrollWidth, width: p.clientWidth}; }""")
    assert box["scroll"] <= box["width"] and box["table"] <= box["panel"] and box["cells"] <= box["panel"], box
    assert page.locator(".sheet-table thead th").count() == 5
    screen(page, "sicilian", "sheet-4", "phone", "en")
    check_axe(page, "the four-seat sheet")
    close_panels(page)


def test_ottocento_sheet_and_match_end_are_the_sides(live_server, new_page):
    deal = finished("ottocento", 4, lambda d: counted(d) and d.view(0)["count"].get("winner") is not None,
                    totals=[790, 100, 790, 100], tries=60)
    k = deal.view(0)["count"]
    side = k["winner"]
    totals = [k["totals"][s % 2] for s in range(4)]
    pays = deal.returns()
    assert pays[0] == pays[2] and pays[1] == pays[3]  # partners score alike (B24)
    page = new_page(SIZES["phone"])
    open_fake(page, live_server.url, table(4, "ottocento", status="over", totals=totals, sheet=[pays], target=800,
                                           winners=[side, side + 2], deals_in_match=None), view(deal))
    said = page.locator(".result .winners")
    said.wait_for()
    text = said.inner_text()
    assert "share" not in text and re.match(r"(Side|Your side) ", text), text
    assert ("side A" if side == 0 else "side B") in text.replace("Side", "side")
    # The seat bars: a total past 800 says so, not "810 of 800".
    bars = page.locator(".seat .stat.total").all_inner_texts()
    assert all(not re.search(r"(\d+) of 800", b) or int(re.search(r"(\d+) of 800", b).group(1)) < 800 for b in bars), bars
    assert any("800 reached" in b for b in bars), bars
    open_panel(page, "sheet")
    heads = page.locator(".sheet-table thead th").all_inner_texts()
    assert len(heads) == 3 and "side A" in heads[1] and "side B" in heads[2], heads
    cells = page.locator(".sheet-table tfoot td").all_inner_texts()
    assert [int(c) for c in cells] == [totals[0], totals[1]], cells
    check_axe(page, "the Ottocento sheet")
    close_panels(page)


def test_ottocento_declare_nothing_shows_no_internal_word(live_server, new_page):
    # (a hand with no combination: the page offers only "Declare nothing")
    deal = reached("ottocento", 4, lambda d: d.phase == "declare" and d.to_act == 0
                   and not d.view(0)["choices"][0].get("combinations"), tries=600)
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, table(4, "ottocento"), view(deal))
    button = page.locator(".actions button[data-action='declare']")
    button.wait_for()
    assert button.count() == 1
    for code in ("en", "it"):
        words = button.inner_text().split()
        assert "declare" not in words, words
        assert button.locator("small").count() == 0 or "declare" not in button.locator("small").inner_text()
        page.click("button.lang")


def test_renaissance_seat_bars_count_the_fools_payment(live_server, new_page):
    deal = finished("renaissance", 3, lambda d: (f := d.view(0)["count"]["fool"])["seat"] >= 0 and f["trick_winner"] != f["seat"])
    k = deal.view(0)["count"]
    pays = deal.returns()
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, table(3, "renaissance", status="between", totals=pays, sheet=[pays]), view(deal))
    page.locator(".center.count").wait_for()
    piles = [int(page.locator(f".seat[data-seat='{s}'] .stat.pile").inner_text().split()[-1]) for s in range(3)]
    assert piles == [p["threes"] * 3 for p in k["piles"]], (piles, k["piles"])
    assert sum(piles) == 78


def test_renaissance_extra_marks_are_seen_on_a_phone(live_server, new_page):
    deal = new_deal(3, "renaissance", dealer=0, seed=1)
    assert deal.view(0)["phase"] == "discard" and deal.to_act == 0
    for size in ("phone", "small"):
        page = new_page(SIZES[size])
        open_fake(page, live_server.url, table(3, "renaissance"), view(deal))
        page.locator(".hand .card.extra").nth(2).wait_for()
        marks = page.locator(".hand .card.extra .extra-mark")
        assert marks.count() == 3
        hidden = page.evaluate("""() => [...document.querySelectorAll('.hand .card.extra')].filter(card => {
            const m = card.querySelector('.extra-mark'); if (!m) return true;
            const r = m.getBoundingClientRect();
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return !top || top.closest('.card') !== card || r.bottom > innerHeight; }).map(c => c.dataset.card)""")
        assert hidden == [], (size, hidden)
        screen(page, "renaissance", "extra-marks", size, "en")


CONTRAST = """sel => {
  const lum = (c) => { const [r, g, b] = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const chip = el.closest('.mini');
    const a = lum(getComputedStyle(el).color), b = lum(getComputedStyle(chip).backgroundColor);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) out.push(`${chip.title}: ${ratio.toFixed(2)}`);
  }
  return out;
}"""


@pytest.mark.parametrize("game", ["renaissance", "calabresella"])
def test_the_count_chips_suit_letters_read_as_on_the_felt(live_server, new_page, game):
    deal = finished(game, 3, lambda d: counted(d))
    pays = deal.returns()
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, table(3, game, status="between", totals=pays, sheet=[pays]), view(deal))
    page.locator(".center.count .pile-cards .mini small").first.wait_for()
    assert page.evaluate(CONTRAST, ".center.count .pile-cards .mini small") == []


COURTS = ("Knight", "Page", "Horse", "Maid", "Cavallo", "Fante", "Donna")


@pytest.mark.parametrize("game", ["sicilian", "renaissance", "calabresella", "ottocento"])
def test_a_court_card_shows_the_letter_of_its_name(live_server, new_page, game):
    deal = new_deal(SEATS[game], game)
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, table(SEATS[game], game), view(deal))
    page.locator(".hand .card").first.wait_for()
    open_panel(page, "played")
    page.locator(".played-panel .row-cards .mini").first.wait_for()
    for code in ("en", "it"):
        chips = page.locator(".played-panel .row-cards .mini").evaluate_all(
            "els => els.map(e => [e.title, e.querySelector('b').textContent])")
        courts = [(name, letter) for name, letter in chips if name.split(" ")[0] in COURTS]
        assert len(courts) == 8, chips
        wrong = [(n, x) for n, x in courts if not n.lower().startswith(x.lower())]
        assert wrong == [], (code, wrong)
        # and the card faces of the hand the same
        faces = page.evaluate("""() => [...document.querySelectorAll('.hand .card')].map(c => [c.title, c.querySelector('svg text').textContent])""")
        wrong = [(n, x) for n, x in faces if n.split(" ")[0] in COURTS and not n.lower().startswith(x.lower())]
        assert wrong == [], (code, wrong)
        page.click("button.lang")
        page.wait_for_function("c => document.documentElement.lang !== c", arg=code)


def test_calabresella_lines_begin_with_a_capital_and_totals_have_no_of_21(live_server, new_page):
    def called_by_me(d):
        v = d.view(0)
        return v.get("challenger") == 0 and v.get("called") is not None and v.get("giver") is not None and d.phase in ("give", "discard")
    deal = reached("calabresella", 3, called_by_me, tries=600)
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, table(3, "calabresella", totals=[-34, 17, 17], target=21, deals_in_match=None), view(deal))
    line = page.locator(".called-line > span:last-child")
    line.wait_for()
    for code in ("en", "it"):
        said = line.inner_text().strip()
        assert said[0].isupper(), said
        bars = page.locator(".seat .stat.total").all_inner_texts()
        assert not any(re.search(r"-?\d+ (of|su) 21", b) for b in bars), bars
        page.click("button.lang")
        page.wait_for_function("c => document.documentElement.lang !== c", arg=code)


def trump_led_refusal(game: str):
    trumps = set(get_game(game).deck.describe()["groups"][0]["cards"])

    def stop(d):
        if d.phase != "play" or d.to_act != 0:
            return False
        v = d.view(0)
        trick = [p["card"] for p in v["trick"]]
        led = trick[1] if trick and trick[0] == "F" and len(trick) > 1 else (trick[0] if trick else None)
        hand = set(v["hand"])
        return led in trumps and bool(hand & trumps) and bool(hand - trumps - {"F"})
    return reached(game, SEATS[game], stop, tries=600)


@pytest.mark.parametrize("game", ["sicilian", "renaissance", "calabresella", "ottocento"])
def test_after_a_trump_lead_every_game_says_play_a_trump(live_server, new_page, game):
    deal = trump_led_refusal(game)
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, table(SEATS[game], game), view(deal))
    dimmed = page.locator(".hand .card[aria-disabled='true']")
    dimmed.first.wait_for()
    reasons = set(dimmed.evaluate_all("els => els.map(e => e.title)"))
    assert reasons == {"play a trump"}, reasons
    page.click("button.lang")
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    assert set(dimmed.evaluate_all("els => els.map(e => e.title)")) == {"gioca un trionfo"}


def test_the_english_ottocento_example_uses_english_suit_names(live_server, new_page):
    page = new_page(SIZES["desktop"])
    page.goto(live_server.url + "/static/help/ottocento.en.html")
    text = page.evaluate("""() => { const h = document.getElementById('example'); let out = ''; let el = h.nextElementSibling;
        while (el && el.tagName !== 'H2') { out += el.innerText + ' '; el = el.nextElementSibling; } return out; }""")
    assert "cups" in text and "swords" in text
    assert not re.search(r"\b(coppe|denari|spade|bastoni)\b", text), text
