"""Issue 43, part 3: would a learned playout make the expert's worlds worth more? Weighed where
it is cheap to weigh, in Renaissance, in full view of the world:

    .venv/bin/python bench/seeing_playout.py --deals 3000 --bench-deals 600

1. Data: random deals (the rule bot's discard, A7) played out by one step of search over the
   expert's playout ("the world's play", ``renaissance.expert.play_seeing``): at every card
   with a choice each legal card is tried and the world played out by the world's play, the
   seat's score kept (this policy beats the world's play by +4.66 points a seat and deal,
   docs/history/benchmarks.md, "A step of search in the playout").
2. A network of the learned level's shape (``learned.train.fit``: one hidden layer, a score a
   legal card) reads the world in full view (every hand, the cards played and in the trick,
   each seat's points won; for each card whether it wins the trick and is sure to, its points,
   whether the world's play would play it) and learns the step's values of the cards.
3. Bench: the network at one seat against the world's play at the other two, every deal
   played three times (the network in each seat; A15, each hand scores alone), and the CPU
   of a card each way.

A playout policy must be both stronger and cheap: the expert plays out 64 worlds times a
decision's options within 0.6 s of CPU, and a gain of +0.41 in this bench was level in the
expert (docs/history/benchmarks.md, "A playout weighed in full view"). The network re-encodes
the world at every card (no incremental update): its CPU is an upper bound.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import random
import statistics
import time

import numpy as np

from tarocchi.bots.learned.features import CARD_FEATURES
from tarocchi.bots.learned.train import agreement, fit, targets
from tarocchi.bots.renaissance.expert import RenaissanceExpert, finish_seeing, play_seeing
from tarocchi.engine.game import get_game

from learned_playout import to_the_cards  # bench/, the script's folder

GAME = get_game("renaissance")
SEATS = 3


class SeeingFeatures:
    """A world in play as numbers, from the seat to act (every seat counted from it)."""

    def __init__(self, rule):
        deck = GAME.deck
        self.rule = rule
        self.n = n = deck.size
        self.values = [float(v) for v in deck.values]
        self.trumps, self.fool, self.suit_mask_of = deck.trumps, deck.fool, deck.suit_mask_of
        # the cards of a card's suit that outrank it (a higher index ranks higher: TrickRules.winning_card)
        self.above = [0 if c == self.fool else self.suit_mask_of[c] & ~((1 << (c + 1)) - 1) for c in range(n)]
        self.nbytes = (n + 7) // 8
        s = SEATS
        self.o_played, self.o_trick, self.o_place = s * n, 2 * s * n, 3 * s * n
        self.o_won = self.o_place + s
        self.size = self.o_won + s + 1

    def bits(self, m: int) -> np.ndarray:
        return np.unpackbits(np.frombuffer(m.to_bytes(self.nbytes, "little"), np.uint8), bitorder="little")[:self.n]

    def beaten_by(self, best: int) -> int:
        """The cards that beat ``best``, the trick's winning card so far."""
        if self.trumps >> best & 1:
            return self.above[best]
        return self.trumps | self.above[best]

    def encode(self, deal) -> tuple[np.ndarray, dict]:
        n, me = self.n, deal.to_act
        x = np.zeros(self.size, np.float32)
        for r in range(SEATS):
            seat = (me + r) % SEATS
            x[r * n:(r + 1) * n] = self.bits(deal.hands[seat])
            x[self.o_played + r * n:self.o_played + (r + 1) * n] = self.bits(deal.played[seat])
            won = deal.won[seat]
            x[self.o_won + r] = sum(self.values[c] for c in range(n) if won >> c & 1) / 10.0
        best, at = -1, -1
        for i, c in enumerate(deal.trick):
            x[self.o_trick + ((deal.leader + i - me) % SEATS) * n + c] = 1.0
            if c != self.fool and (best < 0 or self.beaten_by(best) >> c & 1):
                best, at = c, i
        place = len(deal.trick)
        x[self.o_place + place] = 1.0
        x[-1] = deal.hands[me].bit_count() / 10.0
        others = deal.hands[(me + 1) % SEATS] | deal.hands[(me + 2) % SEATS]
        ctx = {"deal": deal, "best": best, "mine": float(at >= 0 and (deal.leader + at) % SEATS == me),
               "later": [(me + i) % SEATS for i in range(1, SEATS - place)], "others": others,
               "points": sum(self.values[c] for c in deal.trick), "world": play_seeing(self.rule, deal)}
        return x, ctx

    def card(self, c: int, ctx: dict) -> np.ndarray:
        deal, best = ctx["deal"], ctx["best"]
        wins = c != self.fool and (best < 0 or bool(self.beaten_by(best) >> c & 1))
        sure = wins
        if wins:  # none of the seats still to play can beat it
            trick, beats = deal.trick + [c], self.beaten_by(c)
            sure = not any(deal.rules.legal(deal.hands[s], trick) & beats for s in ctx["later"])
        suit = self.suit_mask_of[c] if c != self.fool else 1 << c
        others, hand = ctx["others"], deal.hands[deal.to_act]
        last = not ctx["later"]
        return np.array([1.0, wins, wins and last, ctx["mine"], self.values[c] / 5.0, self.trumps >> c & 1,
                         c == self.fool, c != self.fool and not self.above[c] & others, (hand & suit).bit_count() / 10.0,
                         (suit & ((1 << c) - 1)).bit_count() / max(1, suit.bit_count() - 1), wins * ctx["points"] / 10.0,
                         ctx["mine"] * self.values[c] / 5.0, c == ctx["world"], sure,
                         (self.above[c] & others).bit_count() / 5.0, (suit & others).bit_count() / 10.0], np.float32)


