"""The lazy list of a discard's actions (engine/choices.py) is the list it stands for: the
same actions in the same order, by index, by iteration and by ``in``, and nothing else."""

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from tarocchi.engine.choices import Combinations

FLAG = 1 << 64


def built(must: int, pool: int, need: int) -> list[int]:
    cards = [c for c in range(63) if pool >> c & 1 and not must >> c & 1]
    return [FLAG | must | sum(1 << c for c in chosen) for chosen in combinations(cards, need)]


masks = st.integers(0, (1 << 63) - 1)


@given(st.integers(0, (1 << 63) - 1).map(lambda m: m & 0x3FFFFF0F0F), masks.map(lambda m: m & 0xF0F0F0F0F0), st.integers(0, 4))
def test_it_is_the_list_it_stands_for(must, pool, need):
    lazy, listed = Combinations(FLAG, must, pool, need), built(must, pool, need)
    assert len(lazy) == len(listed) and list(lazy) == listed and lazy == listed
    assert [lazy[i] for i in range(len(listed))] == listed
    assert [lazy[-i] for i in range(1, len(listed) + 1)] == listed[::-1][:len(listed)]
    assert lazy[1:4] == listed[1:4]
    for a in listed[:30]:
        assert a in lazy and lazy.count(a) == 1
    if listed:
        assert lazy.index(listed[-1]) == len(listed) - 1


small = st.integers(0, (1 << 14) - 1)  # a few cards, so that the built list stays small


@given(small, small, st.integers(0, 4), small, st.sampled_from([0, FLAG, FLAG << 1, FLAG | FLAG << 1]))
def test_in_says_no_to_everything_else(must, pool, need, cards, flag):
    must &= ~pool
    lazy, listed = Combinations(FLAG, must, pool, need), set(built(must, pool, need))
    for action in (flag | cards, flag | must | cards, flag | must | (cards & pool)):
        assert (action in lazy) == (action in listed), bin(action)
    assert "discard" not in lazy and None not in lazy and 1.0 not in lazy
