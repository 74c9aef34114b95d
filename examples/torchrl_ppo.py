"""TorchRL: PPO with a masked categorical policy on the single-seat env, then duplicate
evaluation, and the trained policy playing all four seats through TorchRL's PettingZoo wrapper.

    pip install -e '.[torchrl]'
    python examples/torchrl_ppo.py --minutes 5 --timesteps 10000000

Training uses the single-seat env (team 0 vs bots) through ``GymWrapper(...,
categorical_action_encoding=True)``: TorchRL ships no loss for a turn-based multi-agent env (one
would have to sum each seat's rewards over all steps and use log-probabilities only on its own
turns), while the stock ``ClipPPOLoss`` is right for one learner.  The mask arrives as int8 (as
in the AEC env) and is cast to bool for ``ActionMask`` and ``MaskedCategorical``.

After training, the same policy plays hands on ``PettingZooWrapper(fh_env.env(), use_mask=True)``
(one group of four agents): without ``use_mask=True`` the wrapper does not know that only the
agent on turn acts.  Every step it observes all four seats; ``(group, "mask")`` says which one
acts, and ``(group, "action_mask")`` holds that agent's legal actions but all True for the
others (TorchRL's choice, not the env's all-zero masks); the others' actions are ignored.
"""

from __future__ import annotations

import sys

import numpy as np
import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.data import LazyTensorStorage, ReplayBuffer
from torchrl.data.replay_buffers.samplers import SamplerWithoutReplacement
from torchrl.envs import (ActionMask, Compose, DTypeCastTransform, GymWrapper,
                          PettingZooWrapper, SerialEnv, TransformedEnv)
from torchrl.envs.utils import ExplorationType, set_exploration_type
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

from pettingzoo.utils import BaseWrapper

import fh_env
import recipe_common as rc
from agents.registry import make_bot
from fh_env.envs.single import SingleSeatEnv, numeric_info


class NumericInfos(BaseWrapper):
    """The AEC env with numbers for the Nones of its infos: TorchRL's PettingZooWrapper builds
    an info spec from the infos at reset and cannot take None."""

    @property
    def infos(self):
        return {agent: numeric_info(info) for agent, info in self.env.infos.items()}


ILLEGAL_REWARD = -1000.0  # fh_env.env()'s default reward for an illegal action


def make_env(rules, opponents):
    """The single-seat env for TorchRL: bool mask, masked action spec."""
    base = GymWrapper(SingleSeatEnv(rules=rules, seats=(0, 2), opponents=opponents,
                                    bot_factory=make_bot, reward_scale=0.01),
                     categorical_action_encoding=True)
    return TransformedEnv(base, Compose(
        DTypeCastTransform(torch.int8, torch.bool, in_keys=["action_mask"]), ActionMask()))


def greedy(logits_net: nn.Module):
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            logits = logits_net(torch.from_numpy(obs)[None])[0]
        return int(logits.masked_fill(torch.from_numpy(mask) == 0, -1e9).argmax())
    return policy


def play_pettingzoo_hands(logits_net: nn.Module, rules, hands: int, seed: int) -> int:
    """Hands on TorchRL's PettingZoo wrapper, the policy on all four seats; returns the steps."""
    env = PettingZooWrapper(env=NumericInfos(fh_env.env(rules=rules)), use_mask=True,
                            group_map={"players": [f"player_{s}" for s in range(4)]},
                            categorical_actions=True, seed=seed)
    steps = 0
    for _ in range(hands):
        td = env.reset()
        while True:
            group = td["players"]
            obs = group["observation", "observation"]
            acting = group["mask"]  # use_mask=True: the agent on turn
            legal = group["action_mask"]  # the acting agent's mask; all True for the others
            if acting.sum() != 1:
                raise AssertionError(f"expected one agent on turn, got {acting.tolist()}")
            with torch.no_grad():
                logits = logits_net(obs.float())
            actions = logits.masked_fill(~legal, -1e9).argmax(-1)
            td["players", "action"] = actions
            td = env.step(td)["next"]
            steps += 1
            if (td["players", "reward"] <= ILLEGAL_REWARD).any():  # fh_env.env() ends the hand
                raise rc.IllegalPolicyAction("an illegal action through PettingZooWrapper")
            if td["done"].all():
                break
    env.close()
    return steps


def main() -> int:
    p = rc.parser(__doc__.splitlines()[0])
    p.add_argument("--envs", type=int, default=4)
    p.add_argument("--frames-per-batch", type=int, default=2048)
    p.add_argument("--pettingzoo-hands", type=int, default=20,
                   help="hands the trained policy plays on TorchRL's PettingZoo wrapper")
    args = p.parse_args()
    rules = rc.setup(args)
    env = SerialEnv(args.envs, lambda: make_env(rules, args.opponents))
    env.set_seed(args.seed)
    obs_size = env.observation_spec["observation"].shape[-1]
    logits_net = MLP(in_features=obs_size, out_features=130, num_cells=[256, 256],
                     activation_class=nn.ReLU)
    actor = ProbabilisticActor(
        TensorDictModule(logits_net, in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"}, out_keys=["action"],
        distribution_class=MaskedCategorical, return_log_prob=True,
        spec=env.full_action_spec["action"])
    value = ValueOperator(MLP(in_features=obs_size, out_features=1, num_cells=[256, 256],
                              activation_class=nn.ReLU), in_keys=["observation"])
    frames = max(args.envs, min(args.frames_per_batch, args.timesteps))
    collector = Collector(env, actor, frames_per_batch=frames,
                          total_frames=max(frames, args.timesteps))
    advantage = GAE(gamma=1.0, lmbda=0.95, value_network=value, average_gae=True)
    loss_module = ClipPPOLoss(actor, value, clip_epsilon=0.2, entropy_coeff=0.01)
    optim = torch.optim.Adam(loss_module.parameters(), lr=3e-4)
    buffer = ReplayBuffer(storage=LazyTensorStorage(frames), sampler=SamplerWithoutReplacement())
    batch = min(256, frames)
    deadline = rc.Deadline(args.minutes)
    env_steps = 0
    for data in collector:
        env_steps += data.numel()
        for _ in range(4):
            with torch.no_grad():
                advantage(data)
            buffer.extend(data.reshape(-1))
            for _ in range(frames // batch):
                losses = loss_module(buffer.sample(batch))
                total = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
                optim.zero_grad()
                total.backward()
                nn.utils.clip_grad_norm_(loss_module.parameters(), 0.5)
                optim.step()
        collector.update_policy_weights_()
        if deadline.expired():
            break
    collector.shutdown()
    train_seconds = deadline.elapsed()
    print(f"trained {env_steps} steps in {train_seconds:.0f} s", flush=True)
    logits_net.eval()
    with set_exploration_type(ExplorationType.DETERMINISTIC):
        pz_steps = play_pettingzoo_hands(logits_net, rules, args.pettingzoo_hands, args.seed)
    print(f"played {args.pettingzoo_hands} hands ({pz_steps} steps) through PettingZooWrapper",
          flush=True)
    rc.evaluate(rc.PolicyBot(greedy(logits_net), "torchrl-ppo"), rules, args, train_seconds,
                {"env_steps": env_steps, "pettingzoo_hands": args.pettingzoo_hands,
                 "pettingzoo_steps": pz_steps})
    return 0


if __name__ == "__main__":
    sys.exit(main())
