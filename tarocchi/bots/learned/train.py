"""Fits the learned policy to the teacher's records: ``python -m tarocchi.bots.learned.train
--game calabresella DATA.jsonl [...]`` writes ``weights/<game>-<seats>.npz``; with ``--phase
speak``, the auction's model (``weights/<game>-<seats>-speak.npz``, over the teacher's words).

Numpy alone (no other training library: the network is one hidden layer, its gradient written
out below), Adam, softmax cross-entropy over the legal cards (or words) of each decision,
against the teacher's values of the cards where the record has them (``softmax((v - best) /
t)``, ``t`` a quarter of the decision's spread of values: equal cards equally likely, the worst
card about e^-4 of the best), else against the teacher's card (or word). The deals whose
index is a multiple of ``--holdout-every`` are held out, and the agreement with the teacher on
their decisions (the share where the model's card is the teacher's) is printed; those whose
index is 5 more than such a multiple choose the epoch kept (early stopping: the one whose
card is most often one the teacher valued best; with ``--hard``, the teacher's own card), and
are not trained on either. ``--init FILE`` starts from a model's weights (its features, its
vocabulary and its width) instead of random ones: a shipped model taught more, as on its
teacher's choices in the learned player's own deals (``tarocchi selfplay --player learned``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from .features import CARD_FEATURES, featurizer
from .policy import ARRAYS, PHASES, Model, load, weights_path
from .selfplay import decisions, read_records


def contracts_of(records: list[dict]) -> list[str]:
    seen: set[str] = set()
    for r in records:
        for v, _ in decisions(r, PHASES):
            c = v.get("contract")
            if isinstance(c, str):
                seen.add(c)
            break
    return sorted(seen)


def words_of(records: list[dict]) -> list[str]:
    """The words the teacher said in the auction: the auction model's vocabulary."""
    return sorted({a for r in records for _, a in decisions(r, frozenset({"speak"}))})


def options(feats, view: dict) -> list[int]:
    """The legal options of a view the model chooses among (cards, or words it knows)."""
    return sorted({i for c in view["choices"] if c["reason"] is None for i in [feats.option(c["action"])] if i >= 0})


def dataset(records: list[dict], feats, swaps: int = 1, phase: str = "play") -> dict:
    """Every decision of ``phase`` in the records as arrays: the states ``X``, the options'
    features ``P`` (padded to the deck, or the vocabulary), the legal options ``M``, the
    teacher's ``y``, its values as a target ``T`` and the options it valued best ``best``; each
    decision ``swaps`` times, its suits of equal ranks swapped (``features.suit_swaps``, the
    identity first)."""
    from tarocchi.bots import GAME_RULES

    from .features import relabel, suit_swaps

    maps = suit_swaps(feats.game)[:max(1, swaps)]
    out: dict[str, list] = {"X": [], "P": [], "M": [], "y": [], "T": [], "best": []}
    rule = GAME_RULES[feats.game][0](seed=0)
    for r in records:
        for view, action, values in decisions(r, PHASES if phase == "play" else frozenset({phase}), values=True):
            if len(options(feats, view)) < 2:
                continue  # no choice: nothing to learn
            said = rule(view)
            for i, m in enumerate(maps):
                if i == 0:
                    add(out, feats, view, action, values, said)
                else:
                    add(out, feats, relabel(view, m), relabel(action, m), relabel(values, m), relabel(said, m))
    return {"distinct": len(out["y"]) // len(maps), "X": np.array(out["X"]), "P": np.array(out["P"]), "M": np.array(out["M"]),
            "y": np.array(out["y"], dtype=np.int64), "T": np.array(out["T"]), "best": np.array(out["best"])}


def targets(values: dict[int, float], n: int) -> tuple[np.ndarray, np.ndarray]:
    """The teacher's values of the cards (by index) as the trainer's target over a deck of ``n``,
    ``softmax((v - best) / t)``, ``t`` a quarter of the values' spread, and the cards valued best;
    a single card is the whole target."""
    t = np.zeros(n, dtype=np.float32)
    best = np.zeros(n, dtype=bool)
    top, low = max(values.values()), min(values.values())
    scale = max(0.25 * (top - low), 1e-3)
    for c, val in values.items():
        t[c] = np.exp((val - top) / scale)
        best[c] = val >= top - 1e-9
    return t / t.sum(), best


