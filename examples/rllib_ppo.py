"""Ray RLlib (new API stack): multi-agent PPO with action masking, one policy for all four seats
(self-play), on a local Ray or a Ray cluster; then duplicate evaluation.

    pip install -e '.[rllib]'
    python examples/rllib_ppo.py --minutes 5 --timesteps 10000000
    python examples/rllib_ppo.py --address 127.0.0.1:6379 --env-runners 2   # a running cluster

RLlib's ``PettingZooEnv`` steps the AEC env ``fh_env.env()`` and hands RLlib the observation of
the agent on turn only; at the end of a hand it collects every agent's final reward, so all four
seats are credited correctly although turns are not cyclic.  ``policy_mapping_fn`` maps the
four agents to the one module ``shared``.  The module is RLlib's default PPO module on the
``observation`` part; the ``action_mask`` part (int8, cast to float) adds ``log(mask)``,
clamped to ``FLOAT_MIN``, to the logits.  RLlib's env pre-check samples unmasked actions, so it
is switched off (``disable_env_checking``).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env

import fh_env
import recipe_common as rc

ENV_NAME = "five_hundred"
POLICY = "shared"


def make_env(config: dict[str, Any]) -> PettingZooEnv:
    """The AEC env for RLlib (``env_config``: ``rules``, ``reward_scale``)."""
    return PettingZooEnv(fh_env.env(rules=config.get("rules"),
                                    reward_scale=config.get("reward_scale", 0.01)))


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module on ``obs["observation"]``, its logits masked by
    ``obs["action_mask"]``."""

    def __init__(self, *, observation_space=None, **kwargs) -> None:
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self) -> None:
        super().setup()  # networks built for the observation part alone
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], torch.Tensor | None]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            return batch, None
        return {**batch, Columns.OBS: obs["observation"]}, obs["action_mask"]

    @staticmethod
    def _mask(out: dict[str, Any], mask: torch.Tensor | None) -> dict[str, Any]:
        if mask is not None:
            # log(1) = 0 for legal actions; log(0) = -inf, clamped to FLOAT_MIN, for illegal ones.
            logits = out[Columns.ACTION_DIST_INPUTS]
            out[Columns.ACTION_DIST_INPUTS] = logits + torch.clamp(
                torch.log(mask.to(logits.dtype)), min=FLOAT_MIN)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        batch, mask = self._split(batch)
        return self._mask(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        batch, mask = self._split(batch)
        return self._mask(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        batch, _ = self._split(batch)
        return super().compute_values(batch, embeddings)


def build_config(args, rules_name: str) -> PPOConfig:
    batch = max(64, min(args.train_batch, args.timesteps))
    return (
        PPOConfig()  # the new API stack is the default
        .environment(ENV_NAME, env_config={"rules": rules_name, "reward_scale": 0.01},
                     disable_env_checking=True)
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=1,
                     num_cpus_per_env_runner=1, rollout_fragment_length="auto")
        .learners(num_learners=0)
        .multi_agent(policies={POLICY},
                     policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: RLModuleSpec(
            module_class=MaskedPPOModule,
            model_config=DefaultModelConfig(fcnet_hiddens=[256, 256]))}))
        .training(train_batch_size_per_learner=batch, minibatch_size=min(256, batch),
                  num_epochs=4, lr=3e-4, gamma=1.0, lambda_=0.95, entropy_coeff=0.01,
                  vf_clip_param=100.0)
        .debugging(seed=args.seed)
    )


def greedy(module: MaskedPPOModule):
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        batch = {Columns.OBS: {"observation": torch.from_numpy(obs)[None],
                               "action_mask": torch.from_numpy(mask)[None]}}
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return int(logits[0].argmax())
    return policy


def main() -> int:
    p = rc.parser(__doc__.splitlines()[0], opponents="self")
    p.add_argument("--address", default=None,
                   help="a Ray cluster to join (host:port of its head); default: start Ray here")
    p.add_argument("--env-runners", type=int, default=0,
                   help="remote env runners collecting games (0: sample in the driver)")
    p.add_argument("--train-batch", type=int, default=4000, help="env steps per update")
    args = p.parse_args()
    rules = rc.setup(args)
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=max(2, args.env_runners + 1), include_dashboard=False)
    register_env(ENV_NAME, make_env)
    algo = build_config(args, args.rules).build_algo()
    deadline = rc.Deadline(args.minutes)
    env_steps, iterations = 0, 0
    while env_steps < args.timesteps and not deadline.expired():
        result = algo.train()
        iterations += 1
        env_steps = int(result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME])
    train_seconds = deadline.elapsed()
    print(f"trained {env_steps} steps ({iterations} iterations) in {train_seconds:.0f} s, "
          f"{args.env_runners} env runners", flush=True)
    module = algo.get_module(POLICY)
    module.eval()
    bot = rc.PolicyBot(greedy(module), "rllib-ppo")
    resources = ray.cluster_resources()
    algo.stop()
    ray.shutdown()
    rc.evaluate(bot, rules, args, train_seconds,
                {"env_steps": env_steps, "iterations": iterations,
                 "env_runners": args.env_runners, "cluster_cpus": resources.get("CPU", 0)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
