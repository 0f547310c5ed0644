"""The expert level, for any game: determinized search over weighted worlds, with the exact
solver (``solver``) for the cards once a world is small enough, and every decision (the
auction, the discard, the calls, the lays, the declarations, the signals) chosen by the same
search, each option tried in every world and the world played out.

A game's expert subclasses ``Expert`` and gives:

- ``knowledge(view)``: an object with ``me`` and ``world(rng, relax)``, a real deal in the
  same position with the unseen cards placed where they may be (as for ``pimc.PIMC``);
- ``rule``: its rule bot (a ``view -> action`` player): the fallback, the policy that plays a
  world out, and the model of the other seats that weighs the worlds;
- ``finish(deal)``: the deal, now in play, played out to the count (the rule bot's card sense
  in full view of the world), as an object with ``returns()``;
- ``maximising(deal, seat, me)``: whether ``seat`` plays for ``me``'s score (its side);
- optionally ``viewed_phases`` (the phases whose options are played out from every seat's
  own view, ``from_views``), ``plain`` and ``key_extra`` for the solver, ``exact_cards`` (the
  solver takes over when this few cards are left in all hands), ``candidates(view, ok)`` (the
  options searched in a phase with too many to try them all: a discard),
  ``informative(deal, seat, action)`` (which actions of another seat weigh a world).

Worlds are weighted by what the other seats did: replaying the world from its deal, each
informative action of another seat (a bid, a pass, a call, a declaration, a signal; the cards
too where a game says so) that the rule bot would not have taken in that seat, in that world,
multiplies the world's weight by ``SURPRISE`` (a world where a seat's action would be unlikely
for the policy that plays it counts less); a game may give a finer model of the other seats
(``likelihood``: Sicilian's words by its learned auction's chances, issue 43). The option with
the best weighted mean wins if it beats the ``default`` with confidence (``confident``), else
the default is played: the rule bot's choice, or where a game anchors its cards to the learned
player (``anchored_phases``, issue 43) the learned card; in the auction the best quiet word.

``evaluate(view)`` lists the options with their expected score for the seat, the one it plays
first (the best where ``confident``, else the default), then the others best first (the hint
and the review read it: what they call the computer's choice is what it plays, as for
``PIMC.evaluate``); ``__call__(view)`` plays the first. A decision depends only on the view and
the seed (and, as a safety net, the time limit), so a worker rebuilt from (level, seed)
decides the same.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

from tarocchi.engine.deck import cards_in

from tarocchi.engine.game import get_game

from .learned.policy import LEARNED, card_of
from .pimc import NO_SCORE
from .solver import OutOfNodes, Solver

# The budget is the bot's own CPU time, not the wall clock: on a shared machine a loaded
# moment would otherwise cut the search short (the duel reports both, docs/history/benchmarks.md).
clock = time.thread_time  # this thread's: a server runs bots in threads too

# Worlds per decision, at most: enough to fill the budget. At 24, Renaissance and Ottocento used
# about a quarter of it, and 64 gained on the same deals (docs/history/benchmarks.md, "Renaissance's and
# Ottocento's worlds"); a game may cap lower.
WORLDS = 64
TIME_LIMIT = 0.6  # CPU seconds: no new world after this (p95 of a decision at most 1 s, docs/benchmarks.md)
SURPRISE = 0.3  # a world's weight, times this for each action the rule bot would not have taken there
# Where the cards are anchored (``Expert.default``), the learned card is the default only where
# the network scores it this much above the rule bot's (about 1.2 times as likely): where the
# network is all but indifferent, the rule bot's sense of the points stays (a Horse fed to a
# friend's sure trick, a Queen taken with the King: tests/bots/test_regression.py).
ANCHOR_MARGIN = 0.2
NODE_LIMIT = 12_000  # positions a solve of one world may visit before the world is played out instead
SOLVE_DEADLINE = 1.2  # times the time limit: a solve still running then is abandoned for a playout
MAX_CANDIDATES = 10  # options searched in a phase with more (a discard)
# Standard errors (over the worlds, paired) by which an option must beat the rule bot's before
# the expert leaves it: sampled worlds and played-out ones are noisy, a word of the auction most.
CONFIDENCE = {"play": 1.64}
CONFIDENCE_ELSE = 1.64


class Expert:
    game = ""  # by name: a player is pickled to worker processes, a Game need not be
    exact_cards: int = 12
    worlds = WORLDS
    time_limit: float | None = TIME_LIMIT
    surprise = SURPRISE
    plain = 0
    # The words of the auction that take on no contract: a contract is bid only on a confident
    # gain over the best of them (over the worlds), whatever the rule bot would say.
    quiet_words: frozenset[str] = frozenset()
    auction_phase = "speak"  # where the quiet words are words of the auction (a take's passo is not)
    searched_phases: frozenset[str] | None = None  # None: every phase
    # The phases whose options are valued by a playout from the seats' own views, not in full
    # view of the world (``from_views``): where a full-view playout misjudges what a contract
    # is worth, because the side that knows where every card lies plays it too well.
    viewed_phases: frozenset[str] = frozenset()
    confidence = CONFIDENCE  # by phase, the standard errors of ``confident``
    # Issue 43, part 3: in these phases the option the search must beat with confidence (and
    # that wins its ties) is the learned player's card (``learned.policy``), not the rule bot's:
    # where the worlds cannot tell the cards apart, the expert plays as the learned player, which
    # plays nearer the expert than the rule bot does.
    anchored_phases: frozenset[str] = frozenset()

    def __init__(self, seed: int | None = None, time_limit: float | None = TIME_LIMIT, worlds: int | None = None):
        self.seed = 0 if seed is None else seed
        if worlds is not None:
            self.worlds = worlds
        self.time_limit = time_limit  # None makes a decision a pure function of the view
        self.learned = LEARNED[self.game](self.seed) if self.game in LEARNED else None  # ``default``
        self.last: tuple | None = None  # (texts, [(weight, values)], the default) of the last evaluation
        self.stats = {"worlds": 0, "solved": 0, "played_out": 0, "solve_s": 0.0, "sample_s": 0.0, "weigh_s": 0.0}

    # --- what a game gives ----------------------------------------------------------------

    rule: Callable[[dict], str]

    def knowledge(self, view: dict) -> Any:
        raise NotImplementedError

    def finish(self, deal: Any) -> Any:
        raise NotImplementedError

    def maximising(self, deal: Any, seat: int, me: int) -> bool:
        raise NotImplementedError

    def key_extra(self, deal: Any) -> Any:
        return None

    last_trick: Callable[[Any, int], float] | None = None  # the solver's ``last_trick``, for ``me``

    def informative(self, deal: Any, seat: int, action: int) -> bool:
        """Whether ``seat``'s ``action`` (about to be taken in ``deal``) weighs a world: every
        action but a card played, by default."""
        return deal.phase != "play"

    def candidates(self, view: dict, ok: list[str]) -> list[str]:
        """The options searched: all of them, or the rule bot's and a sample of the others."""
        if len(ok) <= MAX_CANDIDATES:
            return ok
        preferred = self.rule(view)
        rng = random.Random(f"{self.seed}:candidates:{len(view.get('actions', []))}")
        return [preferred] + rng.sample([a for a in ok if a != preferred], MAX_CANDIDATES - 1)

    # --- the search -----------------------------------------------------------------------

    def complete(self, deal: Any) -> Any:
        """``deal`` played out to the count: the rule bot's words until play, then ``finish``."""
        while not deal.done and deal.phase != "play":
            deal.apply(self.rule(deal.view(deal.to_act)), deal.to_act)
        return self.finish(deal)

    def from_views(self, deal: Any) -> Any:
        """``deal`` played out to the count by the rule bot for every seat, each decision (the
        cards too) taken from that seat's own view, as at a table: slower than ``complete``
        (a view is built for every action), used for ``viewed_phases``."""
        while not deal.done:
            deal.apply(self.rule(deal.view(deal.to_act)), deal.to_act)
        return self.finish(deal)

    def score(self, deal: Any, me: int) -> float:
        """A finished world's score for ``me``: what ``finish`` makes of it."""
        return self.finish(deal).returns()[me]

    def weight(self, world: Any, me: int) -> float:
        """How likely the other seats' actions were in this world (see the module's words)."""
        fresh = self.restart(world)
        w = 1.0
        for seat, action in world.history:
            if seat != me and self.informative(fresh, seat, action):
                w *= self.likelihood(fresh, seat, action)
            fresh.apply(action, seat)
        return w

    def likelihood(self, deal: Any, seat: int, action: int) -> float:
        """How likely ``seat`` was to take ``action`` (about to be taken in ``deal``) for the
        model of the other seats: 1 where the rule bot would take it, ``surprise`` where not."""
        try:
            mine = get_game(self.game).parse_action(self.rule(deal.view(seat)))
        except (ValueError, KeyError):
            mine = None
        return 1.0 if mine == action else self.surprise

    def restart(self, world: Any) -> Any:
        """The world at its deal, before any action."""
        return type(world)(world.seats, world.dealer, list(world.deck), world.options, log=False)

    def solver(self, me: int, deadline: float | None = None, node_limit: int = NODE_LIMIT) -> Solver:
        last = self.last_trick
        return Solver(lambda d: self.score(d, me), lambda d, seat: self.maximising(d, seat, me),
                      self.key_extra, self.plain, node_limit,
                      None if last is None else lambda d: last(d, me), deadline)

    def values_in(self, world: Any, options: list[int], me: int, deadline: float | None = None,
                  node_limit: int = NODE_LIMIT) -> list[float]:
        """``me``'s score after each option in this world: exact once few cards are left (and
        the solve ends before ``deadline`` and ``node_limit`` positions), else each option
        played out."""
        if world.phase == "play" and sum(world.hands[s].bit_count() for s in range(world.seats)) <= self.exact_cards:
            t = clock()
            try:
                exact = self.solver(me, deadline, node_limit).values(world, options)
                self.stats["solved"] += 1
                return [exact[a] for a in options]
            except OutOfNodes:
                pass
            finally:
                self.stats["solve_s"] += clock() - t
        self.stats["played_out"] += 1
        playout = self.from_views if world.phase in self.viewed_phases else self.complete
        out = []
        for a in options:
            d = world.copy()
            d.apply(a)
            out.append(playout(d).returns()[me])
        return out

    def anchored(self, view: dict) -> bool:
        """Whether the learned card is the ``default`` here: in ``anchored_phases``."""
        return view["phase"] in self.anchored_phases

    def default(self, view: dict) -> str:
        """The option the search must beat with confidence outside the auction: the rule bot's,
        or where ``anchored`` the learned player's card if the network prefers it to the rule
        bot's by ``ANCHOR_MARGIN`` (with the signal the learned player makes with it: Ottocento's
        rule bot's, B22)."""
        said = self.rule(view)
        if self.anchored(view) and self.learned is not None:
            card = self.learned.card(view, margin=ANCHOR_MARGIN, said=said)
            if card is not None and card != card_of(said):
                return self.learned.played(view, card)
        return said

    def options(self, view: dict, ok: list[str]) -> list[str]:
        return ok if view["phase"] == "play" else self.candidates(view, ok)

    def evaluate(self, view: dict) -> list[tuple[str, float]]:
        """The options considered, as action texts, with the expected score for the seat in
        the game's units: the one played first (the best mean where it beats the ``default``
        with confidence, else the default), then the others best first. A decision not searched
        (a single legal action, a phase the game leaves to its rule bot, no world sampled) is
        one action alone with no score (NaN), as in ``PIMC.evaluate``: the rule bot's, or where
        no world was sampled the ``default``."""
        ok = [c["action"] for c in view["choices"] if c["reason"] is None]
        if not ok:
            return []
        self.last = None
        if len(ok) == 1:
            return [(ok[0], NO_SCORE)]
        if self.searched_phases is not None and view["phase"] not in self.searched_phases:
            return [(self.rule(view), NO_SCORE)]
        texts = self.options(view, ok)
        game = get_game(self.game)
        options = [game.parse_action(a) for a in texts]
        seen = self.knowledge(view)
        me = seen.me
        rng = random.Random(f"{self.seed}:{me}:{len(view.get('actions', []))}:{view['phase']}")
        totals = [0.0] * len(options)
        weights = 0.0
        per_world: list[tuple[float, list[float]]] = []
        start = clock()
        sampled = 0
        for attempt in range(self.worlds * 3):
            t = clock()
            world = seen.world(rng, relax=attempt >= self.worlds * 2)
            self.stats["sample_s"] += clock() - t
            if world is None:
                continue
            t = clock()
            w = self.weight(world, me)
            self.stats["weigh_s"] += clock() - t
            values = self.values_in(world, options, me, start + SOLVE_DEADLINE * self.time_limit
                                    if self.time_limit else None)
            for i, v in enumerate(values):
                totals[i] += w * v
            weights += w
            per_world.append((w, values))
            sampled += 1
            self.stats["worlds"] += 1
            if sampled == self.worlds or (self.time_limit and clock() - start > self.time_limit):
                break
        if not sampled:
            return [(self.default(view), NO_SCORE)]
        means = [round(t / weights, 9) for t in totals]  # rounded: equal options tie, the default first
        auction = view["phase"] == self.auction_phase
        quiet = [i for i, a in enumerate(texts) if auction and a in self.quiet_words]
        preferred = texts[max(quiet, key=lambda i: means[i])] if quiet else self.default(view)
        ranked = sorted(range(len(options)), key=lambda i: (-means[i], texts[i] != preferred))
        self.last = (texts, per_world, preferred)
        if not self.confident(texts[ranked[0]], view["phase"]):  # the default is played: first
            ranked.remove(texts.index(preferred))
            ranked.insert(0, texts.index(preferred))
        return [(texts[i], means[i]) for i in ranked]

    def confident(self, best: str, phase: str) -> bool:
        """Whether ``best`` beats the ``default`` (in the auction the best quiet word) in the
        last evaluation by more than ``confidence`` standard errors (by phase) of the weighted,
        paired difference."""
        if self.last is None:
            return True
        texts, per_world, preferred = self.last
        if best == preferred or preferred not in texts:
            return True
        return beats(per_world, texts.index(best), texts.index(preferred), self.confidence.get(phase, CONFIDENCE_ELSE))

    def endgame(self, view: dict, plain: list[str], card: str, worlds: int, node_limit: int) -> str:
        """The learned level's last tricks (issue 43, ``learned.policy``): of the ``plain``
        cards, the best over a few ``worlds`` (each solved exactly within ``node_limit``
        positions, else played out), where it beats the network's ``card`` with confidence;
        else ``card``. The worlds are not weighed (replaying each world's actions costs more
        than its solve and gained nothing measurable at the last tricks)."""
        game = get_game(self.game)
        options = [game.parse_action(a) for a in plain]
        seen = self.knowledge(view)
        rng = random.Random(f"{self.seed}:endgame:{seen.me}:{len(view.get('actions', []))}")
        per_world: list[tuple[float, list[float]]] = []
        for attempt in range(worlds * 3):
            world = seen.world(rng, relax=attempt >= worlds * 2)
            if world is None:
                continue
            per_world.append((1.0, self.values_in(world, options, seen.me, node_limit=node_limit)))
            if len(per_world) == worlds:
                break
        best = max(range(len(options)), key=lambda i: sum(v[i] for _, v in per_world))
        mine = plain.index(card)
        return plain[best] if beats(per_world, best, mine, self.confidence["play"]) else card

    def __call__(self, view: dict) -> str:
        ok = [c["action"] for c in view["choices"] if c["reason"] is None]
        if len(ok) == 1:
            return ok[0]
        if self.searched_phases is not None and view["phase"] not in self.searched_phases:
            return self.rule(view)
        return self.evaluate(view)[0][0]


