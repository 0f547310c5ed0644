"""Bot figures that are not a duel (the duel itself is ``tarocchi duel``).

    .venv/bin/python bench/duel_bench.py calibrate --seats 3 --deals 2000
        the soloist's (or caller's) mean payment by hand strength with rule play: where the
        rule bot's bidding thresholds (tarocchi/bots/sicilian/policy.py) come from;
    .venv/bin/python bench/duel_bench.py calibrate --game calabresella --deals 1500
        Calabresella: seat 1 made to bid each contract in turn on the same deals, rule bots
        play on; the challenger's mean payment by hand strength, per contract: the rule bot's
        thresholds (tarocchi/bots/calabresella/rule_bot.py THRESHOLDS);
    .venv/bin/python bench/duel_bench.py timing --seats 3 --deals 20 --level search
        time per decision of one bot playing every seat (median, p95, max, by phase);
        ``--game ottocento --seats 4`` (or renaissance) times that game's bots.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tarocchi.bots import make_player
from tarocchi.bots.sicilian.policy import hand_strength
from tarocchi.engine.game import get_game
from tarocchi.games.sicilian import Deal


def calibrate(seats: int, deals: int, bid: str) -> None:
    """Force seat 1 to bid (at 20 cards at three seats, at 15 at four), rule bots play on."""
    bots = [make_player("rule", seed=s) for s in range(seats)]
    rows = []
    for i in range(deals):
        d = Deal.from_seed(seats, 0, 1000 + i)
        if seats == 3:
            while d.hand_size(1) < 20:
                d.apply("altre cinque")
            strength = hand_strength(d.hands[1], 3)
            for word in ("vado solo", "passo", "passo"):
                d.apply(word)
        else:
            for _ in range(4):
                d.apply("passo")
            strength = hand_strength(d.hands[1], 4)
            d.apply(bid)
            while d.phase == "speak":
                d.apply("passo")
        while not d.done:
            s = d.to_act
            d.apply(bots[s](d.view(s)), s)
        rows.append((strength, d.count.payments[1]))
    said = "vado solo at 20 cards" if seats == 3 else bid
    print(f"{seats} seats, seat 1 says {said!r}; mean payment by hand strength")
    print("| strength | deals | mean payment |")
    print("|---|---|---|")
    for lo in range(0, 40, 2):
        sel = [p for s, p in rows if lo <= s < lo + 2]
        if len(sel) >= 5:
            print(f"| {lo}-{lo + 2} | {len(sel)} | {statistics.fmean(sel):+.2f} |")


CALABRESELLA_BIDS = ("chiamo", "vado solo", "vado solissimo", "vado solissimo dividete", "vado solissimo scegliete")


def calibrate_calabresella(deals: int, min_strength: float = 0.0, step: float = 2.0) -> None:
    """Seat 1 (dealer + 1, the first to speak) says each contract on the same deals, the others
    ``sta bene``; rule bots play every seat on. Mean payment of seat 1 by hand strength. With
    ``min_strength`` only the deals whose seat 1 is at least that strong are played (the
    strong hands are rare: their rows need many deals)."""
    from tarocchi.bots.calabresella.rule_bot import CalabresellaRuleBot
    from tarocchi.games.calabresella import Deal as CDeal

    bots = [CalabresellaRuleBot(seed=s) for s in range(3)]
    rows: dict[str, list[tuple[float, int, bool]]] = {b: [] for b in CALABRESELLA_BIDS}
    for i in range(deals):
        for bid in CALABRESELLA_BIDS:
            d = CDeal.from_seed(0, 1000 + i)
            strength = hand_strength(d.hands[1], 3)
            if strength < min_strength:
                break
            d.apply(bid)
            while d.phase == "speak":
                d.apply("sta bene")
            while not d.done:
                s = d.to_act
                d.apply(bots[s](d.view(s)), s)
            rows[bid].append((strength, d.count.payments[1], d.count.won))
    played = len(rows["chiamo"])
    print(f"calabresella, seat 1 made to bid each contract on the same {played} deals (of {deals}, strength >= "
          f"{min_strength}); mean payment (and contracts made) by hand strength")
    print("| strength | deals | " + " | ".join(CALABRESELLA_BIDS) + " |")
    print("|---|---|" + "---|" * len(CALABRESELLA_BIDS))
    for k in range(int(40 / step)):
        lo = k * step
        cells = []
        n = 0
        for bid in CALABRESELLA_BIDS:
            sel = [(p, w) for s, p, w in rows[bid] if lo <= s < lo + step]
            n = len(sel)
            if len(sel) >= 5:
                cells.append(f"{statistics.fmean(p for p, _ in sel):+.2f} ({sum(w for _, w in sel) / n:.0%})")
        if n >= 5:
            print(f"| {lo:g}-{lo + step:g} | {n} | " + " | ".join(cells) + " |")


def timing(seats: int, deals: int, level: str, game: str = "sicilian") -> None:
    bots = [make_player(level, seed=s, game=game) for s in range(seats)]
    by_phase: dict[str, list[float]] = {}
    for i in range(deals):
        if game == "sicilian":
            d = Deal.from_seed(seats, i % seats, 5000 + i)
        else:
            d = get_game(game).shuffled(seats, i % seats, random.Random(5000 + i), log=False)
        while not d.done:
            s = d.to_act
            view = d.view(s)
            t = time.perf_counter()
            action = bots[s](view)
            by_phase.setdefault(view["phase"], []).append(time.perf_counter() - t)
            d.apply(action, s)
    every = [t for ts in by_phase.values() for t in ts]
    print(f"{game}, {level}, {seats} seats, {deals} deals: time per decision in ms")
    print("| phase | decisions | median | p95 | max |")
    print("|---|---|---|---|---|")
    for phase, ts in [*sorted(by_phase.items()), ("all", every)]:
        ts = sorted(ts)
        print(f"| {phase} | {len(ts)} | {ts[len(ts) // 2] * 1000:.1f} | "
              f"{ts[int(0.95 * len(ts))] * 1000:.1f} | {ts[-1] * 1000:.1f} |")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=("calibrate", "timing"))
    p.add_argument("--seats", type=int, default=3, choices=(3, 4))
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--bid", default="chiamo", help="calibrate at four seats: chiamo or 'vado solo'")
    p.add_argument("--level", default="search")
    p.add_argument("--game", default="sicilian")
    p.add_argument("--min-strength", type=float, default=0.0, help="calibrate calabresella: the strong hands only")
    p.add_argument("--step", type=float, default=2.0, help="calibrate calabresella: the strength rows' width")
    a = p.parse_args()
    if a.what == "calibrate" and a.game == "calabresella":
        calibrate_calabresella(a.deals, a.min_strength, a.step)
    elif a.what == "calibrate":
        calibrate(a.seats, a.deals, a.bid)
    else:
        timing(a.seats, a.deals, a.level, a.game)


if __name__ == "__main__":
    main()
