"""A tournament page's catalogue (tarocchi/web/static/tournament.i18n.js, issue 59): English and
Italian say the same things, every key tournament.js asks for exists, and every refusal of
server/tournaments.py that the page may show has its Italian. No browser needed: read as text."""

from __future__ import annotations

import re

from tarocchi.server import tournaments
from tests.browser.test_catalogue import STATIC, block

SOURCE = (STATIC / "tournament.i18n.js").read_text(encoding="utf-8")


def own(lang: str) -> dict[str, str]:
    start = SOURCE.index(f"  {lang}: {{")
    end = SOURCE.index("\n  },", start)
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', SOURCE[start:end]))


def test_english_and_italian_say_the_same_things():
    en, it = own("en"), own("it")
    assert len(en) > 30 and set(en) == set(it)
    assert all(it[k].strip() and k.startswith("tour.") for k in it)


def test_every_key_tournament_js_asks_for_exists():
    keys = set(own("en")) | set(block("en"))
    code = (STATIC / "tournament.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([a-z_.]+)"', code))
    used |= {f"tour.kind.{k}" for k in tournaments.KINDS} | {f"tour.status.{s}" for s in ("upcoming", "running", "finished")}
    assert len(used) > 20
    assert sorted(used - keys) == []


def test_the_servers_refusals_the_page_shows_are_in_italian():
    italian = SOURCE[SOURCE.index("reasons:"):]
    for text in (tournaments.NO_SUCH_TOURNAMENT, tournaments.FINISHED, tournaments.STARTED, tournaments.NOT_ENTERED,
                 tournaments.TOO_MANY):
        assert f'"{text}"' in italian, text


def test_every_refusal_of_a_new_tournaments_settings_is_in_italian():
    """check_new's words for every game, seats, kind and length a body may give (the form on
    /tournaments sends them; a body by hand may send the rest)."""
    from tarocchi.server.core.hub import TABLE_GAMES

    italian = SOURCE[SOURCE.index("reasons:"):]
    said = set()
    for game in TABLE_GAMES:
        for seats in (3, 4):
            for kind in tournaments.KINDS:
                for length in ({"minutes": 5}, {"rounds": 2}, {"minutes": 5, "rounds": 2}, {}):
                    for deals in (None, 99):
                        body = tournaments.NewTournament(game=game, seats=seats, kind=kind, deals=deals, **length)
                        if (why := tournaments.check_new(body, TABLE_GAMES)) is not None:
                            said.add(why)
    assert len(said) >= 10
    assert sorted(w for w in said if f'"{w}"' not in italian) == []
