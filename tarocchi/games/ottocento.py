"""Ottocento, the Bolognese Tarocchino for four seats in two partnerships, to 800: from the deck
order to the count.

The rules text is the Ottocento part of ``shared/seeds/002_a0f86723d69124fb.txt`` (the seed);
the rulings ``shared/rules/OTTOCENTO.md`` (cited as B1..B27) settle what it leaves open. The
combinations (cricche and sequences, B10-B18, B25) are ``tarocchi.games.ottocento_combos``.

Actions, as text (docs/records.md): ``a monte`` / ``gioco`` after the first five cards (B7);
``discard 9S 10S`` the dealer's two cards (B8); ``declare kind:c,c,c kind:c,c,c`` the seat's
combinations, ``declare`` alone for none (B9); a card code plays it, with an optional signal
on the card led: ``7C volo``, ``F trionfi``, ``KS busso`` (B22).

>>> from tarocchi.games.ottocento import DECK, Deal
>>> d = Deal(4, 3, list(range(62)))           # the deck in code order, seat 3 deals
>>> d.phase, d.to_act, [d.hand_size(s) for s in range(4)]   # five cards each, then a monte (B7)
('monte', 0, [5, 5, 5, 5])
>>> d.apply("a monte"); d.apply("gioco")
>>> d.phase, d.to_act, [d.hand_size(s) for s in range(4)]   # the dealer holds 17 (B6, B8)
('discard', 3, [15, 15, 15, 17])
>>> d.refusal(3, "discard KB 9B")
'you may not discard a 5-point card: a King, the Angel, the World, the Bégato or the Matto'
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..engine import tricks
from ..engine.deck import ActionError as NotAnAction
from ..engine.deck import CardError, Deck, Suit, cut, shown, words
from ..engine.choices import Combinations
from ..engine.discards import DiscardRule
from ..engine.game import (
    DEAL_OVER, NOT_IN_HAND, NOT_YOUR_TURN, PLAY_NOW, Game, Reason, choice, register,
)
from ..engine.trickplay import TrickPlay
from ..engine.tricks import TrickRules

# The combinations (B9-B18, B25) are a plain Python module beside this one, imported by name so
# that mypyc, which compiles this module, does not type-check it as part of the compiled group
# (it is not compiled; relative to this package, so that tarocchi.pure_engine's copy finds its own).
combos: Any = importlib.import_module(__name__.rpartition(".")[0] + ".ottocento_combos")

# --- the deck (B1-B4) -------------------------------------------------------------------

_LONG: Final = ("1", "6", "7", "8", "9", "10", "M", "H", "Q", "K")  # swords, batons: 10 above the ace
_ROUND: Final = ("10", "9", "8", "7", "6", "1", "M", "H", "Q", "K")  # cups, coins: the ace above the 6 (B2)
TRUMP_NAMES: Final = {
    "20": ("the Angel", "l'Angelo"), "19": ("the World", "il Mondo"), "18": ("the Sun", "il Sole"),
    "17": ("the Moon", "la Luna"), "1": ("a Moor", "un Moro"), "2": ("a Moor", "un Moro"),
    "3": ("a Moor", "un Moro"), "4": ("a Moor", "un Moro"), "0": ("the Magician", "il Bégato"),
    "F": ("the Fool", "il Matto"),
}
# B1: trumps lowest first (so a higher bit is a higher trump): 0, the Moors 1-4, 5..20 (B2).
DECK: Final = Deck(
    "tarocchino", trumps=["0", "1", "2", "3", "4"] + [str(n) for n in range(5, 21)], fool="F",
    suits=[Suit("C", "Cups", "Coppe", _ROUND), Suit("O", "Coins", "Denari", _ROUND),
           Suit("S", "Swords", "Spade", _LONG), Suit("B", "Batons", "Bastoni", _LONG)],
    values={"20": 5, "19": 5, "0": 5, "F": 5}, rank_values={"K": 5, "Q": 4, "H": 3, "M": 2},  # B4
    batch=2,  # B4: counted in pairs
    trump_names=TRUMP_NAMES,
    code_hint="B1: 0-20, F, or rank+suit like KC, 10S, 1O, MB",
)
SIZE: Final = 62
SEATS: Final = 4
HAND: Final = 15
PACKET: Final = 5
TRICKS: Final = 15
LAST_TRICK: Final = 6  # B4
TOTAL: Final = 93  # B4: the card points and the last trick
TARGET: Final = 800  # B26
FOOL: Final = DECK.fool
FOOL_BIT: Final = DECK.fool_bit
MOORS: Final = DECK.mask_of(["1", "2", "3", "4"])
FIVES: Final = sum(1 << c for c in range(SIZE) if DECK.values[c] == 5)  # B8: never discarded
ONE_POINT: Final = sum(1 << c for c in range(SIZE) if DECK.values[c] == 1)  # B21
CODES: Final = DECK.codes
assert DECK.size == SIZE and FIVES.bit_count() == 8 and DECK.points(DECK.full) + LAST_TRICK == TOTAL

RULES: Final = TrickRules(DECK, fool_leads=True, equal_trumps=MOORS)  # B2, B19, B20
SUIT_MASK_OF: Final = DECK.suit_mask_of

# --- actions ------------------------------------------------------------------------------

SIGNAL_STEP: Final = 64  # card + SIGNAL_STEP * signal: a card led with a signal (B22)
VOLO: Final = 1
TRIONFI: Final = 2
BUSSO: Final = 3
SIGNAL_WORDS: Final = {VOLO: "volo", TRIONFI: "trionfi", BUSSO: "busso"}
SIGNAL_OF_WORD: Final = {w: s for s, w in SIGNAL_WORDS.items()}
A_MONTE: Final = 300
GIOCO: Final = 301
WORDS: Final = {A_MONTE: "a monte", GIOCO: "gioco"}
DISCARD: Final = 1 << 64  # flag bit above the deck; the low bits hold the two cards
KIND_BITS: Final = 64  # a declaration: kind k's cards at bits 64k..64k+61
KINDS: Final = combos.KINDS
DECLARE: Final = 1 << (KIND_BITS * len(KINDS))  # flag bit above every kind's cards

# --- phases -------------------------------------------------------------------------------

MONTE_PHASE: Final = "monte"  # B7: a monte or gioco after five cards
DISCARD_PHASE: Final = "discard"  # B8
DECLARE_PHASE: Final = "declare"  # B9
PLAY: Final = "play"
DONE: Final = "done"

# --- refusals: a player's words, each with a stable id ------------------------------------

MONTE_NOW: Final = Reason("monte_now", "now is the time to say a monte or gioco")
DISCARD_NOW: Final = Reason("discard_two_now", "now is the time to discard two cards")
DISCARD_TWO: Final = Reason("discard_two", "discard two cards")
DISCARD_FORBIDDEN: Final = Reason(
    "discard_five_points", "you may not discard a 5-point card: a King, the Angel, the World, the Bégato or the Matto")
DECLARE_NOW: Final = Reason(
    "declare_now", "now is the time to declare: declare and your combinations, or declare alone")
DECLARE_NOT_HELD: Final = Reason("declare_not_held", "you may declare only cards in your hand")  # B9
KIND_TWICE: Final = combos.ONE_PER_KIND  # B17: "at most one combination of each kind", the combos' own
NOT_AN_ACTION: Final = "not_an_action"
SIGNAL_NOT_LED: Final = Reason("signal_not_led", "a signal goes only with the card led")  # B22, O11
SIGNALS_OFF: Final = Reason("signals_off", "signals are off at this table")  # B22
VOLO_FALSE: Final = Reason("volo_false", "volo says you are now void in that suit: you still hold it")  # B22
VOLO_FOOL: Final = Reason("volo_fool", "no volo on the Matto")  # B22
FOLLOW_SUIT: Final = Reason("follow_suit", tricks.FOLLOW_SUIT)
PLAY_TRUMP: Final = Reason("play_trump", tricks.PLAY_TRUMP)
REASONS: Final = {r.id: str(r) for r in (
    NOT_YOUR_TURN, DEAL_OVER, NOT_IN_HAND, PLAY_NOW, MONTE_NOW, DISCARD_NOW, DISCARD_TWO, DISCARD_FORBIDDEN,
    DECLARE_NOW, DECLARE_NOT_HELD, KIND_TWICE, SIGNAL_NOT_LED, SIGNALS_OFF, VOLO_FALSE, VOLO_FOOL, FOLLOW_SUIT,
    PLAY_TRUMP, *combos.REASONS)}

# B8: two cards, never a 5-point card (17 cards always hold 9 others: no fallback is needed).
DISCARD_RULE: Final = DiscardRule(2, never=FIVES, fallback=0, never_words=DISCARD_FORBIDDEN,
                                  fallback_words=DISCARD_FORBIDDEN, not_in_hand=NOT_IN_HAND, size_words=DISCARD_TWO)


class ActionError(NotAnAction):
    """A text that is not an action of this game; ``reason`` the Reason it is refused with."""

    def __init__(self, message: str, reason: Reason | None = None):
        super().__init__(message)
        self.reason: Reason = reason if reason is not None else Reason(NOT_AN_ACTION, message)


def declaration_text(action: int) -> str:
    """``declare kind:c,c,c ...``: the kinds in KINDS order, each kind's cards in display order."""
    parts = ["declare"]
    for k, kind in enumerate(KINDS):
        m = action >> (KIND_BITS * k) & DECK.full
        if m:
            parts.append(kind + ":" + ",".join(DECK.codes_of(m)))
    return " ".join(parts)


