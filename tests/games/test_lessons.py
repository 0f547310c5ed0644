"""Every lesson replayed through the engine (issue 42): each lesson file (web/static/lessons/
<game>.json) is dealt from its deck order; every move of its script is legal when the table
makes it; every step waits for the person, on their turn, with a real choice; every action a
step asks for is legal, and the rest of the script stays legal after each of them; every move
a step forbids is refused by the rules with the reason id the lesson names (the guide shows
that reason, the table's own, and adds its "look" text); a quiz's answer is the engine's own
count; every text a lesson uses is written in English and in Italian.

What a lesson says is checked against the position it is shown in (issue 57): a step's ``says``
claims what the engine holds there (``hand``/``holds``/``lacks``: the person's cards, ``trick``:
the cards on the table, ``legal``: the moves allowed, ``count``: how many cards in hand,
``choice: any``: the text lets the person pick any legal move, so the step takes each); every
card a step's texts name ([[code]]) is one of its claims or its moves, no step text names a card
by a bare number, and an "N cards" in it is the hand's count. A move the rules allow but the step
does not teach gets a note chosen by the move (``wrong``: [{"actions": [...] or "*", "note"}]),
and each note, like each refusal's "look", names the move it answers ([[code]], the word, or
{card}: the page puts the move's name there). No text cites a ruling code (R1, A1, B1, C4).
A quiz's wrong answer gets a reason (``why``)."""

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
                used |= {w["note"] for w in entry.get("wrong", [])}
        used |= {q["ask"] for q in one.get("quiz", [])} | {q["why"] for q in one.get("quiz", [])}
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
    """Walk the script from ``deal``; at each step, every action it asks for, each on a copy;
    what each step says is checked against the position it is shown in."""
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
        check_what_it_says(game, entry, deal, person, where)
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


# --- what a lesson says, checked against its position (issue 57) ---------------------------

BARE_NUMBER = re.compile(r"(?<![\[\w])(?<!omputer )(?<!marked )(?<!segnata )(?<!segnato )(\d{1,2})(?![\]\w])(?!\s*(?:cards?|points?|carte|punti|jochi|jocu))")
N_CARDS = re.compile(r"\b(\d+) (?:cards|carte)\b")
PICKS = ("discard", "scarto", "declare")  # a move of several cards picked: the guide's general note
RULING = re.compile(r"\b[RABC]\d{1,2}\b")  # RULINGS.md (R), RENAISSANCE.md (A), OTTOCENTO.md (B), CALABRESELLA.md (C)


def position(rules, deal, person: int) -> dict:
    view = deal.view(person)
    return {"hand": set(view["hand"]), "trick": [t["card"] for t in view.get("trick") or []],
            "legal": {rules.action_text(a) for a in deal.legal_actions()}}


def cards_of(action: str) -> list[str]:
    """The cards an action names: a card, or the cards after a word ("chiamo 20", "discard 7C 8O")."""
    words = action.replace(",", " ").replace(":", " ").split()
    return [w for w in words if not w[0].islower()]


def names_the_move(text: str, actions: set[str]) -> bool:
    """A note answers the move pressed: {card} (the page names it), or the one move it is for,
    named ([[code]] for a card, the word itself for a word)."""
    if "{card}" in text:
        return True
    if len(actions) != 1:
        return False
    (action,) = actions
    return action in text if action[0].islower() else f"[[{action}]]" in text


