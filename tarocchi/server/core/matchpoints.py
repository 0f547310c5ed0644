"""Matchpoints, as duplicate bridge and duplicate tarot score them (issue 59).

Everyone who held the same cards (the same deal of the same deck order, from the same seat; at
Ottocento, the same side) forms a comparison group. Within a group each result earns one
matchpoint for every other result it beats and a half for every tie. A computer's result is in
the group (it is compared: the people who held those cards beat it or not) but is never ranked.

Groups differ in size (the daily deal's first player is alone with their cards for a while), so
a player's standing over several groups adds each group's matchpoints as a share of the most it
could have earned there (``percent``): 100 beats everyone, 50 is the middle. A group of one
earns nothing and counts for nothing.

Pure and deterministic: the tournaments' standings and the daily deal rank with this alone, and
``tarocchi tournaments standings FILE`` recomputes them from the records with the same code.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping


def matchpoints(scores: Mapping[Hashable, float]) -> dict[Hashable, float]:
    """Each entry's matchpoints in one comparison group: one for each other score it beats, a
    half for each it ties."""
    values = sorted(scores.values())
    out: dict[Hashable, float] = {}
    for key, score in scores.items():
        below = _count_below(values, score)
        ties = _count_below(values, score, equal=True) - below - 1  # (itself not counted)
        out[key] = below + ties / 2
    return out


def percent(scores: Mapping[Hashable, float]) -> dict[Hashable, float]:
    """Each entry's matchpoints as a percentage of the most it could earn in the group
    (``len(scores) - 1``); a group of one: no entry (it is compared with nobody)."""
    if len(scores) < 2:
        return {}
    most = len(scores) - 1
    return {key: 100 * points / most for key, points in matchpoints(scores).items()}


def standings(groups: list[Mapping[Hashable, float]], ranked: set[Hashable] | None = None) -> list[dict]:
    """Players over several groups: ``{"player", "matchpoints", "percent", "groups", "rank"}``,
    the best first, by their average percentage over the groups where they were compared, then
    matchpoints, then name (a stated, stable order); ``rank`` as sport counts places (ties share
    a place: 1, 1, 3). ``ranked``: the players to list (computers are compared, never listed);
    None lists everyone."""
    total: dict[Hashable, float] = {}
    shares: dict[Hashable, list[float]] = {}
    for group in groups:
        points = matchpoints(group) if len(group) > 1 else {}
        for key, share in percent(group).items():
            total[key] = total.get(key, 0.0) + points[key]
            shares.setdefault(key, []).append(share)
    rows = [{"player": key, "matchpoints": total[key], "percent": sum(s) / len(s), "groups": len(s)}
            for key, s in shares.items() if ranked is None or key in ranked]
    rows.sort(key=lambda r: (-round(r["percent"], 9), -r["matchpoints"], str(r["player"])))
    for i, row in enumerate(rows):
        same = i > 0 and round(row["percent"], 9) == round(rows[i - 1]["percent"], 9) and \
            row["matchpoints"] == rows[i - 1]["matchpoints"]
        row["rank"] = rows[i - 1]["rank"] if same else i + 1
    return rows


def _count_below(values: list[float], score: float, equal: bool = False) -> int:
    """How many of the sorted ``values`` are below ``score`` (or at most it, ``equal``)."""
    lo, hi = 0, len(values)
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < score or (equal and values[mid] == score):
            lo = mid + 1
        else:
            hi = mid
    return lo
