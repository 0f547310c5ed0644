"""Duplicate matches between two bot levels: ``tarocchi duel --seats 3 --deals 1000 --seed S A B``.

Each duplicate deal is one deck order (and dealer) played ``seats`` times: bot A sits in each
seat in turn with B in every other seat, so every hand of the deck is played once by A against
the same field. With ``--mirror`` the deck is also played with B rotated among As. Luck cancels:
a deal's payments sum to zero (R15), so a seat's cards help A exactly as often as they help B.
In a game of partnerships (``PARTNERSHIPS``) the deck is played twice instead, A's pair against
B's, then the pairs swapped: each side's cards are played once by each bot.

Printed: each bot's mean jochi per deal (per seat it sat in) with a 95% interval, the
difference A - B with its interval (over duplicate deals, which are independent), how often
each bot became the bidder and how often its contracts succeeded (net > 0), and its time per
decision (median, p95, max; and the p95 of its own CPU time, which a loaded machine does not
inflate). The players decide with a fixed amount of work: the search bots' wall-clock safety
net is off (it would cut them short on a loaded machine), the expert's budget is CPU time.

A level may carry two measuring marks, for the duel only (never at a table):

- ``expert@0.25``: the expert with this CPU budget a decision, its worlds bounded by the time
  alone (``VARIED_WORLDS``), to see how strength grows with the time; ``expert@0.85/96``: the
  same budget with a cap of 96 worlds (as the committed levels have, ``Expert.worlds``);
- ``expert+seeing`` (any searching level): the perfect-information bound, the same bot whose
  every sampled world is the true deal (it sees every hand), as in issue 21.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import random
import statistics
import sys
import time

from tarocchi.engine.game import DEFAULT, Game, get_game

from . import DUEL_LEVELS, LEVELS, levels_for, make_player
from .expert import Expert


# Games of fixed partnerships (Ottocento B5: seats 0 and 2 against 1 and 3). A duplicate deal is
# then the deck played twice, A's pair in seats 0 and 2 against B's, then the pairs swapped; a
# seat's payment is its side's hand score (B24), so A's mean is its side's mean hand score and
# A - B the mean margin between the two sides on the same cards (``--mirror`` changes nothing).
PARTNERSHIPS = frozenset({"ottocento"})


# The worlds cap of a level with a budget of its own (``expert@SECONDS``): high enough that the
# time limit decides how many worlds a decision samples.
VARIED_WORLDS = 10_000


class TrueDeal:
    """A seat's knowledge when it sees every hand: each world is the deal itself, copied."""

    def __init__(self, me: int, player):
        self.me, self.player = me, player

    def world(self, rng: random.Random, relax: bool = False):
        return self.player.truth.copy()


def measured_player(level: str, seed: int, game: str):
    """The player a duel's level names: a level of ``levels_for(game)``, with ``@SECONDS``
    and ``+seeing`` as in the module's words. A seeing player has ``truth`` set to the deal
    before each of its decisions (``play_game``)."""
    base, seeing = (level[:-len("+seeing")], True) if level.endswith("+seeing") else (level, False)
    base, _, budget = base.partition("@")
    budget, capped, cap = budget.partition("/")
    player = make_player(base, seed=seed, game=game, duel=True)
    if budget or capped:
        if not isinstance(player, Expert):
            raise ValueError(f"only the expert takes a time budget ({level!r})")
        try:
            seconds = float(budget)
        except ValueError:
            seconds = 0.0
        if not 0 < seconds <= 60:
            raise ValueError(f"a time budget is a number of CPU seconds, more than 0 and at most 60 ({level!r})")
        worlds = VARIED_WORLDS
        if capped:
            worlds = int(cap) if cap.isascii() and cap.isdigit() else 0
        if not 0 < worlds <= VARIED_WORLDS:
            raise ValueError(f"a cap of worlds is a whole number, more than 0 and at most {VARIED_WORLDS} ({level!r})")
        player.time_limit, player.worlds = seconds, worlds
    if seeing:
        player.truth = None
        if hasattr(player, "knowledge"):  # the expert, PIMC: every world is the true deal
            told = player.knowledge
            player.knowledge = lambda view: TrueDeal(told(view).me, player)
        elif hasattr(player, "sample_world"):  # Sicilian's search bot
            player.sample_world = lambda seen, rng, log: player.truth.copy()
        else:
            raise ValueError(f"the {base} bot samples no worlds: it cannot be given the true deal ({level!r})")
    return player


def known_level(level: str, game: str) -> bool:
    base = level.removesuffix("+seeing").partition("@")[0]
    return base in levels_for(game) or base in DUEL_LEVELS.get(game, {})


def deck_for(seed: int, index: int, size: int = 63) -> list[int]:
    deck = list(range(size))
    random.Random(f"duel:{seed}:{index}").shuffle(deck)
    return deck


