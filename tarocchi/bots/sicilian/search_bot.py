"""The search bot: determinized Monte Carlo (PIMC) from the seat's view.

For each decision it samples worlds consistent with what the seat has seen (``sampler``),
tries every allowed action in each, and plays on with the rule bot's card sense as the
rollout policy; the last tricks are solved exactly (alpha-beta over the sampled world). It
picks the action with the best mean payment to itself (R15). Bidding is simulated the same
way, so a solo is bid when it pays. The discard and the announcements are the rule bot's.

Every decision depends only on the view and the bot's seed: the random stream is re-seeded
from both, so a worker can rebuild the bot from (level, seed) and decide the same.
"""

from __future__ import annotations

import random
import time

from tarocchi.games.sicilian import CHIAMO, DISCARD, NO, VADO_SOLO, WORDS, parse_action
from tarocchi.engine.cards import CARD_OF, CODES, cards_in
from tarocchi.games.sicilian import ANNOUNCE, DISCARD_PHASE, PLAY, SPEAK, Deal

from .knowledge import read_view
from ..pimc import NO_SCORE
from .policy import bid_by_strength, choose_card, choose_discard
from .rule_bot import RuleBot, allowed
from .sampler import parse_log, sample_world

# Budgets, measured on this machine (docs/history/benchmarks.md "## Bots"): rollouts per card
# decision, worlds per bidding decision, and when the endgame is solved exactly.
PLAY_ROLLOUTS = 72
MIN_WORLDS = 8
BID_WORLDS = 16
EXACT_CARDS = {3: 9, 4: 8}  # cards left in all hands, at most: solve exactly
EXACT_WORLDS = 12
PLAY_MARGIN = 0.1  # jochi: what a card must gain over the rule bot's card in rollouts
EXACT_MARGIN = 0.0  # ... and in exactly solved endgames
BID_MARGIN = 0.0  # a contract must gain this much over the best quiet word
CONFIDENCE = 1.64  # standard errors: how sure a gain must be before the search acts on it
TIME_LIMIT = 0.6  # seconds: stop sampling more worlds after this (a safety net under load)


def rollout_action(deal: Deal) -> int:
    """The rule bot's choices with the sampled world's hands in full view."""
    phase = deal.phase
    x = deal.to_act
    if phase == PLAY:
        legal = deal.legal_cards()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        n = deal.seats
        side = deal.side_of(x)
        friends = [s != x and deal.side_of(s) == side for s in range(n)]
        foes = [deal.side_of(s) != side for s in range(n)]
        seats = [(deal.leader + i) % n for i in range(len(deal.trick))]
        return choose_card(deal.hands[x], legal, deal.trick, seats, x, n, friends, foes, deal.hands,
                           deal.tricks_left)
    if phase == SPEAK:
        ok = {WORDS[a] for a in deal.legal_actions()}
        return parse_action(bid_by_strength(deal.hands[x], deal.seats, ok))
    if phase == DISCARD_PHASE:
        return DISCARD | choose_discard(deal.hands[x], deal.discardable())
    return NO


def rollout(deal: Deal) -> Deal:
    while deal.phase != "done":
        deal.apply(rollout_action(deal))
    return deal


def solve(deal: Deal, me: int, alpha: float, beta: float) -> float:
    """Exact value (my payment, R15) of a perfect-information endgame, by alpha-beta: my
    side maximises, the other side minimises."""
    if deal.phase == "done":
        return deal.count.payments[me]
    maximising = deal.side_of(deal.to_act) == deal.side_of(me)
    moves = list(cards_in(deal.legal_cards()))
    if maximising:
        value = -1e9
        for c in reversed(moves):
            child = deal.copy()
            child.apply(c)
            value = max(value, solve(child, me, alpha, beta))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = 1e9
    for c in reversed(moves):
        child = deal.copy()
        child.apply(c)
        value = min(value, solve(child, me, alpha, beta))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value


