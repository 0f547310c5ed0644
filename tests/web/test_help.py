"""The rules pages, static/help/<game>.<lang>.html: each exists for every game (the registry's
and Ottocento, not registered yet) in English and Italian, is served by the real app, is plain
accessible HTML that links home and to its twin, shows no ruling ids and loads nothing from
outside, and every number it marks with ``data-check="name"`` is the number the engine (or,
for Ottocento, a count built from its rulings) gives.

The marks are how the test finds the figures without reading prose: a page must carry exactly
the marks its game expects below, each with the expected value, every time it appears."""

from __future__ import annotations

import re
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest

with warnings.catch_warnings():  # Starlette asks for httpx2, which the project does not pin
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

import tarocchi.web
from tarocchi.engine import cards as sicilian_cards
from tarocchi.games import sicilian
from tarocchi.engine.game import game_names, get_game
from tarocchi.games import calabresella as cal
from tarocchi.games import renaissance as ren
from tarocchi.server.app import create_app

HELP = Path(tarocchi.web.__file__).resolve().parent / "static" / "help"
LANGS = ("en", "it")
GAMES = sorted(set(game_names()) | {"ottocento"})
PAGES = [(g, lang) for g in GAMES for lang in LANGS]
RULES = Path("/work/shared/rules")  # the rulings, where this checkout has them beside it
# Ruling and rulings-test-case ids: R12, A7, B27, C9, and T1, K8, O4 of the hand-built cases.
RULING_ID = re.compile(r"\b[RABCTKO]\d{1,2}\b")


def url(game: str, lang: str) -> str:
    return f"/static/help/{game}.{lang}.html"


def twin(lang: str) -> str:
    return "it" if lang == "en" else "en"


# --- reading a page ----------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    """What the tests read of a page: its tags and attributes, its visible text, its marks."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.checks: dict[str, list[str]] = {}
        self.open: list[str] = []  # the element stack, to check nesting
        self.errors: list[str] = []
        self.heads: list[int] = []  # heading levels in document order
        self._marks: list[tuple[str, int, list[str]]] = []  # (name, depth, text) being read
        self._skip = 0  # inside <style>/<script>/<title>: not body text
        self.title = ""
        self._in_title = False
        self.feed(text)
        self.close()
        if self.open:
            self.errors.append(f"unclosed: {self.open}")

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.heads.append(int(tag[1]))
        if tag in ("style", "script"):
            self._skip += 1
        if tag == "title":
            self._in_title = True
        if tag not in VOID:
            self.open.append(tag)
            if "data-check" in a:
                self._marks.append((a["data-check"], len(self.open), []))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.open or self.open[-1] != tag:
            # html.parser is lenient; an end tag that does not close the innermost element is
            # a nesting error in a hand-written page (no optional end tags are used here)
            self.errors.append(f"</{tag}> closes {self.open[-1] if self.open else 'nothing'}")
            if tag in self.open:
                while self.open and self.open[-1] != tag:
                    self.open.pop()
            else:
                return
        if self._marks and self._marks[-1][1] == len(self.open):
            name, _, text = self._marks.pop()
            self.checks.setdefault(name, []).append("".join(text).strip())
        self.open.pop()
        if tag in ("style", "script"):
            self._skip -= 1
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data
            return
        if self._skip:
            return
        self.text.append(data)
        for _, _, text in self._marks:
            text.append(data)

    def attrs(self, tag: str) -> list[dict]:
        return [a for t, a in self.tags if t == tag]

    def values(self) -> dict[str, list[int]]:
        """Each mark's numbers, "+10", "−22" (minus sign) or "-22" read as ints."""
        out = {}
        for name, texts in self.checks.items():
            nums = []
            for t in texts:
                t = t.replace("\u2212", "-").replace("+", "").replace("\u00a0", "").strip()
                assert re.fullmatch(r"-?\d+", t), f"data-check={name!r} holds {t!r}, not one number"
                nums.append(int(t))
            out[name] = nums
        return out


def read(game: str, lang: str) -> Page:
    return Page((HELP / f"{game}.{lang}.html").read_text(encoding="utf-8"))


