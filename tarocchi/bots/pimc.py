"""Determinized Monte Carlo (PIMC) for any game: the search loop, apart from what only the
game knows.

A game gives the search two things:

- ``knowledge(view)``: what one seat knows, read from its view, as an object with ``me`` (the
  seat) and ``world(rng, relax)``: a real deal in the same position with the cards the seat has
  not seen placed where they may be (other hands, a hidden discard, a monte; ``worlds.assign``
  deals them), or None when a try finds no consistent one. ``relax`` drops the softer
  constraints (the voids read from play) after many failed tries.
- ``finish(deal)``: the deal played out to the count in full view of the world (its rule
  bot's play, or random legal play).

The loop samples worlds, plays each legal card of the view in every world, finishes each, and
keeps the card with the best mean score for the seat (``returns()``). Anything else (a
discard, a bid, a card with no alternative) is the fallback player's. Every decision depends
only on the view and the seed, so a worker rebuilt from (level, seed) decides the same.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from tarocchi.engine.game import get_game

WORLDS = 24  # worlds sampled per decision, at most
TIME_LIMIT = 0.6  # seconds: stop sampling more worlds after this (a safety net under load)
NO_SCORE = float("nan")  # the score of an action the search did not weigh (a fallback's, a forced one)


class PIMC:
    def __init__(self, game: str, knowledge: Callable[[dict], Any], finish: Callable[[Any], Any],
                 fallback: Callable[[dict], str], seed: int | None = None, worlds: int = WORLDS,
                 time_limit: float | None = TIME_LIMIT, phases: tuple[str, ...] = ("play",)):
        self.game = game  # by name: a player is pickled to worker processes, a Game need not be
        self.knowledge, self.finish, self.fallback = knowledge, finish, fallback
        self.seed = 0 if seed is None else seed
        self.worlds = worlds
        self.time_limit = time_limit  # a safety net only; None makes a decision a pure function of the view
        self.phases = phases  # the phases searched; the fallback decides the others

    def __call__(self, view: dict) -> str:
        return self.evaluate(view)[0][0]

    def evaluate(self, view: dict) -> list[tuple[str, float]]:
        """The actions considered with this seat's mean score over the worlds sampled, the one
        played first (best first); a decision not searched is the fallback's alone, with no
        score (NaN)."""
        ok = [c["action"] for c in view["choices"] if c["reason"] is None]
        if len(ok) == 1:
            return [(ok[0], NO_SCORE)]
        if view["phase"] not in self.phases:
            return [(self.fallback(view), NO_SCORE)]
        seen = self.knowledge(view)
        rng = random.Random(f"{self.seed}:{seen.me}:{len(view['actions'])}")
        game = get_game(self.game)
        options = [game.parse_action(a) for a in ok]
        totals = dict.fromkeys(options, 0.0)
        start = time.perf_counter()
        sampled = 0
        for attempt in range(self.worlds * 3):
            world = seen.world(rng, relax=attempt >= self.worlds * 2)
            if world is None:
                continue
            for a in options:
                d = world.copy()
                d.apply(a)
                totals[a] += self.finish(d).returns()[seen.me]
            sampled += 1
            if sampled == self.worlds or (self.time_limit and time.perf_counter() - start > self.time_limit):
                break
        if not sampled:
            return [(self.fallback(view), NO_SCORE)]
        preferred = game.parse_action(self.fallback(view))  # ties go to the fallback's choice
        ranked = sorted(options, key=lambda a: (totals[a], a == preferred), reverse=True)
        return [(game.action_text(a), totals[a] / sampled) for a in ranked]
