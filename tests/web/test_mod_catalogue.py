"""The catalogues of reports and moderation (issue 58): the Report dialog's
(tarocchi/web/static/report.i18n.js) and the moderators' page's (mod.i18n.js). English and Italian
say the same things, every key report.js and mod.js ask for exists, and every reason the
moderation routes give, and the chat's ban, has its Italian text. No browser needed: the files
are read as text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args, get_type_hints

from tarocchi.server import moderation
from tests.browser.test_catalogue import STATIC, block, reason_constants

ENTRY = re.compile(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"')
CATALOGUES = {"report": "rep", "mod": "mod"}


def part(name: str, key: str) -> dict[str, str]:
    source = (STATIC / f"{name}.i18n.js").read_text(encoding="utf-8")
    start = source.index(f"\n  {key}: {{")
    return dict(ENTRY.findall(source[start:source.index("\n  },", start)]))


def test_english_and_italian_say_the_same_things():
    for name, prefix in CATALOGUES.items():
        en, it = part(name, "en"), part(name, "it")
        assert len(en) > 15 and set(en) == set(it), name
        assert all(it[k].strip() and k.startswith(f"{prefix}.") for k in it), name
        for key in en:
            assert sorted(re.findall(r"\{\w+\}", en[key])) == sorted(re.findall(r"\{\w+\}", it[key])), key


def test_every_key_the_dialog_and_the_page_ask_for_exists():
    known = set(block("en"))  # (the shared catalogue, and account.js's: both are on every page)
    for name in ("account", *CATALOGUES):
        known |= set(part(name, "en"))
    used = set()
    for name in CATALOGUES:
        code = (STATIC / f"{name}.js").read_text(encoding="utf-8")
        used |= set(re.findall(r'\b(?:t|tn)\("([a-z_.]+)"', code))
    # (built keys: a reason's, an action's, what is said done, a report's status, a confirmation)
    reasons = get_args(get_type_hints(moderation.NewReport)["reason"])
    actions = get_args(get_type_hints(moderation.Action)["action"])
    assert "abuse" in reasons and "chat_ban" in actions
    used |= {f"rep.reason.{r}" for r in reasons} | {f"mod.reason.{r}" for r in reasons}
    used |= {f"mod.action.{a}" for a in (*actions, "close_report")} | {f"mod.done.{a}" for a in actions}
    used |= {"mod.status.open", "mod.status.closed"} | {f"mod.act.{k}.{a}" for k in ("confirm", "yes") for a in ("rename", "close")}
    # The dialog offers every reason the server takes, and the page every action, in its order.
    offered = re.search(r"REASONS_ASKED = \[([^\]]*)\]", (STATIC / "report.js").read_text(encoding="utf-8"))[1]
    assert tuple(re.findall(r'"(\w+)"', offered)) == reasons
    offered = re.search(r"const ACTIONS = \[([^\]]*)\]", (STATIC / "mod.js").read_text(encoding="utf-8"))[1]
    assert tuple(re.findall(r'"(\w+)"', offered)) == actions
    assert len(used) > 60
    assert sorted(used - known) == []


def test_every_moderation_reason_is_translated():
    italian = dict(block("REASONS_IT"))
    for name in ("account", *CATALOGUES):
        italian |= part(name, "reasons")
    reasons = reason_constants(moderation) | set(re.findall(r'error\("([^"]+)", 400\)', Path(moderation.__file__).read_text()))
    assert {"this is for moderators", "a moderator has stopped your chat for a while", "a ban needs its hours (0 lifts it)"} <= reasons
    assert sorted(reasons - set(italian)) == []
    assert all(italian[r].strip() and italian[r] != r for r in reasons)
