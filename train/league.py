"""The league: who the learner's team plays in each training game.

Each game's opponent team is drawn with the configured shares from: the current network
(``self``), a frozen past snapshot of it (``past``, uniformly among the kept snapshots; the
current network until the first snapshot exists), or a bot of :mod:`agents.registry`
(``rule``, ``mc``, ``random``).  The learner's partner is always the learner itself: one
network plays both seats of its team.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.base import Bot
from agents.neural import PolicyNet

BOT_KINDS = ("rule", "mc", "random")


@dataclass(frozen=True)
class Opponent:
    """The opponent team of one game: a kind, and the snapshot index for ``past``."""

    kind: str
    snapshot: int = -1


class League:
    """Opponent shares, bots, and the frozen snapshots (kept as tensors for checkpoints)."""

    def __init__(self, shares: dict[str, float], max_snapshots: int,
                 bots: dict[str, Bot]) -> None:
        unknown = set(shares) - {"self", "past", *BOT_KINDS}
        if unknown:
            raise ValueError(f"unknown league kinds: {sorted(unknown)}")
        missing = [k for k in shares if k in BOT_KINDS and k not in bots]
        if missing:
            raise ValueError(f"league shares name bots that were not given: {missing}")
        self.kinds = list(shares)
        self.probs = np.array([shares[k] for k in self.kinds], dtype=np.float64)
        self.max_snapshots = max_snapshots
        self.bots = bots
        self.snapshots: list[PolicyNet] = []
        self.snapshot_updates: list[int] = []

    def add_snapshot(self, policy: PolicyNet, update: int) -> None:
        """Freeze a copy of the current policy; drop the oldest beyond ``max_snapshots``."""
        frozen = copy.deepcopy(policy).eval().requires_grad_(False)
        frozen.zero_grad(set_to_none=True)
        self.snapshots.append(frozen)
        self.snapshot_updates.append(update)
        if len(self.snapshots) > self.max_snapshots:
            del self.snapshots[0], self.snapshot_updates[0]

    def draw(self, rng: np.random.Generator) -> Opponent:
        """The opponent of a new game (always two draws from ``rng``, for reproducibility)."""
        kind = self.kinds[int(rng.choice(len(self.kinds), p=self.probs))]
        pick = int(rng.integers(1 << 30))
        if kind == "past":
            if not self.snapshots:
                return Opponent("self")
            return Opponent("past", pick % len(self.snapshots))
        return Opponent(kind)

    # ------------------------------------------------------------------ checkpoints
    def state_dict(self) -> dict[str, Any]:
        return {"snapshots": [net.state_dict() for net in self.snapshots],
                "updates": list(self.snapshot_updates)}

    def load_state_dict(self, data: dict[str, Any], template: PolicyNet) -> None:
        """Restore snapshots into copies of ``template`` (same architecture as the learner)."""
        nets = []
        for weights in data["snapshots"]:
            net = copy.deepcopy(template)
            net.load_state_dict(weights)
            nets.append(net.eval().requires_grad_(False))
        self.snapshots = nets
        self.snapshot_updates = [int(u) for u in data["updates"]]