def play_game(seats: int, dealer: int, deck: list[int], levels: list[str], seed: int,
              game: Game | None = None) -> dict:
    game = game or get_game(DEFAULT)
    players = [measured_player(lv, seed=seed * 8 + s, game=game.name) for s, lv in enumerate(levels)]
    for p in players:
        # A wall-clock safety net (the search bots') would cut a bot short on a loaded machine:
        # the duel compares fixed work; the expert's budget is its own CPU time (bots.expert).
        if hasattr(p, "time_limit") and not isinstance(p, Expert):
            p.time_limit = None
    deal = game.new_deal(seats, dealer, deck, log=False)
    times: list[list[float]] = [[] for _ in range(seats)]
    cpu: list[list[float]] = [[] for _ in range(seats)]
    while not deal.done:
        s = deal.to_act
        view = deal.view(s)
        if hasattr(players[s], "truth"):  # a seeing player (``+seeing``)
            players[s].truth = deal
        t, c = time.perf_counter(), time.process_time()
        action = players[s](view)
        times[s].append(time.perf_counter() - t)
        cpu[s].append(time.process_time() - c)
        deal.apply(action, s)
    c = deal.count
    # Sicilian's count has a bidder and its net; a game without contracts has neither.
    bidder = getattr(c, "bidder", None)
    return {"payments": deal.returns(), "bidder": bidder, "net": getattr(c, "net", 0),
            "contract": deal.view(0).get("contract") if bidder is not None else None,
            "times": times, "cpu": cpu, "abandoned": getattr(c, "abandoned", False)}


def duplicate_deal(job: tuple) -> dict:
    """Play one deck with A rotated through the seats (and B too, if mirrored)."""
    seats, seed, index, a, b, mirror, *name = job
    game = get_game(name[0] if name else DEFAULT)
    deck = deck_for(seed, index, game.deck.size)
    dealer = index % seats
    names = ("A", "B") if a == b else (a, b)  # a bot against itself: keep the two names apart
    out = {"a_pay": [], "b_pay": [], "bids": {n: [0, 0, 0] for n in names}, "times": {n: [] for n in names},
           "cpu": {n: [] for n in names},
           "by_contract": {n: {} for n in names}}
    if game.name in PARTNERSHIPS:  # A's partnership in seats 0 and 2, then in 1 and 3
        arrangements = [(-1, 0), (-1, 1)]
    else:
        arrangements = [(i, 0) for i in range(seats)] + ([(i, 1) for i in range(seats)] if mirror else [])
    for g, (lone, flip) in enumerate(arrangements):
        if lone < 0:
            who = [(s + flip) % 2 for s in range(seats)]  # 0 = A, 1 = B
        else:
            who = [1 - flip if s != lone else flip for s in range(seats)]
        levels = [(a, b)[w] for w in who]
        r = play_game(seats, dealer, deck, levels, seed=hash((seed, index, g)) & 0xFFFFFFF, game=game)
        for s in range(seats):
            name = names[who[s]]
            (out["a_pay"] if who[s] == 0 else out["b_pay"]).append(r["payments"][s])
            out["times"][name].extend(r["times"][s])
            out["cpu"][name].extend(r["cpu"][s])
            stats = out["bids"][name]
            stats[0] += 1  # seat-deals
            if r["bidder"] == s:
                stats[1] += 1
                stats[2] += r["net"] > 0
                per = out["by_contract"][name].setdefault(r["contract"], [0, 0])
                per[0] += 1
                per[1] += r["net"] > 0
    return out


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("nan")
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(seats: int, deals: int, seed: int, a: str, b: str, jobs: int = 1, mirror: bool = False,
        progress: bool = False, game: str = DEFAULT) -> dict:
    work = [(seats, seed, i, a, b, mirror, game) for i in range(deals)]
    results: list[dict] = []

    def note(k: int) -> None:
        # A long run can be stopped at any time: every 10 deals the table so far goes to stderr.
        if progress and k % 10 == 0:
            print(f"after {k}/{deals} duplicate deals:\n"
                  + format_report(summarise(results, seats, seed, a, b, mirror, game)),
                  file=sys.stderr, flush=True)

    if jobs > 1:
        with mp.get_context("spawn").Pool(jobs) as pool:
            for r in pool.imap(duplicate_deal, work, chunksize=1):
                results.append(r)
                note(len(results))
    else:
        for w in work:
            results.append(duplicate_deal(w))
            note(len(results))
    return summarise(results, seats, seed, a, b, mirror, game)


