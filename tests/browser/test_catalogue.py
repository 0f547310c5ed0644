"""The message catalogue (tarocchi/web/static/i18n.js): English and Italian say the same things,
every key the page asks for exists, and every reason the engine or the server gives is
translated by its exact English text. No browser needed: the file is read as text."""

from __future__ import annotations

import re
from pathlib import Path

from tarocchi.engine import tricks
from tarocchi.engine.game import Reason
from tarocchi.games import sicilian
from tarocchi.server import app as server_app
from tarocchi.server import watch
from tarocchi.server.core import hub, messages, tables

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


def game_block(name: str, lang: str) -> dict[str, str]:
    """A game module's own keys (static/games/<name>.i18n.js), merged into the catalogue."""
    source = (STATIC / "games" / f"{name}.i18n.js").read_text(encoding="utf-8")
    start = source.index(f"  {lang}: {{")
    end = source.index("\n  },", start)
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', source[start:end]))


GAME_MODULES = sorted(p.name.removesuffix(".i18n.js") for p in (STATIC / "games").glob("*.i18n.js"))


def test_every_game_module_has_the_same_keys_in_both_languages():
    assert {"sicilian", "renaissance"} <= set(GAME_MODULES)
    for name in GAME_MODULES:
        en, it = game_block(name, "en"), game_block(name, "it")
        assert en and set(en) == set(it), name
        assert all(it[k].strip() for k in it)


def test_every_key_the_page_asks_for_exists():
    en = dict(block("en")) | replay_block("en")
    for name in GAME_MODULES:
        en.update(game_block(name, "en"))
    used = set()
    sources = [STATIC / "app.js", STATIC / "cards.js", STATIC / "lines.js", STATIC / "offline.js"] + sorted((STATIC / "games").glob("*.js"))
    for path in sources:
        used |= set(re.findall(r'\b(?:t|tn|tSeat|gt)\("([a-z_.]+)"', path.read_text(encoding="utf-8")))
    assert len(used) > 60
    assert sorted(used - set(en)) == []


def replay_block(lang: str) -> dict[str, str]:
    """replay.js's own keys (watching, looking back), merged into the catalogue when it loads."""
    source = (STATIC / "replay.js").read_text(encoding="utf-8")
    start = source.index(f"const {lang} = {{")
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', source[start:source.index("\n};", start)]))


def test_the_replay_module_has_its_keys_in_both_languages_and_asks_for_no_other():
    en, it = replay_block("en"), replay_block("it")
    assert en and set(en) == set(it) and all(v.strip() for v in it.values())
    used = set(re.findall(r'\bt\("([a-z_.]+)"', (STATIC / "replay.js").read_text(encoding="utf-8")))
    assert sorted(used - set(en) - set(block("en"))) == []


def test_every_engine_and_server_reason_is_translated():
    italian = block("REASONS_IT")
    reasons = reason_constants(sicilian) | reason_constants(tricks)
    source = Path(sicilian.__file__).with_name("sicilian.py")  # the source, also when compiled
    reasons |= set(re.findall(r'_abandon\("([^"]+)"', source.read_text()))  # R6, R10
    reasons |= reason_constants(tables) | reason_constants(hub) | reason_constants(messages) | reason_constants(watch)
    reasons |= set(re.findall(r'"reason": "([^"]+)"', Path(server_app.__file__).read_text()))
    for must in ("follow the suit", "play a trump", "the Fool cannot lead", "nobody said altre cinque"):
        assert must in reasons
    missing = sorted(reasons - set(italian))
    assert missing == [], f"reasons without an Italian text: {missing}"
    assert all(italian[r] and italian[r] != r for r in reasons)


def reason_ids() -> dict[str, str]:
    """Every refusal id a game, the engine or the table gives: the ``Reason("id", "text")``
    constants of tarocchi/games/*.py, tarocchi/engine/*.py (read as source, also when compiled)
    and tarocchi/server/tables.py (an act for a turn that is over), and the ids a game builds in
    a loop (``REASONS`` of a game module, e.g. Renaissance's follow_cups). (The advice's ids are
    hint.js's: tests/web/test_hint_catalogue.py.)"""
    import importlib

    import tarocchi.engine
    import tarocchi.games

    ids: dict[str, str] = {}
    for package in (tarocchi.games, tarocchi.engine):
        folder = Path(package.__file__).parent
        for source in sorted(folder.glob("*.py")):
            text = source.read_text(encoding="utf-8")
            if source.name == "game.py":
                text = text.split('"""', 2)[-1]  # its docstring's example is not a refusal
            ids.update(re.findall(r'Reason\(\s*"([a-z0-9_]+)",\s*"([^"]+)"', text))
            # an id whose text is made at the time (Reason("not_an_action", str(e)))
            ids.update({i: "" for i in re.findall(r'Reason\(\s*"([a-z0-9_]+)",\s*[^"\s]', text) if i not in ids})
            if source.stem != "__init__":
                module = importlib.import_module(f"{package.__name__}.{source.stem}")
                if isinstance(getattr(module, "REASONS", None), dict):
                    for k, v in module.REASONS.items():
                        # The client's catalogue is one for all games: an id means one thing.
                        assert ids.get(k) in (None, "", v), f"reason id {k!r} says {ids[k]!r} and {v!r}"
                        ids[k] = v
    ids.update({v.id: str(v) for v in vars(tables).values() if isinstance(v, Reason)})
    return ids


def test_every_reason_id_is_translated():
    """A refusal with an id is translated by the id (app.js reason(text, id)): every id a game
    gives has Italian text, and the catalogue holds no id that no game gives."""
    italian = block("REASON_IDS_IT")
    ids = reason_ids()
    for must in ("play_trump", "follow_cups", "follow_pentacles", "follow_swords", "follow_wands",
                 "discard_forbidden", "discard_fallback", "not_an_action"):
        assert must in ids, sorted(ids)
    missing = sorted(set(ids) - set(italian))
    assert missing == [], f"reason ids without an Italian text: {missing}"
    assert sorted(set(italian) - set(ids)) == [], "ids in the catalogue that no game gives"
    assert all(italian[i].strip() and italian[i] != ids[i] for i in ids)
