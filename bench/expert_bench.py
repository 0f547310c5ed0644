"""Where the expert's time goes per decision (issue 21): deals played with the expert in every
seat, each game, and its CPU time split into sampling worlds, weighing them (replaying the other
seats' actions through the rule bot), solving exactly and the rest (playouts, evaluation).

    .venv/bin/python bench/expert_bench.py --deals 2 --seed 1

Prints one row per game: decisions searched, worlds per searched decision, the share of worlds
solved exactly, CPU per searched decision (mean, p95) and the shares of the time; then one row
per game and phase: the decisions searched there, how often the expert chose otherwise than its
rule bot would have from the same view, and their CPU time.
"""

from __future__ import annotations

import argparse
import collections
import time

from tarocchi.bots import make_player
from tarocchi.bots.duel import deck_for, percentile
from tarocchi.engine.game import get_game

GAMES = [("sicilian", 3), ("sicilian", 4), ("renaissance", 3), ("calabresella", 3), ("ottocento", 4)]


def run(game: str, seats: int, deals: int, seed: int) -> dict:
    g = get_game(game)
    players = [make_player("expert", seed=s, game=game) for s in range(seats)]
    cpu: list[float] = []
    # phase -> (another choice, CPU s, worlds)
    phases: dict[str, list[tuple[bool, float, int]]] = collections.defaultdict(list)
    for i in range(deals):
        deal = g.new_deal(seats, i % seats, deck_for(seed, i, g.deck.size), log=False)
        while not deal.done:
            s = deal.to_act
            view = deal.view(s)
            before = players[s].stats["worlds"]
            t = time.process_time()
            action = players[s](view)
            if players[s].stats["worlds"] > before:
                spent = time.process_time() - t
                cpu.append(spent)
                other = g.parse_action(action) != g.parse_action(players[s].rule(view))
                phases[view["phase"]].append((other, spent, players[s].stats["worlds"] - before))
            deal.apply(action, s)
    total = {k: sum(p.stats[k] for p in players) for k in players[0].stats}
    spent = sum(cpu)
    return {"game": f"{game} {seats}", "decisions": len(cpu), "worlds": total["worlds"] / max(1, len(cpu)),
            "solved": total["solved"] / max(1, total["solved"] + total["played_out"]),
            "mean_ms": 1000 * spent / max(1, len(cpu)), "p95_ms": 1000 * percentile(cpu, 0.95),
            "sample": total["sample_s"] / spent, "weigh": total["weigh_s"] / spent, "solve": total["solve_s"] / spent,
            "phases": phases}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", choices=sorted({g for g, _ in GAMES}), help="one game only (default: all)")
    args = ap.parse_args()
    print("| game | searched decisions | worlds each | worlds solved exactly | CPU ms mean | p95 | sampling | weighing | solving | playouts and the rest |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    results = []
    for game, seats in GAMES:
        if args.game and game != args.game:
            continue
        r = run(game, seats, args.deals, args.seed)
        results.append(r)
        rest = 1 - r["sample"] - r["weigh"] - r["solve"]
        print(f"| {r['game']} | {r['decisions']} | {r['worlds']:.1f} | {r['solved']:.0%} | {r['mean_ms']:.0f} | "
              f"{r['p95_ms']:.0f} | {r['sample']:.0%} | {r['weigh']:.0%} | {r['solve']:.0%} | {rest:.0%} |", flush=True)
    print()
    print("| game | phase | searched decisions | another choice than the rule bot's | worlds each | CPU ms mean | max |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        for phase, rows in r["phases"].items():
            other = sum(o for o, _, _ in rows)
            times = [t for _, t, _ in rows]
            worlds = sum(w for _, _, w in rows) / len(rows)
            print(f"| {r['game']} | {phase} | {len(rows)} | {other} ({other / len(rows):.0%}) | {worlds:.1f} | "
                  f"{1000 * sum(times) / len(times):.0f} | {1000 * max(times):.0f} |")


if __name__ == "__main__":
    main()
