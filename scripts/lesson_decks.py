"""Finding deck orders for Learn to play's lessons (issue 42): deals from seeded shuffles,
played by the lesson level's computers at every seat, searched for a position a lesson needs.
Prints a lesson's deck and script as JSON, to paste into web/static/lessons/<game>.json
(tests/games/test_lessons.py then replays it). Usage:

    .venv/bin/python scripts/lesson_decks.py calabresella play     # (game, lesson [, first seed])

Each search is one lesson's wanted position; the texts are written by hand around what it finds,
with each step's "says" (what its texts claim of the position) and a note per untaught move
(issue 57: tests/games/test_lessons.py checks both against the engine).
"""

from __future__ import annotations

import json
import random
import sys

from tarocchi.bots import make_player
from tarocchi.engine.game import get_game

PERSON = 0


def shuffled(game: str, seed: int) -> list[str]:
    codes = list(get_game(game).deck.codes)
    random.Random(seed).shuffle(codes)
    return codes


class Run:
    """A deal from a deck order; ``move`` plays a given action or the computers' choice."""

    def __init__(self, game: str, seats: int, dealer: int, deck: list[str]):
        self.rules = get_game(game)
        self.deal = self.rules.new_deal(seats, dealer, self.rules.deck.parse_order(deck))
        self.bot = make_player("rule", game=game)
        self.script: list = []

    def text(self, action) -> str:
        if isinstance(action, str):
            action = self.rules.parse_action(action)
        return self.rules.action_text(action)

    def choice(self) -> str:
        return self.text(self.bot(self.deal.view(self.deal.to_act)))

    def move(self, action: str | None = None, step: dict | None = None) -> str:
        seat = self.deal.to_act
        action = action or self.choice()
        why = self.deal.refusal(seat, action)
        assert why is None, (action, why)
        self.deal.apply(action, seat)
        self.script.append(dict(step, do=[action]) if step is not None else [seat, action])
        return action

    def hand(self, seat: int = PERSON) -> list[str]:
        return self.rules.deck.codes_of(self.deal.hands[seat])

    def trick(self) -> list[str]:
        return [self.rules.deck.codes[c] for c in self.deal.trick]

    def legal(self) -> list[str]:
        return [self.text(a) for a in self.deal.legal_actions()]


def is_trump(code: str) -> bool:
    return code.isdigit()


def suit(code: str) -> str:
    return "" if code.isdigit() or code == "F" else code[-1]


def dump(deck, dealer, script, **extra) -> None:
    print(json.dumps(dict(extra, dealer=dealer, deck=deck), ensure_ascii=False))
    for e in script:
        print(" ", json.dumps(e, ensure_ascii=False) + ",")


# --- Calabresella ---------------------------------------------------------------------------

def cala_auction(r: Run, words: list[str]) -> None:
    for w in words:
        r.move(w)


def cala_play(seed: int):
    """Seat 1 plays solo; the person follows a suit (with trumps in hand), then must trump."""
    deck = shuffled("calabresella", seed)
    r = Run("calabresella", 3, 0, deck)
    cala_auction(r, ["vado solo", "sta bene", "sta bene"])
    r.move()  # seat 1's lay
    stage = 0
    while not r.deal.done:
        if r.deal.to_act != PERSON or r.deal.phase != "play":
            r.move()
            continue
        tr, hand = r.trick(), r.hand()
        if not tr:
            return None if stage < 2 else (deck, r)
        led = suit(tr[0])
        mine = [c for c in hand if suit(c) == led and led]
        trumps = [c for c in hand if is_trump(c)]
        if stage == 0:
            if not (led and len(mine) >= 2 and trumps and len(r.script) < 14):
                return None
            r.move(r.choice(), {"text": "play.suit", "forbid": [{"action": trumps[0], "reason": "follow_suit", "look": "play.suit.look"}], "wrong": [{"actions": "*", "note": "play.suit.wrong"}]})
            stage = 1
        elif stage == 1:
            others = [c for c in hand if not is_trump(c) and c != "F"]
            if not (led and not mine and trumps and others):
                return None
            r.move(r.choice(), {"text": "play.trump", "forbid": [{"action": others[0], "reason": "play_trump", "look": "play.trump.look"}], "wrong": [{"actions": "*", "note": "play.trump.wrong"}]})
            if not is_trump(r.script[-1]["do"][0]):
                return None
            stage = 2
        else:
            return deck, r
    return None


