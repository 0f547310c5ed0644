"""The rule bot: fast, sensible play from the seat's view alone.

Bids by hand strength and position, discards points safely, tracks played cards and the voids
each seat has shown, keeps the Fool for when it saves points, and plays for its side.
"""

from __future__ import annotations

import random

from tarocchi.engine.cards import CODES, TRUMPS, codes, mask_of
from tarocchi.games.sicilian import discardable

from .knowledge import Seen, read_view
from .policy import HIGH_TRUMPS, bid_by_strength, choose_card, choose_discard


def allowed(view: dict) -> list[str]:
    return [c["action"] for c in view["choices"] if c["reason"] is None]


class RuleBot:
    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)  # kept for ties; decisions are deterministic per view

    def __call__(self, view: dict) -> str:
        phase = view["phase"]
        ok = allowed(view)
        if phase == "speak":
            return self.speak(view, ok)
        seen = read_view(view)
        if phase == "discard":
            return "discard " + " ".join(codes(choose_discard(seen.hand, discardable(seen.hand))))
        if phase == "announce":
            return self.announce(seen, ok)
        return CODES[self.play(seen, ok)]

    # --- speaking (R5-R10) ----------------------------------------------------------------

    def speak(self, view: dict, ok: list[str]) -> str:
        return bid_by_strength(mask_of(view["hand"]), view["seats"], ok)

    # --- Scommessa and Rivanto (R12) ------------------------------------------------------

    def announce(self, seen: Seen, ok: list[str]) -> str:
        trumps = seen.hand & TRUMPS
        if "scommessa" in ok and (trumps >> 1 & 1) and trumps.bit_count() >= 9:
            return "scommessa"  # holds the 20, the Fool and the 1, and trumps to guard it
        if "rivanto" in ok and trumps.bit_count() >= (8 if seen.seats == 3 else 6) \
                and (trumps & HIGH_TRUMPS).bit_count() >= 2:
            return "rivanto"
        return "no"

    # --- the cards (R13) -----------------------------------------------------------------

    def play(self, seen: Seen, ok: list[str]) -> int:
        legal = mask_of(ok)
        friends, foes = seen.sides()
        may = [seen.may_hold(s) for s in range(seen.seats)]
        return choose_card(seen.hand, legal, seen.trick, seen.trick_seats, seen.me, seen.seats,
                           friends, foes, may, seen.tricks_left)

