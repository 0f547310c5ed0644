"""``tarocchi selfplay``: the teacher's decisions, from every seat's view, as compact records.

One JSON line a deal: ``{"v": 1, "game", "seats", "seed", "index", "dealer", "deck", "teacher",
"actions": [[seat, action], ...]}``. Every action is the teacher's, from its own seat's view; a
decision's view is rebuilt by replaying the deal to it (``decisions``). A card played with a
choice also carries the teacher's value of each legal card (its mean score for the seat over
the worlds it searched: ``[seat, action, {card: value}]``), where the teacher has ``evaluate``:
the trainer may learn the teacher's whole ranking, not its first card alone. About 55-90 bytes
a decision, the values included (Calabresella, Renaissance: docs/benchmarks.md).

Reproducible: deal ``index`` of seed ``S`` has the duel's deck (``duel.deck_for``) and players
seeded from (S, index, seat); the teacher has no time limit (a fixed number of worlds), so a
decision depends on the view and the seed alone. Resumable: the deals already in the file are
skipped (a torn last line is cut off) and the rest appended. ``--jobs`` worker processes.

The player (``--player LEVEL``, the record's ``"player"``, as ``learned``): the teacher still
decides at every decision, but one seat plays as that level (``(index + index // seats) %
seats``: each place from the dealer, ``index % seats``, in turn), so the records teach the
teacher's choices in the deals the learned player makes, its own mistakes among them (DAgger:
a policy learned from its teacher's deals alone never sees the states its errors lead to). Where
the card or word played is not the teacher's, the decision is ``[seat, played, values, taught]``
(``values`` None where the teacher gave none); ``decisions`` yields the teacher's and replays the
one played. The other seats play the teacher's, as in a duel against it.

The teacher (``--teacher``): a level with its time limit off (``search``, the default), or
``expert/W``, the expert with ``W`` worlds a decision and no time limit; ``expert`` is the full
expert (its own cap of worlds, no time limit). Which teacher is a question of CPU and of what
the records teach. At Sicilian's three seats the full expert costs about 2.4 s of the two cores
a deal (1,462 deals in an hour), and the model it taught beat the one search taught on twice the
deals by +0.33 jochi a deal (docs/benchmarks.md, "Learned players"): the shipped Sicilian model
at three seats is the expert's. Elsewhere its decisions cost 0.2-0.6 s, some ten times search's
(Calabresella search 33 ms; Renaissance 34 ms), and cut to a few worlds (``expert/8``, 23-32 ms)
it keeps to the rule bot's card (91 % of Calabresella's card decisions with a choice, 85 %
Renaissance's, where search keeps it in 43-44 %: with 8 worlds the expert seldom has the
confidence to leave it), so its records teach little beyond the rule bot; those games' models
are search's.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Iterator

from tarocchi.engine.game import get_game

VERSION = 1


def teacher(name: str, seed: int, game: str):
    """The player a teacher's name gives: ``expert/W`` (W worlds, no time limit) or a level."""
    from tarocchi.bots import levels_for, make_player

    level, _, worlds = name.partition("/")
    if worlds:
        return levels_for(game)[level](seed=seed, time_limit=None, worlds=int(worlds))
    player = make_player(level, seed=seed, game=game)
    if hasattr(player, "time_limit"):
        player.time_limit = None
    return player


