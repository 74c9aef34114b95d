"""The training configuration: one flat dataclass, read from TOML and overridden from the CLI.

Every field has a docstring (shown by ``fh-train --help``).  A run writes its full
configuration (``config.toml`` and ``config.json``) and its rules (``rules.toml``) into the run
directory, so a run can always be reproduced or resumed from what it wrote.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import math
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable

from fh_env import Rules
from fh_env.rules import read_toml


@dataclass
class TrainConfig:
    """Hyperparameters of a PPO self-play run (CleanRL style: one docstring per field)."""

    # ------------------------------------------------------------------ experiment
    seed: int = 1
    """Seed of every random generator of the run (deals, sampling, league draws, bots)."""
    rules: str = "australian-no-nullo"
    """Rule set: a preset name of docs/rules.md §8 or the path of a rules TOML file."""
    total_steps: int = 2_000_000
    """Stop once the learner has made this many decisions (the x axis of every chart); 0: no
    PPO at all, the run is its warm start (bc_hands) and the final evaluation."""
    device: str = "cpu"
    """Torch device for the network: cpu, or cuda when asked."""
    torch_threads: int = 1
    """torch.set_num_threads: 1 is fastest for these small networks on a busy machine."""
    workers: int = 1
    """Rollout workers.  1 (with no ray_address): games are played in the learner's own process,
    as always.  N > 1: N worker processes on Ray (the `ray` extra) each play their share of
    num_envs with a CPU copy of the policy and send complete rollouts to the learner, which
    sends back the new weights after every update (synchronous: on-policy, see train.workers).
    The same num_envs, so the same batch per update, whatever the number of workers."""
    ray_address: str = ""
    """The Ray cluster the workers run on (host:port, or auto); empty: start Ray on this machine
    (with workers = 1 and no address, no Ray at all)."""

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
    agents.neural.PolicyNet): card play is learnt once for every trump suit.  Four players
    only (it relabels the 4-player observation layout); refused with other table sizes."""
    features: bool = False
    """Let the network also read the card-play inputs it derives from the observation
    (agents.features: cards gone and still out, masters, who is winning the trick), at any
    table size.  Search distillation gained with them where a plain fit had stopped
    (docs/training.md); an init_policy must match (``train.distill fit --features`` makes one)."""
    central_critic: bool = False
    """Give the value function its own network fed the whole state (fh_env.observe.encode_state)
    from the acting seat's side: a centralised critic used only in training; the policy sees
    only its seat."""

    # ------------------------------------------------------------------ warm start
    init_policy: str = ""
    """A trained agent whose policy weights start the run instead of random ones: a
    checkpoint file, a run directory or a shipped name (as ``neural:NAME``), with this run's
    network (hidden_sizes, trump_first) and table size; its rules may differ, which is how a
    preset's agent is fine-tuned from the default rules' one.  Empty: random weights.  Read
    once, when the run starts (a resumed run has its own weights)."""
    bc_hands: int = 0
    """Hands of the teacher bot (on every seat) to imitate before PPO starts (0: none).
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

    # ------------------------------------------------------------------ checks
    def __post_init__(self) -> None:
        """Check (and normalise) every field: its type, its range, rules that resolve and
        bot specs that name registered bots with valid options.  One ValueError names every
        bad field, its value and what is accepted; the Python API and ``fh-train`` share it."""
        problems = []
        for f in fields(self):
            value = getattr(self, f.name)
            try:
                object.__setattr__(self, f.name, _check_field(f.name, value))
            except ValueError as err:
                problems.append(str(err))
        if not problems:
            shares = {"league_self": self.league_self, "league_past": self.league_past,
                      "league_rule": self.league_rule, "league_mc": self.league_mc,
                      "league_random": self.league_random}
            if sum(shares.values()) <= 0:
                problems.append("config league shares (league_self, league_past, league_rule, "
                                "league_mc, league_random) are all 0; at least one must be "
                                "positive")
            if self.trump_first and (players := self.make_rules().players) != 4:
                problems.append(f"config trump_first=true is invalid with rules={self.rules!r} "
                                f"({players} players): it relabels the 4-player observation "
                                "layout only; set trump_first = false")
            for key, used in (("bc_teacher", self.bc_hands > 0),
                              ("bid_teacher", self.bid_teacher_share > 0),
                              ("play_teacher", self.play_teacher_coef > 0)):
                if used and (problem := self._teacher_problem(key)):
                    problems.append(problem)
            if self.workers > self.num_envs:
                problems.append(f"config workers={self.workers} is invalid: expected at most "
                                f"num_envs={self.num_envs} (the workers share num_envs games)")
        if problems:
            raise ValueError("; ".join(problems))

    def _teacher_problem(self, key: str) -> str | None:
        """Why the trained teacher in field ``key`` (``neural:``, ``nmc:``) cannot play this
        run's rules, checked before anything is written (its checkpoint is read), or None."""
        from agents.registry import bot_kind, make_bot

        spec = getattr(self, key)
        if bot_kind(spec) not in ("neural", "nmc"):
            return None
        try:
            make_bot(spec, self.make_rules())
        except ValueError as err:
            return f"config {key}={spec!r} is invalid with rules={self.rules!r}: {err}"
        return None

    # ------------------------------------------------------------------ derived
    def make_rules(self) -> Rules:
        """The Rules of this run (a preset name or a TOML file path)."""
        from fh_env.rules import load_rules

        return load_rules(self.rules)

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
        """Check every field again (they may have been assigned since construction) and that
        the device exists on this machine; returns self."""
        self.__post_init__()
        if self.device.startswith("cuda"):
            import torch

            if not torch.cuda.is_available():
                raise ValueError(f"config device={self.device!r}: CUDA is not available on this "
                                 "machine; use device=cpu")
        return self

    def check_ray(self) -> "TrainConfig":
        """Refuse Ray workers (``workers > 1`` or a ``ray_address``) when Ray is not installed
        (fh-train checks this before it writes anything); returns self."""
        if self.uses_ray:
            try:
                import ray  # noqa: F401
            except ImportError:
                what = (f"workers={self.workers}" if self.workers > 1
                        else f"ray_address={self.ray_address!r}")
                raise ValueError(f"config {what} needs Ray, which is not installed: "
                                 "pip install 'fivehundred-rl[ray]' (or workers=1)") from None
        return self

    @property
    def uses_ray(self) -> bool:
        """Whether rollouts are collected by Ray workers (train.workers)."""
        return self.workers > 1 or bool(self.ray_address)

    # ------------------------------------------------------------------ I/O
    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TrainConfig":
        if not isinstance(data, dict):
            raise ValueError(f"a config must be a table of fields, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown config key(s): {', '.join(sorted(unknown))}; "
                             f"known keys: {', '.join(sorted(known))}")
        return cls(**data)

    @classmethod
    def from_toml(cls, path: str | Path) -> "TrainConfig":
        path = Path(path)
        try:
            data = read_toml(path, "config file")
        except UnicodeDecodeError:
            raise ValueError(f"config file {path} is not a text (TOML) file") from None
        except IsADirectoryError:
            raise ValueError(f"config file {path} is a directory, not a TOML file") from None
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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


