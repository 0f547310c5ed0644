"""The contract every game keeps between what it lists and what it accepts: at every step of a
deal, each action ``legal_actions()`` lists is accepted by ``refusal()`` and by ``apply()``, and
each action it does not list is refused by both. Checked through the public engine API alone
(``get_game``, ``Game.new_deal``, ``legal_actions``, ``refusal``, ``apply``, ``action_text``,
``parse_action``, ``view``, ``copy``), so that it holds whatever file a game lives in.

Two kinds of deal. Random ones: a shuffled deck, random legal actions (a solo now and then, so
that discards come often). Skewed ones (``Scenario``): one seat, with the monte cards that
reach it, dealt only the cards a discard may never take (``Game.discard_rule.never``: trumps,
the Fool and the Kings; Ottocento's 5-point cards), or those and one or two others, and the
auction steered so that this seat is the one to discard or lay: the Sicilian bidder at three
and four seats (R11), the Renaissance dealer (A7), each lay of Calabresella, the challenger's and
the opponents' in dividete and scegliete (C13), the Ottocento dealer (B8).

Every game here deals packets of five round the table from dealer + 1 and sets the last cards
of the deck order aside, as many as ``deck.size % (5 * seats)`` (R3, A6, C7, B6): that is how a
skewed hand is placed. ``Tally.short`` counts the short discards reached, so that a test can
check that the skewed deals do reach what they are built for.

Actions not listed are found from the texts of the listed ones: each card code of a listed
text is replaced by other cards (every combination of the hand's cards and the listed ones
where they are few, a sample where many, and a few cards from anywhere), and the words seen
listed anywhere in the game (``passo``, ``scommessa`` ...) are tried at every step. Phases that
list only some of their legal actions by design are left out of that half (``PARTIAL``).

bench/contract.py runs this at benchmark size; tests/engine/test_contract.py runs a share.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Any

from .game import Game, IllegalAction, get_game

# Phases whose listing is a choice of the legal actions, not all of them: Ottocento's
# declarations list the full best, each combination alone and none (B9; ``legal_actions``).
PARTIAL: dict[str, frozenset[str]] = {"ottocento": frozenset({"declare"})}
DISCARDING = ("discard", "lay")  # the phases whose actions are a DiscardRule's (R11, A7, C13, B8)
PASSES = ("passo", "sta bene")  # what the seats that are not to bid say in a steered auction
MAX_STEPS = 400


@dataclass(frozen=True)
class Scenario:
    """A skewed deal: the seat ``dealer + skewed`` (with the monte cards ``monte``, by their
    place in the deck order) holds the never-discarded cards and ``others`` other cards; in
    the auction the seat ``dealer + bidder`` says one of ``bids`` when it can, every other seat
    passes."""

    label: str
    seats: int
    skewed: int
    monte: tuple[int, ...] = ()
    bidder: int = 0
    bids: tuple[str, ...] = ()
    others: tuple[int, ...] = (0, 1, 2)


def _each_seat(seats: int, make) -> list[Scenario]:
    return [s for offset in range(seats) for s in make(offset)]


# The Sicilian bidder takes the monte and discards three (R11): at three seats after vado solo
# (at 5, 10, 15 or 20 cards: altre cinque first), at four after vado solo, chiamo, or the
# forced call when all pass (R10: the 20's holder, most often the skewed seat).
SCENARIOS: dict[str, list[Scenario]] = {
    "sicilian": _each_seat(3, lambda o: [
        Scenario(f"3 seats, bidder dealer+{o}", 3, o, (0, 1, 2), o, ("vado solo", "altre cinque"))])
    + _each_seat(4, lambda o: [
        Scenario(f"4 seats, bidder dealer+{o}", 4, o, (0, 1, 2), o, ("vado solo", "chiamo")),
        Scenario(f"4 seats, forced call, dealer+{o} skewed", 4, o, (0, 1, 2), o, ())]),
    # A7: the dealer holds 28, of which at most 26 are never discarded.
    "renaissance": [Scenario("the dealer", 3, 0, (0, 1, 2))],
    # C10, C11: the challenger lays 3 after chiamo or solo; in dividete the seat after the
    # challenger lays 2 (monte cards 1-2), the other opponent 1 (card 3); in scegliete each
    # opponent lays as many as it takes of the face-up monte (0-3, C12).
    "calabresella": _each_seat(3, lambda o: [
        Scenario(f"challenger dealer+{o}", 3, o, (0, 1, 2), o, ("chiamo", "vado solo")),
        Scenario(f"dividete, lay of 2, challenger dealer+{o}", 3, o + 1, (0, 1), o, ("vado solissimo dividete",),
                 (0, 1)),
        Scenario(f"dividete, lay of 1, challenger dealer+{o}", 3, o + 2, (2,), o, ("vado solissimo dividete",), (0,)),
        Scenario(f"scegliete, first opponent, challenger dealer+{o}", 3, o + 1, (0, 1, 2), o,
                 ("vado solissimo scegliete",), (0, 1)),
        Scenario(f"scegliete, second opponent, challenger dealer+{o}", 3, o + 2, (0, 1, 2), o,
                 ("vado solissimo scegliete",), (0, 1))]),
    # B8: the dealer's 17 hold at most the 8 five-point cards.
    "ottocento": [Scenario("the dealer", 4, 0, (0, 1))],
}


@dataclass
class Tally:
    """What a run saw: deals, steps, the checks made, the short discards reached, the problems."""

    deals: int = 0
    steps: int = 0
    listed: int = 0  # listed actions refusal() accepted
    applied: int = 0  # listed actions apply() took, on a copy or for real
    unlisted: int = 0  # actions not listed that refusal() refused
    unlisted_applied: int = 0  # ... and apply() refused too
    short: Counter = field(default_factory=Counter)  # (seats, phase, size, other cards held) -> steps
    problems: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("deals", "steps", "listed", "applied", "unlisted", "unlisted_applied"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.short.update(other.short)
        self.problems += other.problems


def deal_positions(game: Game, seats: int, dealer: int) -> tuple[dict[int, list[int]], list[int]]:
    """The places in the deck order that each seat is dealt, and those set aside (the monte,
    the dealer's extra cards), in deck order (R3, A6, C7, B6)."""
    aside = game.deck.size % (5 * seats)
    dealt = game.deck.size - aside
    hands: dict[int, list[int]] = {s: [] for s in range(seats)}
    for p in range(dealt):
        hands[(dealer + 1 + p // 5 % seats) % seats].append(p)
    return hands, list(range(dealt, game.deck.size))


def skewed_order(game: Game, scenario: Scenario, dealer: int, rng: random.Random) -> tuple[list[int], int]:
    """A deck order for ``scenario`` and the number of other cards in the skewed hand (at
    least what the never-discarded cards cannot fill)."""
    hands, aside = deal_positions(game, scenario.seats, dealer)
    places = hands[(dealer + scenario.skewed) % scenario.seats] + [aside[i] for i in scenario.monte]
    never_mask = game.discard_rule.never
    never = [c for c in range(game.deck.size) if never_mask >> c & 1]
    other = [c for c in range(game.deck.size) if not never_mask >> c & 1]
    rng.shuffle(never)
    rng.shuffle(other)
    others = max(rng.choice(scenario.others), len(places) - len(never))
    chosen = never[:len(places) - others] + other[:others]
    rng.shuffle(chosen)
    rest = never[len(places) - others:] + other[others:]
    rng.shuffle(rest)
    order = [-1] * game.deck.size
    for p, c in zip(places, chosen):
        order[p] = c
    free = iter(rest)
    for p in range(game.deck.size):
        if order[p] < 0:
            order[p] = next(free)
    return order, others


class Checker:
    """Checks the contract at every step of deals of one game; keeps the words it has seen
    listed, to try them where they are not."""

    def __init__(self, name: str, combos: int = 2000, applies: int = 40, far: int = 8):
        self.game = get_game(name)
        self.name = name
        self.combos = combos  # candidates per text shape: every combination if no more, else a sample
        self.far = far  # and so many more of cards from anywhere in the deck
        self.applies = applies  # listed actions applied, each on a copy, per step: all if no more, else a sample
        self.words: set[str] = set()
        self.codes = set(self.game.deck.codes)
        self.partial = PARTIAL.get(name, frozenset())

    # --- deals ------------------------------------------------------------------------

    def random_deal(self, rng: random.Random) -> Tally:
        seats = rng.choice(self.game.seats)
        dealer = rng.randrange(seats)
        deal = self.game.new_deal(seats, dealer, self.game.deck.shuffled(rng), self.game.options.from_json(None))
        return self.walk(deal, rng, None, f"{self.name} {seats} seats random deal")

    def skewed_deal(self, rng: random.Random, scenario: Scenario | None = None) -> Tally:
        scenario = scenario or rng.choice(SCENARIOS[self.name])
        dealer = rng.randrange(scenario.seats)
        order, others = skewed_order(self.game, scenario, dealer, rng)
        deal = self.game.new_deal(scenario.seats, dealer, order, self.game.options.from_json(None))
        label = f"{self.name} {scenario.label}, {others} other card(s), dealer {dealer}"
        return self.walk(deal, rng, scenario, label)

    def walk(self, deal: Any, rng: random.Random, scenario: Scenario | None, label: str) -> Tally:
        tally = Tally(deals=1)
        for _ in range(MAX_STEPS):
            seat = deal.to_act
            if seat is None or deal.done:
                return tally
            where = f"{label}: seat {seat}, phase {deal.phase}"
            try:
                legal = deal.legal_actions()
                if not legal:
                    tally.problems.append(f"{where}: to act with no legal action")
                    return tally
                self._check_step(deal, seat, legal, rng, tally, where)
                if tally.problems:
                    return tally
                action = self._choose(deal, seat, legal, rng, scenario)
                deal.apply(action, seat)
            except Exception as e:  # noqa: BLE001 - any exception is a broken contract
                tally.problems.append(f"{where}: {type(e).__name__}: {e}")
                return tally
            tally.steps += 1
            tally.applied += 1
        tally.problems.append(f"{label}: not over after {MAX_STEPS} steps")
        return tally

    def _choose(self, deal: Any, seat: int, legal: list[int], rng: random.Random, scenario: Scenario | None) -> int:
        text = self.game.action_text
        if scenario is None:  # random, bold half the time so that discards come often
            bold = [a for a in legal if "solo" in text(a)]
            return rng.choice(bold if bold and rng.random() < 0.5 else legal)
        if deal.phase == "speak":
            wanted = scenario.bids if seat == (deal.dealer + scenario.bidder) % deal.seats else PASSES
            picks = [a for a in legal if text(a) in wanted]
            if picks:
                return rng.choice(picks)
        return rng.choice(legal)

    # --- one step -----------------------------------------------------------------------

    def _check_step(self, deal: Any, seat: int, legal: list[int], rng: random.Random, tally: Tally,
                    where: str) -> None:
        game, problems = self.game, tally.problems
        listed = set(legal)
        if len(listed) != len(legal):
            problems.append(f"{where}: an action is listed twice")
        for a in legal:
            why = deal.refusal(seat, a)
            if why is not None:
                problems.append(f"{where}: listed {game.action_text(a)!r} refused: {why}")
                return
        tally.listed += len(legal)
        for a in legal if len(legal) <= self.applies else rng.sample(legal, self.applies):
            words = game.action_text(a)
            if game.parse_action(words) != a or deal.refusal(seat, words) is not None:
                problems.append(f"{where}: listed {words!r} is refused as a text")
                return
            copy = deal.copy()
            copy.apply(a, seat)  # raises if refused
            tally.applied += 1
        hand = deal.view(seat)["hand"]
        if deal.phase in DISCARDING:
            size = len(self._cards_of(game.action_text(legal[0])))
            held = sum(1 << game.deck.card(c) for c in hand)
            others = (held & ~game.discard_rule.never).bit_count()
            if others < size:
                tally.short[(deal.seats, deal.phase, size, others)] += 1
        if deal.phase in self.partial:
            return
        phrases = [game.action_text(a) for a in legal]
        self.words.update(p for p in phrases if not self._cards_of(p))
        for words in self._not_listed(phrases, hand, rng):
            try:
                action = game.parse_action(words)
            except Exception:  # noqa: BLE001 - not an action at all: refusal must say so
                action = None
            if action in listed:
                continue
            if deal.refusal(seat, words) is None or (action is not None and deal.refusal(seat, action) is None):
                problems.append(f"{where}: {words!r} is not listed but refusal() accepts it")
                return
            tally.unlisted += 1
            if action is not None and tally.unlisted % 16 == 0:  # apply() too, on a share
                try:
                    deal.copy().apply(action, seat)
                except IllegalAction:
                    tally.unlisted_applied += 1
                else:
                    problems.append(f"{where}: {words!r} is not listed but apply() takes it")
                    return

    def _cards_of(self, words: str) -> list[int]:
        """The places of the card codes among the words of an action's text."""
        return [i for i, w in enumerate(words.split()) if w in self.codes]

    def _not_listed(self, phrases: list[str], hand: list[str], rng: random.Random) -> set[str]:
        """Texts near the listed ones: their card codes replaced by other cards, and every word
        of the game seen listed; most are not legal now."""
        out = set(self.words)
        shapes: dict[tuple, set[str]] = {}
        for p in phrases:
            words = p.split()
            spots = self._cards_of(p)
            if spots:
                shape = tuple(None if i in spots else w for i, w in enumerate(words))
                shapes.setdefault(shape, set()).update(words[i] for i in spots)
        deck = list(self.game.deck.codes)
        for shape, seen in shapes.items():
            k = shape.count(None)
            if comb(len(deck), k) <= self.combos:  # a card alone: every card of the deck
                fills = list(combinations(deck, k))
            else:
                near = sorted(set(hand) | seen)
                fills = (list(combinations(near, k)) if comb(len(near), k) <= self.combos
                         else [tuple(rng.sample(near, k)) for _ in range(self.combos)])
                fills += [tuple(rng.sample(deck, k)) for _ in range(self.far)]
            for fill in fills:
                cards = iter(fill)
                out.add(" ".join(w if w is not None else next(cards) for w in shape))
        return out


def run(name: str, random_deals: int, skewed_deals: int, seed: int, checker: Checker | None = None) -> Tally:
    """``random_deals`` random and ``skewed_deals`` skewed deals of game ``name`` (the skewed
    ones go through its scenarios in turn), from ``seed``."""
    checker = checker or Checker(name)
    rng = random.Random(seed)
    tally = Tally()
    scenarios = SCENARIOS[name]
    for _ in range(random_deals):
        tally.add(checker.random_deal(rng))
    for i in range(skewed_deals):
        tally.add(checker.skewed_deal(rng, scenarios[i % len(scenarios)]))
    return tally