def add(out: dict, feats, view: dict, action: str, values: dict | None, said: str) -> None:
    n = feats.n
    legal = options(feats, view)
    x, ctx = feats.encode(view)
    ctx["rule"] = feats.option(said)
    p = np.zeros((n, CARD_FEATURES), dtype=np.float16)
    for c in legal:
        p[c] = feats.card_features(c, ctx)
    m = np.zeros(n, dtype=bool)
    m[legal] = True
    y = feats.option(action)
    t, best = targets({feats.option(a): x for a, x in values.items()} if values else {y: 0.0}, n)
    out["X"].append(x.astype(np.float16))
    out["P"].append(p)
    out["M"].append(m)
    out["y"].append(y)
    out["T"].append(t)
    out["best"].append(best)


def forward(params: dict, X, P, M):
    pre = X @ params["W"].T + params["w"]
    h = np.maximum(pre, 0.0)
    g = h @ params["U"].T + params["u"]  # (B, F)
    logits = h @ params["V"].T + params["b"] + np.einsum("bnf,bf->bn", P, g)
    logits = np.where(M, logits, -1e9)
    return pre, h, g, logits


def agreement(params: dict, data: dict, ties: bool = False) -> float:
    """The share of the decisions where the model plays the teacher's card (``ties``: a card the
    teacher valued as high as its own)."""
    if len(data["y"]) == 0:
        return float("nan")
    hits = 0
    for i in range(0, len(data["y"]), 2048):
        sl = slice(i, i + 2048)
        _, _, _, logits = forward(params, data["X"][sl].astype(np.float32), data["P"][sl].astype(np.float32),
                                  data["M"][sl])
        pick = logits.argmax(1)
        if ties:
            hits += int(data["best"][sl][np.arange(len(pick)), pick].sum())
        else:
            hits += int((pick == data["y"][sl]).sum())
    return hits / len(data["y"])