def cala_fool(seed: int):
    """Seat 2 plays solo (dealer 2: the person leads the first trick); the person holds the Fool."""
    deck = shuffled("calabresella", seed)
    r = Run("calabresella", 3, 2, deck)
    if "F" not in r.hand():
        return None
    cala_auction(r, ["passo", "vado solo", "sta bene"])
    r.move()  # seat 1's lay
    lead = r.choice()
    if lead == "F" or not suit(lead):
        return None
    r.move(lead, {"text": "fool.lead", "forbid": [{"action": "F", "reason": "fool_cannot_lead", "look": "fool.lead.look"}], "wrong": [{"actions": "*", "note": "fool.lead.wrong"}]})
    while r.deal.to_act != PERSON:
        r.move()
    tr, hand = r.trick(), r.hand()
    if not tr or not suit(tr[0]):
        return None
    mine = [c for c in hand if suit(c) == suit(tr[0])]
    trumps = [c for c in hand if is_trump(c)]
    if not mine or not trumps:
        return None
    r.move("F", {"text": "fool.excuse", "forbid": [{"action": trumps[0], "reason": "follow_suit", "look": "fool.excuse.look"}], "wrong": [{"actions": "*", "note": "fool.excuse.wrong"}]})
    while len(r.trick()) and len(r.trick()) < 3:
        r.move()
    return deck, r


def cala_count(seed: int):
    """The person plays solo, the deal played by the computers to the last trick; the person's last card."""
    deck = shuffled("calabresella", seed)
    r = Run("calabresella", 3, 2, deck)
    cala_auction(r, ["vado solo", "sta bene", "sta bene"])
    while not r.deal.done:
        if r.deal.to_act == PERSON and r.deal.hand_size(PERSON) == 1 and r.deal.phase == "play":
            r.move(None, {"text": "count.last"})
        else:
            r.move()
    pts = r.deal.count.to_json()["sides"][0]["points"]
    if not 50 <= pts <= 70 or not r.deal.count.won:
        return None
    return deck, r


SEARCHES = {("calabresella", "play"): cala_play, ("calabresella", "fool"): cala_fool,
            ("calabresella", "count"): cala_count}


def low_suit_cards(r: Run, n: int) -> list[str]:
    cards = [c for c in r.hand() if suit(c) and c[0] not in "KQHM"]
    return sorted(cards, key=lambda c: int(c[:-1]))[:n] if len(cards) >= n else []


def cala_speak(seed: int):
    """The person speaks first and says chiamo, calls the 20 (a computer holds it), gives a card back, lays three."""
    deck = shuffled("calabresella", seed)
    r = Run("calabresella", 3, 2, deck)
    hand = r.hand()
    trumps = [c for c in hand if is_trump(c)]
    kings = [c for c in hand if c[0] == "K"]
    if "20" in hand or "20" in deck[-3:] or len(trumps) < 8 or not kings or "F" not in hand:
        return None
    r.move("chiamo", {"text": "speak.chiamo", "forbid": [{"action": "sta bene", "reason": "sta_bene_no_bid", "look": "speak.chiamo.look"}], "wrong": [{"actions": "*", "note": "speak.chiamo.wrong"}]})
    r.move("sta bene")
    r.move("sta bene")
    r.move("chiamo 20", {"text": "speak.call"})
    low = low_suit_cards(r, 4)
    if not low:
        return None
    r.move("restituisco " + low[0], {"text": "speak.give", "forbid": [{"action": "restituisco 20", "reason": "give_called_card", "look": "speak.give.look"}]})
    r.move("scarto " + " ".join(low[1:4]), {"text": "speak.lay", "forbid": [{"action": f"scarto {kings[0]} {low[1]} {low[2]}", "reason": "lay_forbidden", "look": "speak.lay.look"}]})
    print("monte", deck[-3:], "giver", r.deal.giver)
    return deck, r


