"""Who sits where in a tournament, and its standings (issue 59): pure functions, no I/O.

**Tables.** ``form_tables`` seats players, taken in a given order (by standing, by score, by
number), at tables of the game's size: the first player not yet seated with the next ones in
order that none of them has met (``met``), searched with backtracking so that a seating with no
repeated meeting is found whenever one exists (within a budget of steps: past it, a greedy
seating, then players swapped between tables while that leaves fewer repeats). When the players do not fill the tables, computers (``None``)
take the seats left over, at most one a table where the numbers allow, at the last tables.

- *Arena*: the free players by score, ``met`` their last table-mates only (not the same
  table-mates twice running).
- *Swiss*: everyone by standing (``swiss_order``), ``met`` everyone met in earlier rounds.
- *Duplicate*: everyone by entry number, ``met`` everyone met before; then ``seat_players``
  gives each a seat they have held least (the cards of that seat), so people meet different
  people and hold different seats. Every table of a round plays the same deck orders from the
  same first dealer (the feature deals them), so a seat holds the same cards at each table.

**Standings.** From the tables' results alone (each match's seats: player, team, total,
absent), so that ``tarocchi tournaments standings FILE`` recomputes them from the records:

- *Arena and Swiss*: each match gives a player a point for each other team at the table placed
  below theirs and a half for each placed equal (3 seats: 2, 1, 0; Ottocento's sides: 1 and
  0), places as the ratings count them (``people.places``: a seat the computer played most of
  a deal or more, a leaver, comes after those who were there). Arena: points, then points a
  match, then firsts. Swiss tie-breaks, in order: points; Buchholz, the sum of the final points
  of every person met, once per table shared (a computer counts 0); firsts (matches won).
- *Duplicate*: matchpoints (core/matchpoints.py): each deal's result at a seat is compared with
  everyone who held that seat's cards at the other tables of its round (at Ottocento a seat's
  result is its side's, so partnerships are compared by side).

Computers are compared (they sit, they place, their results are in the groups) but never
ranked. Ties share a rank as sport counts places (1, 1, 3). A player's key is any hashable (the
feature's: the entry number); the order of equal rows is by key, so a result is the same
whoever computes it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .matchpoints import standings as matchpoint_standings
from .store.people import Player, places

SEARCH_STEPS = 3_000  # tables tried in order before the greedy seating and its swaps are taken
SWAP_PASSES = 20  # passes over the tables swapping players to undo repeats (each pass: every clash tried)

Meetings = Mapping[Hashable, set]  # player -> the players it may not meet again


def computers_at(players: int, size: int) -> list[int]:
    """How many computers sit at each table when ``players`` people are seated at tables of
    ``size``: as few tables as hold everyone, the computers spread over the last ones."""
    if players <= 0:
        return []
    tables = -(-players // size)
    empty = tables * size - players
    out = [0] * tables
    for i in range(empty):  # (one a table from the last, then round again)
        out[tables - 1 - i % tables] += 1
    return out


def form_tables(order: Sequence[Hashable], size: int, met: Meetings | None = None,
                steps: int = SEARCH_STEPS) -> list[list[Hashable | None]]:
    """``order``'s players at tables of ``size`` (``None``: a computer's seat), the first
    table the first players'. No two who met (``met``) share a table where a seating allows
    it (searched in order, with backtracking, so near players sit together); if none is found
    within ``steps`` tables tried, each table in turn takes its first player and then, one by
    one, the next player who met the fewest of those already there."""
    met = met or {}
    people = list(order)
    if len(set(people)) != len(people):
        raise ValueError("a player is listed twice")
    shape = [size - c for c in computers_at(len(people), size)]
    budget = [steps]

    def clash(a, b) -> bool:
        return b in met.get(a, ()) or a in met.get(b, ())

    def tables_from(chosen: list, rest: list, need: int):
        """Each way (in order) to add ``need`` of ``rest`` to ``chosen``, none of them met."""
        if need == 0:
            yield chosen
            return
        for i in range(len(rest) - need + 1):
            p = rest[i]
            if not any(clash(p, q) for q in chosen):
                yield from tables_from(chosen + [p], rest[i + 1:], need - 1)

    def search(left: list, tables: list) -> list | None:
        if not left:
            return tables
        for table in tables_from(left[:1], left[1:], shape[len(tables)] - 1):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            found = search([p for p in left if p not in table], tables + [table])
            if found is not None:
                return found
        return None

    found = search(people, [])
    if found is None:
        found, left = [], people
        for want in shape:
            table = left[:1]
            for _ in range(want - 1):
                rest = [p for p in left if p not in table]
                table.append(min(rest, key=lambda p: sum(clash(p, q) for q in table)))  # (min: the first of the fewest)
            found.append(table)
            left = [p for p in left if p not in table]
        swap_apart(found, clash)
    return [t + [None] * (size - len(t)) for t in found]


def swap_apart(tables: list[list], clash: Callable[[Hashable, Hashable], bool]) -> None:
    """Swap players between tables, the nearest tables first, while a swap leaves fewer pairs
    who met sharing a table (in place): what the search in order could not find in its steps."""
    def cost(table: list) -> int:
        return sum(clash(a, b) for a, b in itertools.combinations(table, 2))

    for _ in range(SWAP_PASSES):
        swapped = False
        for i, here in enumerate(tables):
            for a_at, a in enumerate(here):
                if not any(clash(a, q) for q in here if q != a):
                    continue
                for j in sorted(range(len(tables)), key=lambda j: (abs(j - i), j)):
                    there = tables[j]
                    if j == i:
                        continue
                    before = cost(here) + cost(there)
                    for b_at, b in enumerate(there):
                        here[a_at], there[b_at] = b, a
                        if cost(here) + cost(there) < before:
                            swapped = True
                            break
                        here[a_at], there[b_at] = a, b
                    else:
                        continue
                    break
        if not swapped:
            return


def meetings(rounds: Iterable[Sequence[Sequence[Hashable | None]]]) -> dict[Hashable, set]:
    """Player -> every player it shared a table with in ``rounds`` (each a list of tables)."""
    out: dict[Hashable, set] = {}
    for tables in rounds:
        for table in tables:
            people = [p for p in table if p is not None]
            for p in people:
                out.setdefault(p, set()).update(q for q in people if q != p)
    return out


def seat_players(table: Sequence[Hashable | None], held: Mapping[Hashable, Mapping[int, int]]) -> list[Hashable | None]:
    """The table's players (and computers) in seat order: each person at a seat they have held
    least often so far (``held``: player -> seat -> times), the seat order otherwise kept."""
    best, cost = list(table), None
    for perm in itertools.permutations(table):
        c = sum(held.get(p, {}).get(s, 0) for s, p in enumerate(perm) if p is not None)
        if cost is None or c < cost:
            best, cost = list(perm), c
    return best


# --- results and standings -------------------------------------------------------------------------


@dataclass
class Seat:
    """One seat of a finished tournament match, as its record says it."""

    player: Hashable | None  # the player's key; None: a computer's seat (compared, never ranked)
    team: int  # the side (Ottocento), else the seat
    total: int  # the match total
    absent: bool = False  # the computer played for them most of a deal or more: a leaver, placed last
    deals: list[int] = field(default_factory=list)  # the result of each deal (duplicate)


@dataclass
class Result:
    """A finished tournament match: its round, its table's number, its seats in seat order."""

    round: int
    table: int
    seats: list[Seat]


