"""The catalogue of accounts, profiles and leaderboards (tarocchi/web/static/account.i18n.js,
issue 40): English and Italian say the same things, every key account.js and players.js ask
for exists, and every reason the accounts' server side gives has its Italian text. No browser
needed: the files are read as text."""

from __future__ import annotations

import re

from tarocchi.server import accounts, origin
from tests.browser.test_catalogue import STATIC, block, reason_constants

SOURCE = (STATIC / "account.i18n.js").read_text(encoding="utf-8")
ENTRY = re.compile(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"')


def own(part: str) -> dict[str, str]:
    start = SOURCE.index(f"\n  {part}: {{")
    end = SOURCE.index("\n  },", start)
    return dict(ENTRY.findall(SOURCE[start:end]))


def reasons_it() -> dict[str, str]:
    start = SOURCE.index("\n  reasons: {")
    return dict(ENTRY.findall(SOURCE[start:SOURCE.index("\n  },", start)]))


def test_english_and_italian_say_the_same_things():
    en, it = own("en"), own("it")
    assert len(en) > 80 and set(en) == set(it)
    assert all(it[k].strip() and k.split(".")[0] in ("acct", "prof", "board", "rate") for k in it)
    # Placeholders: the same in both languages.
    for key in en:
        assert sorted(re.findall(r"\{\w+\}", en[key])) == sorted(re.findall(r"\{\w+\}", it[key])), key


def test_every_key_the_pages_ask_for_exists():
    keys = set(own("en")) | set(block("en"))
    used = set()
    for name in ("account.js", "players.js"):
        code = (STATIC / name).read_text(encoding="utf-8")
        used |= set(re.findall(r'\b(?:t|tn)\("([a-z_.]+)"', code))
        used |= set(re.findall(r'"((?:acct|prof|board|rate)\.[a-z_.]+)"', code))
    # (built keys: a failure page's "<what>.missing" and "<what>.missing.more")
    used |= {f"{what}.missing{more}" for what in ("prof", "board") for more in ("", ".more")}
    assert len(used) > 60
    assert sorted(used - keys) == []


def test_every_accounts_reason_is_translated():
    italian = reasons_it()
    reasons = reason_constants(accounts) | reason_constants(origin)
    assert {"that name is taken", "that name and password do not match an account"} <= reasons
    assert sorted(reasons - set(italian)) == []
    assert all(italian[r].strip() and italian[r] != r for r in reasons)
