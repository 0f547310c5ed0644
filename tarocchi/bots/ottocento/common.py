"""What the Ottocento bots share: one seat's knowledge read from its view, the trick arithmetic
(who is winning, who may still beat it), and a fast count of a set of cards' combinations on
card masks (B10-B18, B25), which the rule bot's discard and the search's playouts use.

Everything here is read from ``Deal.view(seat)`` or from a state the caller already has; nothing
looks at another hand. Rulings are cited as in ``shared/rules/OTTOCENTO.md`` (B1..B27).
"""

from __future__ import annotations

from tarocchi.engine.deck import cards_in
from tarocchi.games.ottocento import DECK, FOOL, FOOL_BIT, MOORS, ONE_POINT, SUIT_MASK_OF

from ..worlds import voids

FULL = DECK.full
TRUMPS = DECK.trumps  # B2: 0, the Moors, 5..20 (F is not a trump)
VALUES = DECK.values
BEGATO = DECK.card("0")
ANGEL = DECK.card("20")
WORLD = DECK.card("19")
CONTATORI = (1 << BEGATO) | FOOL_BIT  # B3
SUITS = [DECK.suit_mask_of[DECK.card("K" + s)] for s in "COSB"]
PLAIN = FULL & ~TRUMPS & ~FOOL_BIT
PIPS = DECK.mask_of([p + s for s in "COSB" for p in ("6", "7", "8", "9", "10")])  # in no combination
ACES = DECK.mask_of(["1" + s for s in "COSB"])
SIGNALS = {"volo": 1, "trionfi": 2, "busso": 3}  # B22, as the engine numbers them


def m(*codes: str) -> int:
    return DECK.mask_of(codes)


# --- the combinations of a set of cards, on masks (B10-B18, B25) --------------------------
# The same reading as tarocchi.games.ottocento_combos.best_all + score, written on masks for
# the search's playouts (tests/bots/test_ottocento_bots.py checks them equal on random sets).

CRICCHE = [(m("20", "19", "0", "F"), 18), (m("KC", "KO", "KS", "KB"), 17), (m("QC", "QO", "QS", "QB"), 14),
           (m("HC", "HO", "HS", "HB"), 13), (m("MC", "MO", "MS", "MB"), 12)]  # B10
GRANDE_HEAD = [DECK.card(c) for c in ("19", "18", "17")]  # B13
GRANDE_TAIL = [DECK.card(str(n)) for n in range(16, 4, -1)]  # B14
SUIT_SEQ = [(DECK.card("K" + s), m("Q" + s, "H" + s, "M" + s), DECK.card("1" + s)) for s in "COSB"]  # B15


def combo_points(cards: int) -> int:
    """B10-B18: the points of the best combinations of ``cards`` (one per kind, doubled per
    B18): a hand's full declaration, or a final pile's combinations (B25)."""
    cricche = n_cricche = 0
    for mask, pts in CRICCHE:
        k = (cards & mask).bit_count()
        if k >= 3:
            cricche += pts * (2 if k == 4 else 1)
            n_cricche += 1
    k = (cards & CONTATORI).bit_count()
    seqs = n_seqs = 0
    for real_mask in (MOORS, ACES):  # B16
        real = (cards & real_mask).bit_count()
        if real >= 2 and real + k >= 3:
            seqs += 10 + 5 * (real + k - 3)
            n_seqs += 1
    for king, heads_mask, ace in SUIT_SEQ:  # B15
        if cards >> king & 1:
            heads = (cards & heads_mask).bit_count()
            if heads and max(0, 2 - heads) <= k:
                size = 1 + heads + k + (cards >> ace & 1)
                seqs += 10 + 5 * (size - 3)
                n_seqs += 1
    if cards >> ANGEL & 1:  # B13, B14
        heads = sum(cards >> c & 1 for c in GRANDE_HEAD)
        fills = max(0, 2 - heads)
        if heads and fills <= k:
            size = 1 + heads + k
            free = k - fills
            filled_last = False
            for c in GRANDE_TAIL:
                if cards >> c & 1:
                    size += 1
                    filled_last = False
                elif free and not filled_last:
                    free -= 1
                    filled_last = True
                else:
                    break
            seqs += 10 + 5 * (size - 3)
            n_seqs += 1
    return cricche * (2 if n_cricche >= 3 else 1) + seqs * (2 if n_seqs >= 3 else 1)


