"""One name for one thing (issue 57), read from the catalogues and the rules pages as text (no
browser): the Sicilian pack's Fool is "il Fuggitivo" in Italian wherever a Sicilian or a
Calabresella (Sicilian cards, seed 003) table says it, Renaissance and Ottocento keep "il Matto";
the lobby is "la sala", a room "la stanza"; a network failure and the notification switch's
failures have words of their own in both languages."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import tarocchi.games
from tests.browser.test_catalogue import STATIC, block, game_block

ACCOUNT = (STATIC / "account.i18n.js").read_text(encoding="utf-8")
LOBBY = (STATIC / "lobby.i18n.js").read_text(encoding="utf-8")
GAMES = Path(tarocchi.games.__file__).parent


def own(source: str, lang: str) -> dict[str, str]:
    start = source.index(f"  {lang}: {{")
    end = source.index("\n  },", start)
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', source[start:end]))


def reason_ids(*modules: str) -> set[str]:
    """The refusal ids the games give (``Reason("id", ...)`` in their sources, and a module's
    REASONS: Sicilian's)."""
    ids: set[str] = set()
    for name in modules:
        text = (GAMES / f"{name}.py").read_text(encoding="utf-8")
        ids |= set(re.findall(r'Reason\(\s*"([a-z0-9_]+)"', text))
        ids |= set(getattr(importlib.import_module(f"tarocchi.games.{name}"), "REASONS", {}))
    return ids


def test_a_sicilian_pack_table_says_fuggitivo_never_matto():
    # The shared catalogue's own keys are a Sicilian table's (other games prefix theirs), and a
    # Calabresella table falls back to them: none says Matto.
    shared = {k: v for k, v in block("it").items() if not k.startswith(("ren.", "ott.", "cal."))}
    assert "Fuggitivo" in shared["table.fool"] and "Fuggitivo" in shared["ask.scommessa"]
    assert shared["played.fool"] == "Fuggitivo"
    assert [k for k, v in shared.items() if "Matto" in v] == []
    for name in ("sicilian", "calabresella"):
        assert [k for k, v in game_block(name, "it").items() if "Matto" in v] == [], name
    # The engine's refusals at those tables, by their English text and by their ids.
    reasons = block("REASONS_IT")
    assert reasons["the Fool cannot lead"] == "il Fuggitivo non può uscire"
    assert [r for r, v in reasons.items() if "Fool" in r and "Matto" in v] == []
    by_id = block("REASON_IDS_IT")
    ids = reason_ids("sicilian", "calabresella")
    assert {"fool_cannot_lead", "lay_forbidden", "scommessa_needs"} <= ids
    assert [i for i in ids if "Matto" in by_id.get(i, "")] == []
    # The rules pages: one name (the status line's words quoted there too).
    for page in ("sicilian", "calabresella"):
        text = (STATIC / "help" / f"{page}.it.html").read_text(encoding="utf-8")
        assert "Matto" not in text and "il Fuggitivo non può uscire" in text, page


def test_the_renaissance_and_ottocento_packs_keep_matto():
    assert game_block("renaissance", "it")["ren.played.fool"] == "Matto"
    assert game_block("ottocento", "it")["ott.played.fool"] == "Matto"
    by_id = block("REASON_IDS_IT")
    for i in reason_ids("renaissance", "ottocento"):
        assert "Fuggitivo" not in by_id.get(i, ""), i
    assert "Matto" in by_id["discard_forbidden"] and "Matto" in by_id["volo_fool"]
    for page in ("renaissance", "ottocento"):
        text = (STATIC / "help" / f"{page}.it.html").read_text(encoding="utf-8")
        assert "Fuggitivo" not in text and "il Matto" in text, page


def test_the_lobby_is_la_sala_and_a_room_la_stanza():
    italian = [block("it"), own(ACCOUNT, "it"), own(LOBBY, "it"), block("REASONS_IT")]
    said = [v for catalogue in italian for v in catalogue.values()]
    assert [v for v in said if "ingresso" in v] == []
    assert block("it")["conn.lobby"] == own(ACCOUNT, "it")["acct.lobby"] == "Torna alla sala"
    # "sala" is the lobby alone: a room that starts is "una stanza".
    assert "comincia una stanza" in own(ACCOUNT, "it")["acct.notify.help"]
    assert [v for v in said if re.search(r"\buna sala\b", v)] == []


def test_a_network_failure_and_the_notification_switch_say_it_in_both_languages():
    for lang in ("en", "it"):
        main, account = block(lang), own(ACCOUNT, lang)
        # never "the server says" for a server that was not reached
        assert main["lobby.unreachable"] and "{reason}" not in main["lobby.unreachable"]
        assert main["lobby.unreachable"] != main["lobby.error"].replace("{reason}", "")
        for key in ("status.offline.turn", "status.offline.waits"):
            assert main[key].strip(), key
        for key in ("acct.notify.denied", "acct.notify.slow", "acct.notify.failed"):
            assert account[key].strip(), key
        assert own(LOBBY, lang)["pub.take.signin"].strip()
    assert "connessione" in block("it")["lobby.unreachable"]
    assert "10 secondi" in own(ACCOUNT, "it")["acct.notify.slow"]
    # The time limit the words promise is the one notify.js keeps.
    notify = (STATIC / "notify.js").read_text(encoding="utf-8")
    assert re.search(r"SUBSCRIBE_MS = 10000;", notify)
    assert "10 s" in own(ACCOUNT, "en")["acct.notify.slow"].replace("10 seconds", "10 s")
