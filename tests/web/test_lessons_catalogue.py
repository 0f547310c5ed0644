"""Learn to play's catalogue (tarocchi/web/static/lessons.i18n.js, issue 42): English and
Italian say the same things, and every key lessons.js asks for exists. Each lesson's own texts
are checked with its data (tests/games/test_lessons.py). No browser needed: read as text."""

from __future__ import annotations

import re

from tests.browser.test_catalogue import STATIC, block

SOURCE = (STATIC / "lessons.i18n.js").read_text(encoding="utf-8")


def own(lang: str) -> dict[str, str]:
    start = SOURCE.index(f"  {lang}: {{")
    end = SOURCE.index("\n  },", start)
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', SOURCE[start:end]))


def test_english_and_italian_say_the_same_things():
    en, it = own("en"), own("it")
    assert len(en) > 15 and set(en) == set(it)
    assert all(it[k].strip() and k.startswith("learn.") for k in it)


def test_every_key_lessons_js_asks_for_exists():
    keys = set(own("en")) | set(block("en"))
    code = (STATIC / "lessons.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([a-z_.]+)"', code))
    assert len(used) > 10
    assert sorted(used - keys) == []
