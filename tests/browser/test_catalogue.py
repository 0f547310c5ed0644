"""The message catalogue (tarocchi/web/static/i18n.js): English and Italian say the same things,
every key the page asks for exists, and every reason the engine or the server gives is
translated by its exact English text. No browser needed: the file is read as text."""

from __future__ import annotations

import re
from pathlib import Path

from tarocchi.engine import sicilian, tricks
from tarocchi.server import app as server_app
from tarocchi.server import hub, messages, tables

STATIC = Path(__file__).resolve().parents[2] / "tarocchi" / "web" / "static"
SOURCE = (STATIC / "i18n.js").read_text(encoding="utf-8")
ENTRY = re.compile(r'^\s*"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)",?', re.M)


def block(name: str) -> dict[str, str]:
    start = SOURCE.index(f"const {name} = {{")
    end = SOURCE.index("\n};", start)
    body = SOURCE[start:end]
    # Several short entries may share a line ("rank.K": "King", "rank.Q": ...).
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', body))


def reason_constants(module) -> set[str]:
    """The plain-words reasons of a module: its upper-case string constants with a space."""
    return {v for k, v in vars(module).items() if k.isupper() and isinstance(v, str) and " " in v}


def test_english_and_italian_have_the_same_messages():
    en, it = block("en"), block("it")
    assert len(en) > 150
    assert set(en) == set(it)
    assert all(it[k].strip() for k in it)
    # The game's own words stay Italian in both languages.
    for key in ("hint.passo", "ev.contract.solo", "info.contract.solo"):
        assert en[key] != "" and it[key] != ""
    assert "vado solo" in en["info.contract.solo"] and "vado solo" in it["info.contract.solo"]
    assert "jochi" in en["table.jochi"] and "jochi" in it["table.jochi"]


def test_every_key_the_page_asks_for_exists():
    en = block("en")
    used = set()
    for name in ("app.js", "cards.js"):
        used |= set(re.findall(r'\bt\("([a-z_.]+)"', (STATIC / name).read_text(encoding="utf-8")))
    assert len(used) > 60
    assert sorted(used - set(en)) == []


def test_every_engine_and_server_reason_is_translated():
    italian = block("REASONS_IT")
    reasons = reason_constants(sicilian) | reason_constants(tricks)
    source = Path(sicilian.__file__).with_name("sicilian.py")  # the source, also when compiled
    reasons |= set(re.findall(r'_abandon\("([^"]+)"', source.read_text()))  # R6, R10
    reasons |= reason_constants(tables) | reason_constants(hub) | reason_constants(messages)
    reasons |= set(re.findall(r'"reason": "([^"]+)"', Path(server_app.__file__).read_text()))
    for must in ("follow the suit", "play a trump", "the Fool cannot lead", "nobody said altre cinque"):
        assert must in reasons
    missing = sorted(reasons - set(italian))
    assert missing == [], f"reasons without an Italian text: {missing}"
    assert all(italian[r] and italian[r] != r for r in reasons)