def match_points(seats: Sequence[Seat]) -> list[float]:
    """Each seat's points for a match (Arena, Swiss): one for each other team placed below its
    own, a half for each placed equal, places as the ratings count them (``people.places``)."""
    players = [Player(i, None, s.team, s.total, s.absent) for i, s in enumerate(seats)]
    places(players)
    team_place = {p.team: p.place for p in players}
    out = []
    for p in players:
        others = [q for t, q in team_place.items() if t != p.team]
        out.append(sum(1.0 if q > p.place else 0.5 if q == p.place else 0.0 for q in others))
    return out


def _ranked(rows: list[dict], key: Callable[[dict], tuple]) -> list[dict]:
    """``rows`` best first by ``key`` (larger is better), then by player; sport ranks."""
    rows.sort(key=lambda r: (tuple(-round(k, 9) for k in key(r)), str(r["player"])))
    for i, row in enumerate(rows):
        row["rank"] = rows[i - 1]["rank"] if i and key(rows[i - 1]) == key(row) else i + 1
    return rows


def point_standings(results: Iterable[Result], kind: str, players: Iterable[Hashable] = ()) -> list[dict]:
    """Arena or Swiss standings: ``{"player", "points", "matches", "firsts", "buchholz",
    "rank"}``, best first. ``players``: those entered (listed with nothing yet if they have
    not played); computers never."""
    points: dict[Hashable, float] = {p: 0.0 for p in players}
    matches: dict[Hashable, int] = {p: 0 for p in points}
    firsts: dict[Hashable, int] = {p: 0 for p in points}
    opponents: dict[Hashable, list] = {p: [] for p in points}
    for result in results:
        gained = match_points(result.seats)
        best = max(gained)
        for seat, got in zip(result.seats, gained):
            p = seat.player
            if p is None:
                continue
            points[p] = points.get(p, 0.0) + got
            matches[p] = matches.get(p, 0) + 1
            firsts[p] = firsts.get(p, 0) + (got == best and not seat.absent)
            opponents.setdefault(p, []).extend(s.player for s in result.seats if s.player not in (None, p))
    rows = [{"player": p, "points": points[p], "matches": matches[p], "firsts": firsts[p],
             "buchholz": sum(points.get(q, 0.0) for q in opponents.get(p, []))} for p in points]
    if kind == "swiss":
        return _ranked(rows, lambda r: (r["points"], r["buchholz"], r["firsts"]))
    return _ranked(rows, lambda r: (r["points"], r["points"] / r["matches"] if r["matches"] else 0.0, r["firsts"]))


