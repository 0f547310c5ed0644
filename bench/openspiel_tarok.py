"""OpenSpiel's ``tarok`` (Slovenian tarok, C++, 3 players) through its Python API, as
bench/engine_bench.py measures the engine: random legal actions from ``legal_actions()`` then
``apply_action``, chosen by the same ``int(rng.random() * len(actions))``. Run by
engine_bench.py in its own environment (OpenSpiel is not a dependency of the project):

    python3 -m venv bench/.openspiel && bench/.openspiel/bin/pip install open_spiel
    bench/.openspiel/bin/python bench/openspiel_tarok.py --deals 3000 --seed 1

Prints one JSON line per measurement:

  full     every deal played to the last card: the bidding steered to Klop (everyone passes:
           no talon, all 16 tricks), every other action random. The deal the engine's
           Sicilian stata is compared with (all cards played).
  random   every action random, bidding too: most deals end at once (a Valat or Beggar
           contract ends with its first lost trick): about 12 actions a deal.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import pyspiel


def measure(game, n: int, seed: int, full: bool) -> dict:
    rng = random.Random(seed)
    rand = rng.random
    actions = 0
    start = time.process_time()
    for _ in range(n):
        state = game.new_initial_state()
        bids = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                if full and bids < 3:  # the three bids: Pass, Pass, Klop (the first legal each time)
                    action = legal[0]
                    bids += 1
                else:
                    action = legal[int(rand() * len(legal))]
                state.apply_action(action)
            actions += 1
    seconds = time.process_time() - start
    return {"what": "full" if full else "random", "deals": n, "seconds": seconds, "actions": actions}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    game = pyspiel.load_game("tarok", {"players": 3})
    for full in (True, False):
        print(json.dumps(measure(game, args.deals, args.seed, full)), flush=True)


if __name__ == "__main__":
    main()
