"""The neural agent: the policy network trained by :mod:`train`, behind the Bot protocol.

The network lives here (not in ``train``) so that data flows engine -> env -> agents -> train:
training imports this module, never the other way round.  A bot encodes its
:class:`fh_env.SeatView` with :func:`fh_env.observe.encode`, masks illegal actions and plays the
most likely action (``greedy=True``, the default) or samples one with the game's ``rng``.

Checkpoints are plain ``torch.save`` dictionaries of tensors, lists, ints, floats and strings,
read with ``torch.load(..., weights_only=True)``.  The keys a bot needs::

    format         "fivehundred-rl/checkpoint"
    obs_version    fh_env.observe.OBS_VERSION when it was written
    obs_size       fh_env.observe.OBS_SIZE
    num_actions    130
    rules          Rules.to_dict() of the rule set it was trained under
    policy         {"hidden_sizes": [...], "state_dict": {...}, "trump_first": bool}

Training checkpoints hold more (critic, optimiser, league, random generators; see
:mod:`train.checkpoint`).  ``make_bot("neural:NAME")`` resolves NAME as a file, a run directory
(its ``checkpoint.pt``) or a shipped checkpoint ``agents/checkpoints/NAME.pt``.
"""

from __future__ import annotations

import math
import pickle
import random
import zipfile
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import torch
from torch import nn

from fh_env import NUM_ACTIONS, Rules, SeatView
from fh_env import observe

FORMAT = "fivehundred-rl/checkpoint"
CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"
#: Logit given to illegal actions: exp() of it is exactly 0 in float32, and it stays finite.
ILLEGAL_LOGIT = -1e9


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: missing, corrupt, or from other rules/observations."""


# ---------------------------------------------------------------------- the network
class PolicyNet(nn.Module):
    """An MLP trunk with a policy head (130 logits) and a value head, on one seat's observation.

    One network is shared by all four seats: observations are seat-relative, so the same
    weights play every position.  With ``trump_first`` the network relabels suits so that the
    trump comes first before it reads an observation, and maps its card logits back
    (:func:`fh_env.observe.trump_first_indices`): it learns card play once for all trump suits.
    """

    def __init__(self, obs_size: int, hidden_sizes: Sequence[int],
                 generator: torch.Generator | None = None, trump_first: bool = False) -> None:
        super().__init__()
        self.obs_size = int(obs_size)
        self.hidden_sizes = [int(h) for h in hidden_sizes]
        self.trump_first = bool(trump_first)
        if self.trump_first:
            obs_index, action_index = observe.trump_first_indices()
            # Not saved in state_dict: they follow from the observation layout.
            self.register_buffer("obs_index", torch.from_numpy(obs_index.copy()), False)
            self.register_buffer("action_index", torch.from_numpy(action_index.copy()), False)
        layers: list[nn.Module] = []
        width = self.obs_size
        for h in self.hidden_sizes:
            layers += [init_layer(width, h, math.sqrt(2), generator), nn.ReLU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.policy_head = init_layer(width, NUM_ACTIONS, 0.01, generator)
        self.value_head = init_layer(width, 1, 1.0, generator)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Raw logits [B, 130] (unmasked) and values [B]."""
        row = None
        if self.trump_first:
            trump = obs[:, observe.TRUMP_SLICE]
            row = torch.where(trump.sum(1) > 0, trump.argmax(1), 4)
            obs = obs.gather(1, self.obs_index[row])
        x = self.trunk(obs)
        logits = self.policy_head(x)
        if row is not None:
            logits = logits.gather(1, self.action_index[row])
        return logits, self.value_head(x).squeeze(-1)


