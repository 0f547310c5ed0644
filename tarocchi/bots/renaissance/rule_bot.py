"""The rule bot for the Renaissance game: the seed's strategy tips as rules, from the seat's
view alone.

- The discard banks points (it is the dealer's pile, A7): the most valuable cards allowed,
  preferring those that empty a suit, so that Kings can be trumped later ("empty a suit early").
- Leading: the World first while the Magician is out ("lead high trumps to hunt"); a King while
  its suit is still held around the table; else a low card of the shortest suit.
- Following: win a trick worth taking with the cheapest card sure to win it; otherwise give the
  cheapest card ("don't throw points away"), and the Fool instead when the cheapest card is
  worth 2 or more, or is the Magician about to be caught ("guard the Magician").
- In a world whose hands are known (the expert's playout: ``play(..., later)``), what the
  table must guess is read from the hands of the seats still to play to the trick: a card is
  sure when none of them holds a card that beats it, a King is led when none can take it, and
  then the dearest other court card none can take.
"""

from __future__ import annotations

import random

from tarocchi.games.renaissance import DECK, DISCARD_RULE, FOOL, FOOL_BIT, RULES, TRUMPS

MAGICIAN = DECK.card("1")
WORLD = DECK.card("21")
KINGS = DECK.kings
VALUES = DECK.values


def cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def suit(c: int) -> int:
    return DECK.suit_of[c]


def beaten(later: list[int], cards_now: list[int]) -> bool:
    """Whether one of the hands ``later`` (seats still to play to the trick) holds a card it
    may play (A10) that would take the trick from the last of ``cards_now`` (A12)."""
    for hand in later:
        for x in cards(RULES.legal(hand, cards_now)):
            if x != FOOL and RenaissanceRuleBot._wins(cards_now, x):
                return True
    return False


class RenaissanceRuleBot:
    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)  # decisions are deterministic per view; kept for the API

    def __call__(self, view: dict) -> str:
        hand = DECK.mask_of(view["hand"])
        if view["phase"] == "discard":
            return "discard " + " ".join(DECK.codes_of(self.discard(hand)))
        legal = DECK.mask_of(c["action"] for c in view["choices"] if c["reason"] is None)
        trick = [DECK.card(t["card"]) for t in view["trick"]]
        played = DECK.mask_of(c for seat in view["played"] for c in seat)
        return DECK.codes[self.play(hand, legal, trick, played)]

    # --- the discard (A7) ---------------------------------------------------------------

    def discard(self, hand: int) -> int:
        must, pool, need = DISCARD_RULE.choice(hand)
        if must:  # short of other cards: add the lowest trumps 2-20
            return must | sum(1 << c for c in cards(pool)[:need])
        chosen = 0
        for _ in range(need):
            left = hand & ~chosen
            best = max(cards(pool & ~chosen), key=lambda c: (self._discard_worth(c, left), -c))
            chosen |= 1 << best
        return chosen

    @staticmethod
    def _discard_worth(c: int, hand: int) -> float:
        length = (hand & DECK.suit_mask_of[c]).bit_count()
        kings_kept = hand & DECK.suit_mask_of[c] & KINGS
        void_bonus = 1.5 if length == 1 else 1.0 / length
        return VALUES[c] + (void_bonus if not kings_kept else 0.0)

    # --- play (A10-A12) -----------------------------------------------------------------

    def play(self, hand: int, legal: int, trick: list[int], played: int, later: list[int] | None = None) -> int:
        """The card to play. ``later``, in a world whose hands are known (the expert's
        playout), is the hands of the seats still to play to this trick: the tests of a sure
        winner and of a King (or another court card) worth leading are then made on them, not
        guessed from ``played``."""
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        if not trick:
            return self.lead(hand, legal, played, later)
        winners = [c for c in cards(legal) if c != FOOL and self._wins(trick, c)]
        if later is None:
            out = played | hand  # the cards nobody else can still hold
            sure = [c for c in winners if len(trick) == 2 or self._sure(c, trick, out)]
        else:
            sure = [c for c in winners if not beaten(later, trick + [c])]
        at_stake = sum(VALUES[c] for c in trick if c != FOOL)
        if sure and (at_stake >= 2 or min(VALUES[c] for c in sure) >= 2 or len(trick) == 2):
            return min(sure, key=lambda c: (VALUES[c] if c != MAGICIAN else 0, c))
        return self.give(legal, trick)

    def lead(self, hand: int, legal: int, played: int, later: list[int] | None = None) -> int:
        choices = legal & ~FOOL_BIT
        if not choices:
            return FOOL
        if later is None:
            magician_out = not (played | hand) >> MAGICIAN & 1
        else:  # in a world: held by a seat, not in the dealer's discard (A7)
            magician_out = bool((later[0] | later[1]) >> MAGICIAN & 1)
        if choices >> WORLD & 1 and magician_out:
            return WORLD  # can't lose, and drains the trumps that guard the Magician
        if later is None:
            for k in cards(choices & KINGS):
                if (played & DECK.suit_mask_of[k]).bit_count() < 5:  # the suit still held around
                    return k
        else:  # in a world: the dearest court card no seat can take, a King first (A3: worth 5)
            courts = [c for c in cards(choices & ~TRUMPS) if VALUES[c] >= 2 and not beaten(later, [c])]
            if courts:
                return max(courts, key=lambda c: (VALUES[c], -c))
        plain = [c for c in cards(choices & ~TRUMPS) if VALUES[c] == 1]
        if plain:  # the shortest suit, its lowest card: empty it, to trump later
            return min(plain, key=lambda c: ((hand & DECK.suit_mask_of[c]).bit_count(), c))
        trumps = [c for c in cards(choices & TRUMPS) if c != MAGICIAN]
        if trumps:
            return trumps[0]
        return min(cards(choices), key=lambda c: (VALUES[c], c))

    def give(self, legal: int, trick: list[int]) -> int:
        """A card for a trick this seat does not take: the cheapest, or the Fool when the
        cheapest would cost more than the plain card the Fool owes (A13)."""
        options = [c for c in cards(legal) if c != FOOL]
        cheapest = min(options, key=lambda c: (VALUES[c], c)) if options else FOOL
        if legal & FOOL_BIT and cheapest != FOOL and VALUES[cheapest] >= 2:
            return FOOL
        return cheapest

    @staticmethod
    def _wins(trick: list[int], c: int) -> bool:
        cards_now = trick + [c]
        m = 0
        for x in cards_now:
            m |= 1 << x
        if len(cards_now) == 1:
            return True
        if cards_now[0] == FOOL and len(cards_now) == 2:
            return True  # the second card after a led Fool leads the trick
        return RULES.winning_card(cards_now, m) == c

    @staticmethod
    def _sure(c: int, trick: list[int], out: int) -> bool:
        """No card the last seat may still hold beats ``c``: a trump with every higher trump
        out; a suit card with every higher one out (the last seat may trump it, so only when
        trumps are gone too)."""
        higher_trumps = TRUMPS & ~((2 << c) - 1) if c < FOOL else TRUMPS
        if c < FOOL:
            return higher_trumps & ~out == 0
        higher = DECK.suit_mask_of[c] & ~((2 << c) - 1)
        return higher & ~out == 0 and TRUMPS & ~out == 0
