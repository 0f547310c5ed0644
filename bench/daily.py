"""What the daily deal's computers cost per player (issue 59): the CPU seconds the ``learned``
computers spend deciding over one player's try of the day's deals, one process, as the server's
bot executor runs them (``hub.decide``).

    .venv/bin/python bench/daily.py --days 4 --players 8

For each game, ``--days`` days (each its own site secret: the day's deck orders and first dealer
drawn by ``DailyDeals`` itself), and on each ``--players`` players: the person's seat played by
the ``rule`` computer (a stand-in for a person, bidding alone where it may: its time is not counted), the others by
``learned``, through the day's deals (fewer where a match to a score ends sooner). Prints per
player the computers' CPU seconds (median, p95, max), their decisions, the engine's own CPU for
the deals (dealing, applying, views), and the players one core serves an hour at the median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import types

from tarocchi.bots.duel import percentile
from tarocchi.engine.game import get_game
from tarocchi.engine.match import Match
from tarocchi.server.core.hub import TABLE_GAMES, decide
from tarocchi.server.daily import DEALS, LEVEL, PERSON, DailyDeals

STAND_IN = "rule"  # plays the person's seat
# ... but bids alone where the game lets it (Sicilian's vado solo): a person comes to play the
# deals, and the rule bot at three passes most Sicilian hands, which the computers then throw in.
KEEN = ("vado solo",)


def day_of(secret: str) -> DailyDeals:
    """The feature's own deals, on a site whose secret is ``secret`` (no store: only its key)."""
    people = types.SimpleNamespace(site_key=lambda name, make: secret)
    return DailyDeals(types.SimpleNamespace(store=types.SimpleNamespace(people=people), now=time.time))


def one_player(daily: DailyDeals, game: str, day: str) -> tuple[float, int, float]:
    """One try of the day's deals: (the computers' CPU seconds, their decisions, the rest's CPU)."""
    rules = get_game(game)
    seats = rules.seats[0]
    match = Match(seats, daily.first_dealer(day, game, seats), game=rules)
    computers, decisions, began = 0.0, 0, time.process_time()
    for n in range(DEALS):
        if match.over:
            break
        deal = match.start_deal(deck=rules.deck.parse_order(daily.deck(day, game, n)))
        while not deal.done:
            seat = deal.to_act
            view = deal.view(seat)
            if seat == PERSON:
                keen = [c["action"] for c in view.get("choices") or [] if c["reason"] is None and c["action"] in KEEN]
                action = keen[0] if keen else decide(game, STAND_IN, view)
            else:
                t0 = time.process_time()
                action = decide(game, LEVEL, view)
                computers += time.process_time() - t0
                decisions += 1
            deal.apply(action, seat)
    total = time.process_time() - began
    return computers, decisions, total - computers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=4)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'game':13} {'tries':>5} {'median s':>9} {'p95 s':>7} {'max s':>7} {'decisions':>9} "
          f"{'engine s':>8} {'players/core-hour':>17}")
    for game in TABLE_GAMES:
        one_player(day_of("0" * 64), game, "2026-01-01")  # (the players made and their models read: not timed)
        costs, counts, rest = [], [], []
        for d in range(args.days):
            daily = day_of(f"{rng.getrandbits(256):064x}")
            day = f"2026-12-{d + 1:02d}"
            for _ in range(args.players):
                c, n, r = one_player(daily, game, day)
                costs.append(c)
                counts.append(n)
                rest.append(r)
        median = statistics.median(costs)
        print(f"{game:13} {len(costs):5} {median:9.3f} {percentile(costs, 95):7.3f} {max(costs):7.3f} "
              f"{statistics.median(counts):9.0f} {statistics.median(rest):8.3f} {3600 / median:17,.0f}")


if __name__ == "__main__":
    main()
