"""The rule bot for Calabresella (shared/rules/CALABRESELLA.md, cited C1-C22), from the seat's
view alone.

- The auction (C8, C9): the hand's strength (``policy.hand_strength``, the Sicilian measure:
  the deck and the trick rules are the same, C4, C15) against one threshold per contract,
  measured, not guessed: ``bench/duel_bench.py calibrate --game calabresella`` makes seat 1 bid
  each contract on many deals with rule play for every seat and prints the challenger's mean
  payment by strength (docs/history/benchmarks.md "Calabresella"). The bot bids the dearest contract
  whose threshold its hand reaches, if the auction still allows it.
- The called card (C10): the highest trump it lacks from the 20 down to the 11, else the Fool,
  else the King of its longest suit without one.
- The give-back (C10) and every lay (C11-C13): the cheapest cards it may part with, preferring
  those that empty a plain suit (to trump it later); points laid go to the side that takes the
  last trick (C14), so they are kept unless a bare court would be caught anyway.
- Scegliete (C12): an opponent takes the face-up trumps, the Fool and counting cards.
- Play (C15): the Sicilian card sense (``policy.choose_card``) with this game's sides (C6):
  the challenger against the two others, and what the view tells of the hidden cards
  (``Knowledge``: the voids shown, the called card and the monte taken by the challenger, the
  card given back, the scegliete takes, the laid cards known to their owner only).
"""

from __future__ import annotations

import random
from itertools import combinations

from tarocchi.engine.cards import CARD_OF, FOOL, FOOL_BIT, KINGS, LOW_TRUMPS, NEVER_DISCARD, SUIT_MASKS, VALUES, cards_in
from tarocchi.games.calabresella import DECK, LAY_RULES, MONTE, SEATS, TRICKS

from ..sicilian.policy import choose_card, hand_strength
from ..worlds import voids

MONTE_PLACE = SEATS  # the place index of the hidden part of the monte, after the three hands
COUNTING_CARD = sum(1 << c for c in range(DECK.size) if VALUES[c] >= 2)

# Hand-strength thresholds (policy.hand_strength of the 20 cards dealt), measured with
# ``bench/duel_bench.py calibrate --game calabresella`` (--deals 1500, and --deals 30000
# --min-strength 18 --step 1 for the rare strong hands; docs/history/benchmarks.md "Calabresella"):
# seat 1 made to say each contract on the same deals, rule play for every seat, its mean
# payment by strength. Each contract is bid from the strength where it pays more than zero and
# more than every cheaper one: chiamo from 12 (+0.15 at 12-14), solo from 19 (+1.72 against
# chiamo's +1.66 at 19-20), scegliete from 21 (+7.42 at 21-22, solo +3.00). Plain solissimo
# (above zero from 20) and dividete (from 21) never paid more than scegliete at any strength:
# the bot does not bid them.
THRESHOLDS = [  # dearest first: the first one the hand reaches is bid
    ("vado solissimo scegliete", 21.0),
    ("vado solissimo dividete", float("inf")),
    ("vado solissimo", float("inf")),
    ("vado solo", 19.0),
    ("chiamo", 12.0),
]


def allowed(view: dict) -> list[str]:
    return [c["action"] for c in view["choices"] if c["reason"] is None]