def play_deal(job: tuple) -> dict:
    """One deal played by the teacher in every seat (but the player's, where there is one), as
    a record."""
    from tarocchi.bots import make_player
    from tarocchi.bots.duel import deck_for

    game_name, seats, seed, index, teacher_name, *rest = job
    player_name = rest[0] if rest else None
    game = get_game(game_name)
    deck = deck_for(seed, index, game.deck.size)
    dealer = index % seats
    players = [teacher(teacher_name, (seed * 1_000_003 + index) * 8 + s, game_name) for s in range(seats)]
    learner = (index + index // seats) % seats if player_name else None  # each place from the dealer in turn
    own = make_player(player_name, seed=(seed * 1_000_003 + index) * 8 + 7, game=game_name) if player_name else None
    deal = game.new_deal(seats, dealer, deck, log=False)
    actions: list[list] = []
    while not deal.done:
        s = deal.to_act
        view = deal.view(s)
        values = None
        evaluate = getattr(players[s], "evaluate", None)
        if view["phase"] == "play" and evaluate is not None:
            ranked = evaluate(view)
            taught = ranked[0][0]
            values = {x: round(v, 3) for x, v in ranked if v == v}  # (NaN: not searched)
            if len(values) < 2:
                values = None
        else:
            taught = players[s](view)
        played = own(view) if s == learner else taught
        deal.apply(played, s)
        entry = [s, played]
        if values or played != taught:
            entry.append(values)
        if played != taught:
            entry.append(taught)
        actions.append(entry)
    record = {"v": VERSION, "game": game_name, "seats": seats, "seed": seed, "index": index, "dealer": dealer,
              "deck": deck, "teacher": teacher_name, "actions": actions}
    return record | ({"player": player_name} if player_name else {})


def read_records(path: str) -> list[dict]:
    """The whole records of a file (a torn last line is left out)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.endswith("\n"):
                break
            rec = json.loads(line)
            if rec.get("v") != VERSION:
                raise ValueError(f"{path}: a record of version {rec.get('v')!r}, not {VERSION}")
            out.append(rec)
    return out


def decisions(record: dict, phases: frozenset[str] | None = None,
              values: bool = False) -> Iterator[tuple]:
    """Every decision of a record as (the deciding seat's view, the teacher's action), the deal
    replayed to it (by the action played, where a player's was not the teacher's); only those
    of ``phases`` when given; with ``values``, the teacher's values of the options as a third
    (None where the record has none)."""
    game = get_game(record["game"])
    deal = game.new_deal(record["seats"], record["dealer"], record["deck"], log=False)
    for seat, played, *rest in record["actions"]:
        if deal.to_act != seat:
            raise ValueError(f"record {record['index']}: seat {seat} acts out of turn")
        if phases is None or deal.phase in phases:
            view = deal.view(seat)
            taught = rest[1] if len(rest) > 1 else played
            teacher_values = rest[0] if rest else None
            yield (view, taught, teacher_values) if values else (view, taught)
        deal.apply(played, seat)


def resume_point(path: str) -> int:
    """How many whole records ``path`` holds; a torn last line is cut off."""
    if not os.path.exists(path):
        return 0
    with open(path, "rb+") as f:
        data = f.read()
        keep = data.rfind(b"\n") + 1
        if keep < len(data):
            f.truncate(keep)
        return data[:keep].count(b"\n")


def run(game: str, seats: int, deals: int, seed: int, out: str, jobs: int = 1,
        teacher_name: str = "search", quiet: bool = False, player: str | None = None) -> int:
    done = resume_point(out)
    work = [(game, seats, seed, i, teacher_name, player) for i in range(done, deals)]
    start, made = time.time(), 0
    with open(out, "a", encoding="utf-8") as f:
        def write(rec: dict) -> None:
            nonlocal made
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            f.flush()
            made += len(rec["actions"])
            if not quiet and (rec["index"] + 1) % 10 == 0:
                print(f"{rec['index'] + 1}/{deals} deals, {made} decisions in {time.time() - start:.0f} s",
                      file=sys.stderr, flush=True)

        if jobs > 1:
            with mp.get_context("spawn").Pool(jobs) as pool:
                for rec in pool.imap(play_deal, work, chunksize=1):
                    write(rec)
        else:
            for w in work:
                write(play_deal(w))
    return made


def main(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    seats = args.seats or game.seats[0]
    if seats not in game.seats:
        print(f"tarocchi selfplay: {game.name} is played at {' or '.join(map(str, game.seats))} seats", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    t = time.time()
    made = run(game.name, seats, args.deals, args.seed, args.out, jobs=jobs, teacher_name=args.teacher,
               player=args.player)
    print(f"tarocchi selfplay: {made} decisions written to {args.out} in {time.time() - t:.0f} s", file=sys.stderr)
    return 0
