"""The learned level's figures (issue 43), per game:

    .venv/bin/python bench/learned_bench.py --game calabresella --data DATA.jsonl \
        --rule-deals 200 --search-deals 30 --seed 1

- its agreement with its teacher on the held-out decisions of ``DATA`` (the deals the trainer
  held out: index a multiple of the model's ``holdout_every``), beside the rule bot's agreement
  on the same decisions (what "agreeing" is worth): the cards, and the auction's words where
  an auction model is shipped;
- duplicate duels (``tarocchi.bots.duel``) against ``rule`` and against ``search``, the
  difference per duplicate deal with its 95 % interval;
- with ``--candidate FILE`` (weights the trainer wrote with ``--out``: of the cards, or of the
  auction), that model against the shipped one, duplicate deals, the candidate in each seat in
  turn and the shipped model in the others: whether to ship it;
- the CPU time of its decisions in those duels (median, p95; all phases, and the cards alone),
  and the computer-table capacity per core at each level measured: the players one core can
  serve at a deal every three minutes (180 s over the CPU one seat spends in a deal).

Run it under ``nice -n 19`` on a shared machine: CPU time is the process's own.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tarocchi.bots import levels_for, make_player
from tarocchi.bots.duel import duplicate_deal, percentile, summarise
from tarocchi.bots.learned import policy
from tarocchi.bots.learned.selfplay import decisions, read_records
from tarocchi.engine.game import get_game

DEAL_EVERY = 180.0  # seconds: a player at a computer table plays a deal every three minutes


def held_out(game: str, seats: int, data: list[str], model: policy.Model) -> list[dict]:
    """The records of ``data`` the model's trainer held out."""
    every = model.meta.get("holdout_every", 10)
    return [r for path in data for r in read_records(path)
            if r["game"] == game and r["seats"] == seats and r["index"] % every == 0]


def agreement(game: str, seats: int, data: list[str]) -> dict:
    model = policy.shipped(game, seats)
    assert model is not None, "no model shipped"
    records = held_out(game, seats, data, model)
    hits = rule_hits = n = 0
    tied = rule_tied = valued = 0
    rule = make_player("rule", seed=0, game=game)
    codes = model.features.codes
    for r in records:
        for view, action, values in decisions(r, policy.PHASES, values=True):
            plain = [c["action"] for c in view["choices"] if c["reason"] is None and " " not in c["action"]]
            legal = sorted({codes[policy.card_of(c["action"])] for c in view["choices"] if c["reason"] is None})
            if len(legal) < 2:
                continue
            n += 1
            target = policy.card_of(action)
            said = policy.card_of(rule(view))
            s = model.scores(view, [codes[a] for a in plain], codes.get(said, -1))
            mine = plain[int(s.argmax())]
            hits += mine == target
            rule_hits += said == target
            if values:  # a card the teacher valued as high as its own
                top = max(values.values())
                best = {policy.card_of(a) for a, v in values.items() if v >= top - 1e-9}
                valued += 1
                tied += mine in best
                rule_tied += said in best
    return {"deals": len(records), "decisions": n, "learned": hits / n if n else float("nan"),
            "rule": rule_hits / n if n else float("nan"), "teacher": model.meta.get("teacher"),
            "valued": valued, "learned_ties": tied / valued if valued else float("nan"),
            "rule_ties": rule_tied / valued if valued else float("nan")}


def word_agreement(game: str, seats: int, data: list[str]) -> dict | None:
    """The learned player's words against its teacher's on the held-out auctions (each with a
    choice), beside the rule bot's; None where no auction model is shipped."""
    speaker = policy.shipped(game, seats, "speak")
    if speaker is None:
        return None
    records = held_out(game, seats, data, speaker)
    player, rule = make_player("learned", seed=0, game=game), make_player("rule", seed=0, game=game)
    n = hits = rule_hits = 0
    for r in records:
        for view, action in decisions(r, frozenset({"speak"})):
            if sum(c["reason"] is None for c in view["choices"]) < 2:
                continue
            n += 1
            hits += player(view) == action
            rule_hits += rule(view) == action
    return {"deals": len(records), "decisions": n, "learned": hits / n if n else float("nan"),
            "rule": rule_hits / n if n else float("nan"), "teacher": speaker.meta.get("teacher")}


def duel(game: str, seats: int, deals: int, seed: int, other: str, me: str = "learned") -> tuple[dict, list[dict]]:
    results = []
    for i in range(deals):
        results.append(duplicate_deal((seats, seed, i, me, other, False, game)))
    return summarise(results, seats, seed, me, other, False, game), results


def add_candidate(game: str, seats: int, path: str) -> None:
    """The level ``candidate`` of ``game``, this process only: the learned player with the
    model at ``path`` (of the cards, or of the auction: its ``phase``) instead of the shipped one."""
    model = policy.load(path)  # (a damaged file fails here, not as search in the duel)
    if (model.meta["game"], model.meta["seats"]) != (game, seats):
        raise SystemExit(f"{path} is a model of {model.meta['game']} at {model.meta['seats']} seats")
    shipped = policy.LEARNED[game]
    method = "speaker" if model.meta.get("phase") == "speak" else "model"
    levels_for(game)["candidate"] = type("Candidate", (shipped,), {method: lambda self, seats: model})