def decisions(job: tuple[int, int]) -> dict:
    """``deals`` deals played by the step of search, its values of every card as targets (the
    trainer's: ``softmax((v - best) / t)``, ``t`` a quarter of the spread)."""
    seed, deals = job
    rng = random.Random(seed)
    expert = RenaissanceExpert(seed=seed)
    feats = SeeingFeatures(expert.rule)
    n = feats.n
    out: dict[str, list] = {"X": [], "P": [], "M": [], "T": [], "y": [], "best": []}
    for _ in range(deals):
        deal = to_the_cards(GAME, expert, rng, SEATS)  # (no auction: every deal reaches its cards)
        while deal.phase == "play":
            legal = deal.legal_card_list()
            if len(legal) == 1:
                deal.apply(legal[0])
                continue
            me, values = deal.to_act, []
            for c in legal:
                d = deal.copy()
                d.apply(c)
                values.append(finish_seeing(d, expert.rule).returns()[me])
            x, ctx = feats.encode(deal)
            p, m = np.zeros((n, CARD_FEATURES), np.float16), np.zeros(n, bool)
            for c in legal:
                p[c], m[c] = feats.card(c, ctx), True
            t, best = targets(dict(zip(legal, values)), n)
            pick = ctx["world"] if best[ctx["world"]] else legal[values.index(max(values))]
            for k, v in zip(out, (x.astype(np.float16), p, m, t, pick, best)):
                out[k].append(v)
            deal.apply(pick)
    return {k: np.array(v) for k, v in out.items()}


def dataset(deals: int, seed: int, jobs: int) -> dict:
    chunks = [(seed * 1000 + i, deals // (4 * jobs)) for i in range(4 * jobs)]
    with mp.Pool(jobs) as pool:
        parts = pool.map(decisions, chunks)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def choose(params: dict, feats: SeeingFeatures, deal, legal: list[int]) -> int:
    x, ctx = feats.encode(deal)
    h = np.maximum(params["W"] @ x + params["w"], 0.0)
    phi = np.stack([feats.card(c, ctx) for c in legal])
    scores = params["V"][legal] @ h + params["b"][legal] + phi @ (params["U"] @ h + params["u"])
    return legal[int(np.argmax(scores))]


def bench(params: dict, deals: int, seed: int) -> None:
    rng = random.Random(seed)
    expert = RenaissanceExpert(seed=seed)
    feats = SeeingFeatures(expert.rule)
    margins, net_cpu, world_cpu = [], [], []
    for _ in range(deals):
        start = to_the_cards(GAME, expert, rng, SEATS)
        margin = 0.0
        for seat in range(SEATS):
            d = start.copy()
            while d.phase == "play":
                t = time.thread_time()
                if d.to_act == seat:
                    legal = d.legal_card_list()
                    c = legal[0] if len(legal) == 1 else choose(params, feats, d, legal)
                    net_cpu.append(time.thread_time() - t)
                else:
                    c = play_seeing(expert.rule, d)
                    world_cpu.append(time.thread_time() - t)
                d.apply(c)
            r = d.returns()
            margin += r[seat] - (sum(r) - r[seat]) / 2  # the seat against the mean of the other two
        margins.append(margin / SEATS)
    m, half = statistics.fmean(margins), 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    print(f"the network at one seat - the world's play at the other two: {m:+.3f} +- {half:.3f} points a seat "
          f"and deal ({deals} deals, seed {seed}); CPU a card, median: network {statistics.median(net_cpu) * 1e6:.0f} us, "
          f"world's play {statistics.median(world_cpu) * 1e6:.0f} us")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=3000, help="deals of training data")
    ap.add_argument("--valid-deals", type=int, default=200, help="deals that choose the epoch kept")
    ap.add_argument("--bench-deals", type=int, default=600)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--hard", action="store_true", help="learn the step's card alone, not its values")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t = time.time()
    train, valid = dataset(args.deals, args.seed, args.jobs), dataset(args.valid_deals, args.seed + 1, args.jobs)
    made = time.time() - t
    params = fit(train, valid, args.hidden, args.epochs, 2e-3, 1e-3, 0, quiet=True, hard=args.hard)
    world = valid["P"][:, :, 12].argmax(1)
    print(f"data: {len(train['y'])} decisions ({args.deals} deals) in {made:.0f} s; trained in {time.time() - t - made:.0f} s; "
          f"a card the step valued best, held out: the network {agreement(params, valid, ties=True):.3f}, "
          f"the world's play {valid['best'][np.arange(len(world)), world].mean():.3f}")
    bench(params, args.bench_deals, args.seed + 2)


if __name__ == "__main__":
    main()
