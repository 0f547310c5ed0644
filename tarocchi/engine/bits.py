"""Card sets as machine words where they fit: the card of a one-bit mask by one table lookup.

>>> BIT_INDEX[(1 << 40) % 67]
40
"""

from __future__ import annotations

from typing import Final

# 2**k % 67 differs for every k < 64, so it names the bit of a one-bit mask of a machine word.
BIT_INDEX: Final = [0] * 67
for _k in range(64):
    BIT_INDEX[(1 << _k) % 67] = _k
WORD: Final = (1 << 63) - 1  # a mask at most this fits an i64 (Sicilian's 63 cards do)