# --- served by the real app ---------------------------------------------------------------

@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(str(tmp_path_factory.mktemp("help") / "tables.db"))
    with TestClient(app) as c:
        yield c


def test_every_game_of_the_registry_has_its_pages():
    assert {"sicilian", "renaissance", "calabresella", "ottocento"} <= set(GAMES)
    for game, lang in PAGES:
        assert (HELP / f"{game}.{lang}.html").is_file(), f"no rules page for {game} in {lang}"


@pytest.mark.parametrize("game,lang", PAGES)
def test_the_app_serves_the_page_at_its_url(client, game, lang):
    r = client.get(url(game, lang))
    assert r.status_code == 200, r.text[:200]
    assert r.headers["content-type"].startswith("text/html")
    assert r.content == (HELP / f"{game}.{lang}.html").read_bytes()


def test_the_app_serves_the_stylesheet(client):
    r = client.get("/static/help/help.css")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")


# --- plain, accessible HTML ---------------------------------------------------------------

@pytest.mark.parametrize("game,lang", PAGES)
def test_the_page_is_plain_accessible_html(game, lang):
    raw = (HELP / f"{game}.{lang}.html").read_text(encoding="utf-8")
    assert raw.lstrip().lower().startswith("<!doctype html>")
    page = read(game, lang)
    assert not page.errors, page.errors
    (html_tag,) = page.attrs("html")
    assert html_tag.get("lang") == lang
    assert page.title.strip()
    assert len(page.attrs("h1")) == 1
    assert len(page.attrs("main")) == 1
    assert page.heads[0] == 1
    for before, after in zip(page.heads, page.heads[1:]):
        assert after <= before + 1, f"heading h{before} is followed by h{after}: a level skipped"
    metas = page.attrs("meta")
    assert any(m.get("charset", "").lower() == "utf-8" for m in metas)
    assert any(m.get("name") == "viewport" and "width=device-width" in m.get("content", "") for m in metas)
    assert any(a.get("rel") == "stylesheet" and a.get("href") == "/static/help/help.css"
               for a in page.attrs("link"))
    assert not page.attrs("script"), "the rules pages need no JavaScript"
    # every table has header cells with a scope, and a caption
    assert len(page.attrs("caption")) == len(page.attrs("table"))
    ths = page.attrs("th")
    assert all(th.get("scope") in ("col", "row") for th in ths)
    if page.attrs("table"):
        assert ths
    ids = [a["id"] for _, a in page.tags if "id" in a]
    assert len(ids) == len(set(ids)), "an id is used twice"
    for a in page.attrs("a"):  # in-page links go somewhere
        if a.get("href", "").startswith("#"):
            assert a["href"][1:] in ids, a["href"]


@pytest.mark.parametrize("game,lang", PAGES)
def test_the_page_links_home_and_to_its_twin(game, lang):
    page = read(game, lang)
    links = page.attrs("a")
    assert any(a.get("href") == "/" for a in links), "no link back to the table"
    other = twin(lang)
    to_twin = [a for a in links if a.get("href") == url(game, other)]
    assert to_twin and all(a.get("hreflang") == other for a in to_twin)
    assert (HELP / f"{game}.{other}.html").is_file()
    assert any(a.get("rel") == "alternate" and a.get("hreflang") == other and a.get("href") == url(game, other)
               for a in page.attrs("link"))


@pytest.mark.parametrize("game,lang", PAGES)
def test_the_page_loads_nothing_from_outside_and_every_link_resolves(game, lang):
    page = read(game, lang)
    for tag, a in page.tags:
        for attr in ("href", "src", "srcset", "action", "poster", "data"):
            value = a.get(attr)
            if value is None:
                continue
            assert not re.match(r"^\s*([a-z][a-z0-9+.-]*:|//)", value, re.I) or value == "data:,", \
                f"<{tag} {attr}={value!r}>: an outside resource"
            if value.startswith("/static/"):
                assert (HELP.parent / value[len("/static/"):]).is_file(), f"{value} does not exist"
    assert "style=" not in (HELP / f"{game}.{lang}.html").read_text(encoding="utf-8")
    assert "@import" not in (HELP / "help.css").read_text() and "url(" not in (HELP / "help.css").read_text()