def duplicate_groups(results: Iterable[Result]) -> list[dict]:
    """The comparison groups of a duplicate: for each round, deal and seat, every table's
    result there by player (a computer by its round, table and seat: compared, never ranked)."""
    groups: dict[tuple, dict] = {}
    for result in results:
        for s, seat in enumerate(result.seats):
            key = seat.player if seat.player is not None else ("computer", result.round, result.table, s)
            for d, score in enumerate(seat.deals):
                groups.setdefault((result.round, d, s), {})[key] = float(score)
    return [groups[k] for k in sorted(groups)]


def duplicate_standings(results: Iterable[Result], players: Iterable[Hashable] = ()) -> list[dict]:
    """Duplicate standings: ``{"player", "matchpoints", "percent", "groups", "rank"}`` (core/matchpoints.py)."""
    results = list(results)
    people = set(players) | {s.player for r in results for s in r.seats if s.player is not None}
    rows = matchpoint_standings(duplicate_groups(results), ranked=people)
    seen = {r["player"] for r in rows}
    rank = len(rows) + 1
    for p in sorted(people - seen, key=str):  # (entered, not compared yet: last, together)
        rows.append({"player": p, "matchpoints": 0.0, "percent": 0.0, "groups": 0, "rank": rank})
    return rows


def standings(kind: str, results: Iterable[Result], players: Iterable[Hashable] = ()) -> list[dict]:
    """The standings of a tournament of ``kind`` from its finished matches alone."""
    if kind == "duplicate":
        return duplicate_standings(results, players)
    if kind in ("arena", "swiss"):
        return point_standings(results, kind, players)
    raise ValueError(f"no such kind of tournament: {kind!r}")


def swiss_order(rows: Sequence[dict], entered: Sequence[Hashable]) -> list[Hashable]:
    """The players still in a Swiss, by standing (``point_standings``' rows), those with no
    row yet in entry order after them; the first round: entry order."""
    placed = [r["player"] for r in rows if r["player"] in set(entered)]
    return placed + [p for p in entered if p not in set(placed)]


def results_from_records(records: Iterable[dict]) -> tuple[str | None, list[Result], dict[Hashable, str]]:
    """A tournament's kind, its results and its players' names from its match records alone
    (``GET /api/tournaments/<id>/records``, docs/records.md "Match records" with ``meta``):
    each match replayed by the rules (every deal re-checked), its seats' totals and each deal's
    results taken from the replay, not from the record's own ``result``."""
    from tarocchi.engine.game import get_game
    from tarocchi.engine.records import replay_match

    kind, results, names = None, [], {}
    for record in records:
        meta = record.get("meta") or {}
        if "tournament" not in meta:
            continue
        kind = meta["kind"]
        match = replay_match(record)
        sides = get_game(record["game"]).sides
        seats = []
        for s, who in enumerate(meta["players"]):
            player = None if who.get("computer") else who["player"]
            if player is not None:
                names[player] = who.get("name")
            seats.append(Seat(player, sides(s) if sides else s, match.totals[s], bool(who.get("absent")),
                              [d.returns()[s] for d in match.deals if d.done]))
        results.append(Result(meta["round"], meta["table"], seats))
    return kind, results, names
