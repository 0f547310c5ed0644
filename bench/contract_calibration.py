"""How well Sicilian's expert prices a contract before it bids one (issue 21): its value of each
word of the auction, against what that word made when the deal was then played out at a table.

    .venv/bin/python bench/contract_calibration.py --seats 3 --deals 40 --seed 2 --jobs 2

Search bots say the words of each deal (duplicate deck orders, ``duel.deck_for``). At every
word where a seat may bid a contract or keep quiet (passo, altre cinque: R6-R8), the expert
values each word over its worlds twice from that seat's view: played out in full view of each
world (``Expert.complete``, every seat seeing every hand) and played out from the seats' own
views (``Expert.from_views``, as at a table). Then each word is said on the true deal and the
deal played out by search bots at every seat: what the word made there. Printed, per word: the
mean of value less what it made, in each mode, with 95 % intervals over the decisions, and
the two modes' difference; then, for the word each mode values highest, how often it is a
contract and what that contract made over the best quiet word; last, the word the expert
would say (its gate, ``Expert.confident``, at 1.64 standard errors as at the table and lower),
what it made a decision, and the difference from the committed expert's word. A mode that prices a contract
above what it makes bids the ones that lose (docs/history/benchmarks.md, "A contract priced").

What a word made is one deal played once, by search bots (the expert plays its own contracts
better, so a contract's true worth to it is somewhat above this); the first tables value every
word, the gate aside.
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool

from tarocchi.bots import make_player
from tarocchi.bots.duel import deck_for, interval
from tarocchi.bots.sicilian.expert import SicilianExpert
from tarocchi.engine.game import get_game

QUIET = SicilianExpert.quiet_words  # R6-R8: the words that take on no contract
MODES = {"full view": frozenset(), "views": frozenset({"speak"})}
# The expert's word as it would say it (``Expert.__call__``: a contract only on a gain so many
# standard errors clear of the best quiet word), in each mode and at a few such gates.
GATES = (1.64, 1.0, 0.5)


def _deal(seats: int, seed: int, i: int, actions: list[tuple[int, int]]):
    game = get_game("sicilian")
    deal = game.new_deal(seats, i % seats, deck_for(seed, i, game.deck.size), log=False)
    for seat, action in actions:
        deal.apply(action, seat)
    return deal


def decisions(job: tuple[int, int, int]) -> list[dict]:
    """The auction's decisions of one deal: each mode's values and what each word made."""
    seats, seed, i = job
    game = get_game("sicilian")
    table = [make_player("search", seed=100 + s, game="sicilian") for s in range(seats)]
    experts = {}
    for mode, phases in MODES.items():
        experts[mode] = make_player("expert", seed=0, game="sicilian")
        experts[mode].viewed_phases = phases
    deal = _deal(seats, seed, i, [])
    actions: list[tuple[int, int]] = []
    out = []
    while deal.phase == "speak":
        seat = deal.to_act
        view = deal.view(seat)
        ok = [c["action"] for c in view["choices"] if c["reason"] is None]
        if any(w in QUIET for w in ok) and any(w not in QUIET for w in ok):
            row: dict = {"said": {}}
            for mode, e in experts.items():
                ranked = e.evaluate(view)
                row[mode] = dict(ranked)
                for gate in GATES:
                    e.confidence = {**e.confidence, "speak": gate}
                    row["said"][f"{mode}, gate {gate}"] = ranked[0][0] if e.confident(ranked[0][0], "speak") else e.last[2]
            made = {}
            for word in row["full view"]:
                d = _deal(seats, seed, i, actions)
                d.apply(game.parse_action(word), seat)
                while not d.done:
                    d.apply(table[d.to_act](d.view(d.to_act)), d.to_act)
                made[word] = d.count.payments[seat]
            row["made"] = made
            out.append(row)
        action = game.parse_action(table[seat](view))
        actions.append((seat, action))
        deal.apply(action, seat)
    return out


def shown(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{xs[0]:+.2f} (1)" if xs else "-"
    mean, half = interval(xs)
    return f"{mean:+.2f} ± {half:.2f}"


def report(rows: list[dict]) -> None:
    words = sorted({w for r in rows for w in r["made"]}, key=lambda w: (w not in QUIET, w))
    print(f"{len(rows)} decisions; jochi, value less what the word made (95 % intervals)\n")
    print("| word | decisions | full view | views | full view - views |")
    print("|---|---|---|---|---|")
    for w in words:
        have = [r for r in rows if w in r["made"]]
        fv = [r["full view"][w] - r["made"][w] for r in have]
        vv = [r["views"][w] - r["made"][w] for r in have]
        print(f"| {w} | {len(have)} | {shown(fv)} | {shown(vv)} | {shown([a - b for a, b in zip(fv, vv)])} |")
    print("\n| mode | its best word a contract | what that contract made over the best quiet word |")
    print("|---|---|---|")
    for mode in MODES:
        gains = []
        for r in rows:
            best = max(r[mode], key=lambda w: r[mode][w])
            if best not in QUIET:
                gains.append(r["made"][best] - max(v for w, v in r["made"].items() if w in QUIET))
        print(f"| {mode} | {len(gains)} of {len(rows)} | {shown(gains)} |")
    said = list(rows[0]["said"]) if rows else []
    base = said[0] if said else None
    print(f"\n| the expert's word ({base} at the table) | a contract | what it made a decision | less {base}'s |")
    print("|---|---|---|---|")
    for name in said:
        made = [r["made"][r["said"][name]] for r in rows]
        less = [m - r["made"][r["said"][base]] for m, r in zip(made, rows)]
        contracts = sum(r["said"][name] not in QUIET for r in rows)
        print(f"| {name} | {contracts} | {shown(made)} | {shown(less)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, choices=(3, 4), default=3)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    jobs = [(args.seats, args.seed, i) for i in range(args.deals)]
    rows: list[dict] = []
    with Pool(args.jobs) as pool:
        for part in pool.imap(decisions, jobs):
            rows += part
    print(f"sicilian, {args.seats} seats, {args.deals} deals, seed {args.seed}")
    report(rows)


if __name__ == "__main__":
    main()
