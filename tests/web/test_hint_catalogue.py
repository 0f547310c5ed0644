"""hint.js's own catalogue (issue 21): English and Italian say the same things, every key it
asks for exists, and every refusal of server/advice.py is translated by its id. Read as text."""

from __future__ import annotations

import re
from pathlib import Path

from tarocchi.engine.game import Reason
from tarocchi.server import advice

SOURCE = (Path(__file__).resolve().parents[2] / "tarocchi" / "web" / "static" / "hint.js").read_text(encoding="utf-8")
ENTRY = r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"'


def block(start: str, end: str = "\n  },") -> dict[str, str]:
    at = SOURCE.index(start)
    return dict(re.findall(ENTRY, SOURCE[at:SOURCE.index(end, at)]))


def test_english_and_italian_have_the_same_keys_and_every_key_used_exists():
    en, it = block("  en: {"), block("  it: {")
    assert len(en) > 30 and set(en) == set(it)
    assert all(it[k].strip() for k in it)
    # Translated, bar the game's own words (A monte, Monte, jochi), the same in both languages.
    same = {k for k in en if en[k] == it[k]}
    assert same == {"advice.when.monte", "advice.when.take", "advice.unit.sicilian", "advice.unit.sicilian.one",
                    "advice.unit"}, same
    used = set(re.findall(r'\b(?:t|tn)\("([a-z_.]+)"', SOURCE))
    # Keys made from a game, a phase or a table setting: "advice.unit.<game>", "advice.when.<phase>".
    used |= {k for k in en if re.match(r"advice\.(unit|when|hints)\.", k)}
    assert used and sorted(used - set(en)) == []


def test_every_refusal_of_the_advice_is_translated_by_its_id():
    ids = {v.id: str(v) for v in vars(advice).values() if isinstance(v, Reason)}
    assert {"hints_off", "hint_not_now", "review_not_now", "too_many_advice"} <= set(ids)
    italian = dict(re.findall(r'(\w+): "([^"]+)"', SOURCE[SOURCE.index("Object.assign(REASON_IDS.it"):]
                              .split("});")[0]))
    assert set(italian) == set(ids)
    ours = re.search(r"const OURS = new Set\(\[([^\]]+)\]\)", SOURCE).group(1)
    assert set(re.findall(r'"(\w+)"', ours)) == set(ids)