@pytest.mark.parametrize("game,lang", PAGES)
def test_no_ruling_ids_in_the_visible_text(game, lang):
    text = " ".join(read(game, lang).text)
    found = RULING_ID.findall(text)
    assert not found, f"ruling ids shown to players: {found}"


@pytest.mark.parametrize("game,lang", PAGES)
def test_the_game_words_stay_italian(game, lang):
    text = " ".join(read(game, lang).text)
    words = {"sicilian": ["passo", "altre cinque", "vado solo", "pago", "prendo", "chiamo", "monte", "stata",
                          "Scommessa", "Rivanto", "jocu", "jochi"],
             "renaissance": [],
             "calabresella": ["passo", "sta bene", "chiamo", "vado solo", "vado solissimo", "dividete",
                              "scegliete", "monte", "cappotto", "stramazzo"],
             "ottocento": ["a monte", "gioco", "cricca", "contatori", "Volo", "Trionfi", "Busso", "Matto",
                           "Bégato", "Mori"]}[game]
    for w in words:
        assert w.lower() in text.lower(), f"{game}.{lang}: {w!r} missing"



# --- the keys at the table ------------------------------------------------------------------

# Every key the table answers (static/app.js onKey, hint.js, replay.js), as each page's language
# names it: each page lists them all (a game without speaking buttons, Renaissance, no 1-9).
KEYS = {"en": ["Tab", "Shift", "←", "→", "↓", "Enter", "Space", "1", "9", "C", "N", "H", "L", "Esc", "Home", "End"],
        "it": ["Tab", "Maiusc", "←", "→", "↓", "Invio", "Spazio", "1", "9", "C", "N", "H", "L", "Esc", "Home", "Fine"]}
NAMED = {"ArrowLeft": "←", "ArrowRight": "→", "ArrowDown": "↓", "Escape": "Esc"}


def button_keys() -> set[str]:
    """The keys the client's buttons carry in aria-keyshortcuts (written out, as a *_KEY
    constant, or given to the replay's buttons), as the English page names them."""
    static = HELP.parent
    code = "\n".join(p.read_text(encoding="utf-8") for p in [*static.glob("*.js"), *static.glob("games/*.js")])
    keys = set(re.findall(r'"aria-keyshortcuts": "([^"]+)"', code))
    keys |= set(re.findall(r'const \w+_KEY = "([^"]+)"', code))
    keys |= set(re.findall(r'button\("replay-[\w-]+", "[\w.]+", .*?, "(\w+)"\)', code))
    return {NAMED.get(k, k) for k in keys}


def test_every_key_a_button_carries_is_in_the_pages_list():
    keys = button_keys()
    assert {"C", "N", "H", "L", "Home", "End", "←", "→"} <= keys, keys
    assert keys <= set(KEYS["en"]), f"keys the pages do not list: {keys - set(KEYS['en'])}"


@pytest.mark.parametrize("game,lang", PAGES)
def test_the_page_lists_every_key_of_the_table(game, lang):
    raw = (HELP / f"{game}.{lang}.html").read_text(encoding="utf-8")
    assert 'href="#keys"' in raw, "the keys are not in the page's contents"
    section = raw[raw.index('<h2 id="keys">'):]
    section = section[:section.index("<h2", 4)]
    listed = set(re.findall(r"<kbd>([^<]+)</kbd>", section))
    expected = set(KEYS[lang]) - ({"1", "9"} if game == "renaissance" else set())
    assert listed == expected, f"missing {sorted(expected - listed)}, not keys {sorted(listed - expected)}"

# --- the figures --------------------------------------------------------------------------

def same_value(deck, codes) -> int | None:
    """The one value all these cards have, or None if they differ."""
    vals = {deck.values[deck.card(c)] for c in codes}
    return vals.pop() if len(vals) == 1 else None


