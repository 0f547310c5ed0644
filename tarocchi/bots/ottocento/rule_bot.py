"""The rule bot for Ottocento (the Bolognese Tarocchino, two partnerships, B5): a player's rules
of thumb, from the seat's view alone (``common.Seen``).

- A monte (B7): ``a monte`` only with five cards that hold no trump above the 10, no 5-point
  card and at most one trump; else ``gioco``.
- The discard (B8) banks points in the dealer's side pile: of the pairs allowed (never a
  5-point card) the one that keeps the best declaration, banks the most card points and
  empties a suit (to trump it later) while holding trumps; trumps are kept.
- The declaration (B9): the full best declaration; less to hide the Bégato (``0``) when it is
  poorly guarded (at most three other trumps, the Matto apart) and hiding it costs at most 5
  points: it is taken out of the sequences it only adds to, or such a sequence dropped.
- Partnership play (B19-B21): a partner's trick no opponent still to play can beat is fed the
  most valuable card allowed (the Bégato first: "keeping the Bégato" by banking it; never the
  20 or 19, which win tricks of their own); a trick is taken with a card nobody still to play
  can beat when there is one (the Bégato if it can, else the most valuable suit card, else the
  lowest such trump); otherwise the cheapest card goes, never the Bégato while another will
  do, and the Matto instead of a card worth 2 or more or of the Bégato.
- Leading: partner's Busso suit back (B22), trumps when partner asked for them (Trionfi), a
  suit partner is void in while it may still trump, a sure winner (the top trump with four
  trumps or more, the top card of a suit still held around), else the lowest card of the
  shortest suit, avoiding suits an opponent trumps.
- Signals made (B22): Volo when the card led is the last of its suit and trumps are held
  (partner may lead the suit back to be trumped), Trionfi once with seven trumps or more on a
  plain lead. Read: all three (above), and a partner's Busso is answered with the highest card.
"""

from __future__ import annotations

import random

from tarocchi.engine.deck import cards_in
from tarocchi.games import ottocento_combos as combos
from tarocchi.games.ottocento import DECK, FIVES, FOOL, FOOL_BIT, SUIT_MASK_OF, action_text, declaration_action

from .common import (
    ACES, ANGEL, BEGATO, PLAIN, SIGNALS, SUITS, TRUMPS, VALUES, WORLD, PlayState, Seen, beats, combo_points,
    led_mask, winning_index,
)

SIGNAL_WORDS = {v: k for k, v in SIGNALS.items()}
TOP_TRUMPS = (1 << ANGEL) | (1 << WORLD)
MOORS_ACES = DECK.mask_of(["1", "2", "3", "4"]) | ACES  # 1-point cards that make combinations


def give_cost(c: int) -> float:
    """What a card costs when it goes to the other side: its points, the Bégato more (a
    contatore: up to 5 more in every sequence of a pile, B12, and the tarocchi cricca), a
    little for the cards of the Moors and the aces."""
    if c == BEGATO:
        return 9.0
    return VALUES[c] + (0.3 if MOORS_ACES >> c & 1 else 0.0) + c / 1000


