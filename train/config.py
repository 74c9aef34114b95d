"""The training configuration: one flat dataclass, read from TOML and overridden from the CLI.

Every field has a docstring (shown by ``fh-train --help``).  A run writes its full
configuration (``config.toml`` and ``config.json``) and its rules (``rules.toml``) into the run
directory, so a run can always be reproduced or resumed from what it wrote.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from fh_env import Rules
from fh_env.rules import read_toml, resolve_rules


@dataclass
class TrainConfig:
    """Hyperparameters of a PPO self-play run (CleanRL style: one docstring per field)."""

    # ------------------------------------------------------------------ experiment
    seed: int = 1
    """Seed of every random generator of the run (deals, sampling, league draws, bots)."""
    rules: str = "australian-no-nullo"
    """Rule set: a preset name of docs/rules.md §8 or the path of a rules TOML file."""
    total_steps: int = 2_000_000
    """Stop once the learner has made this many decisions (the x axis of every chart)."""
    device: str = "cpu"
    """Torch device for the network: cpu, or cuda when asked."""
    torch_threads: int = 1
    """torch.set_num_threads: 1 is fastest for these small networks on a busy machine."""

    # ------------------------------------------------------------------ rollouts
    num_envs: int = 64
    """Games played side by side (rows of fh_env.envs.vector.VectorEnv)."""
    rollout_steps: int = 32
    """Learner decisions each game contributes to a rollout before it finishes its current hand;
    every rollout holds only complete hands, so no value is ever bootstrapped."""
    reward_scale: float = 0.01
    """Multiplies the hand reward (the team's hand points minus the other team's)."""

    # ------------------------------------------------------------------ PPO
    learning_rate: float = 3e-4
    """Adam learning rate."""
    anneal_lr: bool = True
    """Decay the learning rate linearly to zero over total_steps."""
    gamma: float = 1.0
    """Discount per decision of a seat; 1 because a hand is short and scored only at its end."""
    gae_lambda: float = 0.95
    """GAE lambda, applied along each seat's own sequence of decisions."""
    num_minibatches: int = 4
    """Minibatches per epoch (the rollout size varies a little, the count does not)."""
    update_epochs: int = 4
    """Passes over each rollout."""
    norm_adv: bool = True
    """Normalise advantages within each minibatch."""
    clip_coef: float = 0.2
    """PPO surrogate clipping."""
    clip_vloss: bool = True
    """Clip the value loss as in the PPO paper's implementation."""
    ent_coef: float = 0.01
    """Entropy bonus (entropy over legal actions only)."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Global gradient-norm clip."""
    target_kl: float = 0.0
    """Stop an update's epochs early once the approximate KL exceeds this (0: never)."""

    # ------------------------------------------------------------------ network
    hidden_sizes: list[int] = field(default_factory=lambda: [256, 256])
    """Widths of the shared MLP trunk of the policy and value heads."""
    trump_first: bool = False
    """Relabel suits so the trump comes first before the network reads an observation (see
    agents.neural.PolicyNet): card play is learnt once for every trump suit."""
    central_critic: bool = False
    """Give the value function its own network fed the whole state (fh_env.observe.encode_state)
    from the acting seat's side: a centralised critic used only in training; the policy sees
    only its seat."""

    # ------------------------------------------------------------------ warm start
    bc_hands: int = 0
    """Hands of the teacher bot (on all four seats) to imitate before PPO starts (0: none).
    Without it PPO tends to learn to pass every hand (see train.imitation)."""
    bc_teacher: str = "rule"
    """Bot spec (agents.registry) imitated by the warm start."""
    bc_chunk_hands: int = 256
    """Teacher hands recorded, trained on and dropped at a time."""
    bc_epochs: int = 2
    """Passes over each chunk of teacher hands."""
    bc_learning_rate: float = 1e-3
    """Adam learning rate of the warm start (PPO then uses learning_rate)."""

    bid_teacher_share: float = 0.0
    """Share of training games in which the learner's auction calls are made by bid_teacher
    (those calls are not trained on; the rest of the hand is): practice as declarer while the
    learner's own bidding is still poor."""
    bid_teacher: str = "rule"
    """Bot spec (agents.registry) that bids for the learner in bid_teacher_share of the games."""
    play_teacher_coef: float = 0.0
    """Weight of a cross-entropy term pulling the learner's card play and discards toward what
    play_teacher would do in the same position (kickstarting; 0: off).  Auction calls are never
    pulled: PPO alone learns to bid.  Why: PPO learns bidding well but its card play stays
    below the imitated teacher's.  (Measured: it did not close that gap; trump_first did.)"""
    play_teacher: str = "rule"
    """Bot spec (agents.registry) whose card play and discards play_teacher_coef pulls toward."""

    # ------------------------------------------------------------------ league
    league_self: float = 0.5
    """Share of games whose opponent team is the current network."""
    league_past: float = 0.2
    """Share of games against a frozen past snapshot (drawn uniformly from the league)."""
    league_rule: float = 0.2
    """Share of games against the `rule` bot."""
    league_mc: float = 0.05
    """Share of games against the Monte Carlo bot (slow; see mc_bot)."""
    league_random: float = 0.05
    """Share of games against the `random` bot."""
    mc_bot: str = "mc:samples=4"
    """Bot spec (agents.registry) used for mc games in training."""
    snapshot_every: int = 10
    """Add a frozen copy of the current network to the league every this many updates."""
    league_size: int = 5
    """Keep at most this many past snapshots (the oldest is dropped)."""

    # ------------------------------------------------------------------ logging, evaluation
    checkpoint_every: int = 20
    """Write a checkpoint every this many updates (and always at the end)."""
    eval_every: int = 50
    """Run a duplicate evaluation every this many updates (0: only at the end)."""
    eval_deals: int = 100
    """Deals of each periodic duplicate evaluation (each played twice, seats swapped)."""
    eval_opponents: list[str] = field(
        default_factory=lambda: ["random", "rule", "mc:samples=4"])
    """Bot specs the periodic evaluations play against."""
    final_eval_deals: int = 300
    """Deals of the final evaluation table printed at the end of the run."""
    final_eval_opponents: list[str] = field(
        default_factory=lambda: ["random", "rule", "mc:samples=4"])
    """Bot specs of the final evaluation table (mc at a low level to keep it quick)."""
    keep_eval_agents: bool = False
    """Also write the policy of every periodic evaluation to evals/agent-<step>.pt in the run
    directory, so the best one can be picked afterwards (on other deals than the periodic
    evaluations used, or the pick is biased)."""

    # ------------------------------------------------------------------ derived
    def make_rules(self) -> Rules:
        """The Rules of this run (a preset name or a TOML file path)."""
        return resolve_rules(self.rules)

    def league_shares(self) -> dict[str, float]:
        """Opponent kinds and their probabilities (normalised; zero shares left out)."""
        shares = {"self": self.league_self, "past": self.league_past, "rule": self.league_rule,
                  "mc": self.league_mc, "random": self.league_random}
        if any(v < 0 for v in shares.values()):
            raise ValueError(f"league shares must not be negative: {shares}")
        total = sum(shares.values())
        if total <= 0:
            raise ValueError("at least one league share must be positive")
        return {k: v / total for k, v in shares.items() if v > 0}

    def validate(self) -> "TrainConfig":
        for name in ("total_steps", "num_envs", "rollout_steps", "num_minibatches",
                     "update_epochs", "snapshot_every", "league_size", "checkpoint_every",
                     "torch_threads", "bc_chunk_hands", "bc_epochs"):
            if getattr(self, name) < 1:
                raise ValueError(f"config {name}={getattr(self, name)} must be at least 1")
        if self.play_teacher_coef < 0:
            raise ValueError(f"config play_teacher_coef={self.play_teacher_coef} must be >= 0")
        if not 0.0 <= self.bid_teacher_share <= 1.0:
            raise ValueError(
                f"config bid_teacher_share={self.bid_teacher_share} must be in [0, 1]")
        if self.bc_hands < 0:
            raise ValueError(f"config bc_hands={self.bc_hands} must not be negative")
        if not self.hidden_sizes or min(self.hidden_sizes) < 1:
            raise ValueError(f"config hidden_sizes={self.hidden_sizes} needs positive widths")
        self.league_shares()
        self.make_rules()
        return self

    # ------------------------------------------------------------------ I/O
    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TrainConfig":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown config key(s): {', '.join(sorted(unknown))}; "
                             f"known keys: {', '.join(sorted(known))}")
        cfg = cls()
        for key, value in data.items():
            setattr(cfg, key, _coerce(key, value, getattr(cfg, key)))
        return cfg

    @classmethod
    def from_toml(cls, path: str | Path) -> "TrainConfig":
        path = Path(path)
        data = read_toml(path, "config file")
        try:
            return cls.from_dict(data)
        except ValueError as err:
            raise ValueError(f"config file {path}: {err}") from None

    def override(self, assignments: list[str]) -> "TrainConfig":
        """Apply ``key=value`` strings (value in TOML/Python literal syntax or a bare string)."""
        data = self.to_dict()
        for text in assignments:
            key, sep, raw = text.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or key not in data:
                raise ValueError(f"bad override {text!r}: expected key=value with a key among "
                                 f"{', '.join(sorted(data))}")
            data[key] = _parse_value(raw.strip())
        return TrainConfig.from_dict(data)

    def to_toml(self) -> str:
        lines = [f"{k} = {_toml_value(v)}" for k, v in self.to_dict().items()]
        return "\n".join(lines) + "\n"

    def save(self, run_dir: Path) -> None:
        """Write config.toml, config.json and rules.toml into the run directory."""
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.toml").write_text(self.to_toml(), encoding="utf-8")
        (run_dir / "config.json").write_text(json.dumps(self.to_dict(), indent=2) + "\n",
                                             encoding="utf-8")
        (run_dir / "rules.toml").write_text(self.make_rules().to_toml(), encoding="utf-8")


def field_docs() -> dict[str, str]:
    """The docstring of every config field, read from this module's source."""
    import inspect

    tree = ast.parse(inspect.getsource(TrainConfig))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, nxt in zip(body, body[1:]):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)):
            docs[node.target.id] = " ".join(str(nxt.value.value).split())
    return docs


def _parse_value(raw: str) -> Any:
    for parse in (lambda s: tomllib.loads(f"v = {s}")["v"], ast.literal_eval):
        try:
            return parse(raw)
        except (tomllib.TOMLDecodeError, ValueError, SyntaxError):
            continue
    if "," in raw:
        return [part.strip() for part in raw.split(",") if part.strip()]
    return raw


def _coerce(key: str, value: Any, default: Any) -> Any:
    """Check a value against the type of the field's default (ints may stand for floats)."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
    elif isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif isinstance(default, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif isinstance(default, str):
        if isinstance(value, str):
            return value
    elif isinstance(default, list):
        if isinstance(value, str):
            value = [value]
        if isinstance(value, (list, tuple)):
            kinds = {type(v) for v in default} or {type(v) for v in value}
            if all(type(v) in kinds for v in value):
                return list(value)
    raise ValueError(f"config {key}={value!r} must be of the same type as {default!r}")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")
