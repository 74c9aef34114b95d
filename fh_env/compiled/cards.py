"""Card bitmasks, compiled: the mask helpers of :mod:`fh_env.cards` for ``uint64`` masks.

Masks are ``uint64`` throughout (never mixed with signed integers, which numba would turn into
floats).  The card ids are compiled in (a fixed table by design, as the action ids); the card
tables that depend on the trump context come as data in the rules record
(:data:`fh_env.compiled.rules.RULES_DTYPE`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import JOKER, JOKER_BITS as _JOKER_BITS, RED_JOKER

U0 = np.uint64(0)
U1 = np.uint64(1)
JOKER_BITS = np.uint64(_JOKER_BITS)  # cards.JOKER_BITS
HIGH_JOKER_BIT = np.uint64(1 << JOKER)
RED_JOKER_BIT = np.uint64(1 << RED_JOKER)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True)
def bit(c):
    """The mask of card ``c`` (``1 << c``)."""
    return U1 << np.uint64(c)


@njit(cache=True)
def popcount(x):
    """The number of cards in a mask (``int.bit_count``)."""
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(cache=True)
def lowest_bit(x):
    """The index of the lowest set bit of a non-zero mask (the first card of ``cards_of``)."""
    return popcount((x & (~x + U1)) - U1)


@njit(cache=True)
def nth_bit(x, n):
    """The index of the ``n``-th (from 0) lowest set bit of ``x``."""
    for _ in range(n):
        x &= x - U1
    return lowest_bit(x)