class Knowledge:
    """What one seat knows of the cards, read from its view: its hand, the cards played and
    by whom, the voids shown (R13), and for every card it has not seen the places it may be:
    another hand or the hidden part of the monte (C10-C14)."""

    def __init__(self, view: dict):
        self.me = view["seat"]
        self.dealer: int = view["dealer"]
        self.hand = DECK.mask_of(view["hand"])
        self.counts: list[int] = list(view["hand_counts"])
        self.ch: int | None = view["challenger"]
        self.bid: str | None = view["bid"] if self.ch is not None else None
        self.plays: list[tuple[int, int]] = []
        for a in view["actions"]:
            c = CARD_OF.get(a["action"])
            if c is not None:
                self.plays.append((a["seat"], c))
        self.played = [DECK.mask_of(p) for p in view["played"]]
        self.void = voids(self.plays, DECK, SEATS)
        self.trick = [DECK.card(t["card"]) for t in view["trick"]]
        self.trick_seats = [t["seat"] for t in view["trick"]]
        self.tricks_left = TRICKS - sum(view["tricks"])
        self.laid = [DECK.mask_of(x) if x is not None else None for x in view["laid"]]
        self.taken = [DECK.mask_of(x) if x is not None else None for x in view["taken"]]
        self.turned_up = DECK.mask_of(view["monte"] or [])
        self.face_up = DECK.mask_of(view["monte_face_up"] or [])  # scegliete: still lying face up
        self.called = DECK.card(view["called"]) if view["called"] else None
        self.giver: int | None = view["giver"]
        self.given_back = DECK.card(view["given_back"]) if view["given_back"] else None
        self._places()

    def _places(self) -> None:
        """``where[c]``: a mask of the places (seats 0-2, MONTE_PLACE) an unseen card may be;
        ``soft[c]``: the same with the low trumps a seat short of other cards may have laid (C13),
        a last resort when no world fits. The voids shown are facts: both keep them."""
        me, ch, bid = self.me, self.ch, self.bid
        played = self.played[0] | self.played[1] | self.played[2]
        mine_laid = self.laid[me] or 0
        self.known_monte = mine_laid | self.face_up  # the monte cards this seat knows lie there
        others = [s for s in range(SEATS) if s != me]
        self.unseen = DECK.full & ~self.hand & ~played & ~self.known_monte
        # A card this seat has not seen is in another hand or in the monte, unseen: the monte's
        # room is what the other hands cannot hold (3 in play; fewer while cards taken from it
        # wait to be laid back, C10-C12).
        monte_room = self.monte_room = self.unseen.bit_count() - sum(self.counts[s] for s in range(SEATS) if s != me)
        layable = DECK.full & ~NEVER_DISCARD
        any_card_in_monte = bid == "vado solissimo" or ch is None  # the monte as dealt
        received = 0  # cards the challenger took over: the turned-up monte, the called card
        if ch is not None and me != ch and bid in ("chiamo", "vado solo"):
            received = self.turned_up
            if self.called is not None:
                received |= 1 << self.called
        self.where: dict[int, int] = {}
        self.soft: dict[int, int] = {}
        for c in cards_in(self.unseen):
            bit = 1 << c
            base = 0
            for s in others:
                base |= 1 << s
            if monte_room and (any_card_in_monte or layable & bit):
                base |= 1 << MONTE_PLACE
            if received & bit:
                base &= (1 << ch) | (1 << MONTE_PLACE)
            for t, took in enumerate(self.taken):
                if t != me and took and bid == "vado solissimo scegliete" and took & bit:
                    base &= (1 << t) | (1 << MONTE_PLACE)
            if self.given_back == c and self.giver is not None and self.giver != me:
                base = 1 << self.giver  # C10: given face up (a monte card too)
            for s in others:
                if self.void[s] & bit:
                    base &= ~(1 << s)
            self.where[c] = base
            # C13: a seat short of cards it may lay lays Miseria and trumps 2-15: a last resort
            soft = base | (1 << MONTE_PLACE if monte_room and LOW_TRUMPS & bit and self.given_back != c else 0)
            self.soft[c] = soft

    def may_hold(self, seat: int) -> int:
        if seat == self.me:
            return self.hand
        bit = 1 << seat
        return sum(1 << c for c, w in self.where.items() if w & bit)

    def sides(self) -> tuple[list[bool], list[bool]]:
        """C6: the challenger against the other two."""
        me, ch = self.me, self.ch
        friends = [s != me and ch is not None and me != ch and s != ch for s in range(SEATS)]
        foes = [ch is not None and s != me and (me == ch or s == ch) for s in range(SEATS)]
        return friends, foes


# --- the auction (C8, C9) ---------------------------------------------------------------

def best_bid(hand: int, ok: list[str], thresholds: list[tuple[str, float]] | None = None) -> str:
    """The dearest contract the hand's strength reaches and the auction allows; else the
    quiet word (passo, or sta bene after a bid)."""
    s = hand_strength(hand, SEATS)
    for word, level in thresholds or THRESHOLDS:
        if s >= level:
            if word in ok:
                return word
            break  # the hand's contract is outbid (or not allowed): stay quiet
    return "sta bene" if "sta bene" in ok else "passo"


# --- the called card (C10) --------------------------------------------------------------