def matto_paid(own: int, other: int) -> int:
    """B21: the 1-point card the Matto's side (pile ``own``, the Matto not in it) gives over,
    or -1 when it has none. A pip (6-10) is in no combination, so any pip scores exactly as the
    engine's choice; without one, the engine's keys (``ottocento.matto_card``)."""
    pips = own & PIPS
    if pips:
        return pips.bit_length() - 1
    best, key = -1, (0, 0)
    for c in cards_in(own & ONE_POINT):
        k = (combo_points(own & ~(1 << c) | FOOL_BIT), -combo_points(other | 1 << c))
        if best < 0 or k >= key:
            best, key = c, k
    return best


# --- tricks ---------------------------------------------------------------------------------

def winning_index(trick: list[int]) -> int:
    """The index of the card winning ``trick`` so far (B2, B20: the Matto never wins; Moors on
    top: the last played), or -1 when only the Matto has been played."""
    best = -1
    led = -1
    for i, c in enumerate(trick):
        if c == FOOL:
            continue
        if led < 0:
            led = c
            best = i
            continue
        top = trick[best]
        if TRUMPS >> c & 1:
            if not TRUMPS >> top & 1 or c > top or (MOORS >> c & 1 and MOORS >> top & 1):
                best = i
        elif not TRUMPS >> top & 1 and SUIT_MASK_OF[c] == SUIT_MASK_OF[led] and c > top:
            best = i
    return best


def led_mask(trick: list[int]) -> int:
    """The suit the trick follows (after a led Matto, the second card's, B20)."""
    for c in trick:
        if c != FOOL:
            return SUIT_MASK_OF[c]
    return 0


def beats(c: int, top: int, led: int) -> bool:
    """Card ``c`` played now takes the trick from ``top`` (B2: a later Moor beats a Moor)."""
    if TRUMPS >> c & 1:
        return not TRUMPS >> top & 1 or c > top or bool(MOORS >> c & 1 and MOORS >> top & 1)
    return not TRUMPS >> top & 1 and bool(led >> c & 1) and c > top


class PlayState:
    """One card decision: the seat, its hand and legal cards, the trick and its leader, and what
    the seat believes of the others: ``unseen`` the cards some other seat may hold, ``void[s]``
    the cards seat s cannot hold, ``held[s]`` the cards seat s is known to hold (declared, B9).
    Signals read (B22): ``trionfi`` partner asked for trumps, ``busso_back`` the suit partner
    asked back, ``busso_now`` partner led this trick with busso, ``signalled`` the signals this
    seat made already. In a playout the world is known: void is the complement of each hand."""

    __slots__ = ("me", "hand", "legal", "trick", "leader", "unseen", "void", "held", "trionfi", "busso_back",
                 "busso_now", "signalled", "signals")

    def __init__(self, me: int, hand: int, legal: int, trick: list[int], leader: int, unseen: int,
                 void: list[int], held: list[int], signals: bool = True):
        self.me, self.hand, self.legal, self.trick, self.leader = me, hand, legal, trick, leader
        self.unseen, self.void, self.held = unseen, void, held
        self.trionfi = False
        self.busso_back = 0
        self.busso_now = False
        self.signalled = 0  # a mask of 1 << signal
        self.signals = signals  # the table allows signals (B22)

    def may_beat(self, seat: int, top: int, led: int) -> bool:
        """Seat ``seat``, still to play, may hold a card that beats ``top``."""
        poss = self.unseen & ~self.void[seat]
        trumps_led = bool(led & TRUMPS)
        if TRUMPS >> top & 1:
            higher = poss & TRUMPS & ~((2 << top) - 1)
            if MOORS >> top & 1:
                higher |= poss & MOORS
            if not higher:
                return False
            return trumps_led or not self._holds_suit(seat, led)
        if poss & led & ~((2 << top) - 1):
            return True
        return bool(poss & TRUMPS) and not self._holds_suit(seat, led)

    def _holds_suit(self, seat: int, led: int) -> bool:
        """Seat surely follows ``led``: known to hold one, or (read from a view) most of the
        suit is still out and the seat has shown no void in it."""
        if self.held[seat] & led:
            return True
        if led & ~self.void[seat] & self.unseen == 0:
            return False
        return (self.unseen & led).bit_count() >= 5 and not led & self.void[seat]


