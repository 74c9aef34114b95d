"""The neural agent: the policy network trained by :mod:`train`, behind the Bot protocol.

The network lives here (not in ``train``) so that data flows engine -> env -> agents -> train:
training imports this module, never the other way round.  A bot encodes its
:class:`fh_env.SeatView` with :func:`fh_env.observe.encode`, masks illegal actions and plays the
most likely action (``greedy=True``, the default) or samples one with the game's ``rng``.

Checkpoints are plain ``torch.save`` dictionaries of tensors, lists, ints, floats and strings,
read with ``torch.load(..., weights_only=True)``.  The keys a bot needs::

    format         "fivehundred-rl/checkpoint"
    obs_version    fh_env.observe.OBS_VERSION when it was written
    obs_size       fh_env.observe.OBS_SIZE (4 players; else layout(players).size of its rules)
    num_actions    130 (4 and 3 players; 166 with six: action_table(players).num_actions)
    rules          Rules.to_dict() of the rule set it was trained under
    policy         {"hidden_sizes": [...], "state_dict": {...}, "trump_first": bool,
                    "features": bool (optional; true: it also reads agents.features's inputs),
                    "nullo_branch": bool (optional; true: nullo card play by PolicyNet.nullo)}

Training checkpoints hold more (critic, optimiser, league, random generators; see
:mod:`train.checkpoint`).  ``make_bot("neural:NAME")`` resolves NAME as a file, a run directory
(its ``checkpoint.pt``) or a shipped checkpoint ``agents/checkpoints/NAME.pt``; options follow
after commas: ``neural:NAME,greedy=0`` samples, ``neural:NAME,strict_rules=0`` plays under
rules other than those it was trained under (``make_bot(spec, rules)`` refuses them at once
otherwise).  A missing, truncated, foreign or incompatible file raises :class:`CheckpointError`
with a one-line reason naming the file.
"""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
import zipfile
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import torch
from torch import nn

from agents.features import CardFeatures
from fh_env import NUM_ACTIONS, Rules, SeatView
from fh_env import actions as A
from fh_env import observe
from fh_env.engine import Phase

from .shipped import CHECKPOINT_DIR, resolve_alias, shipped_agents