def fit(train: dict, valid: dict, hidden: int, epochs: int, lr: float, decay: float, seed: int,
        batch: int = 256, quiet: bool = False, hard: bool = False, init: dict | None = None) -> dict:
    rng = np.random.default_rng(seed)
    d, n = train["X"].shape[1], train["M"].shape[1]
    params = {"W": rng.normal(0, (2.0 / d) ** 0.5, (hidden, d)).astype(np.float32),
              "w": np.zeros(hidden, np.float32),
              "V": rng.normal(0, 0.01, (n, hidden)).astype(np.float32), "b": np.zeros(n, np.float32),
              "U": rng.normal(0, 0.01, (CARD_FEATURES, hidden)).astype(np.float32),
              "u": np.zeros(CARD_FEATURES, np.float32)}
    if init:
        params = {k: np.array(v, dtype=np.float32) for k, v in init.items()}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    step = 0
    size = len(train["y"])
    # From a model, its own agreement is the bar an epoch must beat to be kept.
    best, best_params = ((agreement(params, valid, ties=not hard), {k: v.copy() for k, v in params.items()})
                         if init else (-1.0, None))
    for epoch in range(epochs):
        order = rng.permutation(size)
        total = 0.0
        for i in range(0, size, batch):
            idx = order[i:i + batch]
            X, P, M, T = (train["X"][idx].astype(np.float32), train["P"][idx].astype(np.float32),
                          train["M"][idx], train["T"][idx])
            if hard:  # the teacher's card alone
                T = np.zeros_like(T)
                T[np.arange(len(idx)), train["y"][idx]] = 1.0
            B = len(idx)
            pre, h, g, logits = forward(params, X, P, M)
            logits -= logits.max(1, keepdims=True)
            e = np.exp(logits) * M
            prob = e / e.sum(1, keepdims=True)
            total += float(-(T * np.log(prob + 1e-12)).sum())
            G = (prob - T) / B
            grads = {"V": G.T @ h, "b": G.sum(0)}
            gu = np.einsum("bn,bnf->bf", G, P)
            grads["U"] = gu.T @ h
            grads["u"] = gu.sum(0)
            dh = G @ params["V"] + gu @ params["U"]
            dpre = dh * (pre > 0)
            grads["W"] = dpre.T @ X
            grads["w"] = dpre.sum(0)
            step += 1
            rate = lr * min(1.0, step / 200)
            for k in params:
                gk = grads[k] + (decay * params[k] if k in ("W", "V", "U") else 0.0)
                m[k] = 0.9 * m[k] + 0.1 * gk
                v2[k] = 0.999 * v2[k] + 0.001 * gk * gk
                mh = m[k] / (1 - 0.9 ** step)
                vh = v2[k] / (1 - 0.999 ** step)
                params[k] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        acc = agreement(params, valid, ties=not hard)
        if not quiet:
            print(f"epoch {epoch + 1}: loss {total / size:.4f}, validation agreement {agreement(params, valid):.3f}, "
                  f"with ties {agreement(params, valid, ties=True):.3f}", file=sys.stderr, flush=True)
        if acc > best:
            best, best_params = acc, {k: v.copy() for k, v in params.items()}
    return best_params or params


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tarocchi.bots.learned.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="files of tarocchi selfplay records")
    ap.add_argument("--game", required=True)
    ap.add_argument("--seats", type=int, default=None)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--decay", type=float, default=1e-4)
    ap.add_argument("--holdout-every", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--swaps", type=int, default=6,
                    help="each training decision this many times, suits of equal ranks swapped (at most the game's)")
    ap.add_argument("--hard", action="store_true", help="learn the teacher's card alone, not its values")
    ap.add_argument("--phase", choices=("play", "speak"), default="play",
                    help="the cards (the default) or the auction")
    ap.add_argument("--init", default=None, help="a model to start from (its features and width), not random weights")
    ap.add_argument("--out", default=None, help="default: the shipped weights' path")
    args = ap.parse_args(argv)
    t0 = time.time()
    records = [r for path in args.data for r in read_records(path) if r["game"] == args.game
               and (args.seats is None or r["seats"] == args.seats)]
    if not records:
        print("no records of that game", file=sys.stderr)
        return 2
    seats = records[0]["seats"]
    records = [r for r in records if r["seats"] == seats]
    init = load(args.init) if args.init else None
    if init is not None:
        if (init.meta["game"], init.meta["seats"], init.meta.get("phase", "play")) != (args.game, seats, args.phase):
            print(f"{args.init}: not a model of {args.game} at {seats} seats, phase {args.phase}", file=sys.stderr)
            return 2
        key = "words" if args.phase == "speak" else "contracts"
        vocabulary, args.hidden = {key: init.meta[key]}, init.meta["hidden"]
    else:
        vocabulary = {"words": words_of(records)} if args.phase == "speak" else {"contracts": contracts_of(records)}
    feats = featurizer({"game": args.game, "seats": seats, "phase": args.phase, **vocabulary})
    every = args.holdout_every
    held_r = [r for r in records if r["index"] % every == 0]
    valid_r = [r for r in records if r["index"] % every == every // 2]
    train_r = [r for r in records if r["index"] % every not in (0, every // 2)]
    train, valid, held = (dataset(train_r, feats, args.swaps, args.phase), dataset(valid_r, feats, phase=args.phase),
                          dataset(held_r, feats, phase=args.phase))
    t1 = time.time()
    print(f"{len(records)} deals: {len(train['y'])} decisions to train on (suits swapped included), "
          f"{len(valid['y'])} to choose the epoch, {len(held['y'])} held out (features {feats.size}); "
          f"read in {t1 - t0:.0f} s", file=sys.stderr, flush=True)
    params = fit(train, valid, args.hidden, args.epochs, args.lr, args.decay, args.seed, hard=args.hard,
                 init={k: getattr(init, k) for k in ARRAYS} if init is not None else None)
    t2 = time.time()
    meta = {"game": args.game, "seats": seats, "phase": args.phase, **vocabulary, "hidden": args.hidden,
            "teacher": records[0]["teacher"], "deals": len(records),
            "decisions": int(train["distinct"] + valid["distinct"] + held["distinct"]), "holdout_every": args.holdout_every,
            "epochs": args.epochs, "lr": args.lr, "decay": args.decay, "seed": args.seed, "swaps": args.swaps, "hard": args.hard}
    if init is not None:  # what it was taught before, and by whom
        meta["init"] = {k: init.meta.get(k) for k in ("teacher", "deals", "decisions", "init")}
    model = Model(params, meta)
    out = args.out or weights_path(args.game, seats, args.phase)
    model.save(out)
    # Agreement of the saved (float16) weights, as the table will play them.
    saved = load(out)
    arrays = {k: getattr(saved, k) for k in ARRAYS}
    acc, tied = agreement(arrays, held), agreement(arrays, held, ties=True)
    print(json.dumps({"game": args.game, "seats": seats, "held_out_agreement": round(acc, 4),
                      "held_out_agreement_with_ties": round(tied, 4),
                      "train_decisions": int(len(train["y"])), "held_out_decisions": int(len(held["y"])),
                      "features_s": round(t1 - t0, 1), "training_s": round(t2 - t1, 1), "out": out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