# --- one seat's knowledge, from its view --------------------------------------------------

class Seen:
    """What one seat knows, read from its view alone: its hand, who played what (in order),
    the voids shown in play (B19) and by a Volo (B22), the cards each seat declared and still
    holds (B9: declared face up, then kept in hand), the dealer's discard if it is this seat's
    own (B8), and the signals its partner made."""

    def __init__(self, view: dict):
        self.view = view
        self.me: int = view["seat"]
        self.partner: int = view["partner"]
        self.dealer: int = view["dealer"]
        self.phase: str = view["phase"]
        self.hand = DECK.mask_of(view["hand"])
        self.counts: list[int] = view["hand_counts"]
        self.discard = DECK.mask_of(view["discard"] or [])  # the dealer's own only, until the count
        self.plays: list[tuple[int, int]] = []  # (seat, card) in play order
        self.actions: list[tuple[int, str]] = []
        for a in view["actions"]:
            self.actions.append((a["seat"], a["action"]))
            word = a["action"].split()
            if word[0] in ("a", "gioco", "discard", "declare"):
                continue
            self.plays.append((a["seat"], DECK.card(word[0])))
        self.played = [0, 0, 0, 0]
        for seat, c in self.plays:
            self.played[seat] |= 1 << c
        self.all_played = self.played[0] | self.played[1] | self.played[2] | self.played[3]
        self.void = voids(self.plays, DECK, 4)  # B19: a suit not followed, trumps not played
        self.signals: list[tuple[int, int, int]] = []  # (trick index, seat, signal) in order
        led = {c: i // 4 for i, (_, c) in enumerate(self.plays) if i % 4 == 0}
        for s in view["signals"]:
            c = DECK.card(s["card"])
            sig = SIGNALS[s["signal"]]
            self.signals.append((led.get(c, -1), s["seat"], sig))
            if sig == SIGNALS["volo"]:  # B22: "I am now void in this suit" (refused unless true)
                self.void[s["seat"]] |= SUIT_MASK_OF[c]
        self.held = [0, 0, 0, 0]  # B9: declared cards stay in hand until played
        for d in view["declarations"]:
            if d is not None:
                for combo in d["combinations"]:
                    self.held[d["seat"]] |= DECK.mask_of(combo["cards"])
        for s in range(4):
            self.held[s] &= ~self.played[s]
        self.held[self.me] = self.hand
        self.unseen = FULL & ~self.hand & ~self.all_played & ~self.discard
        self.trick = [DECK.card(t["card"]) for t in view["trick"]]
        self.leader = view["leader"] if view["leader"] is not None else (self.dealer + 1) % 4

    def tricks(self) -> list[list[tuple[int, int]]]:
        return [self.plays[i:i + 4] for i in range(0, len(self.plays), 4)]

    def state(self, legal: int) -> PlayState:
        """The play decision as the rule bot reads it, with the partner's signals (B22)."""
        st = PlayState(self.me, self.hand, legal, self.trick, self.leader, self.unseen, self.void, self.held,
                       self.view["options"].get("signals", True))
        tricks = self.tricks()
        for t, seat, sig in self.signals:
            if seat == self.me:
                st.signalled |= 1 << sig
            if seat != self.partner or t < 0:
                continue
            led_card = tricks[t][0][1]
            later_leads = [tr[0] for tr in tricks[t + 1:] if tr and tr[0][0] == self.me]
            if sig == SIGNALS["trionfi"]:  # until this seat leads a trump
                st.trionfi = not any(TRUMPS >> c & 1 for _, c in later_leads)
            elif sig == SIGNALS["busso"] and led_card != FOOL:  # until this seat leads it back
                suit = SUIT_MASK_OF[led_card]
                done = any(suit >> c & 1 for _, c in later_leads)
                st.busso_back = 0 if done else suit
                if t == len(tricks) - 1 and len(tricks[t]) < 4:
                    st.busso_now = True
        return st