FORMAT = "fivehundred-rl/checkpoint"
#: Logit given to illegal actions: exp() of it is exactly 0 in float32, and it stays finite.
ILLEGAL_LOGIT = -1e9


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: missing, corrupt, or from other rules/observations."""


# ---------------------------------------------------------------------- the network
class PolicyNet(nn.Module):
    """An MLP trunk with a policy head (130 logits) and a value head, on one seat's observation.

    One network is shared by all seats: observations are seat-relative, so the same
    weights play every position.  Other table sizes: ``obs_size`` and ``num_actions`` of that
    size's layout (:func:`fh_env.observe.layout`; 166 actions with six players).  With ``trump_first`` the network relabels suits so that the
    trump comes first before it reads an observation, and maps its card logits back
    (:func:`fh_env.observe.trump_first_indices`): it learns card play once for all trump suits.
    With ``features`` it also reads the card-play inputs of :mod:`agents.features` (cards
    gone, masters, who is winning the trick), which it computes from the observation of its
    table size.
    With ``nullo_branch`` (any table size) the card play of nullo contracts (nullo, open and double
    nullo, every seat) comes from a second network of the same shape (``self.nullo``), chosen
    per row from the observation's phase and contract.  Why: fitted on nullo play, one shared
    network gives up suit play (docs/research-log.md, "Nullo card play learned by imitation");
    a branch of its own learns the nullos without moving anything else.
    """

    def __init__(self, obs_size: int, hidden_sizes: Sequence[int],
                 generator: torch.Generator | None = None, trump_first: bool = False,
                 num_actions: int = NUM_ACTIONS, features: bool = False,
                 nullo_branch: bool = False) -> None:
        super().__init__()
        self.obs_size = int(obs_size)
        self.features = bool(features)
        self.num_actions = int(num_actions)
        self.hidden_sizes = [int(h) for h in hidden_sizes]
        self.trump_first = bool(trump_first)
        four_players = (self.obs_size, self.num_actions) == (observe.OBS_SIZE, NUM_ACTIONS)
        if self.trump_first and not four_players:
            raise ValueError("trump_first relabels suits of the 4-player observation layout "
                             f"only (size {observe.OBS_SIZE}, {NUM_ACTIONS} actions), not of "
                             f"size {self.obs_size} with {self.num_actions} actions")
        if self.trump_first:
            obs_index, action_index = observe.trump_first_indices()
            # Not saved in state_dict: they follow from the observation layout.
            self.register_buffer("obs_index", torch.from_numpy(obs_index.copy()), False)
            self.register_buffer("action_index", torch.from_numpy(action_index.copy()), False)
        if self.features:
            self.card_features = CardFeatures(_layout_of(self.obs_size, self.num_actions,
                                                         "derived card-play features").players)
        layers: list[nn.Module] = []
        width = self.input_size
        for h in self.hidden_sizes:
            layers += [init_layer(width, h, math.sqrt(2), generator), nn.ReLU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.policy_head = init_layer(width, self.num_actions, 0.01, generator)
        self.value_head = init_layer(width, 1, 1.0, generator)
        self.nullo: PolicyNet | None = None
        if nullo_branch:
            lay = _layout_of(self.obs_size, self.num_actions,
                             "a nullo branch (which reads the phase and contract)")
            self.nullo = PolicyNet(obs_size, hidden_sizes, generator, trump_first, num_actions,
                                   features)
            phase, bid = lay.slices["phase"].start, lay.slices["bid"].start
            self._play_column = phase + int(Phase.PLAY)
            self._nullo_columns = [bid + b - 1 for b in A.NULLO_TYPES]

    @property
    def nullo_branch(self) -> bool:
        return self.nullo is not None

    @property
    def input_size(self) -> int:
        """The trunk's input width: the observation, and the derived inputs if it reads them."""
        return self.obs_size + (self.card_features.size if self.features else 0)

    def with_features(self) -> "PolicyNet":
        """This network reading the derived inputs too, computing exactly what it did: the
        new inputs enter with zero weights, so a fit starts from the trained agent."""
        if self.features:
            return self
        net = PolicyNet(**{**self._shape(), "features": True}, nullo_branch=self.nullo_branch)
        state = self.state_dict()
        for first in ("trunk.0.weight", "nullo.trunk.0.weight"):  # the layers reading inputs
            if first in state:
                weight = torch.zeros(state[first].shape[0], net.input_size)
                weight[:, :self.obs_size] = state[first]
                state[first] = weight
        net.load_state_dict(state)
        return net

    def with_nullo_branch(self, nullo: "PolicyNet") -> "PolicyNet":
        """This network with ``nullo`` (same shape and inputs, no branch of its own) as its
        nullo branch: each computes exactly what it did, on the rows it now plays."""
        if self.nullo_branch or nullo.nullo_branch:
            raise ValueError("an agent with a nullo branch cannot be joined again")
        if self._shape() != nullo._shape():
            raise ValueError("the networks have other shapes or inputs")
        net = PolicyNet(**self._shape(), nullo_branch=True)
        net.load_state_dict({**self.state_dict(),
                             **{f"nullo.{k}": v for k, v in nullo.state_dict().items()}})
        return net

    def _shape(self) -> dict[str, Any]:
        """The constructor's arguments that fix the weights' shapes and what they read."""
        return {"obs_size": self.obs_size, "hidden_sizes": self.hidden_sizes,
                "trump_first": self.trump_first, "num_actions": self.num_actions,
                "features": self.features}

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Raw logits [B, num_actions] (unmasked) and values [B]."""
        logits, value = self._forward(obs)
        if self.nullo is not None:
            rows = self.nullo_rows(obs)
            if bool(rows.any()):
                index = rows.nonzero().squeeze(1)
                nullo_logits, nullo_value = self.nullo(obs[index])
                logits = logits.index_put((index,), nullo_logits)
                value = value.index_put((index,), nullo_value)
        return logits, value

    def nullo_rows(self, obs: Any) -> Any:
        """Which rows of ``obs`` (a tensor or an array) the nullo branch plays: those of the
        play phase of a nullo-type contract.  The one place that routes them."""
        return (obs[:, self._play_column] > 0) & (obs[:, self._nullo_columns].sum(1) > 0)

    def _forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        row = None
        if self.trump_first:
            trump = obs[:, observe.TRUMP_SLICE]  # trump_first: 4 players only
            row = torch.where(trump.sum(1) > 0, trump.argmax(1), 4)
            obs = obs.gather(1, self.obs_index[row])
        if self.features:
            obs = torch.cat([obs, self.card_features(obs, row)], dim=1)
        x = self.trunk(obs)
        logits = self.policy_head(x)
        if row is not None:
            logits = logits.gather(1, self.action_index[row])
        return logits, self.value_head(x).squeeze(-1)


def _layout_of(obs_size: int, num_actions: int, what: str) -> observe.Layout:
    """The table size's observation layout of this size and action count, or a ValueError
    naming ``what`` needs one."""
    for lay in map(observe.layout, observe.TABLE_SIZES):
        if (lay.size, lay.num_actions) == (obs_size, num_actions):
            return lay
    raise ValueError(f"{what} reads a table size's observation layout, not one of size "
                     f"{obs_size} with {num_actions} actions")


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
    """A checkpoint file from a path, a run directory (a training run's ``checkpoint.pt``, or
    a pipeline run's ``best.pt``), or a shipped name or alias
    (:func:`agents.shipped.resolve_alias`: ``best``, ``best-PRESET``, an older name)."""
    name = resolve_alias(str(name))
    path = Path(name)
    if path.is_dir():
        path = next((path / f for f in ("checkpoint.pt", "best.pt") if (path / f).is_file()),
                    path / "checkpoint.pt")
    if path.is_file():
        return path
    shipped = CHECKPOINT_DIR / f"{name}.pt"
    if shipped.is_file():
        return shipped
    known = shipped_agents()
    raise CheckpointError(f"no checkpoint {str(name)!r}: not a file, not a run directory with a "
                          f"checkpoint.pt or best.pt, and not a shipped name (shipped: "
                          f"{', '.join(known) or 'none'})")


def _one_line(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: The keys every checkpoint has (see the module docstring).
REQUIRED_KEYS = ("format", "obs_version", "obs_size", "num_actions", "rules", "policy")


def read_checkpoint(path: str | Path) -> dict[str, Any]:
    """Load a checkpoint file safely (``weights_only=True``) and check its observation format.

    Raises :class:`CheckpointError` with a one-line reason that names the file for a missing,
    truncated, corrupt, foreign or incompatible file.
    """
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"checkpoint {path} does not exist")
    if not path.is_file():
        raise CheckpointError(f"checkpoint {path} is not a file")
    # torch.save writes a zip archive; a cut one has no central directory at its end (and
    # torch then fails with an unrelated OSError), anything else is no checkpoint at all.
    try:
        is_zip = zipfile.is_zipfile(path)
    except OSError as err:
        raise CheckpointError(f"checkpoint {path} cannot be read: {err.strerror or err}") from None
    if not is_zip:
        with open(path, "rb") as f:
            head = f.read(4)
        what = ("is truncated (a cut-off zip archive)" if head == b"PK\x03\x04"
                else "is truncated, corrupt or not a checkpoint file (not a torch.save archive)")
        raise CheckpointError(f"checkpoint {path} {what}")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise CheckpointError(f"checkpoint {path} is not a Five Hundred checkpoint: it holds "
                              "objects other than plain data (tensors, numbers, strings, "
                              "lists, dicts)") from None
    except Exception as err:  # torch raises many kinds (RuntimeError, OSError, ...) here
        raise CheckpointError(f"checkpoint {path} is truncated, corrupt or not a checkpoint "
                              f"file ({type(err).__name__}: {_one_line(err)})") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"checkpoint {path} is not a Five Hundred checkpoint: it holds "
                              f"a {type(data).__name__}, not a dictionary")
    if "format" in data and data["format"] != FORMAT:
        raise CheckpointError(f"checkpoint {path} is not a Five Hundred checkpoint: format "
                              f"{_one_line(repr(data['format']), 60)}, not {FORMAT!r}")
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise CheckpointError(f"checkpoint {path} is not a Five Hundred checkpoint: missing "
                              f"keys {', '.join(missing)}")
    # The layout of its table size (the rules' players; 4 when they do not say).
    players = data["rules"].get("players", 4) if isinstance(data["rules"], dict) else 4
    lay = observe.layout(players if players in observe.TABLE_SIZES else 4)
    if data["num_actions"] != lay.num_actions:
        where = "" if lay.players == 4 else f" for {lay.players} players"
        raise CheckpointError(f"checkpoint {path} has {data['num_actions']} actions, this "
                              f"version has {lay.num_actions}{where}")
    if (data["obs_version"], data["obs_size"]) != (observe.OBS_VERSION, lay.size):
        where = "" if lay.players == 4 else f", {lay.players} players"
        raise CheckpointError(
            f"checkpoint {path} was written for observation version {data['obs_version']} "
            f"(size {data['obs_size']}), but fh_env.observe is now version "
            f"{observe.OBS_VERSION} (size {lay.size}{where}); retrain or use a matching version")
    if not isinstance(data["rules"], dict):
        raise CheckpointError(f"checkpoint {path} is malformed: its rules are not a table")
    return data


def rules_difference(theirs: Rules, ours: Rules) -> list[str]:
    """The rule options on which ``theirs`` (a checkpoint's) and ``ours`` differ."""
    return [f"{name}={getattr(theirs, name)!r} (checkpoint) vs {getattr(ours, name)!r}"
            for name in Rules.__dataclass_fields__ if getattr(theirs, name) != getattr(ours, name)]


def check_rules(data: dict[str, Any], rules: Rules, path: str | Path) -> None:
    """Refuse a checkpoint trained under another game than ``rules`` (rules that differ only
    in options no hand of either can use are the same game: :meth:`Rules.same_game`), naming
    the options that differ."""
    theirs = Rules.from_dict(data["rules"])
    if not theirs.same_game(rules):
        raise CheckpointError(f"checkpoint {path} was trained under other rules: "
                              + "; ".join(rules_difference(theirs, rules)))


def policy_from_checkpoint(data: dict[str, Any], path: str | Path = "?") -> PolicyNet:
    """Rebuild the policy network stored in a checkpoint dictionary."""
    try:
        policy = data["policy"]
        net = PolicyNet(data["obs_size"], policy["hidden_sizes"],
                        trump_first=bool(policy.get("trump_first", False)),
                        num_actions=data["num_actions"],
                        features=bool(policy.get("features", False)),
                        nullo_branch=bool(policy.get("nullo_branch", False)))
        net.load_state_dict(policy["state_dict"])
    except (KeyError, TypeError, RuntimeError, ValueError, AttributeError) as err:
        raise CheckpointError(f"checkpoint {path}: the policy cannot be loaded: "
                              f"{type(err).__name__}: {_one_line(err)}") from None
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
        self._obs = np.zeros(net.obs_size, dtype=np.float32)
        self._checked: Rules | None = None  # the last rules check_rules accepted
        # The rules its observations are encoded with: its own where the game's are the same
        # game (Rules.same_game), so that the network sees exactly what it was trained on.
        self._encode_rules: Rules | None = None

    @classmethod
    def load(cls, name: str | Path, greedy: bool = True, strict_rules: bool = True) -> "NeuralBot":
        """A bot from a checkpoint path, run directory, or shipped checkpoint name."""
        path = resolve_checkpoint(name)
        data = read_checkpoint(path)
        rules = Rules.from_dict(data["rules"])
        return cls(policy_from_checkpoint(data, path), rules, greedy,
                   name=f"neural:{resolve_alias(str(name))}", strict_rules=strict_rules)

    def check_rules(self, rules: Rules) -> None:
        """Refuse (:class:`CheckpointError`) to play under ``rules`` if they are not the rules
        it was trained under, unless ``strict_rules`` is off.  ``make_bot(spec, rules)`` and
        :func:`arena.duplicate.duplicate` call this before the first move."""
        if self.rules is not None and rules.players != self.rules.players:
            # Not even strict_rules=False helps: the observation has another size.
            raise CheckpointError(
                f"{self.name} was trained for {self.rules.players} players and cannot play "
                f"{rules.players}: the observation and action table differ by table size")
        if not self.strict_rules or self.rules is None or self.rules.same_game(rules):
            return
        diff = rules_difference(self.rules, rules)
        raise CheckpointError(
            f"{self.name} was trained under other rules than this game's ("
            + "; ".join(d.replace("(checkpoint)", "(trained)") for d in diff)
            + "); to play it anyway, add strict_rules=0 to its spec (as in "
            "neural:NAME,strict_rules=0) or load it with strict_rules=False")

    def encoding_rules(self, rules: Rules) -> Rules | None:
        """The rules to encode a game under ``rules`` with: the network's own where they are
        the same game but not equal (they differ only in options of contracts neither
        allows), so that it sees exactly what it was trained on; else None (``rules``)."""
        same = self.rules is not None and self.rules.same_game(rules)
        return self.rules if same and self.rules != rules else None

    def act(self, view: SeatView, rng: random.Random) -> int:
        logits, mask = self._logits(view)
        if self.greedy:
            return int(torch.argmax(logits))
        probs = torch.softmax(logits.double(), 0).numpy()
        # Inverse-CDF sampling with the game's rng keeps the bot reproducible from its seed.
        u = rng.random()
        cdf = np.cumsum(probs)
        action = int(np.searchsorted(cdf, u * cdf[-1], side="right"))
        if action < len(mask) and mask[action]:
            return action
        return int(np.flatnonzero(mask)[-1])  # u * total rounded up to the total

    def preferences(self, view: SeatView) -> np.ndarray:
        """The rank of every action in the network's order for ``view`` (0: the action
        ``greedy`` plays; illegal actions last), for a search that breaks its ties by it."""
        logits, _ = self._logits(view)
        order = torch.argsort(logits, descending=True, stable=True).numpy()
        ranks = np.empty(len(order), dtype=np.int64)
        ranks[order] = np.arange(len(order))
        return ranks

    def seen(self, view: SeatView) -> tuple[np.ndarray, np.ndarray, torch.Tensor]:
        """The observation of ``view`` as the network reads it (a copy), the legal mask and the
        masked logits: what a collection stores to fit this network on later
        (:mod:`train.imitate`), encoded exactly as :meth:`act` encodes it."""
        logits, mask = self._logits(view)
        return self._obs.copy(), mask, logits

    def _logits(self, view: SeatView) -> tuple[torch.Tensor, np.ndarray]:
        """The masked logits of ``view`` and its legal-action mask."""
        if view.rules is not self._checked:
            self.check_rules(view.rules)
            self._checked = view.rules
            self._encode_rules = self.encoding_rules(view.rules)
        if self._encode_rules is not None:
            view = dataclasses.replace(view, rules=self._encode_rules)
        observe.encode(view, out=self._obs)
        mask = observe.action_mask(view)
        with torch.no_grad():
            logits, _ = self.net(torch.from_numpy(self._obs).unsqueeze(0))
            return masked_logits(logits[0], torch.from_numpy(mask)), mask


def split_legacy_suffix(arg: str) -> tuple[str, bool | None]:
    """``"PATH:sample"`` -> ``("PATH", False)``, ``"PATH:greedy"`` -> ``("PATH", True)``, else
    ``(arg, None)`` (the older spelling of ``greedy=0`` / ``greedy=1``)."""
    for suffix, greedy in ((":sample", False), (":greedy", True)):
        if arg.endswith(suffix):
            return arg[: -len(suffix)], greedy
    return arg, None


def make_neural_bot(arg: str | None = None, greedy: bool | None = None,
                    strict_rules: bool = True) -> NeuralBot:
    """Registry factory: ``neural:PATH_OR_NAME[,greedy=0][,strict_rules=0]``.

    ``greedy=0`` samples instead of playing the most likely action (``neural:PATH:sample`` is
    the older spelling); ``strict_rules=0`` lets it play under rules other than its own.
    """
    if not arg:
        raise CheckpointError("the neural bot needs a checkpoint: neural:PATH, neural:RUN_DIR "
                              "or neural:NAME (a file in agents/checkpoints/)")
    arg, suffix_greedy = split_legacy_suffix(arg)
    if greedy is None:
        greedy = True if suffix_greedy is None else suffix_greedy
    bot = NeuralBot.load(arg, greedy=greedy, strict_rules=strict_rules)
    return bot