def cpu_of(results: list[dict], name: str) -> list[float]:
    return [t for r in results for t in r["cpu"][name]]


def capacity(cpu: list[float], seat_deals: int) -> float:
    """Players one core serves at a deal every three minutes."""
    per_deal = sum(cpu) / seat_deals
    return DEAL_EVERY / per_deal if per_deal > 0 else float("inf")


def cards_cpu(game: str, seats: int, deals: int, seed: int) -> list[float]:
    """The learned player's CPU per decision of the cards alone, it in every seat."""
    rules = get_game(game)
    out = []
    import random
    for i in range(deals):
        rng = random.Random(f"cards:{seed}:{i}")
        deal = rules.new_deal(seats, i % seats, rules.deck.shuffled(rng), log=False)
        players = [make_player("learned", seed=seed * 8 + s, game=game) for s in range(seats)]
        while not deal.done:
            s = deal.to_act
            view = deal.view(s)
            t = time.process_time()
            a = players[s](view)
            if view["phase"] == "play":
                out.append(time.process_time() - t)
            deal.apply(a, s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--seats", type=int, default=None)
    ap.add_argument("--data", nargs="*", default=[], help="the selfplay records the model was trained on")
    ap.add_argument("--rule-deals", type=int, default=200)
    ap.add_argument("--search-deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--candidate", default=None, help="weights to duel against the shipped ones")
    ap.add_argument("--candidate-deals", type=int, default=1000)
    args = ap.parse_args()
    game = args.game
    seats = args.seats or get_game(game).seats[0]
    unit = "jochi" if game == "sicilian" else "points"
    print(f"## {game}, {seats} seats")
    if args.data:
        t = time.time()
        a = agreement(game, seats, args.data)
        print(f"agreement with the teacher ({a['teacher']}) on {a['decisions']} held-out card decisions "
              f"({a['deals']} deals): learned {a['learned']:.1%}, rule {a['rule']:.1%}; a card the teacher valued "
              f"as high as its own ({a['valued']} decisions with values): learned {a['learned_ties']:.1%}, "
              f"rule {a['rule_ties']:.1%} ({time.time() - t:.0f} s)")
        w = word_agreement(game, seats, args.data)
        if w is not None:
            print(f"agreement with the teacher ({w['teacher']}) on {w['decisions']} held-out words of the auction "
                  f"({w['deals']} deals): learned {w['learned']:.1%}, rule {w['rule']:.1%}")
    if args.candidate:
        add_candidate(game, seats, args.candidate)
        t = time.time()
        rep, _ = duel(game, seats, args.candidate_deals, args.seed, "learned", me="candidate")
        m, h = rep["diff"]
        print(f"candidate ({args.candidate}) - learned: {m:+.3f} ± {h:.3f} {unit}/deal (95% CI {m - h:+.3f} .. "
              f"{m + h:+.3f}), {args.candidate_deals} duplicate deals, seed {args.seed} ({time.time() - t:.0f} s)")
    levels_cpu: dict[str, tuple[list[float], int]] = {}
    for other, deals in (("rule", args.rule_deals), ("search", args.search_deals)):
        if deals <= 0:
            continue
        t = time.time()
        rep, results = duel(game, seats, deals, args.seed, other)
        m, h = rep["diff"]
        print(f"learned - {other}: {m:+.3f} ± {h:.3f} {unit}/deal (95% CI {m - h:+.3f} .. {m + h:+.3f}), "
              f"{deals} duplicate deals, seed {args.seed} ({time.time() - t:.0f} s)")
        for name in ("learned", other):
            cpu = cpu_of(results, name)
            old = levels_cpu.get(name, ([], 0))
            levels_cpu[name] = (old[0] + cpu, old[1] + rep["bots"][name]["seat_deals"])
    ms = 1000
    for name, (cpu, seat_deals) in levels_cpu.items():
        print(f"{name}: CPU a decision median {statistics.median(cpu) * ms:.2f} ms, p95 "
              f"{percentile(cpu, 0.95) * ms:.2f} ms, max {max(cpu) * ms:.1f} ms over {len(cpu)} decisions; "
              f"{sum(cpu) / seat_deals:.3f} s a seat's deal: {capacity(cpu, seat_deals):,.0f} players a core "
              f"at a deal every 3 minutes")
    cards = cards_cpu(game, seats, 20, args.seed)
    print(f"learned, the cards alone: CPU a decision median {statistics.median(cards) * ms:.2f} ms, "
          f"p95 {percentile(cards, 0.95) * ms:.2f} ms over {len(cards)} decisions")


if __name__ == "__main__":
    main()