SEARCHES[("calabresella", "speak")] = cala_speak


# --- Renaissance ----------------------------------------------------------------------------

FOLLOW_ID = {"C": "follow_cups", "O": "follow_pentacles", "S": "follow_swords", "B": "follow_wands"}


def ren_cards(seed: int):
    """The person deals (and discards, before the lesson); trick 1 led in cups or coins with a
    pip card; the person, last, wins with the ace: in those suits the ace is high (A2)."""
    deck = shuffled("renaissance", seed)
    r = Run("renaissance", 3, 0, deck)
    r.move()  # the person's discard, made before the lesson starts
    r.move()
    r.move()
    tr, hand = r.trick(), r.hand()
    led = suit(tr[0])
    if led not in "CO" or tr[0][0] in "KQHM" or suit(tr[1]) == led and tr[1][0] in "KQHM" or is_trump(tr[1]):
        return None
    ace = "1" + led
    mine = [c for c in hand if suit(c) == led]
    trumps = [c for c in hand if is_trump(c)]
    if ace not in hand or len(mine) < 3 or not trumps:
        return None
    r.move(ace, {"text": "cards.ace", "forbid": [{"action": trumps[0], "reason": FOLLOW_ID[led], "look": "cards.ace.look"}], "wrong": [{"actions": "*", "note": "cards.ace.wrong"}]})
    print("trick", tr, "mine", mine)
    return deck, r


def follow_then_trump(deck: list, r: Run, follow_reason):
    """The person's next trick: holding two or more of the suit led and a trump, they follow (a
    trump refused, ``follow_reason(led)`` its reason id); their trick after: void of the suit
    led, they must trump (a plain card refused). (deck, r) once both are scripted; None where
    the deal does not go so."""
    stage = 0
    while True:
        if r.deal.to_act != PERSON:
            r.move()
            continue
        tr, hand = r.trick(), r.hand()
        if not tr:
            return (deck, r) if stage == 2 else None
        led = suit(tr[0])
        mine = [c for c in hand if suit(c) == led and led]
        trumps = [c for c in hand if is_trump(c)]
        if stage == 0:
            if not (led and len(mine) >= 2 and trumps):
                return None
            r.move(r.choice(), {"text": "follow.suit", "forbid": [{"action": trumps[0], "reason": follow_reason(led), "look": "follow.suit.look"}], "wrong": [{"actions": "*", "note": "follow.suit.wrong"}]})
            if r.script[-1]["do"][0] == "F":
                return None
            stage = 1
        elif stage == 1:
            others = [c for c in hand if not is_trump(c) and c != "F"]
            if not (led and not mine and trumps and others):
                return None
            r.move(r.choice(), {"text": "follow.trump", "forbid": [{"action": others[0], "reason": "play_trump", "look": "follow.trump.look"}], "wrong": [{"actions": "*", "note": "follow.trump.wrong"}]})
            if not is_trump(r.script[-1]["do"][0]):
                return None
            stage = 2
        else:
            return None


def ren_follow(seed: int):
    """Dealer 0 again: the person follows (trick 1, any of the suit), then must trump."""
    deck = shuffled("renaissance", seed + 7000)
    r = Run("renaissance", 3, 0, deck)
    r.move()
    return follow_then_trump(deck, r, lambda led: FOLLOW_ID[led])


