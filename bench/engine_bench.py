"""Engine benchmark: random full deals of every game on one core, through the public API and
through the bots' own paths, beside OpenSpiel's ``tarok`` in the same run.

Lines, per game and table size (every deal played to its end, every card played and counted):

  shuffle+Deal  the baseline: shuffling a deck and constructing the deal, nothing played
  public        what a user of the engine calls (a bot author, a researcher, the server):
                every action a random one of ``legal_actions()``, then ``apply(int)``
                (``int(rng.random() * len(actions))``, as for OpenSpiel), views and logs off
  apply(int)    the bots' internal path: ``playout.random_action`` (the legal cards as a mask,
                a random discard drawn card by card), then ``apply(int)``
  apply(str)    the same through the text notation (the wire path)
  rollout       the same up to the first card, then the tricks by ``Deal.rollout`` (search)
  replay        re-checking the records of the apply(int) deals (``tarocchi replay``'s path)
  floor         what no engine can go below on the public path: shuffle+Deal, then the public
                loop itself as many times as the public deals took actions, with the two calls
                answered by C built-ins (a list's ``copy`` for ``legal_actions()``, a list's
                ``append`` for ``apply``): the interpreter's own cost of a call per action

Sicilian's deals are stata deals: the seat after the dealer says vado solo on five cards and the
others pass (the bidder discards from 23 cards), then every action is random; ``random speak``
plays the speaking at random too (an abandoned deal counts as a deal: a table deals again).
The other games play every action at random.

OpenSpiel's ``tarok`` (Slovenian tarok, C++, 3 players) runs in its own environment,
``bench/.openspiel`` (not a dependency of the project; ``--install-openspiel`` creates it with
pip), by bench/openspiel_tarok.py: full deals (the bidding steered to Klop, so that all 16 tricks
are played, every other action random) and fully random ones. The ratio printed is Sicilian's
public full deals per second at three seats over tarok's full deals per second (goal: 3x).

``--baseline DIR`` measures an older tree of the project in the same run (DIR/.venv, e.g. a
``git worktree`` of the commit before a change, set up with its own ``scripts/setup.sh``): the
lines both trees have, side by side; the trees take turns game by game, ``--rounds`` times, and
each line is the best of its rounds (a loaded machine varies more between minutes than between
trees). Times are the process's CPU time (time.process_time).

Run:  .venv/bin/python bench/engine_bench.py [--deals 3000] [--seed 1] [--baseline DIR [--rounds 3]]
                                             [--sources [only]] [--install-openspiel]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPENSPIEL = HERE / ".openspiel"
GAMES = (("sicilian", 3), ("sicilian", 4), ("renaissance", 3), ("calabresella", 3), ("ottocento", 4))


class Engine:
    """The engine measured: the installed one (compiled or not), or its sources."""

    def __init__(self, sources: bool):
        if sources:
            from tarocchi import pure_engine
            game, self.playout, self.records = (pure_engine.pure(m) for m in ("game", "playout", "records"))
        else:
            from tarocchi.engine import game, playout, records
            self.playout, self.records = playout, records
        self.game = game

    def get(self, name: str):
        return self.game.get_game(name)


def stata(game, deal) -> None:
    """Sicilian: the seat after the dealer goes solo on five cards, the others pass (R5, R7)."""
    deal.apply(game.parse_action("vado solo"))
    passo = game.parse_action("passo")
    while deal.phase == "speak":
        deal.apply(passo)


def steer(game, what: str):
    return stata if game.name == "sicilian" and what != "random speak" else None


def deals(engine: Engine, name: str, seats: int, what: str, n: int, seed: int) -> tuple[float, int, list]:
    """``n`` deals of ``what`` (a line above): CPU seconds, actions, and some records."""
    game = engine.get(name)
    random_action, rng = engine.playout.random_action, random.Random(seed)
    rand = rng.random
    text = game.action_text
    begin = steer(game, what)
    acts, kept = 0, []
    start = time.process_time()
    for _ in range(n):
        deal = game.shuffled(seats, rng.randrange(seats), rng, log=False)
        if what == "shuffle+Deal":
            continue
        if begin is not None:
            begin(game, deal)
        if what == "public":
            while deal.to_act is not None:
                legal = deal.legal_actions()
                deal.apply(legal[int(rand() * len(legal))])
        elif what == "apply(str)":
            while deal.to_act is not None:
                deal.apply(text(random_action(deal, rng)))
        elif what == "rollout":
            while deal.to_act is not None and deal.phase != "play":
                deal.apply(random_action(deal, rng))
            if deal.to_act is not None:
                deal.rollout(rng)
        else:  # apply(int), random speak
            while deal.to_act is not None:
                deal.apply(random_action(deal, rng))
        acts += len(deal.history)
        if what == "apply(int)" and len(kept) < 500:
            kept.append(deal.record())
    return time.process_time() - start, acts, kept


class Nothing:
    """A deal whose two calls cost nothing beyond the interpreter's call (``floor``)."""
    __slots__ = ("to_act", "legal_actions", "apply")


