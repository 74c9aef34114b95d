"""Training checkpoints: everything needed to continue a run exactly, as plain data.

A checkpoint is one ``torch.save`` dictionary of tensors, lists, dicts, ints, floats and strings
(random-generator states included), so it loads with ``torch.load(..., weights_only=True)``.
Its top level is the agent format of :mod:`agents.neural` (``format``, ``obs_version``,
``obs_size``, ``num_actions``, ``rules``, ``policy``) plus::

    config     TrainConfig.to_dict()
    critic     the centralised critic's state_dict, or None
    train      update, global_step, bc_done, optimizer, league, rng {python, numpy, torch},
               contract_log

Files are written atomically (a temporary file in the same directory, then ``os.replace``), so
a run killed while saving keeps its previous checkpoint.  Loading checks everything (format,
observation version and size, rules, tensor shapes) before it changes anything.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import torch

from agents.neural import FORMAT, CheckpointError, check_rules, read_checkpoint
from fh_env import observe

if TYPE_CHECKING:
    from .ppo import Trainer

__all__ = ["CheckpointError", "load_into", "read_checkpoint", "save_atomic", "state_of",
           "export_agent"]


# ---------------------------------------------------------------------- random generators
def python_rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def set_python_rng_state(rng: random.Random, state: list[Any]) -> None:
    rng.setstate((int(state[0]), tuple(int(x) for x in state[1]), state[2]))


# ---------------------------------------------------------------------- writing
def save_atomic(data: dict[str, Any], path: str | Path,
                write: Callable[[Any, Any], None] = torch.save) -> Path:
    """``write(data, file)`` into a temporary file next to ``path``, then rename it over
    ``path`` (``torch.save`` by default; any writer that takes an open binary file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            write(data, f)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def agent_part(trainer: "Trainer") -> dict[str, Any]:
    """What a :class:`agents.neural.NeuralBot` needs: the observation format, rules, policy."""
    policy = trainer.model.policy
    layout = observe.layout(trainer.rules.players)  # OBS_SIZE and NUM_ACTIONS with 4 players
    return {
        "format": FORMAT,
        "obs_version": observe.OBS_VERSION,
        "obs_size": layout.size,
        "num_actions": layout.num_actions,
        "rules": trainer.rules.to_dict(),
        "policy": {"hidden_sizes": list(policy.hidden_sizes),
                   "trump_first": policy.trump_first,
                   "features": policy.features,
                   "nullo_branch": policy.nullo_branch,
                   "state_dict": _cpu(policy.state_dict())},
    }


def state_of(trainer: "Trainer") -> dict[str, Any]:
    """The whole training state as checkpoint data."""
    data = agent_part(trainer)
    critic = trainer.model.critic
    data["config"] = trainer.cfg.to_dict()
    data["critic"] = None if critic is None else _cpu(critic.state_dict())
    data["train"] = {
        "update": trainer.update,
        "global_step": trainer.global_step,
        "bc_done": trainer.bc_done,
        "optimizer": trainer.optimizer.state_dict(),
        "league": trainer.league.state_dict(),
        "rng": {"python": python_rng_state(trainer.py_rng),
                "numpy": trainer.np_rng.bit_generator.state,
                "torch": trainer.torch_rng.get_state()},
        "contract_log": torch.tensor(trainer.contract_log, dtype=torch.int64).reshape(-1, 3),
    }
    return data


def export_agent(trainer: "Trainer", path: str | Path) -> Path:
    """Write a small agent-only checkpoint (no optimiser, league or critic) for shipping."""
    return save_atomic(agent_part(trainer), path)


# ---------------------------------------------------------------------- reading
def load_into(trainer: "Trainer", data: dict[str, Any], path: str | Path = "?") -> None:
    """Restore a checkpoint (from :func:`read_checkpoint`) into ``trainer``.

    Everything is checked first; on any mismatch :class:`CheckpointError` is raised and the
    trainer is left exactly as it was.
    """
    check_rules(data, trainer.rules, path)
    if "train" not in data or "config" not in data:
        raise CheckpointError(f"checkpoint {path} holds an agent only, not a training state")
    train = data["train"]
    try:
        policy_sd = data["policy"]["state_dict"]
        _check_options(data["policy"], trainer.model.policy, f"checkpoint {path}")
        _check_shapes(trainer.model.policy.state_dict(), policy_sd, "policy", path)
        critic = trainer.model.critic
        if (critic is None) != (data["critic"] is None):
            raise CheckpointError(f"checkpoint {path}: central_critic differs from this run's")
        if critic is not None:
            _check_shapes(critic.state_dict(), data["critic"], "critic", path)
        for k, snap in enumerate(train["league"]["snapshots"]):
            _check_shapes(trainer.model.policy.state_dict(), snap, f"league snapshot {k}", path)
        groups = train["optimizer"]["param_groups"]
        n_params = sum(len(g["params"]) for g in groups)
        if n_params != len(list(trainer.model.parameters())):
            raise CheckpointError(f"checkpoint {path}: the optimiser state has {n_params} "
                                  "parameters, this model has a different number")
        rng = train["rng"]
        py_state, np_state, torch_state = rng["python"], rng["numpy"], rng["torch"]
        np_kind = type(trainer.np_rng.bit_generator).__name__
        if (len(py_state) != 3 or len(py_state[1]) != 625
                or not isinstance(torch_state, torch.Tensor)
                or np_state.get("bit_generator") != np_kind):
            raise CheckpointError(f"checkpoint {path}: its random-generator states are malformed")
        log = train["contract_log"]
        update, step = int(train["update"]), int(train["global_step"])
        bc_done = bool(train["bc_done"])
    except (KeyError, TypeError, IndexError) as err:
        raise CheckpointError(f"checkpoint {path} is incomplete or malformed: "
                              f"{type(err).__name__}: {err}") from None
    # All checked: apply.
    trainer.model.policy.load_state_dict(policy_sd)
    if trainer.model.critic is not None:
        trainer.model.critic.load_state_dict(data["critic"])
    trainer.optimizer.load_state_dict(train["optimizer"])
    trainer.league.load_state_dict(train["league"], trainer.model.policy)
    set_python_rng_state(trainer.py_rng, py_state)
    trainer.np_rng.bit_generator.state = np_state
    trainer.torch_rng.set_state(torch_state)
    trainer.contract_log = [tuple(int(x) for x in row) for row in log.tolist()]
    trainer.update, trainer.global_step, trainer.bc_done = update, step, bc_done


def load_initial_policy(trainer: "Trainer", name: str) -> Path:
    """Start ``trainer``'s policy from the agent ``name`` (``TrainConfig.init_policy``): a
    checkpoint file, run directory or shipped name.  Its rules may differ from the run's; its
    network and table size may not (:class:`CheckpointError`, and nothing changes)."""
    from agents.neural import resolve_checkpoint

    path = resolve_checkpoint(name)
    data = read_checkpoint(path)
    policy = trainer.model.policy
    try:
        theirs = data["policy"]["state_dict"]
        size = (int(data["obs_size"]), int(data["num_actions"]))
    except (KeyError, TypeError, ValueError) as err:
        raise CheckpointError(f"checkpoint {path} is incomplete or malformed: "
                              f"{type(err).__name__}: {err}") from None
    if size != (policy.obs_size, policy.num_actions):
        raise CheckpointError(f"init_policy {path}: its observations and actions ({size[0]}, "
                              f"{size[1]}) are not this run's ({policy.obs_size}, "
                              f"{policy.num_actions}): another table size")
    _check_options(data["policy"], policy, f"init_policy {path}")
    _check_shapes(policy.state_dict(), theirs, "policy", path)
    policy.load_state_dict(theirs)
    return Path(path)


#: The network options a checkpoint records beside its weights; a run must match each.
NETWORK_OPTIONS = ("trump_first", "features")


def _check_options(theirs: Any, policy: Any, what: str) -> None:
    """Refuse a policy whose network options (:data:`NETWORK_OPTIONS`, absent = False) differ
    from ``policy``'s: the weights would load into a network that reads other inputs."""
    for name in NETWORK_OPTIONS:
        if bool(theirs.get(name, False)) != getattr(policy, name):
            raise CheckpointError(f"{what}: {name} differs from this run's (set {name} = "
                                  f"{str(bool(theirs.get(name, False))).lower()} to use it)")


def _check_shapes(ours: dict[str, torch.Tensor], theirs: Any, what: str,
                  path: str | Path) -> None:
    if not isinstance(theirs, dict) or set(ours) != set(theirs):
        raise CheckpointError(f"checkpoint {path}: the {what} has other parameters than this "
                              "run's network (different hidden_sizes?)")
    for key, tensor in ours.items():
        other = theirs[key]
        if not isinstance(other, torch.Tensor) or other.shape != tensor.shape:
            shape = tuple(other.shape) if isinstance(other, torch.Tensor) else type(other).__name__
            raise CheckpointError(f"checkpoint {path}: {what} parameter {key} has shape "
                                  f"{shape}, this run's has {tuple(tensor.shape)} "
                                  "(different hidden_sizes?)")


def _cpu(state_dict: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {k: v.detach().cpu().clone() for k, v in state_dict.items()}


def load_checkpoint(trainer: "Trainer", path: str | Path) -> None:
    """Read ``path`` and restore it into ``trainer`` (nothing changes if it fails)."""
    load_into(trainer, read_checkpoint(path), path)

