"""The floor: a uniformly random legal action, chosen from the seat's own view. It knows any
registered game: the view names the game, and the game its deck and discard rule."""

from __future__ import annotations

import random

from tarocchi.engine.game import DEFAULT, get_game


class RandomBot:
    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def __call__(self, view: dict) -> str:
        allowed = [c["action"] for c in view["choices"] if c["reason"] is None]
        if view["phase"] == "discard":
            # The choices list cards one by one; a discard is a set the rules allow (R11, A7).
            game = get_game(view.get("game", DEFAULT))
            rule, deck = game.discard_rule, game.deck
            hand = deck.mask_of(view["hand"])
            while True:
                picked = self.rng.sample(allowed, rule.size)
                if rule.refusal(hand, deck.mask_of(picked)) is None:
                    return "discard " + " ".join(picked)
        return self.rng.choice(allowed)