#: field -> (what is accepted, in words; check of a value already of the right type)
_INT_AT_LEAST_1 = ("an integer at least 1", lambda v: v >= 1)
_INT_AT_LEAST_0 = ("an integer at least 0", lambda v: v >= 0)
_POSITIVE = ("a number greater than 0", lambda v: v > 0)
_NOT_NEGATIVE = ("a number at least 0", lambda v: v >= 0)
_UNIT = ("a number from 0 to 1", lambda v: 0 <= v <= 1)
_RANGES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "seed": _INT_AT_LEAST_0, "total_steps": _INT_AT_LEAST_0, "torch_threads": _INT_AT_LEAST_1,
    "workers": _INT_AT_LEAST_1,
    "num_envs": _INT_AT_LEAST_1, "rollout_steps": _INT_AT_LEAST_1, "reward_scale": _POSITIVE,
    "learning_rate": _POSITIVE, "gamma": _UNIT, "gae_lambda": _UNIT,
    "num_minibatches": _INT_AT_LEAST_1, "update_epochs": _INT_AT_LEAST_1,
    "clip_coef": _POSITIVE, "ent_coef": _NOT_NEGATIVE, "vf_coef": _NOT_NEGATIVE,
    "max_grad_norm": _POSITIVE, "target_kl": _NOT_NEGATIVE,
    "bc_hands": _INT_AT_LEAST_0, "bc_chunk_hands": _INT_AT_LEAST_1, "bc_epochs": _INT_AT_LEAST_1,
    "bc_learning_rate": _POSITIVE, "bid_teacher_share": _UNIT,
    "play_teacher_coef": _NOT_NEGATIVE, "league_self": _NOT_NEGATIVE,
    "league_past": _NOT_NEGATIVE, "league_rule": _NOT_NEGATIVE, "league_mc": _NOT_NEGATIVE,
    "league_random": _NOT_NEGATIVE, "snapshot_every": _INT_AT_LEAST_1,
    "league_size": _INT_AT_LEAST_1, "checkpoint_every": _INT_AT_LEAST_1,
    "eval_every": _INT_AT_LEAST_0, "eval_deals": _INT_AT_LEAST_1,
    "final_eval_deals": _INT_AT_LEAST_1,
}
_BOT_SPECS = ("bc_teacher", "bid_teacher", "play_teacher", "mc_bot")
_BOT_SPEC_LISTS = ("eval_opponents", "final_eval_opponents")
_DEVICE = re.compile(r"cpu|cuda(:\d+)?|mps")
_DEFAULTS: dict[str, Any] = {}


