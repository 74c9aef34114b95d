"""Tianshou 2.x: masked PPO on the single-seat env (team 0 vs bots), then duplicate evaluation.

    pip install -e '.[tianshou]'
    python examples/tianshou_ppo.py --minutes 5 --timesteps 10000000

Why not Tianshou's PettingZoo wrapper with a shared policy for the four seats: its multi-agent
path stores one transition per step for the agent that acted, so in a turn-based game the seats
that did not make the last move never receive the terminal reward (the hand's points).  The
single-seat env ends every learner trajectory with the learner team's reward, so single-agent
PPO is correct.  The observation keys are renamed to the ``obs``/``mask`` that Tianshou's
PettingZoo wrapper uses, the actor applies the mask to its logits itself (Tianshou applies masks
only in the DQN family), and ``--opponents self`` makes one policy play all four seats: the
other team is a frozen copy of the learner, refreshed every epoch.
"""

from __future__ import annotations

import copy
import sys

import gymnasium as gym
import numpy as np
import torch
from tianshou.algorithm import PPO
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OnPolicyTrainerParams
from tianshou.utils.net.common import Net
from tianshou.utils.net.discrete import DiscreteActor, DiscreteCritic

import recipe_common as rc
from agents.registry import make_bot
from fh_env.envs.single import SingleSeatEnv

ILLEGAL_LOGIT = -1e9


class TianshouKeys(gym.ObservationWrapper):
    """``{"observation", "action_mask"}`` -> ``{"obs", "mask"}``, the keys Tianshou reads."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        space = env.observation_space
        self.observation_space = gym.spaces.Dict(
            {"obs": space["observation"], "mask": space["action_mask"]})

    def observation(self, obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"obs": obs["observation"], "mask": obs["action_mask"]}


class MaskedActor(DiscreteActor):
    """Logits of the legal actions; the others get a large negative constant."""

    def forward(self, obs, state=None, info=None):
        logits, hidden = super().forward(obs.obs, state, info)
        mask = torch.as_tensor(obs.mask, device=logits.device)
        return logits.masked_fill(mask == 0, ILLEGAL_LOGIT), hidden


class ObsCritic(DiscreteCritic):
    def forward(self, obs, state=None, info=None):
        return super().forward(obs.obs, state, info)


def greedy(actor: MaskedActor):
    """The policy function of ``actor``: the most likely legal action."""
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            logits, _ = actor(Batch(obs=obs[None], mask=mask[None]))
        return int(logits[0].argmax())
    return policy


def main() -> int:
    p = rc.parser(__doc__.splitlines()[0])
    p.add_argument("--envs", type=int, default=4)
    p.add_argument("--steps-per-collect", type=int, default=2048)
    p.add_argument("--epoch-steps", type=int, default=8192,
                   help="environment steps per epoch (the self-play copy is refreshed after each)")
    args = p.parse_args()
    rules = rc.setup(args)
    obs_size = SingleSeatEnv(rules=rules).observation_space["observation"].shape[0]
    hidden = [256, 256]
    actor = MaskedActor(preprocess_net=Net(state_shape=obs_size, hidden_sizes=hidden),
                        action_shape=130, softmax_output=False)
    critic = ObsCritic(preprocess_net=Net(state_shape=obs_size, hidden_sizes=hidden))
    if args.opponents == "self":
        frozen = copy.deepcopy(actor).eval()
        opponents = rc.PolicyBot(greedy(frozen), "tianshou-ppo-snapshot")
    else:
        frozen, opponents = None, args.opponents

    def make_env() -> gym.Env:
        return TianshouKeys(SingleSeatEnv(rules=rules, seats=(0, 2), opponents=opponents,
                                          bot_factory=make_bot, reward_scale=0.01))

    envs = DummyVectorEnv([make_env for _ in range(args.envs)])  # in-process: shares `frozen`
    envs.seed(args.seed)
    env = make_env()
    policy = DiscreteActorPolicy(actor=actor, action_space=env.action_space,
                                 observation_space=env.observation_space,
                                 deterministic_eval=True)
    algorithm = PPO(policy=policy, critic=critic, optim=AdamOptimizerFactory(lr=3e-4),
                    gamma=1.0, gae_lambda=0.95, ent_coef=0.01, max_grad_norm=0.5)
    steps = max(args.envs, min(args.steps_per_collect, args.timesteps))
    collector = Collector(algorithm, envs, VectorReplayBuffer(steps, args.envs))
    deadline = rc.Deadline(args.minutes)

    epoch_steps = max(steps, min(args.epoch_steps, args.timesteps))
    epochs = max(1, args.timesteps // epoch_steps)
    trainer = algorithm.create_trainer(OnPolicyTrainerParams(
        training_collector=collector, test_collector=None, max_epochs=epochs,
        epoch_num_steps=epoch_steps, collection_step_num_env_steps=steps,
        update_step_num_repetitions=4, batch_size=min(256, steps), test_in_training=False,
        show_progress=False, verbose=False))
    trainer.reset()
    for _ in range(epochs):  # epoch by epoch, for --minutes and the self-play copy
        trainer.execute_epoch()
        if frozen is not None:
            frozen.load_state_dict(actor.state_dict())
        if deadline.expired():
            break
    train_seconds = deadline.elapsed()
    print(f"trained {collector.collect_step} steps in {train_seconds:.0f} s", flush=True)
    actor.eval()
    rc.evaluate(rc.PolicyBot(greedy(actor), "tianshou-ppo"), rules, args, train_seconds,
                {"env_steps": int(collector.collect_step)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