def call_card(hand: int) -> int:
    for t in range(20, 10, -1):
        if not hand >> t & 1:
            return t
    if not hand & FOOL_BIT:
        return FOOL
    best, key = None, None
    for suit in SUIT_MASKS[:4]:
        king = suit & KINGS
        if not hand & king:
            k = (hand & suit).bit_count()
            if key is None or k > key:
                best, key = king.bit_length() - 1, k
    if best is not None:
        return best
    return next(c for c in range(DECK.size) if not hand >> c & 1)


# --- the lays (C10-C13) -----------------------------------------------------------------

def lay_score(hand: int, combo: int) -> float:
    left = hand & ~combo
    score = -0.7 * sum(VALUES[c] for c in cards_in(combo))
    for suit in SUIT_MASKS[:4]:
        before, after = hand & suit, left & suit
        if before and not after:
            score += 4.0  # a void to trump into
        elif after and after & ~KINGS == 0:
            score += 1.0  # only the King left: still a winner
        elif after.bit_count() == 1 and after & COUNTING_CARD:
            score -= 1.5  # a bare court is easily caught
    return score


def choose_lay(hand: int, n: int, exclude: int = 0) -> int:
    """``n`` cards to lay face down (C13), or with ``exclude`` (the called card) the cards to
    part with: the rule's must-lays, then the best scored set of the cards it allows."""
    must, pool, need = LAY_RULES[min(n, MONTE)].choice(hand) if n <= MONTE else (0, hand & ~NEVER_DISCARD, n)
    pool &= ~exclude
    if must or pool.bit_count() <= need:
        if must:
            rest = sorted(cards_in(pool), key=lambda c: (c == 1, VALUES[c], c))
        else:
            rest = list(cards_in(pool))
            extra = sorted(cards_in(hand & ~pool & ~exclude & ~FOOL_BIT), key=lambda c: (VALUES[c], c))
            rest += extra
        out = must
        for c in rest:
            if out.bit_count() >= (must.bit_count() + need if must else n):
                break
            out |= 1 << c
        return out
    best, key = 0, None
    for combo in combinations(cards_in(pool), need):
        m = 0
        for c in combo:
            m |= 1 << c
        k = lay_score(hand, m)
        if key is None or k > key:
            best, key = m, k
    return must | best


def choose_give(hand: int, called: int) -> int:
    """C10: the card given back, never the called one: the least useful of the four cards the
    caller would part with (the give-back and the three laid)."""
    four = choose_lay(hand, 4, exclude=1 << called)
    if not four:
        four = hand & ~(1 << called)
    return min(cards_in(four), key=lambda c: (VALUES[c], c <= 20, -c if c <= 20 else c))


def choose_take(face_up: int) -> int:
    """C12: the face-up cards worth taking: trumps, the Fool, counting cards."""
    return sum(1 << c for c in cards_in(face_up) if c <= FOOL or VALUES[c] >= 2)


class CalabresellaRuleBot:
    def __init__(self, seed: int | None = None, thresholds: list[tuple[str, float]] | None = None):
        self.rng = random.Random(seed)  # decisions are deterministic per view; kept for the API
        self.thresholds = thresholds  # None: the calibrated THRESHOLDS (calibration overrides them)

    def __call__(self, view: dict) -> str:
        ok = allowed(view)
        if len(ok) == 1 and view["phase"] != "discard":
            return ok[0]
        phase = view["phase"]
        hand = DECK.mask_of(view["hand"])
        if phase == "speak":
            return best_bid(hand, ok, self.thresholds)
        if phase == "call":
            return "chiamo " + DECK.codes[call_card(hand)]
        if phase == "give":
            return "restituisco " + DECK.codes[choose_give(hand, DECK.card(view["called"]))]
        if phase in ("discard", "lay"):
            return "scarto " + " ".join(DECK.codes_of(choose_lay(hand, view["lay"])))
        if phase == "take":
            take = choose_take(DECK.mask_of(view["monte_face_up"] or []))
            return "prendo " + " ".join(DECK.codes_of(take)) if take else "passo"
        return DECK.codes[self.play(Knowledge(view), DECK.mask_of(ok))]

    @staticmethod
    def play(seen: Knowledge, legal: int) -> int:
        friends, foes = seen.sides()
        may = [seen.may_hold(s) for s in range(SEATS)]
        return choose_card(seen.hand, legal, seen.trick, seen.trick_seats, seen.me, SEATS, friends, foes, may,
                           seen.tricks_left)