class SearchBot:
    def __init__(self, seed: int | None = None, rollouts: int = PLAY_ROLLOUTS, bid_worlds: int = BID_WORLDS,
                 time_limit: float | None = TIME_LIMIT):
        self.seed = 0 if seed is None else seed
        self.time_limit = time_limit  # a safety net only; None makes a decision a pure function of the view
        self.rule = RuleBot(seed)
        self.rollouts = rollouts
        self.bid_worlds = bid_worlds
        self.sample_world = sample_world  # (a duel's ``+seeing`` gives the true deal instead)

    def __call__(self, view: dict) -> str:
        return self.evaluate(view)[0][0]

    def evaluate(self, view: dict) -> list[tuple[str, float]]:
        """The actions weighed with this seat's mean payment over the worlds sampled, the one
        played first, then the others by their mean; the rule bot's decisions (the discard,
        the announcements) and forced ones alone, with no score (NaN)."""
        phase = view["phase"]
        ok = allowed(view)
        if phase in (DISCARD_PHASE, ANNOUNCE) or (len(ok) == 1 and phase != DISCARD_PHASE):
            return [(self.rule(view) if len(ok) != 1 else ok[0], NO_SCORE)]
        seen = read_view(view)
        rng = random.Random(f"{self.seed}:{seen.me}:{len(seen.actions)}:{phase}")
        if phase == PLAY:
            return self.play(view, seen, ok, rng)
        return self.speak(view, seen, ok, rng)

    def _evaluate(self, seen, options: list[int], worlds: int, rng: random.Random,
                  exact: bool) -> dict[int, list[float]]:
        """This seat's payment for each option in each sampled world (the same worlds for all
        options, so that options are compared world by world)."""
        log = parse_log(seen)
        values: dict[int, list[float]] = {a: [] for a in options}
        start = time.perf_counter()
        for _ in range(worlds):
            world = self.sample_world(seen, rng, log)
            if world is None:
                continue
            for a in options:
                d = world.copy()
                d.apply(a)
                values[a].append(solve(d, seen.me, -1e9, 1e9) if exact else rollout(d).count.payments[seen.me])
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                break
        return values

    def play(self, view: dict, seen, ok: list[str], rng: random.Random) -> list[tuple[str, float]]:
        options = [CARD_OF[c] for c in ok]
        cards_left = sum(seen.hand_counts)
        exact = cards_left <= EXACT_CARDS[seen.seats]
        worlds = EXACT_WORLDS if exact else max(MIN_WORLDS, self.rollouts // len(options))
        values = self._evaluate(seen, options, worlds, rng, exact)
        preferred = CARD_OF[self.rule(view)]
        # Keep the rule bot's card unless the search is confident another is better: sampled
        # worlds and rollouts are noisy, an exact endgame less so.
        margin = EXACT_MARGIN if exact else PLAY_MARGIN
        choice = better_than(values, preferred, margin)
        return ranking(values, preferred if choice is None else choice, CODES.__getitem__)

    def speak(self, view: dict, seen, ok: list[str], rng: random.Random) -> list[tuple[str, float]]:
        words = [w for w in ok if w != "pago"]  # a pago can only cost (R6)
        if len(words) == 1:
            return [(words[0], NO_SCORE)]
        options = [parse_action(w) for w in words]
        values = self._evaluate(seen, options, self.bid_worlds, rng, exact=False)
        if not any(values.values()):
            return [(self.rule(view), NO_SCORE)]
        quiet = [a for a in options if a not in (VADO_SOLO, CHIAMO)]
        best_quiet = max(quiet, key=lambda a: mean(values[a]))
        # A contract only on a confident gain over staying quiet (R6-R8: passing costs nothing).
        choice = better_than(values, best_quiet, BID_MARGIN)
        return ranking(values, best_quiet if choice is None else choice, WORDS.__getitem__)


def ranking(values: dict[int, list[float]], chosen: int, text) -> list[tuple[str, float]]:
    """The chosen option first, then the others by their mean, each with its mean (NaN for
    one no world was sampled for)."""
    others = sorted((a for a in values if a != chosen), key=lambda a: mean(values[a]), reverse=True)
    return [(text(a), mean(values[a]) if values[a] else NO_SCORE) for a in [chosen, *others]]


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else -1e9


def better_than(values: dict[int, list[float]], base: int, margin: float) -> int | None:
    """The option whose mean gain over ``base``, world by world, is largest among those
    clearly above ``margin`` (by 1.64 standard errors); None if none is."""
    ref = values.get(base) or []
    best, best_gain = None, 0.0
    for a, xs in values.items():
        if a == base or len(xs) != len(ref) or len(xs) < 2:
            continue
        diffs = [x - y for x, y in zip(xs, ref)]
        m = sum(diffs) / len(diffs)
        var = sum((d - m) ** 2 for d in diffs) / (len(diffs) - 1)
        se = (var / len(diffs)) ** 0.5
        if m - CONFIDENCE * se > margin and m > best_gain:
            best, best_gain = a, m
    return best