def ren_fool(seed: int):
    """Dealer 0: the person holds the Fool and plays it on trick 1 instead of following (A10)."""
    deck = shuffled("renaissance", seed + 14000)
    r = Run("renaissance", 3, 0, deck)
    if "F" not in r.hand():
        return None
    r.move()
    r.move()
    r.move()
    tr, hand = r.trick(), r.hand()
    led = suit(tr[0])
    mine = [c for c in hand if suit(c) == led and led]
    trumps = [c for c in hand if is_trump(c)]
    if not (led and mine and trumps):
        return None
    r.move("F", {"text": "fool.excuse", "forbid": [{"action": trumps[0], "reason": FOLLOW_ID[led], "look": "fool.excuse.look"}], "wrong": [{"actions": "*", "note": "fool.excuse.wrong"}]})
    print("trick", tr)
    return deck, r


def ren_discard(seed: int):
    """Dealer 0: the person discards three (A7), a King refused."""
    deck = shuffled("renaissance", seed + 21000)
    r = Run("renaissance", 3, 0, deck)
    hand = r.hand()
    kings = [c for c in hand if c[0] == "K"]
    low = [c for c in hand if suit(c) and c[0] not in "KQHM"]
    if not kings or len(low) < 3:
        return None
    r.move(None, {"text": "discard.three", "forbid": [{"action": f"discard {kings[0]} {low[0]} {low[1]}", "reason": "discard_forbidden", "look": "discard.three.look"}]})
    return deck, r


def ren_count(seed: int):
    """Dealer 1: the computers play the deal for the person up to the last trick."""
    deck = shuffled("renaissance", seed + 28000)
    r = Run("renaissance", 3, 1, deck)
    while not r.deal.done:
        if r.deal.to_act == PERSON and r.deal.hand_size(PERSON) == 1:
            r.move(None, {"text": "count.last"})
        else:
            r.move()
    pts = r.deal.count.to_json()["piles"][0]["points"]
    if not 27 <= pts <= 40:
        return None
    return deck, r


SEARCHES.update({("renaissance", "cards"): ren_cards, ("renaissance", "follow"): ren_follow,
                 ("renaissance", "fool"): ren_fool, ("renaissance", "discard"): ren_discard,
                 ("renaissance", "count"): ren_count})


# --- Ottocento -------------------------------------------------------------------------------

MOORS = ("1", "2", "3", "4")


def ott_start(r: Run, monte: list[str] | None = None) -> None:
    """The a monte question (gioco at once unless told), the dealer's discard, the declarations: the computers' own."""
    for w in monte or ["gioco"]:
        r.move(w)
    while r.deal.phase in ("discard", "declare"):
        r.move()


def ott_moor(seed: int):
    """Dealer 0 (the person's discard and declaration made before the lesson); a trick whose
    highest card is a Moor, the person last with a Moor: the last Moor played wins (B2)."""
    deck = shuffled("ottocento", seed)
    r = Run("ottocento", 4, 0, deck)
    ott_start(r)
    while not r.deal.done:
        tr = r.trick()
        if r.deal.to_act == PERSON and len(tr) == 3:
            hand = r.hand()
            trumps = [c for c in tr if is_trump(c)]
            top = max(trumps, key=int) if trumps else None
            mine = [c for c in hand if c in MOORS]
            led = suit(tr[0])
            if top in MOORS and tr.index(top) != 1 and mine and (not led or not any(suit(c) == led for c in hand)):
                forbid = [c for c in hand if not is_trump(c) and c != "F"]
                step = {"text": "cards.moor", "wrong": [{"actions": "*", "note": "cards.moor.wrong"}]}
                if forbid:
                    step["forbid"] = [{"action": forbid[0], "reason": "follow_suit" if not led else "play_trump", "look": "cards.moor.look"}]
                r.move(mine[0], step)
                print("trick", tr, "hand", hand)
                return deck, r
        if r.deal.to_act == PERSON and len(r.script) > 60:
            return None
        r.move()
    return None


