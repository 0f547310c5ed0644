"""The floor: a uniformly random legal action, chosen from the seat's own view."""

from __future__ import annotations

import random

from tarocchi.engine.cards import mask_of
from tarocchi.engine.sicilian import discard_refusal


class RandomBot:
    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def __call__(self, view: dict) -> str:
        allowed = [c["action"] for c in view["choices"] if c["reason"] is None]
        if view["phase"] == "discard":
            # The choices list cards one by one; a discard is three that the rules allow (R11).
            hand = mask_of(view["hand"])
            while True:
                picked = self.rng.sample(allowed, 3)
                if discard_refusal(hand, mask_of(picked)) is None:
                    return "discard " + " ".join(picked)
        return self.rng.choice(allowed)