def init_layer(n_in: int, n_out: int, gain: float,
               generator: torch.Generator | None) -> nn.Linear:
    """A linear layer with orthogonal weights and zero bias (the usual PPO initialisation)."""
    layer = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(layer.weight, gain, generator=generator)
    nn.init.zeros_(layer.bias)
    return layer


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with every illegal action (mask 0) replaced by a large negative constant.

    The replacement is a constant, so illegal logits carry no gradient and cannot change a loss.
    """
    return logits.masked_fill(mask == 0, ILLEGAL_LOGIT)


# ---------------------------------------------------------------------- checkpoints
def resolve_checkpoint(name: str | Path) -> Path:
    """A checkpoint file from a path, a run directory, or a shipped name."""
    path = Path(name)
    if path.is_dir():
        path = path / "checkpoint.pt"
    if path.is_file():
        return path
    shipped = CHECKPOINT_DIR / f"{name}.pt"
    if shipped.is_file():
        return shipped
    known = sorted(p.stem for p in CHECKPOINT_DIR.glob("*.pt")) if CHECKPOINT_DIR.is_dir() else []
    raise CheckpointError(f"no checkpoint {str(name)!r}: not a file, not a run directory with a "
                          f"checkpoint.pt, and not a shipped name (shipped: "
                          f"{', '.join(known) or 'none'})")


def read_checkpoint(path: str | Path) -> dict[str, Any]:
    """Load a checkpoint file safely (``weights_only=True``) and check its observation format.

    Raises :class:`CheckpointError` with the reason for a missing, corrupt or incompatible file.
    """
    path = Path(path)
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise CheckpointError(f"checkpoint {path} does not exist") from None
    except (pickle.UnpicklingError, RuntimeError, EOFError, zipfile.BadZipFile, ValueError,
            KeyError, AttributeError, TypeError) as err:
        raise CheckpointError(f"checkpoint {path} is corrupt or not a checkpoint: "
                              f"{type(err).__name__}: {str(err)[:200]}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {path} is not a {FORMAT} file")
    for key in ("obs_version", "obs_size", "num_actions", "rules", "policy"):
        if key not in data:
            raise CheckpointError(f"checkpoint {path} is incomplete: no {key!r}")
    if data["num_actions"] != NUM_ACTIONS:
        raise CheckpointError(f"checkpoint {path} has {data['num_actions']} actions, this "
                              f"version has {NUM_ACTIONS}")
    if (data["obs_version"], data["obs_size"]) != (observe.OBS_VERSION, observe.OBS_SIZE):
        raise CheckpointError(
            f"checkpoint {path} was written for observation version {data['obs_version']} "
            f"(size {data['obs_size']}), but fh_env.observe is now version "
            f"{observe.OBS_VERSION} (size {observe.OBS_SIZE}); retrain or use a matching version")
    return data


def check_rules(data: dict[str, Any], rules: Rules, path: str | Path) -> None:
    """Refuse a checkpoint trained under another rule set, naming the options that differ."""
    theirs = data["rules"]
    ours = rules.to_dict()
    if theirs != ours:
        diff = [f"{k}={theirs.get(k)!r} (checkpoint) vs {ours.get(k)!r}"
                for k in sorted(set(theirs) | set(ours)) if theirs.get(k) != ours.get(k)]
        raise CheckpointError(f"checkpoint {path} was trained under other rules: "
                              + "; ".join(diff))


def policy_from_checkpoint(data: dict[str, Any], path: str | Path = "?") -> PolicyNet:
    """Rebuild the policy network stored in a checkpoint dictionary."""
    try:
        policy = data["policy"]
        net = PolicyNet(data["obs_size"], policy["hidden_sizes"],
                        trump_first=bool(policy.get("trump_first", False)))
        net.load_state_dict(policy["state_dict"])
    except (KeyError, TypeError, RuntimeError) as err:
        raise CheckpointError(f"checkpoint {path}: the policy cannot be loaded: "
                              f"{type(err).__name__}: {str(err)[:200]}") from None
    return net.eval()


# ---------------------------------------------------------------------- the bot
class NeuralBot:
    """A bot playing a trained policy network.

    ``greedy``: play the most likely legal action; otherwise sample with the given ``rng``.
    ``strict_rules``: refuse to play under rules other than those it was trained under.
    """

    def __init__(self, net: PolicyNet, rules: Rules | None = None, greedy: bool = True,
                 name: str = "neural", strict_rules: bool = True) -> None:
        self.net = net.eval()
        self.rules = rules
        self.greedy = greedy
        self.name = name
        self.strict_rules = strict_rules
        self._obs = np.zeros(observe.OBS_SIZE, dtype=np.float32)

    @classmethod
    def load(cls, name: str | Path, greedy: bool = True, strict_rules: bool = True) -> "NeuralBot":
        """A bot from a checkpoint path, run directory, or shipped checkpoint name."""
        path = resolve_checkpoint(name)
        data = read_checkpoint(path)
        rules = Rules.from_dict(data["rules"])
        return cls(policy_from_checkpoint(data, path), rules, greedy,
                   name=f"neural:{name}", strict_rules=strict_rules)

    def act(self, view: SeatView, rng: random.Random) -> int:
        if self.strict_rules and self.rules is not None and view.rules != self.rules:
            raise CheckpointError(f"{self.name} was trained under other rules than this game's; "
                                  "load it with strict_rules=False to play anyway")
        observe.encode(view, out=self._obs)
        mask = observe.action_mask(view)
        with torch.no_grad():
            logits, _ = self.net(torch.from_numpy(self._obs).unsqueeze(0))
            logits = masked_logits(logits[0], torch.from_numpy(mask))
        if self.greedy:
            return int(torch.argmax(logits))
        probs = torch.softmax(logits.double(), 0).numpy()
        # Inverse-CDF sampling with the game's rng keeps the bot reproducible from its seed.
        u = rng.random()
        cdf = np.cumsum(probs)
        action = int(np.searchsorted(cdf, u * cdf[-1], side="right"))
        if action < NUM_ACTIONS and mask[action]:
            return action
        return int(np.flatnonzero(mask)[-1])  # u * total rounded up to the total


def make_neural_bot(arg: str | None = None) -> NeuralBot:
    """Registry factory: ``neural:PATH_OR_NAME`` (``neural:PATH:sample`` samples instead)."""
    if not arg:
        raise CheckpointError("the neural bot needs a checkpoint: neural:PATH, neural:RUN_DIR "
                              "or neural:NAME (a file in agents/checkpoints/)")
    greedy = True
    if arg.endswith(":sample"):
        arg, greedy = arg[: -len(":sample")], False
    elif arg.endswith(":greedy"):
        arg = arg[: -len(":greedy")]
    return NeuralBot.load(arg, greedy=greedy)