def floor(engine: Engine, name: str, seats: int, n: int, seed: int, actions_per_deal: int) -> tuple[float, int]:
    """``n`` times: the shuffle and Deal of the public path, then its loop ``actions_per_deal``
    times over a deal that does nothing (``Nothing``): CPU seconds and actions."""
    game = engine.get(name)
    rng = random.Random(seed)
    rand = rng.random
    legal = list(range(8))
    start = time.process_time()
    for _ in range(n):
        game.shuffled(seats, rng.randrange(seats), rng, log=False)
        deal = Nothing()
        deal.to_act, deal.legal_actions, deal.apply = 0, legal.copy, [].append
        for _ in range(actions_per_deal):
            if deal.to_act is None:
                break
            listed = deal.legal_actions()
            deal.apply(listed[int(rand() * len(listed))])
    return time.process_time() - start, n * actions_per_deal


def replay(engine: Engine, records: list) -> tuple[float, int]:
    start = time.process_time()
    acts = sum(len(engine.records.replay(r).history) for r in records)
    return time.process_time() - start, acts


def measure(engine: Engine, n: int, seed: int, games=GAMES) -> list[dict]:
    """Every line for every game: dicts of game, seats, what, deals, seconds, actions."""
    out = []
    for name, seats in games:
        whats = ["shuffle+Deal", "public", "apply(int)", "apply(str)", "rollout"]
        if name == "sicilian":
            whats.append("random speak")
        for what in whats:
            t, acts, records = deals(engine, name, seats, what, n, seed)
            out.append({"game": name, "seats": seats, "what": what, "deals": n, "seconds": t, "actions": acts})
            if what == "public":
                t, acts = floor(engine, name, seats, n, seed, round(acts / n))
                out.append({"game": name, "seats": seats, "what": "floor", "deals": n, "seconds": t, "actions": acts})
            if records:
                t, acts = replay(engine, records)
                out.append({"game": name, "seats": seats, "what": "replay", "deals": len(records),
                            "seconds": t, "actions": acts})
    return out


def openspiel(n: int, seed: int, install: bool) -> list[dict]:
    python = OPENSPIEL / "bin" / "python"
    if not python.exists() and install:
        subprocess.run([sys.executable, "-m", "venv", str(OPENSPIEL)], check=True)
        subprocess.run([str(OPENSPIEL / "bin" / "pip"), "install", "--quiet", "open_spiel"], check=True)
    if not python.exists():
        print(f"(no OpenSpiel: {OPENSPIEL} is missing; --install-openspiel creates it with pip)")
        return []
    run = subprocess.run([str(python), str(HERE / "openspiel_tarok.py"), "--deals", str(n), "--seed", str(seed)],
                         capture_output=True, text=True, check=True)
    return [dict(json.loads(line), game="tarok (OpenSpiel)", seats=3) for line in run.stdout.splitlines()]


def baseline(tree: Path, n: int, seed: int, game: tuple[str, int]) -> list[dict]:
    """This benchmark's lines of one game measured in an older tree of the project, by its own venv."""
    python = tree / ".venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([str(python), str(Path(__file__).resolve()), "--deals", str(n), "--seed", str(seed),
                          "--json", "--game", f"{game[0]}:{game[1]}"], capture_output=True, text=True, check=True,
                         cwd=tree, env=env)
    return [json.loads(line) for line in run.stdout.splitlines()]