def value_groups(deck, groups: dict[str, list[str]]) -> dict[str, int | None]:
    """points-<group> marks: each group's common value; "points-other" is every other card."""
    named = {c for codes in groups.values() for c in codes}
    out = {f"points-{g}": same_value(deck, codes) for g, codes in groups.items()}
    out["points-other"] = same_value(deck, [c for c in deck.codes if c not in named])
    return out


def batch_less(n: int, batch: int) -> int:
    return (batch - 1) * (n // batch) + (1 if n % batch else 0)


# Sicilian: the seed's worked example, counted by the engine's own count (R15).

def sicilian_count(seats: int, partner: int | None, stata: bool, bidder_pile: list[str], played_by_others: set[str],
                   taken_from_bidder: set[str], fool_by_bidder: bool = True):
    """A finished deal whose piles are given: seat 1 is the bidder (with ``partner`` at four
    seats), seat 0 an opponent holding the other pile; the bidder's side wins the last trick.
    ``played_by_others``: cards of the bidder's pile an opponent played (its pigliate);
    ``taken_from_bidder``: cards of the others' pile the bidder played (theirs)."""
    deck = sicilian_cards.DECK
    d = sicilian.Deal(seats, 0, list(range(deck.size)))
    b = deck.mask_of(bidder_pile)
    o = deck.full & ~b
    d.bidder, d.partner, d.stata = 1, partner, stata
    d.contract = "chiamo" if partner is not None else "solo"
    d.discarded, d.scommessa, d.rivanto, d.called = 0, False, None, None
    by_bidder = (b & ~deck.mask_of(played_by_others)) | deck.mask_of(taken_from_bidder)
    d.played = [0] * seats
    d.played[1], d.played[0] = by_bidder, deck.full & ~by_bidder
    d.won = [0] * seats  # the Fool is not in a trick's pile: the count settles it (R14)
    d.won[1], d.won[0] = b & ~deck.fool_bit, o & ~deck.fool_bit
    d.tricks_won = [0] * seats
    d.tricks_won[1], d.tricks_won[0] = 10, 5
    d.fool_by = d.fool_to = 1 if fool_by_bidder else 0
    d.last_trick = (0, [], 1)  # seat 1 won the last trick
    d._count()
    return d.count


# The example: the bidder's side takes the Rimatura and the Vanto and captures the 1 and the 17
# from the others; the others capture the 18. Kings split 2-2, arie split: nothing else scores.
EXAMPLE_PILE = ["20", "1", "16", "17", "19", "F", "KC", "QC", "HC", "MC", "10C", "9C", "8C", "7C", "6C", "5C",
                "KO", "QO", "HO", "MO", "10O", "9O", "8O", "7O", "6O", "5O", "4O"]
EVEN_PILE = ["16", "KC", "QC", "HC", "MC", "10C", "9C", "8C", "7C", "6C", "5C"]  # the last trick, no points


def sicilian_expected() -> dict[str, int]:
    deck = sicilian_cards.DECK
    g = get_game("sicilian")
    out = value_groups(deck, {"20-1-F": ["20", "1", "F"], "16-19": ["16", "17", "18", "19"],
                              "K": [f"K{s}" for s in "COSB"], "Q": [f"Q{s}" for s in "COSB"],
                              "H": [f"H{s}" for s in "COSB"], "M": [f"M{s}" for s in "COSB"]})
    total = deck.points(deck.full) + sicilian_cards.LAST_TRICK_BONUS
    assert total == sicilian_cards.TOTAL_POINTS and cal.LINE == total // 2 + 1  # a majority of 109
    hands = {n: (deck.size - sicilian.MONTE_SIZE) // n for n in (3, 4)}
    dealt = sicilian.Deal(4, 0, list(range(deck.size)))
    assert dealt.hand_size(1) == 5  # four seats speak on five cards first (R7)
    out |= {"deck": deck.size, "total": total, "line": cal.LINE, "last-trick": sicilian_cards.LAST_TRICK_BONUS,
            "monte": sicilian.MONTE_SIZE, "discard": g.discard_rule.size, "hand-3": hands[3], "hand-4": hands[4],
            "three-example": deck.points(deck.mask_of(["20", "9", "6"])),
            "maid-alone": deck.points(deck.mask_of(["MC"])),
            "maid-small": deck.points(deck.mask_of(["MC", "5S"]))}
    three = sicilian_count(3, None, False, EXAMPLE_PILE, {"1", "17"}, {"18"})
    jochi = sorted((j.name, j.side, j.card) for j in three.jochi)
    assert jochi == sorted([("rimatura", "bidder", None), ("vanto", "bidder", None), ("pigliata", "bidder", "1"),
                            ("pigliata", "bidder", "17"), ("pigliata", "others", "18")]), jochi
    stata = sicilian_count(3, None, True, EXAMPLE_PILE, {"1", "17"}, {"18"})
    alone = sicilian_count(4, None, False, EXAMPLE_PILE, {"1", "17"}, {"18"})
    pair = sicilian_count(4, 3, False, EXAMPLE_PILE, {"1", "17"}, {"18"})
    assert pair.payments[3] == pair.payments[1] and pair.payments[2] == pair.payments[0]
    even = sicilian_count(3, None, False, EVEN_PILE, set(), set(), fool_by_bidder=False)
    assert sorted((j.name, j.side) for j in even.jochi) == [("rimatura", "others"), ("vanto", "bidder")]
    assert even.payments == [0, 0, 0]
    out |= {"ex-bidder-jochi": sum(j.value for j in three.jochi if j.side == "bidder"),
            "ex-others-jochi": sum(j.value for j in three.jochi if j.side == "others"),
            "ex-net": three.net,
            "ex-solo3": three.payments[1], "ex-solo3-opp": three.payments[0],
            "ex-stata": stata.payments[1], "ex-stata-opp": stata.payments[0],
            "ex-alone4": alone.payments[1], "ex-alone4-opp": alone.payments[0],
            "ex-partner": pair.payments[1], "ex-partner-opp": pair.payments[0],
            "ex-even-net": even.net}
    return out


# Renaissance: the rulings' worked example, counted by the engine's deck (A4, A15, A17).

REN_COUNTING = {"lucia": ["KS", "KB", "21", "1", "QS", "QC", "HO", "MB"],
                "bartolo": ["F", "KO", "QO", "HS", "HB", "MS", "MC"],
                "cecco": ["KC", "QB", "HC", "MO"]}
REN_ONES = {"lucia": 25, "bartolo": 17, "cecco": 17}


def renaissance_expected() -> dict[str, int]:
    deck = ren.DECK
    g = get_game("renaissance")
    out = value_groups(deck, {"K": [f"K{s}" for s in "COSB"], "21-1-F": ["21", "1", "F"],
                              "Q": [f"Q{s}" for s in "COSB"], "H": [f"H{s}" for s in "COSB"],
                              "M": [f"M{s}" for s in "COSB"]})
    ones = [c for c in deck.codes if deck.values[deck.card(c)] == 1]
    counting = {c for c in deck.codes if deck.values[deck.card(c)] >= 2}
    assert counting == {c for cs in REN_COUNTING.values() for c in cs}  # the example holds them all
    assert len(ones) == sum(REN_ONES.values())
    scores = []
    for name, cs in REN_COUNTING.items():
        mine, ones = ones[:REN_ONES[name]], ones[REN_ONES[name]:]
        pile = deck.mask_of(cs + mine)
        n = pile.bit_count()
        points = deck.points(pile)
        assert points == deck.value(pile) - 2 * (n // 3) and n % 3 == 0
        scores.append(points - ren.SHARE)
        out |= {f"{name}-cards": n, f"{name}-counting": deck.value(deck.mask_of(cs)), f"{name}-ones": REN_ONES[name],
                f"{name}-sum": deck.value(pile), f"{name}-threes": n // 3, f"{name}-points": points,
                f"{name}-score": points - ren.SHARE}
    out |= {"deck": deck.size, "total": deck.points(deck.full), "share": ren.SHARE, "hand": ren.HAND,
            "dealer-hand": ren.HAND + g.discard_rule.size, "discard": g.discard_rule.size, "tricks": ren.TRICKS,
            "count-king": deck.points(deck.mask_of(["KC", "5S", "7B"])),
            "count-plain": deck.points(deck.mask_of(["2C", "3C", "4C"])),
            "score-sum": sum(scores)}
    assert out["total"] == 3 * ren.SHARE
    return out


# Calabresella: the rulings' worked example, played to its count by the engine (C17, C18, C22).

CAL_CH = ["20", "1", "19", "18", "KC", "KS", "QO", "HB"]


def calabresella_count(challenger_counting: list[str]):
    deck = cal.DECK
    d = cal.Deal(3, 0, list(range(deck.size)))
    for word in ("vado solo", "sta bene", "sta bene"):  # seat 1 bids, seats 2 and 0 accept
        d.apply(word)
    assert d.challenger == 1
    blanks = [c for c in range(deck.size) if not cal.COUNTING >> c & 1]
    assert len(blanks) == 40
    ch = deck.mask_of(challenger_counting) | sum(1 << c for c in blanks[:25])
    monte = sum(1 << c for c in blanks[:3])  # three blanks laid back, won with the last trick
    opp = deck.full & ~ch
    d.won = [opp & ~cal.FOOL_BIT, ch & ~monte, 0]
    d.tricks_won = [10, 10, 0]
    d.monte = monte
    d.fool_by, d.fool_to = 0, 0  # an opponent played the Fool into its own side's trick
    d.last_trick = (2, [], 1)  # seat 1 won the last trick
    d._count()
    return d.count


def calabresella_expected() -> dict[str, int]:
    deck = cal.DECK
    out = value_groups(deck, {"20-1-F": ["20", "1", "F"], "16-19": ["16", "17", "18", "19"],
                              "K": [f"K{s}" for s in "COSB"], "Q": [f"Q{s}" for s in "COSB"],
                              "H": [f"H{s}" for s in "COSB"], "M": [f"M{s}" for s in "COSB"]})
    out |= {"deck": deck.size, "total": sicilian_cards.TOTAL_POINTS, "line": cal.LINE, "target": cal.TARGET,
            "hand": cal.HAND, "monte": cal.MONTE, "tricks": cal.TRICKS, "last-trick": sicilian_cards.LAST_TRICK_BONUS,
            "counting": cal.COUNTING.bit_count()}
    assert deck.points(deck.full) + sicilian_cards.LAST_TRICK_BONUS == sicilian_cards.TOTAL_POINTS
    assert cal.Deal(3, 0, list(range(deck.size))).hand_size(1) == cal.HAND
    plain = cal.Count.thrown()
    mult = {"cappotto": 0, "stramazzo": 0}
    for kind in mult:
        plain.cappotto, plain.stramazzo = (0, -1) if kind == "cappotto" else (0, 0)
        mult[kind] = plain.multiplier
    out |= {"mult-cappotto": mult["cappotto"], "mult-stramazzo": mult["stramazzo"]}
    for bid, name in ((cal.CHIAMO, "chiamo"), (cal.VADO_SOLO, "solo"), (cal.SOLISSIMO, "solissimo"),
                      (cal.DIVIDETE, "dividete"), (cal.SCEGLIETE, "scegliete")):
        s = cal.STAKE[bid]
        out |= {f"stake-{name}": s, f"half-{name}": s // 2}
        for kind, m in mult.items():  # the challenger's stake and each opponent's half, multiplied (C19)
            out |= {f"{kind}-{name}": s * m, f"{kind}-half-{name}": s * m // 2}
    won = calabresella_count(CAL_CH)
    assert won.won and won.monte_to == 0 and won.fool_to == 1
    ch, op = won.piles
    for side, pile, pts in (("ch", ch, won.points[0]), ("op", op, won.points[1])):
        n = pile.bit_count()
        out |= {f"ex-{side}-cards": n, f"ex-{side}-counting": deck.value(pile & cal.COUNTING),
                f"ex-{side}-blanks": (pile & ~cal.COUNTING).bit_count(), f"ex-{side}-sum": deck.value(pile),
                f"ex-{side}-less": -batch_less(n, 3), f"ex-{side}-points": pts}
        assert pts == deck.value(pile) - batch_less(n, 3) + (sicilian_cards.LAST_TRICK_BONUS if side == "ch" else 0)
    out |= {"ex-win-ch": won.payments[1], "ex-win-op": won.payments[0]}
    assert won.payments[2] == won.payments[0] and sum(won.payments) == 0
    lost = calabresella_count([c for c in CAL_CH if c != "QO"])
    assert not lost.won
    out |= {"ex2-ch-points": lost.points[0], "ex2-op-points": lost.points[1],
            "ex2-ch": lost.payments[1], "ex2-op": lost.payments[0]}
    return out


# Ottocento: no engine yet; a count built from its rulings (B4, B10, B11, B18, B24, B27).

OTTO_VALUES = {**{c: 5 for c in ("20", "19", "0", "F", "KC", "KO", "KS", "KB")},
               **{f"Q{s}": 4 for s in "COSB"}, **{f"H{s}": 3 for s in "COSB"}, **{f"M{s}": 2 for s in "COSB"},
               **{str(n): 1 for n in range(1, 19) if n != 19},
               **{f"{r}{s}": 1 for r in ("10", "9", "8", "7", "6", "1") for s in "COSB"}}
OTTO_CRICCHE = {"tarocchi": (18, 36), "kings": (17, 34), "queens": (14, 28), "cavalli": (13, 26), "fanti": (12, 24)}
OTTO_PILE_A = (["20", "19", "18", "17", "16", "15", "14", "13", "0", "F", "KC", "KO", "KS", "KB", "QC", "HC", "MO",
                "1C", "1O", "1S"]
               + [f"{n}C" for n in (6, 7, 8, 9)] + [f"{n}{s}" for s in "OS" for n in (6, 7, 8, 9, 10)])
OTTO_PILE_B = (["12", "11", "10", "9", "8", "7", "6", "5", "1", "2", "3", "4", "QO", "QS", "QB", "HO", "HS", "HB",
                "MC", "MS", "MB", "10C", "1B"] + [f"{n}B" for n in (6, 7, 8, 9, 10)])


def otto_seq(cards: int) -> int:
    """B11: 10 for three cards, 5 for each card beyond."""
    assert cards >= 3
    return 10 + 5 * (cards - 3)


def otto_score(cricche: list[int], sequences: list[int]) -> int:
    """B18: 3 or more cricche double the cricche points; 3 or more sequences the sequences'."""
    return sum(cricche) * (2 if len(cricche) >= 3 else 1) + sum(sequences) * (2 if len(sequences) >= 3 else 1)


def otto_card_points(pile: list[str]) -> int:
    """B4: the values less 1 for each pair."""
    assert len(pile) % 2 == 0
    return sum(OTTO_VALUES[c] for c in pile) - len(pile) // 2


def ottocento_expected() -> dict[str, int]:
    deck = list(OTTO_VALUES)
    assert len(deck) == 62
    a, b = set(OTTO_PILE_A), set(OTTO_PILE_B)
    assert len(a) == len(OTTO_PILE_A) and len(b) == len(OTTO_PILE_B) and not a & b and a | b == set(deck)
    # what the example's pile combinations stand on
    assert {"20", "19", "0", "F", "KC", "KO", "KS", "KB"} <= a
    assert {"1", "2", "3", "4"} <= b and sum(f"Q{s}" in b for s in "COSB") == 3
    assert {"QC", "HC", "MO", "1C", "1O", "1S"} <= a
    total = otto_card_points(deck) + 6
    cr = OTTO_CRICCHE
    decl = [otto_score([cr["tarocchi"][0], cr["kings"][0]], [otto_seq(4)]),  # seat 0
            otto_score([], [otto_seq(4)]),  # seat 1: Moors 1 2 3 and the Bégato
            0,
            otto_score([cr["queens"][1], cr["cavalli"][0], cr["fanti"][0]], [])]  # seat 3
    pile_a = otto_score([cr["tarocchi"][1], cr["kings"][1]], [otto_seq(10), otto_seq(6), otto_seq(5), otto_seq(5)])
    pile_b = otto_score([cr["queens"][0], cr["cavalli"][0], cr["fanti"][0]], [otto_seq(4)])
    cards_a, cards_b = otto_card_points(OTTO_PILE_A), otto_card_points(OTTO_PILE_B)
    out = {"deck": 62, "total": total, "last-trick": 6, "target": 800, "hand": 15, "dealer-hand": 17, "discard": 2,
           "points-5": 5, "points-Q": 4, "points-H": 3, "points-M": 2, "points-other": 1,
           "seq-3": otto_seq(3), "seq-extra": otto_seq(4) - otto_seq(3),
           "decl-0": decl[0], "decl-1": decl[1], "decl-3": decl[3],
           "decl-A": decl[0] + decl[2], "decl-B": decl[1] + decl[3],
           "pile-A-cards": len(OTTO_PILE_A), "pile-B-cards": len(OTTO_PILE_B),
           "pile-A": pile_a, "pile-B": pile_b, "cards-A": cards_a, "cards-B": cards_b,
           "hand-A": decl[0] + decl[2] + pile_a + cards_a + 6, "hand-B": decl[1] + decl[3] + pile_b + cards_b}
    assert cards_a + cards_b + 6 == total
    for kind, (three, four) in OTTO_CRICCHE.items():
        out |= {f"cr-{kind}-3": three, f"cr-{kind}-4": four}
    return out


EXPECTED = {"sicilian": sicilian_expected, "renaissance": renaissance_expected,
            "calabresella": calabresella_expected, "ottocento": ottocento_expected}


def test_every_game_with_pages_has_its_figures_checked():
    assert set(GAMES) <= set(EXPECTED)


@pytest.mark.parametrize("game,lang", PAGES)
def test_the_marked_figures_are_the_engines(game, lang):
    expected = EXPECTED[game]()
    assert all(v is not None for v in expected.values()), {k: v for k, v in expected.items() if v is None}
    got = read(game, lang).values()
    assert set(got) == set(expected), (f"marks missing: {sorted(set(expected) - set(got))}; "
                                       f"unchecked marks: {sorted(set(got) - set(expected))}")
    wrong = {name: (nums, expected[name]) for name, nums in got.items() if any(n != expected[name] for n in nums)}
    assert not wrong, wrong


def test_the_twins_mark_the_same_figures():
    for game in GAMES:
        en, it = read(game, "en").values(), read(game, "it").values()
        assert {k: len(v) for k, v in en.items()} == {k: len(v) for k, v in it.items()}, game


# The worked examples are the rulings' own: where the rulings sit beside this checkout, their
# bold figures are the ones the pages quote.
RULINGS_FIGURES = {
    "RENAISSANCE.md": ("A17", {"lucia-points": 36, "lucia-score": 10, "bartolo-points": 25, "bartolo-score": -1,
                               "cecco-points": 17, "cecco-score": -9}),
    "CALABRESELLA.md": ("C22", {"ex-ch-points": 55, "ex-op-points": 54, "ex-win-ch": 4, "ex-win-op": -2,
                                "ex2-ch-points": 52, "ex2-op-points": 57}),
    "OTTOCENTO.md": ("B27", {"decl-0": 50, "decl-1": 15, "decl-3": 106, "pile-A": 290, "pile-B": 93,
                             "hand-A": 401, "hand-B": 246}),
}


@pytest.mark.parametrize("name", sorted(RULINGS_FIGURES))
def test_the_examples_are_the_rulings_examples(name):
    path = RULES / name
    if not path.is_file():
        pytest.skip(f"{path} is not beside this checkout")
    text = path.read_text(encoding="utf-8")
    ruling, figures = RULINGS_FIGURES[name]
    section = text[text.index(f"**{ruling}."):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    bold = {int(m.replace("+", "")) for m in re.findall(r"\*\*([+-]?\d+)\*\*", section)}
    game = {"RENAISSANCE.md": "renaissance", "CALABRESELLA.md": "calabresella", "OTTOCENTO.md": "ottocento"}[name]
    expected = EXPECTED[game]()
    for mark, value in figures.items():
        assert expected[mark] == value, (mark, expected[mark], value)
        assert abs(value) in {abs(b) for b in bold}, f"{ruling} does not give {value} in bold"
