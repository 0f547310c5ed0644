"""Calabresella with Sicilian tarot cards: three seats, one challenger (the *sfidante*) against
the other two, from the deck order to the count.

The rules text is ``shared/seeds/003_31c67715f7f6ce67.txt`` (the seed, in Italian); the rulings
``shared/rules/CALABRESELLA.md`` (cited as C1..C22) settle what it leaves open. The deck, its
codes and points and the trick rules are Sicilian's (R1, R2, R13, R14): ``tarocchi.engine.cards``
and ``tarocchi.engine.tricks``, reused, not copied.

Actions, as text (docs/records.md): the auction's words ``passo``, ``sta bene``, ``chiamo``,
``vado solo``, ``vado solissimo``, ``vado solissimo dividete``, ``vado solissimo scegliete``;
``chiamo 7C`` names the called card; ``restituisco QS`` gives a card back to the giver;
``scarto 5C 6O MB`` lays cards face down into the monte (``discard`` is read as ``scarto``);
``prendo 7C`` takes face-up monte cards in scegliete, ``passo`` takes none; a card code plays it.

>>> from tarocchi.games.calabresella import Deal
>>> d = Deal(3, 0, list(range(63)))              # the deck in code order, seat 0 deals
>>> d.phase, d.to_act, [d.hand_size(s) for s in range(3)]   # dealer + 1 speaks first (C8)
('speak', 1, [20, 20, 20])
>>> d.refusal(1, "sta bene")
'nobody has bid yet: passo or a bid'
>>> d.apply("chiamo"); d.refusal(2, "chiamo")
'bid higher than chiamo'
>>> d.apply("vado solo"); d.apply("sta bene")      # seat 2 plays solo (K2)
>>> d.challenger, d.phase, d.hand_size(2)          # the monte turned up and taken (C11)
(2, 'discard', 23)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from ..engine import tricks
from ..engine.cards import DECK, LAST_TRICK_BONUS, LOW_TRUMPS, NEVER_DISCARD, TOTAL_POINTS
from ..engine.deck import ActionError, CardError, cards_in, shown, words
from ..engine.choices import Combinations
from ..engine.discards import DiscardRule
from ..engine.game import (
    DEAL_OVER, NOT_IN_HAND, NOT_YOUR_TURN, PLAY_NOW, Game, NoOptions, Reason, choice, register,
)
from ..engine.trickplay import TrickPlay
from ..engine.tricks import SICILIAN as RULES  # C15: R13's following, trumping, ranking and the Fool

SIZE: Final = 63
SEATS: Final = 3
HAND: Final = 20
PACKET: Final = 5
MONTE: Final = 3
TRICKS: Final = 20
FOOL: Final = DECK.fool
FOOL_BIT: Final = DECK.fool_bit
LINE: Final = 55  # C17: 55 of 109 wins
TARGET: Final = 21  # C21: the match ends when a seat has 21
# C19: the 23 counting cards: 20, 19-16, 1, F, Kings, Queens, Horses, Maids.
COUNTING: Final = sum(1 << c for c in range(SIZE) if DECK.values[c] >= 2)
assert DECK.size == SIZE and COUNTING.bit_count() == 23 and DECK.points(DECK.full) + LAST_TRICK_BONUS == TOTAL_POINTS

# --- actions ------------------------------------------------------------------------------

PASSO: Final = 100
STA_BENE: Final = 101
CHIAMO: Final = 102
VADO_SOLO: Final = 103
SOLISSIMO: Final = 104
DIVIDETE: Final = 105
SCEGLIETE: Final = 106
CALL: Final = 200  # CALL + card: "chiamo 7C"
GIVE: Final = 300  # GIVE + card: "restituisco 7C"
LAY: Final = 1 << 64  # flag bit above the deck; the low bits hold the cards laid face down
TAKE: Final = 1 << 65  # flag bit; the face-up monte cards taken in scegliete

WORDS: Final = {
    PASSO: "passo", STA_BENE: "sta bene", CHIAMO: "chiamo", VADO_SOLO: "vado solo",
    SOLISSIMO: "vado solissimo", DIVIDETE: "vado solissimo dividete", SCEGLIETE: "vado solissimo scegliete",
}
ACTION_OF_WORD: Final = {w: a for a, w in WORDS.items()}
BIDS: Final = (CHIAMO, VADO_SOLO, SOLISSIMO, DIVIDETE, SCEGLIETE)
RANK: Final = {CHIAMO: 1, VADO_SOLO: 2, SOLISSIMO: 3, DIVIDETE: 3, SCEGLIETE: 3}  # C8
STAKE: Final = {CHIAMO: 2, VADO_SOLO: 4, SOLISSIMO: 8, DIVIDETE: 16, SCEGLIETE: 32}  # C18
CONTRACT: Final = {CHIAMO: "chiamo", VADO_SOLO: "solo", SOLISSIMO: "solissimo", DIVIDETE: "solissimo dividete",
                   SCEGLIETE: "solissimo scegliete"}

# --- phases -------------------------------------------------------------------------------

SPEAK: Final = "speak"  # the auction (C8, C9)
CALL_PHASE: Final = "call"  # the caller names his card (C10)
GIVE_PHASE: Final = "give"  # the caller gives the giver a card back (C10)
DISCARD_PHASE: Final = "discard"  # three cards laid face down (C10, C11, C12): cards chosen one by one
LAY_PHASE: Final = "lay"  # one or two cards laid face down (C11, C12): choices are whole actions
TAKE_PHASE: Final = "take"  # scegliete: face-up monte cards taken, or none (C12)
PLAY: Final = "play"
DONE: Final = "done"

# --- refusals: a player's words, each with a stable id ------------------------------------

SPEAK_NOW: Final = Reason("speak_now", "now is the time to speak")
CALL_NOW: Final = Reason("call_now", "now is the time to call a card: chiamo and its code")
GIVE_NOW: Final = Reason("give_now", "now is the time to give the giver a card back: restituisco and its code")
LAY_NOW: Final = Reason("lay_now", "now is the time to lay cards face down: scarto and the cards")
TAKE_NOW: Final = Reason("take_now", "now is the time to take face-up monte cards (prendo) or passo")
PASSO_AFTER_BID: Final = Reason("passo_after_bid", "there is a bid: sta bene or a higher bid")  # C8
STA_BENE_NO_BID: Final = Reason("sta_bene_no_bid", "nobody has bid yet: passo or a bid")  # C8
BID_HIGHER: Final = {CHIAMO: Reason("bid_above_chiamo", "bid higher than chiamo"),  # C8
                     VADO_SOLO: Reason("bid_above_solo", "bid higher than vado solo")}
CALL_OWN: Final = Reason("call_own_card", "you hold that card: call one you do not hold")  # C10
GIVE_CALLED: Final = Reason("give_called_card", "you may not give back the called card")  # C10
LAY_FORBIDDEN: Final = Reason("lay_forbidden", "you may not lay a trump, the Fool or a King")  # C13
LAY_FALLBACK: Final = Reason("lay_fallback", "only Miseria and trumps 2 to 15, and no more than you must")  # C13
LAY_COUNT: Final = {n: Reason(f"lay_{w}", f"lay {w} {'card' if n == 1 else 'cards'} face down")
                    for n, w in ((1, "one"), (2, "two"), (3, "three"))}
NOT_FACE_UP: Final = Reason("take_not_face_up", "take only cards lying face up in the monte")  # C12
FOLLOW_SUIT: Final = Reason("follow_suit", tricks.FOLLOW_SUIT)
PLAY_TRUMP: Final = Reason("play_trump", tricks.PLAY_TRUMP)
FOOL_CANNOT_LEAD: Final = Reason("fool_cannot_lead", tricks.FOOL_CANNOT_LEAD)
TRICK_REASONS: Final = {str(r): r for r in (FOLLOW_SUIT, PLAY_TRUMP, FOOL_CANNOT_LEAD)}
REASONS: Final = {r.id: str(r) for r in (
    NOT_YOUR_TURN, DEAL_OVER, NOT_IN_HAND, SPEAK_NOW, CALL_NOW, GIVE_NOW, LAY_NOW, TAKE_NOW, PLAY_NOW,
    PASSO_AFTER_BID, STA_BENE_NO_BID, *BID_HIGHER.values(), CALL_OWN, GIVE_CALLED, LAY_FORBIDDEN, LAY_FALLBACK,
    *LAY_COUNT.values(), NOT_FACE_UP, FOLLOW_SUIT, PLAY_TRUMP, FOOL_CANNOT_LEAD)}

# C13: never a trump (Miseria included), the Fool or a King; a seat short of other cards fills
# the lay with Miseria and trumps 2-15, no more than needed (R11's rule, one per size).
LAY_RULES: Final = {n: DiscardRule(n, NEVER_DISCARD, LOW_TRUMPS, LAY_FORBIDDEN, LAY_FALLBACK, NOT_IN_HAND,
                                   LAY_COUNT[n]) for n in (1, 2, 3)}
DISCARD_RULE: Final = LAY_RULES[3]  # the "discard" phase's, for a player that sees only a view


def action_text(action: int) -> str:
    if 0 <= action < SIZE:
        return DECK.codes[action]
    if action in WORDS:
        return WORDS[action]
    if CALL <= action < CALL + SIZE:
        return "chiamo " + DECK.codes[action - CALL]
    if GIVE <= action < GIVE + SIZE:
        return "restituisco " + DECK.codes[action - GIVE]
    if action >= TAKE:
        return "prendo " + " ".join(DECK.codes_of(action & ~TAKE))
    if action >= LAY:
        return "scarto " + " ".join(DECK.codes_of(action & ~LAY))
    raise ActionError(f"{action!r} is not an action")


def _cards(parts: list[str]) -> int:
    try:
        m = DECK.mask_of(parts)
    except CardError as e:
        raise ActionError(str(e)) from None
    if not 1 <= len(parts) <= MONTE or m.bit_count() != len(parts):
        raise ActionError("name one to three different cards, e.g. 'scarto 5C 6O MB'")
    return m


def parse_action(text: object) -> int:
    """An action from its text: a word of the auction, chiamo or restituisco and a card, scarto
    or prendo and cards, or a card (the module's docstring lists them)."""
    parts = words(text, ActionError)
    low = " ".join(parts).lower()
    if low in ACTION_OF_WORD:
        return ACTION_OF_WORD[low]
    head = parts[0].lower() if parts else ""
    try:
        if head == "chiamo" and len(parts) == 2:
            return CALL + DECK.card(parts[1])
        if head == "restituisco" and len(parts) == 2:
            return GIVE + DECK.card(parts[1])
    except CardError as e:
        raise ActionError(str(e)) from None
    if head in ("scarto", "discard"):
        return LAY | _cards(parts[1:])
    if head == "prendo":
        return TAKE | _cards(parts[1:])
    try:
        return DECK.card(text)
    except CardError:
        raise ActionError(f"{shown(text)} is not an action: say a card code ({DECK.code_hint}), one of "
                          f"{', '.join(WORDS.values())}, chiamo, restituisco, scarto or prendo and cards") from None


Options = NoOptions  # no table options: the game is played to 21 (C21)


def match_over(totals: list[int]) -> bool:
    """C21: after a deal's payment, the match ends once a seat has 21 or more."""
    return max(totals) >= TARGET


def match_winners(totals: list[int]) -> list[int]:
    """C21: the highest total wins; a tie at the top is shared."""
    top = max(totals)
    return [s for s, t in enumerate(totals) if t == top]


@dataclass
class Count:
    """The count (C16-C20): the two sides' piles (challenger first), their points, the monte
    and who took it, cappotto or stramazzo, and the payments."""

    challenger: int
    contract: int
    piles: list[int]  # [the challenger's, the opponents'], the Fool and the monte included
    points: list[int]
    tricks: list[int]
    monte: int
    monte_to: int  # the side that won the last trick: 0 the challenger, 1 the opponents
    fool_to: int  # the side the Fool went to
    cappotto: int  # the side that made it, or -1
    stramazzo: int
    won: bool
    payments: list[int]
    thrown_in: bool = False  # C9: three passes; nothing else above means anything then

    @classmethod
    def thrown(cls) -> Count:
        return cls(challenger=-1, contract=-1, piles=[0, 0], points=[0, 0], tricks=[0, 0], monte=0, monte_to=-1,
                   fool_to=-1, cappotto=-1, stramazzo=-1, won=False, payments=[0, 0, 0], thrown_in=True)

    @property
    def multiplier(self) -> int:
        return 3 if self.stramazzo >= 0 else 2 if self.cappotto >= 0 else 1  # C19

    # What the duel's statistics read of any game's count (tarocchi.bots.duel).
    @property
    def bidder(self) -> int | None:
        return None if self.thrown_in else self.challenger

    @property
    def abandoned(self) -> bool:
        return self.thrown_in

    @property
    def net(self) -> int:
        return 0 if self.thrown_in else 1 if self.won else -1

    def to_json(self) -> dict:
        if self.thrown_in:
            return {"thrown_in": True, "payments": self.payments}
        sides = []
        for i, pile in enumerate(self.piles):
            sides.append({"cards": DECK.codes_of(pile), "counting": DECK.codes_of(pile & COUNTING),
                          "blanks": (pile & ~COUNTING).bit_count(), "tricks": self.tricks[i], "points": self.points[i]})
        return {"challenger": self.challenger, "contract": CONTRACT[self.contract], "stake": STAKE[self.contract],
                "sides": sides, "monte": DECK.codes_of(self.monte), "monte_to": self.monte_to,
                "fool_to": self.fool_to, "line": LINE, "total": TOTAL_POINTS,
                "cappotto": self.cappotto, "stramazzo": self.stramazzo, "multiplier": self.multiplier,
                "won": self.won, "payments": self.payments}


class Deal(TrickPlay):
    """One deal. Seats 0, 1, 2; dealing, speaking and play go to the next seat number."""

    def __init__(self, seats: int, dealer: int, deck: list[int], options: Options | None = None,
                 *, log: bool = True):
        if not self._init_table(seats, dealer, deck, options or Options(), (SEATS,), SIZE,
                         "Calabresella is played at three seats",  # C6
                         "a deck order holds each of the 63 cards once"):
            return  # copy()'s blank deal: copy() sets every field
        # C7 (R3): packets of five from dealer + 1, four rounds: 20 each; the last 3 the monte.
        self.hands = [0, 0, 0]
        self._deal(HAND // PACKET * SEATS, PACKET)
        self.monte_order = list(deck[SIZE - MONTE:])  # deck order: dividete's cards 1-2 and 3 (C11)
        self.monte = sum(1 << c for c in self.monte_order)  # the monte as it stands now
        self.phase = SPEAK
        self.to_act = (dealer + 1) % SEATS  # C8
        self.history = []
        self.events = [] if log else None
        self.spoken = 0
        self.bid = -1  # the highest bid so far
        self.challenger = -1
        self.thrown_in = False
        self.called = -1
        self.giver = -1
        self.given_back = -1
        self.turned_up = 0  # the monte as turned up for all (C10, C11, C12); 0 if it was not
        self.face_up = 0  # scegliete: the cards still lying face up in the monte (C12)
        self.took = [0, 0, 0]  # monte cards each opponent took (dividete: his alone to see; C11)
        self.laid = [0, 0, 0]  # cards each seat laid face down (its own to see until the count)
        self.lay_count = 0
        self._init_tricks("calabresella", RULES, DECK.codes, (dealer + 1) % SEATS, TRICKS)  # C15: dealer + 1 leads
        self.discard_rule, self.discard_flag = DISCARD_RULE, LAY  # a lay's rule: ``_to_lay``
        self.count: Count | None = None

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_seed(cls, dealer: int, seed: int | str) -> Deal:
        return cls.shuffled(SEATS, dealer, random.Random(seed))

    def _copy_rest(self, d: Deal) -> None:
        d.monte_order, d.monte = self.monte_order, self.monte
        d.spoken, d.bid, d.challenger, d.thrown_in = self.spoken, self.bid, self.challenger, self.thrown_in
        d.called, d.giver, d.given_back = self.called, self.giver, self.given_back
        d.turned_up, d.face_up, d.took, d.laid = self.turned_up, self.face_up, self.took[:], self.laid[:]
        d.lay_count, d.count = self.lay_count, self.count

    # --- the state API (the engine's TrickPlay: refusal, apply, record) ----------------------

    def returns(self) -> list[int]:
        """Each seat's payment (C18-C20); zeros for a deal thrown in (C9); [] before the end."""
        return self.count.payments[:] if self.count is not None else []

    def side_of(self, seat: int) -> int:
        return 0 if seat == self.challenger else 1  # C6

    def legal_actions(self) -> Sequence[int]:
        seat = self.to_act
        if seat is None:
            return []
        if self.phase == PLAY:
            return self.legal_card_list()
        if self.phase in (DISCARD_PHASE, LAY_PHASE):
            must, pool, need = self.discard_choice()  # C13, listed lazily
            return Combinations(LAY, must, pool, need)
        if self.phase == TAKE_PHASE:
            up = list(cards_in(self.face_up))
            return [PASSO] + [TAKE | sum(1 << c for c in cs) for n in range(1, len(up) + 1) for cs in combinations(up, n)]
        if self.phase == SPEAK:
            return [a for a in (PASSO, STA_BENE) + BIDS if self._speak_refusal(a) is None]
        if self.phase == CALL_PHASE:
            return [CALL + c for c in range(SIZE) if not self.hands[seat] >> c & 1]
        return [GIVE + c for c in cards_in(self.hands[seat]) if c != self.called]  # GIVE_PHASE

    def _refusal(self, seat: int, action: int) -> str | None:
        hand = self.hands[seat]
        phase = self.phase
        if phase == SPEAK:
            return self._speak_refusal(action)
        if phase == CALL_PHASE:
            if not CALL <= action < CALL + SIZE:
                return CALL_NOW
            return CALL_OWN if hand >> (action - CALL) & 1 else None  # C10
        if phase == GIVE_PHASE:
            if not GIVE <= action < GIVE + SIZE:
                return GIVE_NOW
            c = action - GIVE
            if not hand >> c & 1:
                return NOT_IN_HAND
            return GIVE_CALLED if c == self.called else None  # C10
        if phase in (DISCARD_PHASE, LAY_PHASE):
            if not LAY <= action < TAKE:
                return LAY_NOW
            return LAY_RULES[self.lay_count].refusal(hand, action & ~LAY)  # C13
        if phase == TAKE_PHASE:
            if action == PASSO:
                return None
            if action < TAKE:
                return TAKE_NOW
            return NOT_FACE_UP if action & ~TAKE & ~self.face_up else None  # C12
        if not 0 <= action < SIZE:
            return PLAY_NOW
        if not hand >> action & 1:
            return NOT_IN_HAND
        why = RULES.refusal(hand, action, self.trick)  # C15: R13
        return None if why is None else TRICK_REASONS[why]

    def _phase_words(self) -> str:
        return {SPEAK: SPEAK_NOW, CALL_PHASE: CALL_NOW, GIVE_PHASE: GIVE_NOW, DISCARD_PHASE: LAY_NOW,
                LAY_PHASE: LAY_NOW, TAKE_PHASE: TAKE_NOW}.get(self.phase, PLAY_NOW)

    def _speak_refusal(self, action: int) -> Reason | None:
        """C8: with no bid, passo or a bid; after one, sta bene or a higher bid."""
        if action not in WORDS:
            return SPEAK_NOW
        if self.bid < 0:
            return STA_BENE_NO_BID if action == STA_BENE else None
        if action == PASSO:
            return PASSO_AFTER_BID
        if action != STA_BENE and RANK[action] <= RANK[self.bid]:
            return BID_HIGHER[self.bid]
        return None

    def _take(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase == SPEAK:
            self._speak(seat, action)
        elif phase == CALL_PHASE:
            self._call(seat, action - CALL)
        elif phase == GIVE_PHASE:
            self._give(seat, action - GIVE)
        elif phase == TAKE_PHASE:
            self._take_face_up(seat, 0 if action == PASSO else action & ~TAKE)
        else:
            self._lay(seat, action & ~LAY)

    def _event(self, event: dict) -> None:
        if self.events is not None:
            self.events.append(event)

    # --- the auction (C8, C9) -----------------------------------------------------------

    def _speak(self, seat: int, action: int) -> None:
        self._event({"type": "bid", "seat": seat, "bid": WORDS[action]})
        if action in RANK:
            self.bid = action
            self.challenger = seat
        self.spoken += 1
        if self.spoken < SEATS and RANK.get(action, 0) < 3:  # C9: solissimo ends it at once
            self.to_act = (seat + 1) % SEATS
            return
        if self.bid < 0:  # C9: three passes, thrown in, no score
            self.thrown_in = True
            self.count = Count.thrown()
            self.phase = DONE
            self.to_act = None
            self._event({"type": "thrown_in"})
            return
        ch = self.challenger
        self._event({"type": "contract", "seat": ch, "contract": CONTRACT[self.bid], "stake": STAKE[self.bid]})
        if self.bid == CHIAMO:
            self._next(CALL_PHASE, ch)
        elif self.bid == VADO_SOLO:  # C11: turned up, taken, 3 laid back
            self._turn_up()
            self._take_monte(ch)
            self._to_lay(ch, MONTE)
        elif self.bid == DIVIDETE:  # C11: cards 1-2 to the seat after the challenger, 3 to the other
            first, second = (ch + 1) % SEATS, (ch + 2) % SEATS
            self.took[first] = (1 << self.monte_order[0]) | (1 << self.monte_order[1])
            self.took[second] = 1 << self.monte_order[2]
            self.hands[first] |= self.took[first]
            self.hands[second] |= self.took[second]
            self.monte = 0
            self._event({"type": "divided", "seats": [first, second]})
            self._to_lay(first, 2)
        elif self.bid == SCEGLIETE:  # C12: face up for all, the seat after the challenger first
            self._turn_up()
            self.face_up = self.monte
            self._next(TAKE_PHASE, (ch + 1) % SEATS)
        else:  # C11: plain solissimo: the monte stays face down, unseen until the count
            self._start_play()

    def _next(self, phase: str, seat: int) -> None:
        self.phase = phase
        self.to_act = seat

    def _turn_up(self) -> None:
        self.turned_up = self.monte
        self._event({"type": "monte", "cards": DECK.codes_of(self.monte)})

    def _take_monte(self, seat: int) -> None:
        self.hands[seat] |= self.monte
        self.monte = 0

    def _to_lay(self, seat: int, n: int) -> None:
        self.lay_count = n
        self.discard_rule = LAY_RULES[n]  # C13
        self._next(DISCARD_PHASE if n == MONTE else LAY_PHASE, seat)

    # --- the monte (C10-C13) ------------------------------------------------------------

    def _call(self, seat: int, c: int) -> None:
        """C10: the holder hands the called card over face up (or it is in the monte); the
        monte is turned up and taken; a card goes back to the giver; three are laid."""
        self.called = c
        bit = 1 << c
        for other in range(SEATS):
            if other != seat and self.hands[other] & bit:
                self.giver = other
                self.hands[other] ^= bit
                self.hands[seat] |= bit
        self._event({"type": "call", "seat": seat, "called": DECK.codes[c],
                     "giver": self.giver if self.giver >= 0 else None})
        self._turn_up()
        self._take_monte(seat)
        if self.giver >= 0:
            self._next(GIVE_PHASE, seat)
        else:  # C10: the called card was in the monte: nothing is given either way
            self._to_lay(seat, MONTE)

    def _give(self, seat: int, c: int) -> None:
        self.hands[seat] ^= 1 << c
        self.hands[self.giver] |= 1 << c
        self.given_back = c
        self._event({"type": "give", "seat": seat, "to": self.giver, "card": DECK.codes[c]})
        self._to_lay(seat, MONTE)

    def _take_face_up(self, seat: int, cards: int) -> None:
        """C12: a take from the face-up cards, possibly none; a lay follows a non-empty one."""
        self.hands[seat] |= cards
        self.face_up &= ~cards
        self.monte &= ~cards
        self.took[seat] = cards
        self._event({"type": "take", "seat": seat, "cards": DECK.codes_of(cards)})
        if cards:
            self._to_lay(seat, cards.bit_count())
        else:
            self._after_lay(seat)

    def _lay(self, seat: int, cards: int) -> None:
        self.hands[seat] &= ~cards
        self.laid[seat] = cards
        self.monte |= cards
        self._event({"type": "lay", "seat": seat, "cards": cards.bit_count()})
        self._after_lay(seat)

    def _after_lay(self, seat: int) -> None:
        """Who lays or takes next: in dividete and scegliete the seat after the challenger
        first, then the other opponent (C11, C12); then play."""
        ch = self.challenger
        second = (ch + 2) % SEATS
        if self.bid == DIVIDETE and seat != second:
            self._to_lay(second, 1)
        elif self.bid == SCEGLIETE and seat != second:
            self._next(TAKE_PHASE, second)
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.lay_count = 0
        self._next(PLAY, self.leader)  # C15: dealer + 1 leads, whoever the challenger is; R13's play

    # --- the count (C14, C16-C20) -------------------------------------------------------

    def _count(self) -> None:
        assert self.last_trick is not None
        side = [self.side_of(s) for s in range(SEATS)]
        piles = [0, 0]
        won = [0, 0]
        for s in range(SEATS):
            piles[side[s]] |= self.won[s]
            won[side[s]] += self.tricks_won[s]
        # C16 (R14): the Fool to its player's side if that side won a trick, else to the side
        # that took its trick. C14: a Fool never played is in the monte and goes with it.
        fool_to = -1
        if self.fool_by >= 0:
            fool_to = side[self.fool_by] if won[side[self.fool_by]] else side[self.fool_to]
            piles[fool_to] |= FOOL_BIT
        last = side[self.last_trick[2]]
        piles[last] |= self.monte  # C14: the monte to the winner of the last trick
        if fool_to < 0:
            fool_to = last
        points = [DECK.points(p) for p in piles]
        points[last] += LAST_TRICK_BONUS  # C17
        stramazzo = next((i for i in (0, 1) if won[i] == TRICKS), -1)  # C19: every trick
        cappotto = next((i for i in (0, 1) if piles[i] & COUNTING == COUNTING), -1)  # every counting card
        maker = stramazzo if stramazzo >= 0 else cappotto
        success = maker == 0 if maker >= 0 else points[0] >= LINE  # C17, C19
        mult = 3 if stramazzo >= 0 else 2 if cappotto >= 0 else 1  # C19: stramazzo replaces cappotto
        stake = STAKE[self.bid] * mult * (1 if success else -1)  # C18
        payments = [stake if s == self.challenger else -stake // 2 for s in range(SEATS)]
        self.count = Count(challenger=self.challenger, contract=self.bid, piles=piles, points=points, tricks=won,
                           monte=self.monte, monte_to=last, fool_to=fool_to, cappotto=cappotto,
                           stramazzo=stramazzo, won=success, payments=payments)
        self._end(self.count)

    # --- what one seat may know ---------------------------------------------------------

    def choices(self, seat: int) -> list[dict]:
        """What ``seat`` may do now, each with its reason if refused: the auction's words, a
        card to call or give back, the cards of a three-card lay one by one (``discard``), the
        whole lays of one or two cards, the takes; the cards in play. [] when not its turn."""
        if self.phase == DONE or seat != self.to_act:
            return []
        hand = self.hands[seat]
        if self.phase == DISCARD_PHASE:
            ok = LAY_RULES[MONTE].allowed(hand)
            return [choice(DECK.codes[c], None if ok >> c & 1 else LAY_FORBIDDEN) for c in DECK.display_order(hand)]
        if self.phase in (LAY_PHASE, TAKE_PHASE):
            return [choice(action_text(a), None) for a in self.legal_actions()]
        if self.phase == SPEAK:
            return [choice(WORDS[a], self._speak_refusal(a)) for a in (PASSO, STA_BENE) + BIDS]
        if self.phase == CALL_PHASE:
            return [choice("chiamo " + DECK.codes[c], CALL_OWN if hand >> c & 1 else None)
                    for c in DECK.display_order(DECK.full)]
        if self.phase == GIVE_PHASE:
            return [choice("restituisco " + DECK.codes[c], GIVE_CALLED if c == self.called else None)
                    for c in DECK.display_order(hand)]
        return [choice(DECK.codes[c], self.reason(seat, c)) for c in DECK.display_order(hand)]

    def view(self, seat: int) -> dict:
        """Everything ``seat`` may know, and nothing more: its hand; the auction, the called
        card and its giver, the card given back, the monte where C10-C12 turn it up; its own
        dividete cards and its own cards laid face down; every card played; at the count,
        everything (the piles and the monte). JSON-ready."""
        return self._view(seat)

    def public_view(self) -> dict:
        """What anyone at the table may know (a spectator): the auction, the called card and
        the card given back, the monte as turned up (C10-C12), the scegliete monte, every card
        played, everything at the count; no hand, no card taken or laid face down."""
        return self._view(None)

    def _view(self, seat: int | None) -> dict:
        """A seat's view, or (``seat`` None) the public one."""
        counted = self.count is not None and not self.thrown_in  # at the count every card is shown
        n = SEATS
        ch = self.challenger if self.challenger >= 0 and self.phase != SPEAK else None
        v: dict = {
            **self.seat_view(seat),
            "auction": [{"seat": s, "bid": WORDS[a]} for s, a in self.history[:self.spoken]],  # the first actions
            "bid": WORDS[self.bid] if self.bid >= 0 else None,
            "challenger": ch,
            "contract": CONTRACT[self.bid] if ch is not None else None,
            "stake": STAKE[self.bid] if ch is not None else None,
            "thrown_in": self.thrown_in,
            "called": DECK.codes[self.called] if self.called >= 0 else None,
            "giver": self.giver if self.giver >= 0 else None,
            "given_back": DECK.codes[self.given_back] if self.given_back >= 0 else None,
            "monte": DECK.codes_of(self.turned_up) if self.turned_up else None,  # as turned up, for all
            "monte_face_up": DECK.codes_of(self.face_up) if self.bid == SCEGLIETE and ch is not None else None,
            "taken": [DECK.codes_of(t) if self.bid == SCEGLIETE or s == seat or counted else None
                      for s, t in enumerate(self.took)],
            "laid": [DECK.codes_of(m) if s == seat or counted else None for s, m in enumerate(self.laid)],
            "lay": self.lay_count if self.phase in (DISCARD_PHASE, LAY_PHASE) else None,
            "choices": self.choices(seat) if seat is not None else [],
            "leader": self.leader if self.phase == PLAY else None,
            "trick": self.trick_json(),
            "last_trick": self.last_trick_json(),
            "tricks": self.tricks_won[:],
            "played": [DECK.codes_of(p) for p in self.played],
            "fool": None if self.fool_to < 0 else {"seat": self.fool_by, "trick_winner": self.fool_to},
            "actions": [{"seat": s, "action": "scarto" if LAY <= a < TAKE and s != seat and not counted
                         else action_text(a)} for s, a in self.history],
            "count": self.count.to_json() if self.count else None,
        }
        return v


CALABRESELLA: Final = register(Game(
    name="calabresella", title="Calabresella", seats=(SEATS,), deck=DECK, deal=Deal, options=Options,
    parse_action=parse_action, action_text=action_text, discard_rule=DISCARD_RULE,
    target=TARGET,  # C21: the match to 21
))
