"""Two bots compared through a common opponent: ``fh-eval A B --through X``.

A plays X and B plays X on the same duplicate deals; the result is each match and, deal by
deal, A's value minus B's, with its 95% interval.  Why: where A and B differ in one part of
the game that X exercises and they do not (the open nullos X bids, say), their head-to-head
match seldom reaches that part, and each match against X alone has a wide interval; but the
two matches' values on the same deal move together (the same cards), so their difference has
a far narrower one.  Session 25's six-handed agent against ``mcfast:samples=20`` scored +3.0
[-5.3, +11.4] and its start -8.3 [-16.7, +0.1]; through ``mcfast`` the pair was +11.3 [+4.8,
+17.9] (docs/bots.md, "Duplicate evaluation: `fh-eval`").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.base import Bot

from .duplicate import duplicate_values
from .results import DuplicateResult, dumps_json
from .stats import mean_ci


@dataclass
class ThroughResult:
    """A against X and B against X on the same deals, and A − B deal by deal."""

    a_vs_x: DuplicateResult
    b_vs_x: DuplicateResult
    mean: float  # per deal: (A's points minus X's) minus (B's points minus X's)
    ci_low: float
    ci_high: float
    sd: float

    def to_dict(self) -> dict[str, Any]:
        return {"a_vs_x": self.a_vs_x.to_dict(), "b_vs_x": self.b_vs_x.to_dict(),
                "mean": self.mean, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "sd": self.sd}

    def to_json(self, indent: int | None = 2) -> str:
        """Strict JSON (a non-finite interval, from a single deal, is written as null)."""
        return dumps_json(self.to_dict(), indent=indent)

    def format(self) -> str:
        a, b = self.a_vs_x, self.b_vs_x
        return "\n".join([
            a.format(), "", b.format(), "",
            f"{a.a} (A) - {b.a} (B) through {a.b}, the same {a.deals} deals: "
            f"{self.mean:+.1f} points per deal  95% CI [{self.ci_low:+.1f}, "
            f"{self.ci_high:+.1f}]  (sd {self.sd:.1f}; A {a.mean:+.1f}, B {b.mean:+.1f} "
            "against it)"])


def through(a: Bot | str, b: Bot | str, x: Bot | str, rules: Any = None, deals: int = 200,
            seed: int = 0, workers: int = 1, progress: bool = False,
            rules_name: str | None = None) -> ThroughResult:
    """Play A against X and B against X on the same ``deals`` duplicate deals (``seed``), and
    pair them deal by deal (arguments as :func:`arena.duplicate.duplicate`)."""
    common = dict(rules=rules, deals=deals, seed=seed, workers=workers, progress=progress,
                  rules_name=rules_name)
    a_vs_x, a_values = duplicate_values(a, x, **common)
    b_vs_x, b_values = duplicate_values(b, x, **common)
    mean, low, high, sd = mean_ci([u - v for u, v in zip(a_values, b_values)])
    return ThroughResult(a_vs_x, b_vs_x, mean, low, high, sd)
