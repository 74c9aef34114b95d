"""What a duplicate match reports: :class:`DuplicateResult` (points, contracts, games) and its
strict JSON (an interval that one deal cannot give is null, never Infinity)."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from fh_env import actions as A
from fh_env.engine import NO_CONTRACT

from .seating import seatings

KINDS = ("suit", "notrump", "nullo", "open nullo", "double nullo")


def contract_kind(contract: int) -> str:
    """``suit``, ``notrump``, ``nullo``, ``open nullo``, ``double nullo`` or ``no contract``."""
    if contract == NO_CONTRACT:
        return "no contract"
    if contract in A.NULLO_TYPES:
        return A.action_to_str(contract)
    return "notrump" if A.bid_strain(contract) == A.NT else "suit"


def json_ready(value: Any) -> Any:
    """``value`` with every non-finite float (an interval from one deal: -inf, inf; NaN)
    replaced by None, and dataclasses as dictionaries, so that it is strict JSON."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if hasattr(value, "to_dict"):
        return json_ready(value.to_dict())
    return value


def dumps_json(value: Any, indent: int | None = 2) -> str:
    """Strict JSON of ``value`` (:func:`json_ready`: non-finite numbers become null)."""
    return json.dumps(json_ready(value), indent=indent, allow_nan=False)


@dataclass
class GamesResult:
    games: int  # games played (each game once per seating: twice, or three times)
    wins: float  # A's wins, a draw counting an equal share (1/2, or 1/3 with three players)
    draws: int
    unfinished: int  # games stopped at the hand limit (counted as draws)
    win_rate: float
    ci_low: float
    ci_high: float
    mean_hands: float


@dataclass
class DuplicateResult:
    """What :func:`duplicate` measured.  Points are per deal (the mean of its plays: two, or
    three with three players, where B's points are the mean of its two seats')."""

    a: str
    b: str
    rules: str
    seed: int
    deals: int
    mean: float  # A's hand points minus B's, per deal
    ci_low: float
    ci_high: float
    sd: float
    a_points: float  # A's own hand points per deal
    b_points: float
    thrown_in: int  # hands (of plays x deals) thrown in
    #: team ("A"/"B") -> contract kind -> [declared, made]
    contracts: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    avg_level: dict[str, float] = field(default_factory=dict)  # team -> mean ordinary level
    games: GamesResult | None = None
    seconds: float = 0.0
    players: int = 4  # the table size: 3 and 6 change the seatings (see the module doc)

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data (intervals from a single deal are infinite floats here;
        :func:`json_ready` turns them into None for JSON)."""
        return asdict(self)

    def to_json(self, indent: int | None = 2) -> str:
        """Strict JSON (no Infinity or NaN: a non-finite number is written as null)."""
        return dumps_json(self.to_dict(), indent=indent)

    def format(self) -> str:
        plays = len(seatings(self.players))
        head = f"{self.a} (A) vs {self.b} (B), rules {self.rules}, {self.deals} duplicate deals "
        if self.players == 3:
            head += f"({plays * self.deals} hands: A on each seat against two B), "
        else:
            head += f"({plays * self.deals} hands), "
        lines = [head + f"seed {self.seed}",
                 f"A - B points per deal: {self.mean:+.1f}  95% CI [{self.ci_low:+.1f}, "
                 f"{self.ci_high:+.1f}]  (sd {self.sd:.1f}; A {self.a_points:+.1f}, "
                 f"B {self.b_points:+.1f}; hands thrown in {self.thrown_in})",
                 f"{'contracts':<14}{'A bid':>7}{'made':>6}{'rate':>7}{'B bid':>9}{'made':>6}"
                 f"{'rate':>7}"]
        for kind in KINDS:
            row = f"{kind:<14}"
            for team in ("A", "B"):
                bid, made = self.contracts.get(team, {}).get(kind, [0, 0])
                rate = f"{made / bid:.0%}" if bid else "-"
                width = 7 if team == "A" else 9
                row += f"{bid:>{width}}{made:>6}{rate:>7}"
            lines.append(row)
        lines.append(f"{'average level':<14}{self.avg_level.get('A', 0):>20.2f}"
                     f"{self.avg_level.get('B', 0):>22.2f}")
        if self.games is not None:
            g = self.games
            even = " (even: 33.3%)" if self.players == 3 else ""
            lines.append(f"games: A wins {g.win_rate:.1%}  95% CI [{g.ci_low:.1%}, "
                         f"{g.ci_high:.1%}]{even} of {g.games} games ({g.draws} drawn, "
                         f"{g.unfinished} unfinished, {g.mean_hands:.1f} hands a game)")
        lines.append(f"({self.seconds:.1f} s)")
        return "\n".join(lines)