def action_text(action: int) -> str:
    if 0 <= action < SIZE:
        return CODES[action]
    if SIGNAL_STEP <= action < SIGNAL_STEP * 4 and action % SIGNAL_STEP < SIZE:
        return CODES[action % SIGNAL_STEP] + " " + SIGNAL_WORDS[action // SIGNAL_STEP]
    if action in WORDS:
        return WORDS[action]
    if action >= DECLARE:
        return declaration_text(action)
    if action >= DISCARD:
        return "discard " + " ".join(DECK.codes_of(action & ~DISCARD))
    raise ActionError(f"{action!r} is not an action")


def _card(text: str) -> int:
    try:
        return DECK.card(text)
    except CardError as e:
        raise ActionError(str(e)) from None


def parse_declaration(parts: list[str]) -> int:
    """The words after ``declare``: each ``kind:c,c,c`` (B9), a kind at most once (B17)."""
    action = DECLARE
    seen: set[str] = set()
    for part in parts:
        kind, sep, cards = part.partition(":")
        kind = kind.lower()
        if not sep or kind not in KINDS:
            raise ActionError(f"{shown(part)} is not a combination: say kind:cards, e.g. kings:KC,KO,KS; "
                              f"the kinds are {', '.join(KINDS)}")
        if kind in seen:
            raise ActionError(str(KIND_TWICE), KIND_TWICE)
        seen.add(kind)
        codes = [c for c in cards.split(",")]
        if not cards or any(not c for c in codes):
            raise ActionError(f"{shown(part)}: name the cards after the colon, separated by commas")
        m = 0
        for code in codes:
            c = _card(code)
            if m >> c & 1:
                raise ActionError(f"{shown(part)} names {CODES[c]} twice")
            m |= 1 << c
        action |= m << (KIND_BITS * KINDS.index(kind))
    return action


def parse_action(text: object) -> int:
    """An action from its text (the module's docstring lists them)."""
    parts = words(text, ActionError)
    low = " ".join(parts).lower()
    if low in ("a monte", "gioco"):
        return A_MONTE if low == "a monte" else GIOCO
    head = parts[0].lower() if parts else ""
    if head == "declare":
        return parse_declaration(parts[1:])
    if head == "discard":
        cards = [_card(p) for p in parts[1:]]
        m = sum(1 << c for c in set(cards))
        if len(cards) != 2 or m.bit_count() != 2:
            raise ActionError("a discard names two different cards, e.g. 'discard 9S 10S'")
        return DISCARD | m
    if len(parts) == 2 and parts[1].lower() in SIGNAL_OF_WORD:
        return _card(parts[0]) + SIGNAL_STEP * SIGNAL_OF_WORD[parts[1].lower()]
    try:
        return DECK.card(text)
    except CardError:
        raise ActionError(f"{cut(repr(text))} is not an action: say a card code ({DECK.code_hint}) with or "
                          "without a signal (volo, trionfi, busso), a monte, gioco, 'discard' and two cards, "
                          "or 'declare' and combinations like kings:KC,KO,KS") from None


@dataclass
class Options:
    """Table options: ``signals`` (B22), on by default: the leader may attach a signal to the card led."""

    signals: bool = True

    def to_json(self) -> dict:
        return {"signals": self.signals}

    @classmethod
    def from_json(cls, data: dict | None) -> Options:
        data = dict(data or {})
        signals = data.pop("signals", True)
        if data:
            raise ValueError(f"unknown table options {cut(', '.join(sorted(map(str, data))))}; known: signals")
        if type(signals) is not bool:
            raise ValueError(f"signals is true or false (B22), not {shown(signals)}")
        return cls(signals=signals)


def decided(totals: list[int]) -> bool:
    """B26: the totals (by side, or by seat as a Match keeps them) decide the match: a side at
    800 or more, and the two unequal (equal: play goes on)."""
    return max(totals) >= TARGET and totals[0] != totals[1]


def side_of(seat: int) -> int:
    """B5: side A (0) is seats 0 and 2, side B (1) seats 1 and 3."""
    return seat & 1


def combos_json(found: list[Any]) -> dict:
    """A set of combinations as shown: each combination, its points, the doubling (B18)."""
    cricche = [c for c in found if c.kind in combos.CRICCHE]
    sequences = [c for c in found if c.kind in combos.SEQUENCES]
    return {"combinations": [c.to_json() for c in found],
            "cricche_doubled": len(cricche) >= 3, "sequences_doubled": len(sequences) >= 3,
            "points": combos.score(found)}


def pile_points(pile: int) -> tuple[list[Any], int]:
    """B25: the combinations in a pile at their best, and their points (B18 doubling)."""
    found, points = combos.pile_score(DECK.codes_of(pile))
    return list(found), int(points)


def _kinds_of_card(code: str) -> tuple[str, ...]:
    """The kinds a 1-point card can be part of (B10-B16): a numbered trump the Grande, a Moor
    the Moors, an ace the aces and its suit's sequence, a pip none."""
    if code in ("1", "2", "3", "4"):
        return ("moors",)
    if code.isdigit():
        return ("grande",)
    if code[:-1] == "1":
        return ("aces", {"C": "cups", "O": "coins", "S": "swords", "B": "batons"}[code[-1]])
    return ()


KINDS_OF: Final = [_kinds_of_card(code) if ONE_POINT >> c & 1 else () for c, code in enumerate(CODES)]


def _rescored(found: list[Any], pile: int, kinds: tuple[str, ...]) -> int:
    """The combination score of ``pile``, whose best combinations are ``found`` but for those
    of ``kinds``, found again (B25)."""
    codes = DECK.codes_of(pile)
    again = [f for f in found if f.kind not in kinds]
    for kind in kinds:
        b = combos.best(kind, codes)
        if b is not None:
            again.append(b)
    return int(combos.score(again))


def matto_card(own: int, other: int) -> int:
    """B21: which 1-point card of the Matto's side's pile (``own``, the Matto not in it) goes
    to the side that won its trick (``other``): the one that leaves ``own`` (with the Matto)
    the highest combination score; among those, the one that gives ``other`` the lowest; then
    the last in display order. -1 when ``own`` holds none. (A card moved changes only the
    combinations of the kinds it can be part of, so only those are found again; a pip changes
    none.)"""
    candidates = own & ONE_POINT
    if not candidates:
        return -1
    found_own, own_score = pile_points(own | FOOL_BIT)
    found_other, other_score = pile_points(other)
    best = -1
    best_key = (0, 0)
    for c in DECK.display_order(candidates):
        kinds = KINDS_OF[c]
        mine = _rescored(found_own, own & ~(1 << c) | FOOL_BIT, kinds) if kinds else own_score
        theirs = _rescored(found_other, other | 1 << c, kinds) if kinds else other_score
        key = (mine, -theirs)
        if best < 0 or key >= best_key:
            best, best_key = c, key
    return best


@dataclass
class Count:
    """The count (B21, B24-B26): each side's declarations, its final pile, the combinations in
    it, its card points and the last trick, its hand score and its total; or a deal thrown in
    (B7), or one decided at the declarations (B26), where the hand is not played."""

    declarations: list[list[Any]]  # by seat: the combinations it declared (B9)
    declared: list[int]  # by seat: its declaration's points (B18)
    totals_before: list[int]  # by side
    piles: list[int] = field(default_factory=lambda: [0, 0])  # by side, the Matto and the discard as settled
    pile_combos: list[list[Any]] = field(default_factory=lambda: [[], []])
    pile_scores: list[int] = field(default_factory=lambda: [0, 0])
    card_points: list[int] = field(default_factory=lambda: [0, 0])
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    last: int = -1  # the side that won the last trick
    discard: int = 0
    discard_to: int = -1  # B8: the side whose pile the discard ended in
    fool_by: int = -1
    fool_to: int = -1  # the seat that won the Matto's trick
    paid: int = -1  # B21: the card that moved for the Matto, or -1
    surrendered: bool = False  # B21: the Matto itself went over
    thrown_in: bool = False  # B7
    at_declarations: bool = False  # B26: decided before the play

    @property
    def scores(self) -> list[int]:
        """B24: each side's hand score (not zero-sum)."""
        out = [0, 0]
        for s in range(SEATS):
            out[side_of(s)] += self.declared[s]
        if self.thrown_in or self.at_declarations:
            return out
        for i in (0, 1):
            out[i] += self.pile_scores[i] + self.card_points[i] + (LAST_TRICK if self.last == i else 0)
        return out

    @property
    def totals(self) -> list[int]:
        return [t + s for t, s in zip(self.totals_before, self.scores)]

    @property
    def payments(self) -> list[int]:
        """By seat: each seat's side's hand score (a Match adds them by seat)."""
        sc = self.scores
        return [sc[side_of(s)] for s in range(SEATS)]

    @property
    def winner(self) -> int | None:
        """B26: the side that won the match with this deal, or None."""
        t = self.totals
        return (0 if t[0] > t[1] else 1) if decided(t) else None

    # What the duel's statistics read of any game's count (tarocchi.bots.duel).
    @property
    def bidder(self) -> int | None:
        return None

    @property
    def net(self) -> int:
        return 0

    @property
    def abandoned(self) -> bool:
        return self.thrown_in

    def to_json(self) -> dict:
        out: dict = {"thrown_in": self.thrown_in, "at_declarations": self.at_declarations,
                     "declarations": [dict(combos_json(self.declarations[s]), seat=s) for s in range(SEATS)]}
        if not (self.thrown_in or self.at_declarations):
            sides = []
            for i in (0, 1):
                found = combos_json(self.pile_combos[i])
                sides.append({
                    "seats": [i, i + 2], "declared": self.declared[i] + self.declared[i + 2],
                    "cards": DECK.codes_of(self.piles[i]), "tricks": self.tricks[i],
                    "combinations": found["combinations"], "cricche_doubled": found["cricche_doubled"],
                    "sequences_doubled": found["sequences_doubled"], "combination_points": self.pile_scores[i],
                    "pairs": self.piles[i].bit_count() // 2, "card_value": DECK.value(self.piles[i]),
                    "card_points": self.card_points[i], "last_trick": LAST_TRICK if self.last == i else 0,
                })
            out["sides"] = sides
            out["discard"] = DECK.codes_of(self.discard)
            out["discard_to"] = self.discard_to
            out["fool"] = {"seat": self.fool_by, "trick_winner": self.fool_to,
                           "paid": CODES[self.paid] if self.paid >= 0 else None, "surrendered": self.surrendered}
        else:
            out["sides"] = [{"seats": [i, i + 2], "declared": self.declared[i] + self.declared[i + 2]}
                            for i in (0, 1)]
        for i, s in enumerate(out["sides"]):
            s["score"] = self.scores[i]
        out["scores"] = self.scores
        out["totals_before"] = list(self.totals_before)
        out["totals"] = self.totals
        out["winner"] = self.winner
        out["payments"] = self.payments
        return out


def tally(piles: list[int], last: int) -> tuple[list[list[Any]], list[int], list[int]]:
    """B24, B25: the two final piles' combinations, their points, and the card points with the
    last trick's 6 to side ``last``."""
    found: list[list[Any]] = []
    scores: list[int] = []
    for p in piles:
        f, n = pile_points(p)
        found.append(f)
        scores.append(n)
    points = [DECK.points(p) + (LAST_TRICK if i == last else 0) for i, p in enumerate(piles)]
    return found, scores, points


_NO_COMBOS: Final[list[Any]] = []


class Deal(TrickPlay):
    """One deal. Seats 0-3, partners opposite (B5); deal and play go to the next seat number.
    ``totals``: the match totals before this deal, by seat as a Match keeps them (B26)."""

    def __init__(self, seats: int, dealer: int, deck: list[int], options: Options | None = None,
                 *, log: bool = True, totals: list[int] | None = None):
        if not self._init_table(seats, dealer, deck, options or Options(), (SEATS,), SIZE,
                         "Ottocento is played at four seats",  # B5
                         "a deck order holds each of the 62 cards once (B6)"):
            return  # copy()'s blank deal: copy() sets every field
        before = [0, 0]
        if totals is not None:
            if (not isinstance(totals, list) or len(totals) != SEATS
                    or any(type(t) is not int for t in totals) or totals[0] != totals[2] or totals[1] != totals[3]):
                raise ValueError("totals are the match totals before the deal by seat, partners equal: [A, B, A, B]")
            before = [totals[0], totals[1]]
            if decided(before):
                raise ValueError(f"totals {before} already decide the match (B26): no deal is dealt")
        self.totals_before = before
        # B6: three rounds of packets of five from dealer + 1; cards 61-62 to the dealer. The
        # hands hold what has been dealt: the first round only until the a monte question ends.
        self.packets: list[int] = [0, 0, 0, 0]
        self.hands = [0, 0, 0, 0]
        self._deal(SEATS, PACKET)
        self.phase = MONTE_PHASE
        self.to_act = (dealer + 1) % SEATS  # B7
        self.history = []
        self.events = [] if log else None
        self.said: list[int] = []  # B7: the answers so far, from dealer + 1
        self.thrown_in = False
        self.discarded = 0
        self.declarations: list[list[Any] | None] = [None, None, None, None]  # B9: by seat, once made
        self.declared: list[int] = [0, 0, 0, 0]  # B18: each seat's declaration's points
        self.declared_cards: list[int] = [0, 0, 0, 0]  # the cards each seat showed
        self._init_tricks("ottocento", RULES, CODES, (dealer + 1) % SEATS, TRICKS)  # B19: dealer + 1 leads
        self.discard_rule, self.discard_flag = DISCARD_RULE, DISCARD  # B8
        self.signal = 0  # B22: the signal on the card led in the trick in play, 0 for none
        self.last_signal = 0  # the signal on the card led in ``last_trick``
        self.signals: list[tuple[int, int, int]] = []  # (seat, card, signal) of every signal made
        self.count: Count | None = None

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_seed(cls, dealer: int, seed: int | str, options: Options | None = None) -> Deal:
        return cls.shuffled(SEATS, dealer, random.Random(seed), options)

    def _copy_rest(self, d: Deal) -> None:
        d.totals_before, d.packets = self.totals_before[:], self.packets[:]
        d.said, d.thrown_in, d.discarded = self.said[:], self.thrown_in, self.discarded
        d.declarations, d.declared = self.declarations[:], self.declared[:]
        d.declared_cards = self.declared_cards[:]
        d.signal, d.last_signal, d.signals, d.count = self.signal, self.last_signal, self.signals[:], self.count

    # --- the state API (the engine's TrickPlay: refusal, apply, record) ----------------------

    def partner(self, seat: int) -> int:
        return (seat + 2) % SEATS  # B5

    def returns(self) -> list[int]:
        """By seat, its side's hand score (B24; not zero-sum); zeros for a deal thrown in (B7);
        the declarations alone for a match decided at them (B26); [] before the end."""
        return self.count.payments if self.count is not None else []

    def best_declaration(self, seat: int) -> list[Any]:
        """B9-B18: the full best declaration of ``seat``'s hand, one combination per kind."""
        return list(combos.best_all(DECK.codes_of(self.hands[seat])))

    def legal_actions(self) -> Sequence[int]:
        """The seat's legal actions. At the declarations (B9) not every subset (a declaration
        may shrink any combination): the full best, each of its combinations alone, and none."""
        seat = self.to_act
        if seat is None:
            return []
        if self.phase == PLAY:
            cards = self.legal_card_list()
            if not self.trick and self.options.signals:
                return cards + [c + SIGNAL_STEP * s for c in cards for s in (VOLO, TRIONFI, BUSSO)
                                if self._signal_refusal(seat, c, s) is None]
            return cards
        if self.phase == MONTE_PHASE:
            return [A_MONTE, GIOCO]
        if self.phase == DISCARD_PHASE:
            must, pool, need = self.discard_choice()  # B8, listed lazily
            return Combinations(DISCARD, must, pool, need)
        best = self.best_declaration(seat)
        out = [declaration_action(best)]
        if len(best) > 1:
            out += [declaration_action([c]) for c in best]
        if best:
            out.append(DECLARE)
        return out

    def _not_an_action(self, error: ValueError) -> str:
        return error.reason if isinstance(error, ActionError) else Reason(NOT_AN_ACTION, str(error))

    def _record_extra(self) -> dict:
        t = self.totals_before
        return {"totals": [t[0], t[1], t[0], t[1]]}  # B26: the match totals before the deal

    def _refusal(self, seat: int, action: int) -> str | None:
        hand = self.hands[seat]
        phase = self.phase
        if phase == MONTE_PHASE:
            return None if action in (A_MONTE, GIOCO) else MONTE_NOW
        if phase == DISCARD_PHASE:
            if not DISCARD <= action < DECLARE:
                return DISCARD_NOW
            return DISCARD_RULE.refusal(hand, action & ~DISCARD)  # B8
        if phase == DECLARE_PHASE:
            if action < DECLARE or action >= DECLARE << 1:
                return DECLARE_NOW
            return self._declaration_refusal(hand, action)
        if not 0 <= action < SIGNAL_STEP * 4 or action % SIGNAL_STEP >= SIZE:
            return PLAY_NOW
        c = action % SIGNAL_STEP
        if not hand >> c & 1:
            return NOT_IN_HAND
        why = RULES.refusal(hand, c, self.trick)  # B19, B20
        if why is not None:
            return FOLLOW_SUIT if why == tricks.FOLLOW_SUIT else PLAY_TRUMP
        return self._signal_refusal(seat, c, action // SIGNAL_STEP) if action >= SIGNAL_STEP else None

    def _signal_refusal(self, seat: int, c: int, signal: int) -> Reason | None:
        """B22: a signal only on the card led, at a table with signals; Volo only when true."""
        if not self.options.signals:
            return SIGNALS_OFF
        if self.trick:
            return SIGNAL_NOT_LED
        if signal == VOLO:
            if c == FOOL:
                return VOLO_FOOL
            if self.hands[seat] & ~(1 << c) & SUIT_MASK_OF[c]:
                return VOLO_FALSE
        return None

    def _declaration_refusal(self, hand: int, action: int) -> Reason | None:
        """B9-B18: every combination's cards in the hand, each one valid as given."""
        for k, kind in enumerate(KINDS):
            m = action >> (KIND_BITS * k) & DECK.full
            if not m:
                continue
            if m & ~hand:
                return DECLARE_NOT_HELD
            try:
                combos.check(kind, DECK.codes_of(m))
            except combos.ComboError as e:
                return e.reason
        return None

    def _phase_words(self) -> str:
        words = {MONTE_PHASE: MONTE_NOW, DISCARD_PHASE: DISCARD_NOW, DECLARE_PHASE: DECLARE_NOW}
        return words.get(self.phase, PLAY_NOW)

    def _take(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(seat, action % SIGNAL_STEP, action // SIGNAL_STEP)
        elif phase == MONTE_PHASE:
            self._say(seat, action)
        elif phase == DISCARD_PHASE:
            self._discard(action & ~DISCARD)
        else:
            self._declare(seat, action)

    def _event(self, event: dict) -> None:
        if self.events is not None:
            self.events.append(event)

    # --- a monte (B7) and the rest of the deal (B6) ---------------------------------------

    def _say(self, seat: int, action: int) -> None:
        self.said.append(action)
        self._event({"type": "monte", "seat": seat, "said": WORDS[action]})
        if action == GIOCO:
            self._deal_rest()
        elif len(self.said) == SEATS:  # B7: four a monte: thrown in, no score
            self.thrown_in = True
            self.count = Count(declarations=[[], [], [], []], declared=[0, 0, 0, 0],
                               totals_before=self.totals_before[:], thrown_in=True)
            self.phase = DONE
            self.to_act = None
            self._event({"type": "thrown_in"})
        else:
            self.to_act = (seat + 1) % SEATS

    def _deal_rest(self) -> None:
        deck = self.deck
        self._deal(2 * SEATS, PACKET, PACKET * SEATS)  # B6: two more rounds of packets
        for c in deck[SIZE - 2:]:
            self.hands[self.dealer] |= 1 << c
        self.phase = DISCARD_PHASE
        self.to_act = self.dealer

    # --- the discard (B8) and the declarations (B9-B18, B26) ------------------------------

    def _discard(self, cards: int) -> None:
        self.hands[self.dealer] &= ~cards
        self.discarded = cards
        self._event({"type": "discard", "seat": self.dealer})
        self.phase = DECLARE_PHASE
        self.to_act = (self.dealer + 1) % SEATS  # B9

    def _declare(self, seat: int, action: int) -> None:
        found = []
        shown_cards = 0
        for k, kind in enumerate(KINDS):
            m = action >> (KIND_BITS * k) & DECK.full
            if m:
                found.append(combos.check(kind, DECK.codes_of(m)))
                shown_cards |= m
        points = int(combos.score(found)) if found else 0
        self.declarations[seat] = found
        self.declared[seat] = points
        self.declared_cards[seat] = shown_cards
        self._event(dict(combos_json(found), type="declare", seat=seat))
        if seat != self.dealer:
            self.to_act = (seat + 1) % SEATS
            return
        totals = self.declared_totals()
        if decided(totals):  # B26: a side at 800 wins without playing the hand
            self.count = Count(declarations=[list(d or _NO_COMBOS) for d in self.declarations],
                               declared=self.declared[:], totals_before=self.totals_before[:], at_declarations=True)
            self._end(self.count)
            return
        self.phase = PLAY
        self.to_act = self.leader  # B19: dealer + 1 leads

    def declaration_of(self, seat: int) -> int:
        """The declaring action ``seat`` took (B9), or -1 before it declares."""
        for s, a in self.history:
            if s == seat and a >= DECLARE:
                return a
        return -1

    def declared_totals(self) -> list[int]:
        """The match totals by side with this deal's declarations so far (B9, B26)."""
        t = self.totals_before[:]
        for s in range(SEATS):
            t[side_of(s)] += self.declared[s]
        return t

    # --- play (B19-B23) -----------------------------------------------------------------

    def _play(self, seat: int, c: int, signal: int) -> None:
        if not self.trick:
            self.signal = signal
            if signal:
                self.signals.append((seat, c, signal))
        self._play_card(seat, c)  # B19, B20: the engine's trick play, the Moors equal on top (B2)

    def _log_play(self, seat: int, c: int) -> None:
        assert self.events is not None
        e: dict = {"type": "play", "seat": seat, "card": CODES[c]}
        if self.signal and len(self.trick) == 1:  # the card led, with its signal (B22)
            e["signal"] = SIGNAL_WORDS[self.signal]
        self.events.append(e)

    def _trick_closed(self, winner: int) -> None:
        self.last_signal = self.signal
        self.signal = 0

    # --- the count (B8, B21, B24-B26) -----------------------------------------------------

    def _count(self) -> None:
        assert self.last_trick is not None
        piles = [self.won[0] | self.won[2], self.won[1] | self.won[3]]
        tricks_by_side = [self.tricks_won[0] + self.tricks_won[2], self.tricks_won[1] + self.tricks_won[3]]
        dealer_side = side_of(self.dealer)
        # B8: the discard counts for the dealer's side, or goes over if that side won no trick.
        discard_to = dealer_side if tricks_by_side[dealer_side] else 1 - dealer_side
        piles[discard_to] |= self.discarded
        # B20, B21: the Matto to its side's pile; an opponent's trick is paid a 1-point card.
        mine, theirs = side_of(self.fool_by), side_of(self.fool_to)
        paid, surrendered = -1, False
        if mine == theirs:
            piles[mine] |= FOOL_BIT
        else:
            paid = matto_card(piles[mine], piles[theirs]) if tricks_by_side[mine] else -1
            if paid < 0:  # no trick, or no 1-point card: the Matto itself goes over
                piles[theirs] |= FOOL_BIT
                surrendered = True
            else:
                piles[mine] = piles[mine] & ~(1 << paid) | FOOL_BIT
                piles[theirs] |= 1 << paid
        last = side_of(self.last_trick[2])
        found, scores, points = tally(piles, last)
        self.count = Count(declarations=[list(d or _NO_COMBOS) for d in self.declarations],
                           declared=self.declared[:], totals_before=self.totals_before[:], piles=piles,
                           pile_combos=found, pile_scores=scores,
                           card_points=[DECK.points(p) for p in piles], tricks=tricks_by_side, last=last,
                           discard=self.discarded, discard_to=discard_to, fool_by=self.fool_by,
                           fool_to=self.fool_to, paid=paid, surrendered=surrendered)
        self._end(self.count)

    # --- what one seat may know ---------------------------------------------------------

    def choices(self, seat: int) -> list[dict]:
        """What ``seat`` may do now, each with its reason if refused: a monte and gioco; the
        cards of the discard one by one; at the declarations the full best declaration first
        (each combination with its points and the cards it may lose, ``shrinkable``), then
        each combination alone, then none; in play each card, and on a lead each card with
        each signal (B22). [] when it is not ``seat``'s turn."""
        if self.phase == DONE or seat != self.to_act:
            return []
        hand = self.hands[seat]
        if self.phase == MONTE_PHASE:
            return [choice(WORDS[a], None) for a in (A_MONTE, GIOCO)]
        if self.phase == DISCARD_PHASE:
            return [choice(CODES[c], None if not FIVES >> c & 1 else DISCARD_FORBIDDEN)
                    for c in DECK.display_order(hand)]
        if self.phase == DECLARE_PHASE:
            best = self.best_declaration(seat)
            out = [_declaration_choice(best)]
            if len(best) > 1:
                out += [_declaration_choice([c]) for c in best]
            if best:
                out.append(_declaration_choice([]))
            return out
        legal = self.legal_cards()
        out = []
        leading = not self.trick and self.options.signals
        for c in DECK.display_order(hand):
            why = None if legal >> c & 1 else self.reason(seat, c)
            out.append(choice(CODES[c], why))
            if leading:
                for s in (VOLO, TRIONFI, BUSSO):
                    out.append(choice(CODES[c] + " " + SIGNAL_WORDS[s], why or self._signal_refusal(seat, c, s)))
        return out

    def view(self, seat: int) -> dict:
        """Everything ``seat`` may know, and nothing more: its hand (five cards until the a
        monte question ends), the answers, its own discard if it deals (for all at the count),
        every declaration with its cards once made (B9), every card played and the signal on
        each card led (B22); at the count, both piles itemised. JSON-ready."""
        return self._view(seat)

    def public_view(self) -> dict:
        """What anyone at the table may know (a spectator): the answers, every declaration with
        its cards (B9), every card played and its signal (B22), the sides; the dealer's discard
        and both piles at the count; no hand, no partner of its own."""
        return self._view(None)

    def _view(self, seat: int | None) -> dict:
        """A seat's view, or (``seat`` None) the public one."""
        counted = self.count is not None and not self.thrown_in and not self.count.at_declarations
        n, dealer = SEATS, self.dealer
        v: dict = {
            **self.seat_view(seat),
            "partner": self.partner(seat) if seat is not None else None,
            "sides": [[0, 2], [1, 3]],
            "options": self.options.to_json(),
            "monte": [{"seat": (self.dealer + 1 + i) % n, "said": WORDS[a]} for i, a in enumerate(self.said)],
            "thrown_in": self.thrown_in,
            "discard": DECK.codes_of(self.discarded) if self.discarded and (counted or seat == self.dealer) else None,
            "declarations": [None if d is None else dict(combos_json(d), seat=s)
                             for s, d in enumerate(self.declarations)],
            "target": TARGET,
            "totals_before": self.totals_before[:],
            "totals": self.count.totals if self.count is not None else self.declared_totals(),
            "choices": self.choices(seat) if seat is not None else [],
            "leader": self.leader if self.phase == PLAY else None,
            "trick": self.trick_json(),
            "signal": SIGNAL_WORDS[self.signal] if self.trick and self.signal else None,
            "last_trick": None,
            "tricks": self.tricks_won[:],
            "played": [DECK.codes_of(p) for p in self.played],
            "signals": [{"seat": s, "card": CODES[c], "signal": SIGNAL_WORDS[g]} for s, c, g in self.signals],
            "fool": None if self.fool_to < 0 else {"seat": self.fool_by, "trick_winner": self.fool_to},
            "actions": [{"seat": s, "action": "discard" if DISCARD <= a < DECLARE and not (counted or seat == dealer)
                         else action_text(a)} for s, a in self.history],
            "count": self.count.to_json() if self.count else None,
        }
        last = self.last_trick_json()
        if last is not None:  # with the signal on its card led (B22)
            v["last_trick"] = dict(last, signal=SIGNAL_WORDS[self.last_signal] if self.last_signal else None)
        return v


def declaration_action(found: list[Any]) -> int:
    """The action that declares ``found`` (Combinations)."""
    action = DECLARE
    for c in found:
        action |= DECK.mask_of(list(c.cards)) << (KIND_BITS * KINDS.index(c.kind))
    return action


def _declaration_choice(found: list[Any]) -> dict:
    """A declaration offered (B9): its action, its combinations each with its points and the
    cards that may be taken out of it (``shrinkable``), its points with the doubling (B18)."""
    shown_combos = combos_json(found)
    for c, j in zip(found, shown_combos["combinations"]):
        j["shrinkable"] = list(combos.shrinkable(c))
    return dict(choice(action_text(declaration_action(found)), None), **shown_combos)


OTTOCENTO: Final = register(Game(
    name="ottocento", title="Ottocento (Tarocchino bolognese)", seats=(SEATS,), deck=DECK, deal=Deal,
    options=Options, parse_action=parse_action, action_text=action_text, discard_rule=DISCARD_RULE,
    reasons=REASONS, target=TARGET, decided=decided, deal_totals=True,  # B26: to 800, checked at declarations
    sides=side_of,  # B1: two partnerships
))
