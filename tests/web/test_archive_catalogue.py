"""The catalogue of a player's games (tarocchi/web/static/archive.i18n.js, issue 58): English and
Italian say the same things, every key archive.js asks for exists (its own "arch." keys, or the
shared and account catalogues' it borrows), and every contract kind the server stores has its
words. No browser needed: the files are read as text."""

from __future__ import annotations

import random
import re

from tarocchi.engine.game import get_game
from tarocchi.engine.playout import play_out
from tarocchi.games.figures import deal_figures
from tests.browser.test_catalogue import STATIC, block
from tests.web.test_account_catalogue import own as account_own

SOURCE = (STATIC / "archive.i18n.js").read_text(encoding="utf-8")
CODE = (STATIC / "archive.js").read_text(encoding="utf-8")
ENTRY = re.compile(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"')


def own(part: str) -> dict[str, str]:
    start = SOURCE.index(f"\n  {part}: {{")
    end = SOURCE.index("\n  },", start)
    return dict(ENTRY.findall(SOURCE[start:end]))


def test_english_and_italian_say_the_same_things():
    en, it = own("en"), own("it")
    assert len(en) > 50 and set(en) == set(it)
    assert all(it[k].strip() and k.startswith("arch.") for k in it)
    for key in en:
        assert sorted(re.findall(r"\{\w+\}", en[key])) == sorted(re.findall(r"\{\w+\}", it[key])), key


def test_every_key_the_page_asks_for_exists():
    keys = set(own("en")) | set(block("en")) | set(account_own("en"))
    used = set(re.findall(r'\b(?:t|tn)\("([a-z_.]+)"', CODE)) | set(re.findall(r'"(arch\.[a-z_.]+)"', CODE))
    # (built keys: a role's line, a filter's choices)
    used |= {f"arch.role.{role}" for role in ("declarer", "partner")}
    assert len(used) > 30
    assert sorted(used - keys) == []


def test_every_contract_kind_has_its_words():
    """The kinds the games' figures give (games/figures.py), as archive.js looks them up."""
    kinds = set()
    for game, seats in (("sicilian", 3), ("sicilian", 4), ("calabresella", 3)):
        g = get_game(game)
        for n in range(300):
            rng = random.Random(n)
            kinds |= {f.contract for f in deal_figures(game, play_out(g.shuffled(seats, n % seats, rng), rng))}
    kinds.discard(None)
    assert {"stata", "chiamo", "solissimo"} <= kinds
    assert sorted(f"arch.kind.{k.replace(' ', '_')}" for k in kinds if f"arch.kind.{k.replace(' ', '_')}" not in own("en")) == []