def ott_follow(seed: int):
    """Dealer 0: the person (last in trick 1) follows suit, then must trump."""
    deck = shuffled("ottocento", seed + 7000)
    r = Run("ottocento", 4, 0, deck)
    ott_start(r)
    return follow_then_trump(deck, r, lambda led: "follow_suit")


def ott_declare(seed: int):
    """Dealer 0: three a monte, the person's gioco; the person's discard (a King refused); the
    computers declare; the person declares the full best (a cricca and a sequence at least)."""
    deck = shuffled("ottocento", seed + 14000)
    r = Run("ottocento", 4, 0, deck)
    for _ in range(3):
        r.move("a monte")
    r.move("gioco", {"text": "declare.gioco"})
    hand = r.hand()
    kings = [c for c in hand if c[0] == "K"]
    low = [c for c in hand if suit(c) and c[0] not in "KQHM" and c[0] != "1"]
    if not kings or len(low) < 2:
        return None
    r.move("discard " + " ".join(low[:2]), {"text": "declare.discard", "forbid": [{"action": f"discard {kings[0]} {low[0]}", "reason": "discard_five_points", "look": "declare.discard.look"}]})
    for _ in range(3):
        r.move()
    best = r.deal.best_declaration(PERSON)
    if len(best) < 2:
        return None
    want = r.text(r.rules.parse_action(r.deal.choices(PERSON)[0]["action"]))
    r.move(want, {"text": "declare.combos"})
    print("best", want)
    return deck, r


def ott_count(seed: int):
    """Dealer 3: the deal played by the computers up to the last trick; the person's last card."""
    deck = shuffled("ottocento", seed + 21000)
    r = Run("ottocento", 4, 3, deck)
    ott_start(r)
    while not r.deal.done:
        if r.deal.to_act == PERSON and r.deal.hand_size(PERSON) == 1:
            r.move(None, {"text": "count.last"})
        else:
            r.move()
    return deck, r


def ott_fool(seed: int):
    """Dealer 0: the person, holding the Matto, plays it on trick 1 instead of following (B20);
    an opponent wins the trick."""
    deck = shuffled("ottocento", seed + 28000)
    r = Run("ottocento", 4, 0, deck)
    ott_start(r)
    if "F" not in r.hand():
        return None
    while r.deal.to_act != PERSON:
        r.move()
    tr, hand = r.trick(), r.hand()
    led = suit(tr[0])
    mine = [c for c in hand if suit(c) == led and led]
    trumps = [c for c in hand if is_trump(c)]
    if not (led and mine and trumps):
        return None
    r.move("F", {"text": "fool.excuse", "forbid": [{"action": trumps[0], "reason": "follow_suit", "look": "fool.excuse.look"}], "wrong": [{"actions": "*", "note": "fool.excuse.wrong"}]})
    if r.deal.to_act not in (1, 3):  # the trick complete, an opponent won it: he leads next
        return None
    print("trick", tr, "next", r.deal.to_act)
    return deck, r


SEARCHES.update({("ottocento", "cards"): ott_moor, ("ottocento", "follow"): ott_follow,
                 ("ottocento", "declare"): ott_declare, ("ottocento", "count"): ott_count,
                 ("ottocento", "fool"): ott_fool})


def main() -> None:
    game, name = sys.argv[1], sys.argv[2]
    search = SEARCHES[game, name]
    for seed in range(int(sys.argv[3]) if len(sys.argv) > 3 else 0, 5000):
        try:
            found = search(seed)
        except AssertionError:
            continue
        if found:
            deck, r = found
            print("seed", seed, "hand", r.hand() if not r.deal.done else "")
            dump(deck, r.deal.dealer, r.script)
            if r.deal.done:
                print(json.dumps(r.deal.count.to_json()))
            return
    print("nothing found")


if __name__ == "__main__":  # (searches above)
    main()
