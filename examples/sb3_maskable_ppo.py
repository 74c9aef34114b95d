"""Stable-Baselines3 + sb3-contrib: MaskablePPO on the single-seat env, then duplicate evaluation.

    pip install -e '.[sb3]'
    python examples/sb3_maskable_ppo.py --minutes 5 --timesteps 10000000

The learner plays both seats of team 0 (``seats=(0, 2)``) against ``--opponents`` bots.
``fh_env.envs.single.SingleSeatEnv`` has ``action_masks()``, which MaskablePPO reads through the
vectorised env; the policy sees the whole observation dict (``MultiInputPolicy``), mask included.
"""

from __future__ import annotations

import sys

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

import recipe_common as rc
from agents.registry import make_bot
from fh_env.envs.single import SingleSeatEnv


class StopAt(BaseCallback):
    """Ends ``learn`` once ``--minutes`` are spent."""

    def __init__(self, deadline: rc.Deadline) -> None:
        super().__init__()
        self.deadline = deadline

    def _on_step(self) -> bool:
        return not self.deadline.expired()


def main() -> int:
    p = rc.parser(__doc__.splitlines()[0])
    p.add_argument("--envs", type=int, default=4, help="environments in the vector env")
    p.add_argument("--subproc", action="store_true", help="one process per env (SubprocVecEnv)")
    p.add_argument("--n-steps", type=int, default=512, help="steps per env per update")
    args = p.parse_args()
    rules = rc.setup(args)
    env = make_vec_env(SingleSeatEnv, n_envs=args.envs, seed=args.seed,
                       env_kwargs={"rules": rules, "seats": (0, 2),
                                   "opponents": args.opponents, "bot_factory": make_bot,
                                   "reward_scale": 0.01},
                       vec_env_cls=SubprocVecEnv if args.subproc else DummyVecEnv)
    n_steps = min(args.n_steps, max(8, args.timesteps // args.envs))
    model = MaskablePPO("MultiInputPolicy", env, n_steps=n_steps,
                        batch_size=min(256, n_steps * args.envs), n_epochs=4, gamma=1.0,
                        gae_lambda=0.95, learning_rate=3e-4, ent_coef=0.01,
                        policy_kwargs={"net_arch": [256, 256]}, seed=args.seed, verbose=0,
                        device="cpu")
    deadline = rc.Deadline(args.minutes)
    model.learn(total_timesteps=args.timesteps, callback=StopAt(deadline))
    train_seconds = deadline.elapsed()
    env.close()
    print(f"trained {model.num_timesteps} steps in {train_seconds:.0f} s", flush=True)

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict({"observation": obs, "action_mask": mask},
                                  action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    rc.evaluate(rc.PolicyBot(policy, "sb3-maskable-ppo"), rules, args, train_seconds,
                {"env_steps": int(model.num_timesteps)})
    return 0


if __name__ == "__main__":  # SubprocVecEnv starts processes that import this file
    sys.exit(main())
