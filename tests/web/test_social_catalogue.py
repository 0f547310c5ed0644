"""The catalogue of friends, challenges and the bell (tarocchi/web/static/social.i18n.js, issue
58): English and Italian say the same things, every key social.js asks for exists, and every
refusal tarocchi/server/social.py gives has its Italian words. No browser needed: the files are
read as text."""

from __future__ import annotations

import re

from tarocchi.server import social
from tests.browser.test_catalogue import STATIC, block, reason_constants

SOURCE = (STATIC / "social.i18n.js").read_text(encoding="utf-8")
CODE = (STATIC / "social.js").read_text(encoding="utf-8")


def own(lang: str) -> dict[str, str]:
    start = SOURCE.index(f"  {lang}: {{")
    end = SOURCE.index("\n  },", start)
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', SOURCE[start:end]))


def own_account() -> dict[str, str]:
    text = (STATIC / "account.i18n.js").read_text(encoding="utf-8")
    start = text.index("  en: {")
    end = text.index("\n  },", start)
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', text[start:end]))


def test_english_and_italian_say_the_same_things():
    en, it = own("en"), own("it")
    assert len(en) > 50 and set(en) == set(it)
    assert all(it[k].strip() and k.startswith("soc.") for k in it)
    # The same {placeholders} in both: a line never shows a raw "{name}".
    for key in en:
        assert set(re.findall(r"\{\w+\}", en[key])) == set(re.findall(r"\{\w+\}", it[key])), key


def test_every_key_social_js_asks_for_exists():
    keys = set(own("en")) | set(block("en")) | set(own_account())
    used = set(re.findall(r'\b(?:t|tn)\("([a-z_.]+)"', CODE)) | set(re.findall(r'"(soc\.[a-z_.]+)"', CODE))
    used |= {f"soc.{w}" for w in ("accept", "decline", "cancel")}  # (the answers' buttons: t(`soc.${what}`))
    assert len(used) > 40
    assert sorted(used - keys) == []


def test_every_refusal_of_the_social_routes_is_translated():
    italian = set(re.findall(r'"((?:[^"\\]|\\.)+)":', SOURCE[SOURCE.index("  reasons: {"):]))
    # (the bad bodies' words, written in the routes themselves: still the server's words)
    inline = {"name at most one player for each other seat", "each player is named once",
              "a challenge has a turn clock or days a move, not both"}
    server = (STATIC.parent.parent / "server" / "social.py").read_text(encoding="utf-8")
    assert all(f'"{said}"' in server for said in inline)
    reasons = (reason_constants(social) - {social.SIGNED_OUT}) | inline  # (the accounts' catalogue has SIGNED_OUT)
    assert social.CANNOT_CHALLENGE in reasons and social.FOLLOWS_FULL in reasons
    assert sorted(reasons - italian) == []


def test_every_kind_of_bell_item_the_protocol_names_has_its_own_line():
    """docs/protocol.md's bell (GET /api/me/bell) names each kind of item; the bell panel says
    each in its own words, not "Something new on your account" (a tournament's three, issue 59:
    its table ready opens the seat, its start and end its page)."""
    docs = (STATIC.parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    row = next(line for line in docs.splitlines() if line.startswith("| `GET /api/me/bell`"))
    kinds = set(re.findall(r"`([a-z_]+)` \(", row[row.index("Kinds:"):]))
    assert {"challenge", "rated", "warning", "turn", "started", "tournament"} <= kinds
    handled = set(re.findall(r'case "([a-z_]+)":', CODE[CODE.index("function itemText"):]))
    assert sorted(kinds - handled) == []
    tournament = CODE[CODE.index('case "tournament"'):]
    tournament = tournament[:tournament.index("\n    }\n")]
    for key in ("soc.bell.tournament.table", "soc.bell.tournament.started", "soc.bell.tournament.finished"):
        assert f'"{key}"' in tournament and own("en")[key] and own("it")[key]
    assert "link: d.link" in tournament and "/tournament/${encodeURIComponent(" in tournament