def best(lines: list[dict], keep: dict) -> None:
    """Keeps in ``keep`` the fastest of each line (by game, seats, what) over the rounds."""
    for line in lines:
        key = (line["game"], line["seats"], line["what"])
        if key not in keep or line["seconds"] < keep[key]["seconds"]:
            keep[key] = line


def rate(line: dict) -> float:
    return line["deals"] / line["seconds"]


def show(label: str, line: dict, before: dict | None = None) -> None:
    t, acts = line["seconds"], line["actions"]
    per_action = f"{t / acts * 1e6:>9.2f}" if acts else f"{'':>9}"
    was = f"{rate(before):>10,.0f} {rate(line) / rate(before):>6.2f}x" if before else ""
    print(f"{label:<9} {line['game']:<18} {line['seats']:>5} {line['what']:<13} {rate(line):>10,.0f} "
          f"{t / line['deals'] * 1e6:>9.1f} {per_action} {was}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=3000, help="deals per line")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--baseline", type=Path, help="an older tree of the project to measure beside this one")
    p.add_argument("--sources", nargs="?", const="too", choices=["too", "only"],
                   help="also (or only) measure the engine's Python sources")
    p.add_argument("--install-openspiel", action="store_true", help=f"create {OPENSPIEL} with pip if missing")
    p.add_argument("--rounds", type=int, default=1,
                   help="with --baseline: the trees take turns game by game this many times; the best of each line")
    p.add_argument("--json", action="store_true", help="print the installed engine's lines as JSON only")
    p.add_argument("--game", help="with --json: only this game, as name:seats")
    args = p.parse_args()
    n = args.deals
    if args.json:
        games = [(args.game.split(":")[0], int(args.game.split(":")[1]))] if args.game else GAMES
        for line in measure(Engine(sources=False), n, args.seed, games):
            print(json.dumps(line))
        return
    from tarocchi import pure_engine
    from tarocchi.engine import trickplay

    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; {n} deals per line, one process each")
    tarok = openspiel(n, args.seed, args.install_openspiel)
    print(f"{'engine':<9} {'game':<18} {'seats':>5} {'what':<13} {'deals/s':>10} {'us/deal':>9} {'us/action':>9}"
          + (f" {'before':>10} {'ratio':>7}" if args.baseline else ""))
    installed = "compiled" if pure_engine.is_compiled(trickplay) else "sources"
    engines = {"too": [(installed, False), ("sources", True)], "only": [("sources", True)]}.get(
        args.sources or "", [(installed, False)])
    mine: list[dict] = []
    before: dict = {}
    for label, sources in engines:
        if args.baseline and not sources:  # the two trees take turns, game by game, round by round
            now: dict = {}
            for _ in range(args.rounds):
                for game in GAMES:
                    best(baseline(args.baseline, n, args.seed, game), before)
                    best(measure(Engine(sources), n, args.seed, [game]), now)
            lines = list(now.values())
        else:
            lines = measure(Engine(sources), n, args.seed)
        for line in lines:
            show(label, line, before.get((line["game"], line["seats"], line["what"])) if not sources else None)
        mine = mine or lines
    for line in tarok:
        show("openspiel", line)
    full = next((t for t in tarok if t["what"] == "full"), None)
    public = next(m for m in mine if m["game"] == "sicilian" and m["seats"] == 3 and m["what"] == "public")
    if full:
        print(f"Sicilian at three seats, public API, full deals: {rate(public):,.0f}/s; OpenSpiel tarok (3 players) "
              f"full deals: {rate(full):,.0f}/s; ratio {rate(public) / rate(full):.2f}x (goal 3x)")
        low = next(m for m in mine if m["game"] == "sicilian" and m["seats"] == 3 and m["what"] == "floor")
        goal = full["seconds"] / full["deals"] / 3
        print(f"3x needs {goal * 1e6:.1f} us a deal; the floor (shuffle+Deal and the loop of a call per action, "
              f"engine work none) is {low['seconds'] / low['deals'] * 1e6:.1f} us: the highest ratio any engine "
              f"reaches through this API from Python is {rate(low) / rate(full):.2f}x")


if __name__ == "__main__":
    main()