def beats(per_world: list[tuple[float, list[float]]], i: int, j: int, z: float) -> bool:
    """Whether option ``i`` beats option ``j`` by more than ``z`` standard errors of their
    weighted, paired difference over the worlds (``(weight, values)`` each)."""
    ws = [w for w, _ in per_world]
    total = sum(ws)
    if len(ws) < 2 or total <= 0:
        return False
    diffs = [v[i] - v[j] for _, v in per_world]
    mean = sum(w * d for w, d in zip(ws, diffs)) / total
    var = sum(w * (d - mean) ** 2 for w, d in zip(ws, diffs)) / total
    effective = total * total / sum(w * w for w in ws)  # Kish's effective number of worlds
    se = (var / max(1.0, effective - 1)) ** 0.5
    return mean > z * se


def discard_candidates(first: int, ranked: list[int], allowed: int, extra: int = 3,
                       most: int = MAX_CANDIDATES) -> list[int]:
    """Discards to search: the rule bot's (``first``) and the other sets of as many cards
    drawn from its cards and the ``extra`` next cards of ``ranked`` (the cards it would part
    with next, best first), each allowed."""
    size = first.bit_count()
    pool = list(cards_in(first)) + [c for c in ranked if not first >> c & 1 and allowed >> c & 1][:extra]
    out = [first]
    for trio in combinations(pool, size):
        m = sum(1 << c for c in trio)
        if m != first and m & allowed == m:
            out.append(m)
        if len(out) == most:
            break
    return out