def check_what_it_says(game: str, entry: dict, deal, person: int, where: str) -> None:
    rules = get_game(game)
    texts = lessons_of(game)["texts"]
    at = position(rules, deal, person)
    says = entry.get("says", {})
    assert set(says) <= {"hand", "holds", "lacks", "trick", "legal", "count", "choice"}, (where, says)
    if "hand" in says:
        assert set(says["hand"]) == at["hand"], (where, "hand", sorted(at["hand"]))
    assert set(says.get("holds", [])) <= at["hand"], (where, "holds", sorted(at["hand"]))
    assert not set(says.get("lacks", [])) & at["hand"], (where, "lacks", sorted(at["hand"]))
    if "trick" in says:
        assert says["trick"] == at["trick"], (where, "trick", at["trick"])
    if "legal" in says:
        assert set(says["legal"]) == at["legal"], (where, "legal", sorted(at["legal"]))
    if "count" in says:
        assert says["count"] == len(at["hand"]), (where, "count", len(at["hand"]))
    if says.get("choice") == "any":  # "any of them will do": the step takes each
        assert "legal" in says and set(entry["do"]) == at["legal"], (where, "any of", sorted(at["legal"]))
    moves = [] if entry["do"] == "any" else entry["do"]
    named = (set(says.get("hand", [])) | set(says.get("holds", [])) | set(says.get("lacks", []))
             | set(says.get("trick", [])) | set(says.get("legal", [])) | {c for a in moves for c in cards_of(a)}
             | {c for f in entry.get("forbid", []) for c in cards_of(f["action"])})  # (the engine refuses those: held)
    keys = [entry["text"]] + [f["look"] for f in entry.get("forbid", [])] + [w["note"] for w in entry.get("wrong", [])]
    for lang in ("en", "it"):
        for key in keys:
            text = texts[lang][key]
            for code in CARD.findall(text):
                assert code in named, (where, lang, key, f"[[{code}]] is not in what the step says")
            assert not BARE_NUMBER.search(CARD.sub("", text)), (where, lang, key, "a card named by a bare number: [[code]]")
        for n in N_CARDS.findall(texts[lang][entry["text"]]):
            assert says.get("count") == int(n), (where, lang, f"{n} cards", len(at["hand"]))
    # Each move allowed but not taught gets a note chosen by what it was, about that move.
    untaught = set() if entry["do"] == "any" else {a for a in at["legal"] - set(entry["do"]) if a.split()[0] not in PICKS}
    covered = set()
    for w in entry.get("wrong", []):
        actions = untaught - covered if w["actions"] == "*" else set(w["actions"])
        assert w["actions"] == "*" or actions <= at["legal"] - set(entry["do"]), (where, w, "not a move allowed and untaught")
        for lang in ("en", "it"):
            assert names_the_move(texts[lang][w["note"]], actions), (where, lang, w["note"], sorted(actions))
        covered |= actions
    assert untaught <= covered, (where, "moves with no note of their own", sorted(untaught - covered))
    for f in entry.get("forbid", []):
        if f["action"].split()[0] in PICKS:
            continue
        for lang in ("en", "it"):
            look = texts[lang][f["look"]]
            assert names_the_move(look, set(cards_of(f["action"])) if f["action"][0].islower() and cards_of(f["action"]) else {f["action"]}), (where, lang, f["look"])


@pytest.mark.parametrize("game", FILES)
def test_no_text_cites_a_ruling_code(game):
    """Rulings are for the data's comments and the tests: a player cannot look "(R13)" up."""
    for lang, texts in lessons_of(game)["texts"].items():
        for key, text in texts.items():
            assert not RULING.search(text), (game, lang, key, text)


def test_the_guides_own_words_cite_no_ruling_code():
    source = (LESSONS.parent / "lessons.i18n.js").read_text(encoding="utf-8")
    assert not RULING.search(source)


@pytest.mark.parametrize("game", FILES)
def test_a_quiz_names_its_cards_and_gives_a_reason(game):
    data = lessons_of(game)
    for one in data["lessons"]:
        for quiz in one.get("quiz", []):
            assert quiz["why"] != quiz["ask"]
            for lang in ("en", "it"):
                for key in (quiz["ask"], quiz["why"]):
                    text = data["texts"][lang][key]
                    assert set(CARD.findall(text)) <= set(quiz.get("cards", [])), (lang, key)
                    if "cards" in quiz and key == quiz["ask"]:  # (the reason may say "take 2 off")
                        assert not BARE_NUMBER.search(CARD.sub("", text)), (lang, key, "a card named by a bare number")