class OttocentoRuleBot:
    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)  # decisions are a function of the view; kept for the API

    def __call__(self, view: dict) -> str:
        ok = [c["action"] for c in view["choices"] if c["reason"] is None]
        if len(ok) == 1:
            return ok[0]
        phase = view["phase"]
        hand = DECK.mask_of(view["hand"])
        if phase == "monte":
            return self.monte(hand)
        if phase == "discard":
            return "discard " + " ".join(DECK.codes_of(self.discard(hand)))
        if phase == "declare":
            return self.declare(hand)
        seen = Seen(view)
        legal = DECK.mask_of(a for a in ok if " " not in a)
        card, signal = self.play(seen.state(legal))
        return DECK.codes[card] + (" " + SIGNAL_WORDS[signal] if signal else "")

    def signalled(self, view: dict, card: str) -> str:
        """``card`` (chosen by another player: the search's, the learned network's) as this bot
        plays it: on a lead with the signal it makes with that card (B22), else as it is (an
        action that is not a plain card, one with its signal already, is returned unchanged)."""
        if view["phase"] != "play" or view["trick"] or " " in card:
            return card
        ok = [c["action"] for c in view["choices"] if c["reason"] is None]
        st = Seen(view).state(DECK.mask_of(a for a in ok if " " not in a))
        signal = self.signal(st, DECK.card(card))
        action = card + " " + SIGNAL_WORDS[signal] if signal else card
        return action if action in ok else card

    # --- before the play (B7-B9) ----------------------------------------------------------

    @staticmethod
    def monte(hand: int) -> str:
        trumps = hand & TRUMPS
        strong = trumps & ~((1 << DECK.card("11")) - 1) or hand & (FIVES | FOOL_BIT)
        return "a monte" if not strong and trumps.bit_count() <= 1 else "gioco"

    @staticmethod
    def discard(hand: int) -> int:
        ranked = OttocentoRuleBot.discards(hand)
        return ranked[0] if ranked else 0

    @staticmethod
    def discards(hand: int) -> list[int]:
        """The pairs allowed (B8), best first by this bot's reckoning (the expert searches the
        first few)."""
        pool = list(cards_in(hand & ~FIVES))  # B8
        n_trumps = (hand & TRUMPS).bit_count()
        keyed = []
        for i, a in enumerate(pool):
            for b in pool[i + 1:]:
                pair = 1 << a | 1 << b
                rest = hand & ~pair
                worth = combo_points(rest) + VALUES[a] + VALUES[b]
                worth -= 2 * (pair & TRUMPS).bit_count()
                for suit in SUITS:
                    if hand & suit and not rest & suit:
                        worth += 3 if n_trumps >= 4 else 1
                keyed.append(((worth, -pair), pair))
        keyed.sort(reverse=True)
        return [pair for _, pair in keyed]

    @staticmethod
    def declare(hand: int) -> str:
        """B9: the full best declaration, or the Bégato hidden (see the module's docstring)."""
        found = combos.best_all(DECK.codes_of(hand))
        return action_text(declaration_action(OttocentoRuleBot.hidden(hand, found)))

    @staticmethod
    def hidden(hand: int, found: list) -> list:
        """The declaration to make of the full best one ``found``: without the Bégato when it is
        poorly guarded and that costs at most 5 points (B9: a seat may declare less)."""
        others = (hand & TRUMPS & ~(1 << BEGATO)).bit_count()
        if not hand >> BEGATO & 1 or others > 3 or not any("0" in c.cards for c in found):
            return found
        out = []
        for c in found:
            if "0" not in c.cards:
                out.append(c)
            elif c.kind == "tarocchi":
                return found  # a cricca lost: too dear
            elif "0" in combos.shrinkable(c):
                out.append(combos.check(c.kind, [x for x in c.cards if x != "0"]))
        full = combos.score(found)
        return out if full - (combos.score(out) if out else 0) <= 5 else found

    # --- play (B19-B22) -------------------------------------------------------------------

    def play(self, st: PlayState) -> tuple[int, int]:
        """The card and the signal (0 for none) for the decision ``st``."""
        legal = st.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1, 0
        win = winning_index(st.trick)
        if win < 0:  # nothing led, or only the Matto: this card fixes the suit (B20)
            card = self.lead(st)
            return card, (self.signal(st, card) if not st.trick else 0)
        return self.follow(st, win), 0

    def follow(self, st: PlayState, win: int) -> int:
        trick, me = st.trick, st.me
        top = trick[win]
        winner = (st.leader + win) % 4
        led = led_mask(trick)
        later_opps = [(me + i) % 4 for i in range(1, 4 - len(trick)) if (me + i) % 2 != me % 2]
        cands = st.legal & ~FOOL_BIT
        if not cands:
            return FOOL
        partner_wins = winner % 2 == me % 2
        if st.busso_now and partner_wins and trick[0] != FOOL:  # B22: win with the highest
            same = cands & led
            if same:
                return same.bit_length() - 1
        if partner_wins and not any(st.may_beat(s, top, led) for s in later_opps):
            return self.feed(cands)
        sure = [c for c in cards_in(cands) if beats(c, top, led)
                and not any(st.may_beat(s, c, led) for s in later_opps)]
        if sure:
            return self.take(sure)
        return self.give(st.legal)

    @staticmethod
    def feed(cands: int) -> int:
        """The most valuable card for a partner's sure trick: the Bégato first, never the 20 or
        19 while another card will do, the lowest of equals."""
        pool = cands & ~TOP_TRUMPS or cands
        return max(cards_in(pool), key=lambda c: (6 if c == BEGATO else VALUES[c], -c))

    @staticmethod
    def take(sure: list[int]) -> int:
        if BEGATO in sure:
            return BEGATO
        plain = [c for c in sure if PLAIN >> c & 1]
        if plain:
            return max(plain, key=lambda c: (VALUES[c], -c))
        return min(sure, key=lambda c: (c in (ANGEL, WORLD), c))

    @staticmethod
    def give(legal: int) -> int:
        """The cheapest card to lose, or the Matto instead of a dear one (B21: the Matto's side
        then gives a 1-point card)."""
        options = list(cards_in(legal & ~FOOL_BIT))
        if not options:
            return FOOL
        cheapest = min(options, key=give_cost)
        if legal & FOOL_BIT and give_cost(cheapest) >= 2:
            return FOOL
        return cheapest

    def lead(self, st: PlayState) -> int:
        hand, me = st.hand, st.me
        cands = st.legal & ~FOOL_BIT
        if not cands:
            return FOOL
        partner = (me + 2) % 4
        opps = ((me + 1) % 4, (me + 3) % 4)
        trumps = cands & TRUMPS
        if st.busso_back and cands & st.busso_back:  # B22: partner's suit back
            return (cands & st.busso_back & -(cands & st.busso_back)).bit_length() - 1
        if st.trionfi and trumps & ~(1 << BEGATO):  # B22: partner asked for trumps
            t = trumps & ~(1 << BEGATO)
            high = t.bit_length() - 1
            if not any(st.may_beat(s, high, TRUMPS) for s in opps):
                return high
            return (t & -t).bit_length() - 1
        partner_trumps = st.unseen & TRUMPS & ~st.void[partner]
        for suit in SUITS:  # a suit partner is void in, while partner may trump it
            mine = cands & suit
            if mine and partner_trumps and suit & ~st.void[partner] & st.unseen == 0 \
                    and not any(suit & st.unseen & ~st.void[s] == 0 for s in opps):
                return (mine & -mine).bit_length() - 1
        if trumps.bit_count() >= 4:  # the top trump, sure, drains the opponents' trumps
            high = trumps.bit_length() - 1
            if high != BEGATO and not any(st.may_beat(s, high, TRUMPS) for s in opps):
                return high
        for suit in SUITS:  # the top card of a suit still held around
            mine = cands & suit
            if not mine:
                continue
            high = mine.bit_length() - 1
            around = (st.unseen & suit).bit_count() >= 4 and not any(suit & st.unseen & ~st.void[s] == 0 for s in opps)
            if VALUES[high] >= 2 and not st.unseen & suit & ~((2 << high) - 1) and around:
                return high
        plain = cands & PLAIN
        if plain:
            def shortness(c: int) -> tuple:
                suit = SUIT_MASK_OF[c]
                trumped = any(suit & st.unseen & ~st.void[s] == 0 for s in opps)
                return (trumped, give_cost(c) >= 2, (hand & suit).bit_count(), give_cost(c))
            return min(cards_in(plain), key=shortness)
        low = trumps & ~(1 << BEGATO) or trumps
        return (low & -low).bit_length() - 1

    @staticmethod
    def signal(st: PlayState, card: int) -> int:
        """B22: Volo on the last card of a suit while holding trumps; Trionfi once, with seven
        trumps or more, on a plain lead."""
        if not st.signals or not PLAIN >> card & 1:
            return 0
        rest = st.hand & ~(1 << card)
        if not rest & SUIT_MASK_OF[card] and rest & TRUMPS:
            return SIGNALS["volo"]
        if (st.hand & TRUMPS).bit_count() >= 7 and not st.signalled >> SIGNALS["trionfi"] & 1:
            return SIGNALS["trionfi"]
        return 0
