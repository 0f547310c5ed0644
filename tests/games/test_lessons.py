"""Every lesson replayed through the engine (issue 42): each lesson file (web/static/lessons/
<game>.json) is dealt from its deck order; every move of its script is legal when the table
makes it; every step waits for the person, on their turn, with a real choice; every action a
step asks for is legal, and the rest of the script stays legal after each of them; every move
a step forbids is refused by the rules with the reason id the lesson names (the guide shows
that reason, the table's own, and adds its "look" text); a quiz's answer is the engine's own
count; every text a lesson uses is written in English and in Italian."""

from __future__ import annotations

import json
import re

import pytest

from tarocchi.bots import make_player
from tarocchi.engine.game import get_game
from tarocchi.server.lessons import LESSONS, is_step, lesson, lessons_of

FILES = sorted(p.stem for p in LESSONS.glob("*.json"))
CASES = [(g, n) for g in FILES for n in range(1, len(lessons_of(g)["lessons"]) + 1)]
CARD = re.compile(r"\[\[([^\]]+)\]\]")  # [[KC]]: the card's name, in the page's language


def test_there_are_lessons_for_sicilian():
    assert "sicilian" in FILES
    assert len(lessons_of("sicilian")["lessons"]) >= 6


@pytest.mark.parametrize("game", ["calabresella", "renaissance", "ottocento"])
def test_there_are_lessons_for_the_other_games(game):
    assert game in FILES
    assert 3 <= len(lessons_of(game)["lessons"]) <= 6


def keys_of(data: dict) -> set[str]:
    keys = {"title", "intro", "done"}
    used = set()
    for one in data["lessons"]:
        used |= {f"{one['id']}.{k}" for k in keys}
        for entry in one["script"]:
            if is_step(entry):
                used.add(entry["text"])
                used |= {f["look"] for f in entry.get("forbid", [])}
                if "wrong" in entry:
                    used.add(entry["wrong"])
        used |= {q["ask"] for q in one.get("quiz", [])}
        if one.get("free"):
            used |= {f"{one['id']}.{p}" for p in free_phases(data["game"])}
    return used


def free_phases(game: str) -> list[str]:
    """The phases a whole guided deal may ask of the person, each with its own text."""
    return {"sicilian": ["speak", "discard", "announce", "play"],
            "calabresella": ["speak", "call", "give", "discard", "lay", "take", "play"],
            "renaissance": ["discard", "play"],
            "ottocento": ["monte", "discard", "declare", "play"]}.get(game, ["play"])


@pytest.mark.parametrize("game", FILES)
def test_every_text_is_written_in_both_languages(game):
    data = lessons_of(game)
    used = keys_of(data)
    for lang in ("en", "it"):
        texts = data["texts"][lang]
        assert used <= set(texts), (lang, sorted(used - set(texts)))
        assert set(texts) <= used, (lang, "unused", sorted(set(texts) - used))
        deck = get_game(game).deck
        for key, text in texts.items():
            assert text.strip(), (lang, key)
            for code in CARD.findall(text):
                deck.card(code)  # a card the page can name
    assert data["texts"]["en"].keys() == data["texts"]["it"].keys()


def replay(game: str, entries: list, deal, person: int, taken: list[str]) -> None:
    """Walk the script from ``deal``; at each step, every action it asks for, each on a copy."""
    rules = get_game(game)
    for i, entry in enumerate(entries):
        where = f"{game} entry {len(taken)}: {entry!r}"
        if not is_step(entry):
            seat, action = entry
            assert deal.to_act == seat, where
            assert deal.refusal(seat, action) is None, (where, deal.refusal(seat, action))
            assert rules.action_text(rules.parse_action(action)) == action, where  # as the table writes it
            deal.apply(action, seat)
            taken.append(action)
            continue
        assert deal.to_act == person, where
        automatic = getattr(deal, "automatic", lambda: None)()
        assert automatic is None, (where, "the table answers for the person here")
        for f in entry.get("forbid", []):
            why = getattr(deal, "reason", deal.refusal)(person, f["action"])  # the Reason, with its id
            assert why is not None, (where, f["action"], "is allowed")
            assert rules.reason_id(why) == f["reason"], (where, f["action"], why)
            assert entry["do"] == "any" or f["action"] not in entry["do"]
        if entry["do"] == "any":
            choices = [rules.action_text(deal.legal_actions()[0])]
        else:
            choices = entry["do"]
            assert choices, where
        for action in choices:
            assert deal.refusal(person, action) is None, (where, action, deal.refusal(person, action))
        for action in choices[1:]:  # each other choice: the rest of the script still holds
            other = deal.copy()
            other.apply(action, person)
            replay(game, entries[i + 1:], other, person, taken + [action])
        deal.apply(choices[0], person)
        taken.append(choices[0])


@pytest.mark.parametrize("game,n", CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_each_lesson_replays_through_the_engine(game, n):
    data = lessons_of(game)
    one = lesson(f"{game}/{n}")
    rules = get_game(game)
    deal = rules.new_deal(data["seats"], one["dealer"], rules.deck.parse_order(one["deck"]))
    person = data["person"]
    steps = [e for e in one["script"] if is_step(e)]
    assert steps or one.get("free"), "a lesson asks the person to do something"
    replay(game, one["script"], deal, person, [])
    if one.get("free"):
        # A whole deal: the computers (and here the person too) play it at the lesson's level.
        bot = make_player(data["level"], game=game)
        while not deal.done:
            deal.apply(bot(deal.view(deal.to_act)), deal.to_act)
        assert deal.returns()
    for quiz in one.get("quiz", []):
        assert quiz["answer"] in quiz["options"] and len(set(quiz["options"])) == len(quiz["options"])
        if "cards" in quiz:
            assert rules.deck.points(rules.deck.mask_of(quiz["cards"])) == quiz["answer"], quiz
        if "points" in quiz:
            assert deal.done, "the count is on the table"
            count = deal.count.to_json()
            # Sicilian's count names its sides ("bidder"); the others list them (challenger or bidder first).
            if "card_points" in count:
                got = count["card_points"][quiz["points"]]
            else:
                side = (count.get("sides") or count["piles"])[quiz["points"]]
                got = side["points"] if "points" in side else side["card_points"]  # (Ottocento: the cards' own)
            assert got == quiz["answer"], quiz


def test_the_lessons_file_says_who_plays():
    for game in FILES:
        data = lessons_of(game)
        assert data["game"] == game and data["person"] == 0
        assert data["seats"] in get_game(game).seats
        assert [one["id"] for one in data["lessons"]] == list(dict.fromkeys(one["id"] for one in data["lessons"]))
        json.dumps(data)
