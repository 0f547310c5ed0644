"""Whether the other seats' cards, weighed by the learned player's chance of each, put the unseen
cards of the expert's worlds nearer where they lie (issue 43, part 3; docs/benchmarks.md,
"Part 3: the other seats' cards weighing the worlds"). Sicilian at three seats: at each of one
seat's decisions in play, the expert's worlds are sampled and each is scored by the share of the
other two hands' cards it places right, weighed as the shipped expert weighs it (the words) and
as it would be with the cards too (each card another seat played, with a choice, by the
learned player's chance of it from that seat's view there, ``0.9 p + 0.1/k`` to a power, the
last few cards or all).

    .venv/bin/python bench/card_inference.py --deals 12 --others learned   # or --others rule

Prints the mean share right (as sampled, weighed by the words), the gain of each way of
weighing the cards over the words with its 95 % interval, and the worlds left effective (Kish).
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from tarocchi.bots.learned.policy import SicilianLearned, card_of
from tarocchi.bots.sicilian.expert import WORD_SMOOTHING as SMOOTHING, SicilianExpert
from tarocchi.engine.game import get_game
from tarocchi.games.sicilian import action_text

POWERS = (0.5, 1.0)
WINDOWS = (4, 8, None)  # the last so many of the other seats' cards; None: all


def log_chances(expert: SicilianExpert, learned: SicilianLearned, world, me: int) -> list[float]:
    """The log of the smoothed chance of each card another seat played with a choice, in order."""
    model = learned.model(world.seats)
    codes = model.features.codes
    fresh = expert.restart(world)
    out = []
    for seat, action in world.history:
        if seat != me and fresh.phase == "play":
            view = fresh.view(seat)
            plain = [c["action"] for c in view["choices"] if c["reason"] is None and " " not in c["action"]]
            card = action_text(action)
            if len(plain) > 1 and card in plain:
                s = model.scores(view, [codes[a] for a in plain], codes.get(card_of(learned.rule(view)), -1))
                p = np.exp(s - s.max())
                p /= p.sum()
                out.append(float(np.log((1 - SMOOTHING) * p[plain.index(card)] + SMOOTHING / len(plain))))
        fresh.apply(action, seat)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--worlds", type=int, default=48)
    ap.add_argument("--others", choices=("learned", "rule"), default="learned",
                    help="who plays the deals: learned players (the model knows them) or rule bots")
    args = ap.parse_args()
    game = get_game("sicilian")
    expert = SicilianExpert(seed=1, time_limit=None)
    learned = SicilianLearned(seed=1)
    ways = [(power, window) for power in POWERS for window in WINDOWS]
    sampled, words, gains, effective = [], [], {w: [] for w in ways}, {w: [] for w in ways}
    words_effective = []
    for n in range(args.deals):
        deal = game.shuffled(3, n % 3, random.Random(args.seed + n))
        while not deal.done:
            seat = deal.to_act
            view = deal.view(seat)
            if deal.phase == "play" and seat == 0:
                seen = expert.knowledge(view)
                rng = random.Random(n * 100 + len(deal.history))
                rows = []
                for _ in range(args.worlds):
                    world = seen.world(rng)
                    if world is None:
                        continue
                    unseen = sum(deal.hands[s].bit_count() for s in (1, 2))
                    right = sum((world.hands[s] & deal.hands[s]).bit_count() for s in (1, 2)) / max(1, unseen)
                    rows.append((right, expert.weight(world, 0), log_chances(expert, learned, world, 0)))
                if len(rows) > 1:
                    right = np.array([r[0] for r in rows])
                    w = np.array([r[1] for r in rows])
                    sampled.append(right.mean())
                    words.append((right * w).sum() / w.sum())
                    words_effective.append(w.sum() ** 2 / (w ** 2).sum())
                    for power, window in ways:
                        logs = np.array([np.log(r[1]) + power * sum(r[2][-window:] if window else r[2]) for r in rows])
                        x = np.exp(logs - logs.max())
                        gains[power, window].append((right * x).sum() / x.sum() - words[-1])
                        effective[power, window].append(x.sum() ** 2 / (x ** 2).sum())
            deal.apply(learned(view) if args.others == "learned" or seat == 0 else learned.rule(view), seat)
    print(f"the others play as the {args.others} player; {len(words)} decisions of seat 0, {args.worlds} worlds each")
    print(f"share of the other hands' cards placed right: as sampled {np.mean(sampled):.4f}, "
          f"weighed by the words {np.mean(words):.4f} ({np.mean(words_effective):.1f} worlds effective)")
    for power, window in ways:
        g = np.array(gains[power, window])
        print(f"+ the cards, power {power}, {'all' if window is None else f'the last {window}'}: "
              f"{g.mean():+.4f} ± {1.96 * g.std() / len(g) ** 0.5:.4f} ({np.mean(effective[power, window]):.1f} worlds effective)")


if __name__ == "__main__":
    main()
