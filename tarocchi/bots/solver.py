"""The exact solver of a perfect-information deal, for any game on the trick core.

Given a world (a real deal with every hand known, in play), it finds the value of the rest of
the deal for one seat when its side plays to maximise that value and the other seats play to
minimise it (the paranoid reading of a game of more than two sides, Renaissance's; exact for
the games of two sides). The model is the double-dummy solvers of bridge:

- alpha-beta on the engine's own deal (``copy`` and ``apply`` of the compiled ``TrickPlay``,
  about 3 microseconds a move), so every game's rules and count are the engine's;
- a transposition table keyed on the position (the hands, the trick, who is to play, each
  seat's pile and what a game adds: ``key_extra``), holding bounds and the best card;
- move ordering: the table's card first, then the highest cards;
- equivalent cards played once: two cards of one suit in one hand with no live card between
  them and the same points are the same card for the rest of the deal (``plain`` says which
  cards a game lets merge: not the ones its count names one by one);
- the last trick played out without branching (every card is forced).

A game gives ``value(done_deal) -> float`` (the seat's score, in the game's units),
``maximising(deal, seat) -> bool`` (the seat plays for us), and optionally ``key_extra``,
``plain``, ``last_trick`` (the value of a deal with one trick left, for a game whose engine
count is slow: Ottocento counts on masks) and a ``deadline``. ``node_limit`` and ``deadline`` bound the work: a solve that runs out raises ``OutOfNodes``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2


class OutOfNodes(Exception):
    """The solve needed more positions than it was allowed."""


def _default_key(d: Any) -> tuple:
    return (tuple(d.hands), tuple(d.trick), d.to_act, tuple(d.won), d.fool_by, d.fool_to)


class Solver:
    def __init__(self, value: Callable[[Any], float], maximising: Callable[[Any, int], bool],
                 key_extra: Callable[[Any], Any] | None = None, plain: int = 0, node_limit: int = 10**9,
                 last_trick: Callable[[Any], float] | None = None, deadline: float | None = None):
        self.value = value
        self.deadline = deadline  # a time (``clock``: this thread's CPU seconds) past which the solve gives up (OutOfNodes)
        self.clock = time.thread_time
        self.last_trick = last_trick  # the value with one trick left (all forced), if a game counts faster
        self.maximising = maximising
        self.key_extra = key_extra
        self.plain = plain  # cards that may be merged with an equivalent neighbour
        self.node_limit = node_limit
        self.nodes = 0
        self.table: dict[tuple, tuple[int, float, int]] = {}

    def reset(self) -> None:
        self.table.clear()
        self.nodes = 0

    def key(self, d: Any) -> tuple:
        k = _default_key(d)
        return k + (self.key_extra(d),) if self.key_extra is not None else k

    def moves(self, d: Any) -> list[int]:
        """The legal cards worth trying, highest first, one of each run of equivalent cards."""
        legal = d.legal_cards()
        out: list[int] = []
        plain = self.plain
        if plain and legal & (legal - 1):
            live = 0
            for h in d.hands:
                live |= h
            for c in d.trick:
                live |= 1 << c
            rules = d.rules
            suit_mask_of = rules.pack.suit_mask_of
            values = rules.pack.values
            prev = -1
            m = legal
            while m:
                c = m.bit_length() - 1
                m ^= 1 << c
                if prev >= 0 and plain >> c & 1 and plain >> prev & 1 and values[c] == values[prev] \
                        and suit_mask_of[c] == suit_mask_of[prev]:
                    between = ((1 << prev) - 1) & ~((1 << (c + 1)) - 1)
                    if not live & between:
                        continue  # ``prev`` stands for this one
                out.append(c)
                prev = c
            return out
        m = legal
        while m:
            c = m.bit_length() - 1
            m ^= 1 << c
            out.append(c)
        return out

    def finish(self, d: Any) -> float:
        """The last trick: every card is forced."""
        while not d.done:
            d.apply(d.legal_cards().bit_length() - 1)
        return self.value(d)

    def search(self, d: Any, alpha: float, beta: float) -> float:
        if d.done:
            return self.value(d)
        if d.tricks_left == 1:
            return self.last_trick(d) if self.last_trick is not None else self.finish(d.copy())
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OutOfNodes
        if self.deadline is not None and not self.nodes & 255 and self.clock() > self.deadline:
            raise OutOfNodes
        key = self.key(d)
        entry = self.table.get(key)
        best_move = -1
        if entry is not None:
            kind, v, best_move = entry
            if kind == EXACT:
                return v
            if kind == LOWER:
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
            elif v <= alpha:
                return v
            elif v < beta:
                beta = v
        a0, b0 = alpha, beta
        moves = self.moves(d)
        if best_move >= 0 and best_move in moves:
            moves.remove(best_move)
            moves.insert(0, best_move)
        top = self.maximising(d, d.to_act)
        best = -INF if top else INF
        chosen = moves[0]
        for c in moves:
            child = d.copy()
            child.apply(c)
            v = self.search(child, alpha, beta)
            if top:
                if v > best:
                    best, chosen = v, c
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best, chosen = v, c
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        if best <= a0:
            kind = UPPER
        elif best >= b0:
            kind = LOWER
        else:
            kind = EXACT
        self.table[key] = (kind, best, chosen)
        return best

    def values(self, d: Any, options: list[int]) -> dict[int, float]:
        """The exact value of each of ``options`` (cards the seat to act may play), for the
        seat whose side ``maximising`` names; one table is shared by all of them."""
        out = {}
        for c in options:
            child = d.copy()
            child.apply(c)
            out[c] = self.search(child, -INF, INF)
        return out


def minimax(d: Any, value: Callable[[Any], float], maximising: Callable[[Any, int], bool]) -> float:
    """Plain minimax over every legal card: the reference the solver is tested against."""
    if d.done:
        return value(d)
    top = maximising(d, d.to_act)
    results = []
    legal = d.legal_cards()
    while legal:
        c = legal.bit_length() - 1
        legal ^= 1 << c
        child = d.copy()
        child.apply(c)
        results.append(minimax(child, value, maximising))
    return max(results) if top else min(results)
