"""Intervals for duplicate results: Student's t for mean points, Wilson for win rates.

Written out rather than taken from scipy, which the core does not depend on.
"""

from __future__ import annotations

import math
from typing import Sequence


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (Cornish-Fisher expansion; exact enough for df >= 3)."""
    z = _normal_quantile(p)
    if df <= 0:
        return z
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


def _normal_quantile(p: float) -> float:
    """Inverse of the standard normal CDF (by bisection on math.erf; plenty fast here)."""
    lo, hi = -10.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float, float]:
    """(mean, low, high, standard deviation) of ``values`` with a t interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, -math.inf, math.inf, 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half, sd


def wilson(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    z = _normal_quantile(0.5 + level / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


