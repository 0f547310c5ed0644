"""The lobby's catalogue (tarocchi/web/static/lobby.i18n.js, issue 22): English and Italian
say the same things, every key lobby.js asks for exists, and every reason the lobby's server
side gives has its Italian text in i18n.js. No browser needed: the files are read as text."""

from __future__ import annotations

import re

from tarocchi.server import lobby, ratings
from tests.browser.test_catalogue import STATIC, block, reason_constants

SOURCE = (STATIC / "lobby.i18n.js").read_text(encoding="utf-8")


def own(lang: str) -> dict[str, str]:
    start = SOURCE.index(f"  {lang}: {{")
    end = SOURCE.index("\n  },", start)
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', SOURCE[start:end]))


def test_english_and_italian_say_the_same_things():
    en, it = own("en"), own("it")
    assert len(en) > 25 and set(en) == set(it)
    assert all(it[k].strip() and k.startswith("pub.") for k in it)


def test_every_key_lobby_js_asks_for_exists():
    keys = set(own("en")) | set(block("en"))
    code = (STATIC / "lobby.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\b(?:t|tn)\("([a-z_.]+)"', code)) | set(re.findall(r'"(pub\.[a-z_.]+)"', code))
    assert len(used) > 15
    assert sorted(used - keys) == []


def test_every_lobby_reason_is_translated():
    italian = block("REASONS_IT")
    reasons = reason_constants(lobby) | {ratings.PAUSED}  # (a leaver's pause refuses a lobby seat: issue 56)
    assert {"that seat was just taken", "this table has no free seat any more"} <= reasons
    assert sorted(reasons - set(italian)) == []
