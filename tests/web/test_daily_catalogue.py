"""The daily deal's catalogue (tarocchi/web/static/daily.i18n.js, issue 59): English and Italian say
the same things, every key daily.js asks for exists, and the refusals of the daily routes have
their Italian. No browser needed: the files are read as text."""

from __future__ import annotations

import re

from tarocchi.server import daily
from tests.browser.test_catalogue import STATIC, block, reason_constants

SOURCE = (STATIC / "daily.i18n.js").read_text(encoding="utf-8")


def own(lang: str) -> dict[str, str]:
    start = SOURCE.index(f"  {lang}: {{")
    end = SOURCE.index("\n  },", start)
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', SOURCE[start:end]))


def test_english_and_italian_say_the_same_things():
    en, it = own("en"), own("it")
    assert len(en) > 30 and set(en) == set(it)
    assert all(it[k].strip() and k.startswith("daily.") for k in it)
    # The same placeholders on both sides.
    assert all(set(re.findall(r"\{\w+\}", en[k])) == set(re.findall(r"\{\w+\}", it[k])) for k in en)


def test_every_key_daily_js_asks_for_exists():
    keys = set(own("en")) | set(block("en")) | set(re.findall(r'"((?:acct|rate)\.[a-z_.]+)":', (STATIC / "account.i18n.js").read_text(encoding="utf-8")))
    code = (STATIC / "daily.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\b(?:t|tn)\("([a-z_.]+)"', code)) | set(re.findall(r'"(daily\.[a-z_.]+)"', code))
    assert len(used) > 20
    assert sorted(used - keys) == []


def test_every_refusal_of_the_daily_routes_is_translated():
    italian = dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', SOURCE[SOURCE.index("  reasons:"):]))
    assert {daily.ALREADY_PLAYED, daily.NO_DAILY} <= reason_constants(daily)
    assert sorted(reason_constants(daily) - set(italian)) == []