def summarise(results: list[dict], seats: int, seed: int, a: str, b: str, mirror: bool,
              game: str = DEFAULT) -> dict:
    names = ("A", "B") if a == b else (a, b)
    per_deal_a = [statistics.fmean(r["a_pay"]) for r in results]
    per_deal_b = [statistics.fmean(r["b_pay"]) for r in results]
    diff = [x - y for x, y in zip(per_deal_a, per_deal_b)]
    report = {"game": game, "seats": seats, "deals": len(results), "seed": seed, "mirror": mirror, "bots": {}}
    for name, per_deal in zip(names, (per_deal_a, per_deal_b)):
        seat_deals = sum(r["bids"][name][0] for r in results)
        bids = sum(r["bids"][name][1] for r in results)
        wins = sum(r["bids"][name][2] for r in results)
        times = [t for r in results for t in r["times"][name]]
        cpu = [t for r in results for t in r.get("cpu", {}).get(name, [])]
        by_contract: dict[str, list[int]] = {}
        for r in results:
            for kind, (n, made) in r.get("by_contract", {}).get(name, {}).items():
                tally = by_contract.setdefault(str(kind), [0, 0])
                tally[0] += n
                tally[1] += made
        report["bots"][name] = {
            "mean": interval(per_deal), "seat_deals": seat_deals,
            "bid_rate": bids / seat_deals if seat_deals else 0.0,
            "success": wins / bids if bids else float("nan"), "contracts": bids,
            "decisions": len(times), "median_ms": percentile(times, 0.5) * 1000,
            "p95_ms": percentile(times, 0.95) * 1000, "max_ms": max(times, default=float("nan")) * 1000,
            "cpu_p95_ms": percentile(cpu, 0.95) * 1000,
            "by_contract": by_contract,
        }
    report["diff"] = interval(diff)
    return report


def format_report(rep: dict, command: str = "") -> str:
    lines = []
    if command:
        lines.append(f"`{command}`")
        lines.append("")
    unit = "jochi" if rep.get("game", DEFAULT) == "sicilian" else "points"
    lines.append(f"{rep.get('game', DEFAULT)}, {rep['seats']} seats, {rep['deals']} duplicate deals"
                 f"{' (mirrored)' if rep['mirror'] else ''}, seed {rep['seed']}")
    lines.append("")
    # A game without bidding has no contracts to report.
    contracts = unit == "jochi" or any(s.get("by_contract") for s in rep["bots"].values())
    lines.append(f"| bot | mean {unit}/deal (95% CI) |" + (" bids | contracts won (net > 0) |" if contracts else "")
                 + " decisions | median ms | p95 ms | max ms | p95 CPU ms |")
    lines.append("|---|---|" + ("---|---|" if contracts else "") + "---|---|---|---|---|")
    for name, s in rep["bots"].items():
        m, h = s["mean"]
        bids = f" {s['bid_rate']:.1%} ({s['contracts']}) | {s['success']:.1%} |" if contracts else ""
        lines.append(f"| {name} | {m:+.3f} ± {h:.3f} |{bids} {s['decisions']} | {s['median_ms']:.2f} | "
                     f"{s['p95_ms']:.2f} | {s['max_ms']:.1f} | {s.get('cpu_p95_ms', float('nan')):.1f} |")
    m, h = rep["diff"]
    names = list(rep["bots"])
    lines.append("")
    lines.append(f"difference {names[0]} - {names[1]}: {m:+.3f} ± {h:.3f} {unit}/deal "
                 f"(95% CI {m - h:+.3f} .. {m + h:+.3f})")
    if contracts and unit != "jochi":  # per contract: how often bid (per seat-deal) and made
        lines.append("")
        lines.append("| bot | contract | bid (per seat-deal) | made |")
        lines.append("|---|---|---|---|")
        for name, s in rep["bots"].items():
            for kind, (n, made) in sorted(s["by_contract"].items(), key=lambda kv: -kv[1][0]):
                lines.append(f"| {name} | {kind} | {n} ({n / s['seat_deals']:.1%}) | {made} ({made / n:.1%}) |")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    a, b = args.bots
    game = get_game(getattr(args, "game", DEFAULT))
    seats = args.seats or game.seats[0]
    if seats not in game.seats:
        print(f"tarocchi duel: {game.name} is played at {' or '.join(map(str, game.seats))} seats", file=sys.stderr)
        return 2
    for name in (a, b):
        if not known_level(name, "sicilian") and not known_level(name, game.name):
            print(f"tarocchi duel: unknown bot {name!r}; known: {', '.join(LEVELS)}", file=sys.stderr)
            return 2
        if not known_level(name, game.name):
            print(f"tarocchi duel: the {name} bot does not play {game.name} yet; {game.name} has "
                  f"{', '.join(levels_for(game.name))}", file=sys.stderr)
            return 2
        try:
            measured_player(name, 0, game.name)
        except ValueError as e:
            print(f"tarocchi duel: {e}", file=sys.stderr)
            return 2
    jobs = getattr(args, "jobs", 1) or 1
    mirror = getattr(args, "mirror", False)
    rep = run(seats, args.deals, args.seed, a, b, jobs=jobs, mirror=mirror, progress=True, game=game.name)
    cmd = (f"tarocchi duel{f' --game {game.name}' if game.name != DEFAULT else ''} --seats {seats} "
           f"--deals {args.deals} --seed {args.seed}"
           f"{f' --jobs {jobs}' if jobs > 1 else ''}{' --mirror' if mirror else ''} {a} {b}")
    print(format_report(rep, cmd))
    return 0