def _default(name: str) -> Any:
    if not _DEFAULTS:
        for f in fields(TrainConfig):
            _DEFAULTS[f.name] = (f.default if f.default is not dataclasses.MISSING
                                 else f.default_factory())  # type: ignore[misc]
    return _DEFAULTS[name]


def _check_field(name: str, value: Any) -> Any:
    """The value of field ``name`` (ints may stand for floats, a whole float for an int, one
    string for a list of strings), or ValueError naming the field, the value and what is
    accepted."""
    default = _default(name)

    def bad(expected: str) -> ValueError:
        return ValueError(f"config {name}={value!r} is invalid: expected {expected}")

    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        expected, ok = _RANGES.get(name, ("an integer", lambda v: True))
        if not _is_int(value) or not ok(value):
            raise bad(expected)
        return value
    if isinstance(default, float):
        expected, ok = _RANGES.get(name, ("a number", lambda v: True))
        if not _is_number(value) or not ok(value):
            raise bad(expected)
        return float(value)
    if name == "hidden_sizes":
        if not isinstance(value, (list, tuple)) or not value or not all(
                _is_int(v) and v >= 1 for v in value):
            raise bad("a non-empty list of layer widths, integers at least 1")
        return [int(v) for v in value]
    if name in _BOT_SPEC_LISTS:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise bad("a list of bot specs (strings)")
        for spec in value:
            _check_spec(name, value, spec)
        return list(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise bad("a string")
        if name in _BOT_SPECS:
            _check_spec(name, value, value)
        elif name == "rules":
            from fh_env.rules import load_rules

            try:
                load_rules(value)
            except ValueError as err:  # its message may name rules= itself: say it once
                text, said = str(err), f"rules={value!r} "
                raise ValueError(f"config rules={value!r} " + (text[len(said):] if text.startswith(
                    said) else f"is invalid: {text}")) from None
        elif name == "init_policy" and value:
            from agents.neural import resolve_checkpoint

            try:
                resolve_checkpoint(value)
            except ValueError as err:
                raise ValueError(f"config init_policy={value!r} is invalid: {err}") from None
        elif name == "device" and not _DEVICE.fullmatch(value):
            raise bad("cpu, cuda, cuda:N or mps")
        return value
    raise AssertionError(f"no check for config field {name}")


def _check_spec(name: str, value: Any, spec: str) -> None:
    from agents.registry import check_spec

    try:
        check_spec(spec)
    except ValueError as err:  # CheckpointError is a ValueError
        where = "" if value == spec else f" (bot spec {spec!r})"
        raise ValueError(f"config {name}={value!r} is invalid{where}: {err}") from None


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
