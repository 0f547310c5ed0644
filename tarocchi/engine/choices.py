"""A discard's legal actions, listed without being built: ``flag | must | need cards of pool``
in lexicographic order of the pool's cards. A bidder holding 23 cards has hundreds of allowed
discards; ``legal_actions()`` returns them as this Sequence, which gives their number at once,
any one by its index (the combinatorial number system), and answers ``in`` with a few mask
operations, so that listing them costs nothing until they are read. It is a read-only list in
every other way: iteration, ``index``, ``count``, slicing, equality with a list.

>>> from tarocchi.engine.choices import Combinations
>>> c = Combinations(flag=1 << 8, must=0b1, pool=0b11110, need=2)
>>> len(c), [bin(a) for a in c[:2]], bin(c[-1])
(6, ['0b100000111', '0b100001011'], '0b100011001')
>>> (1 << 8 | 0b10011) in c, (1 << 8 | 0b110) in c     # the must card and two of the pool
(True, False)
>>> c == list(c)
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import overload


class Combinations(Sequence[int]):
    __slots__ = ("flag", "must", "pool", "need", "cards", "size")

    def __init__(self, flag: int, must: int, pool: int, need: int):
        self.flag, self.must, self.pool, self.need = flag, must, pool & ~must, need
        cards, m = [], self.pool
        while m:
            low = m & -m
            cards.append(low.bit_length() - 1)
            m ^= low
        self.cards = cards
        self.size = comb(len(cards), need) if need >= 0 else 0

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.size))]
        if i < 0:
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError("index out of range")
        action, k, cards = self.flag | self.must, self.need, self.cards
        left = len(cards)
        for c in cards:  # c is the next card iff i is among the combinations that start with it
            if not k:
                break
            left -= 1
            starting = comb(left, k - 1)
            if i < starting:
                action |= 1 << c
                k -= 1
            else:
                i -= starting
        return action

    def __contains__(self, action: object) -> bool:
        if type(action) is not int:
            return False
        cards = action & ~self.flag
        return (cards | self.flag == action and cards & self.must == self.must
                and not cards & ~self.must & ~self.pool and (cards & ~self.must).bit_count() == self.need)

    def __iter__(self) -> Iterator[int]:
        base = self.flag | self.must
        for chosen in combinations(self.cards, self.need):
            action = base
            for c in chosen:
                action |= 1 << c
            yield action

    def index(self, action: object, start: int = 0, stop: int | None = None) -> int:
        if action in self:
            i = next(k for k, a in enumerate(self) if a == action)
            if start <= i < (self.size if stop is None else stop):
                return i
        raise ValueError(f"{action!r} is not a listed action")

    def count(self, action: object) -> int:
        return 1 if action in self else 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Combinations):
            return (self.flag, self.must, self.pool, self.need) == (other.flag, other.must, other.pool, other.need)
        return isinstance(other, Sequence) and not isinstance(other, str) and list(self) == list(other)

    def __hash__(self) -> int:
        return hash((self.flag, self.must, self.pool, self.need))

    def __repr__(self) -> str:
        return repr(list(self))
