"""Warm start by imitation: before PPO, the network learns to play like a teacher bot.

Why: from a random start, PPO in Five Hundred quickly learns that bidding loses (a random
player is set in nearly every contract it wins) and settles on passing every hand, a safe
local optimum from which it never learns to declare.  Starting from the teacher's bidding and
play (``bc_teacher``, the ``rule`` bot by default) puts the learner where contracts pay, and PPO
then improves on the teacher instead of unlearning to bid.

The teacher plays every seat of ``num_envs`` games (:class:`fh_env.envs.vector.VectorEnv`, each
seat seeing only its view).  A teacher that :func:`arena.batched.batch_player` takes decides for
every game at once, with the labels it would give one at a time: the ``rule`` bot as its compiled
twin (:mod:`agents.compiled.rule`, every table size), a neural agent in one forward pass over
the games where it is on turn (so a trained network can teach a new one, kickstarting); any
other bot decides game by game from its seat's view.  Every decision is recorded with the same
per-seat bookkeeping as PPO rollouts (:class:`train.ppo.RolloutBuffer`), so each decision's
value target is its seat's final hand reward.  Chunks of ``bc_chunk_hands`` hands are trained
on for ``bc_epochs`` epochs (masked cross-entropy on the teacher's action plus ``vf_coef`` times
the value error) and dropped, so memory stays small however many hands are imitated.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np
import torch
from torch import nn

from arena.batched import batch_player
from fh_env.envs.vector import VectorEnv, game_seed
from fh_env.view import seat_view

from .ppo import Rollout, RolloutBuffer, per_seat_gae

if TYPE_CHECKING:
    from .ppo import Trainer

BC_STREAM = 1 << 21  # the seed stream of imitation deals (rollouts use 1 << 20)


def teacher_games(trainer: "Trainer", bot: Any, hands: int, chunk: int) -> Rollout:
    """``hands`` complete hands of the teacher on every seat, all decisions recorded."""
    cfg = trainer.cfg
    n = min(cfg.num_envs, hands)
    venv = VectorEnv(n, trainer.rules, seed=game_seed(cfg.seed, BC_STREAM, chunk))
    obs, mask, seat = venv.obs, venv.mask, venv.seat
    rngs = [random.Random(trainer.py_rng.getrandbits(64)) for _ in range(n)]
    batched = batch_player(bot, trainer.rules)
    buffer = RolloutBuffer(n, venv.players)
    started, active = n, np.ones(n, dtype=bool)
    while active.any():
        rows = np.flatnonzero(active)
        actions = np.full(n, -1, dtype=np.int64)
        if batched is not None:
            actions[rows] = batched(venv.fast, rows, mask, rngs.__getitem__)
        else:
            for i in rows.tolist():
                actions[i] = bot.act(seat_view(venv.states[i], int(seat[i])), rngs[i])
        state_obs = trainer._state_features(rows, seat[rows], venv)
        buffer.add(rows, seat[rows], obs=obs[rows], mask=mask[rows], state_obs=state_obs,
                   actions=actions[rows], logprobs=np.zeros(len(rows), np.float32),
                   values=np.zeros(len(rows), np.float32))
        _, _, rewards, _, _, infos = venv.step(actions)
        for i in np.flatnonzero(infos["hand_over"]).tolist():
            buffer.end_hand(i, rewards[i] * cfg.reward_scale, tuple(range(venv.players)))
            if started < hands:
                started += 1
            else:
                active[i] = False
    return buffer.finish()


def imitate(trainer: "Trainer", ro: Rollout) -> dict[str, float]:
    """Epochs of masked cross-entropy (and value regression) on the teacher's decisions."""
    cfg = trainer.cfg
    _, returns = per_seat_gae(ro.rewards, ro.values, ro.dones, ro.next_index, 1.0, 1.0)
    t = {k: trainer._tensor(v) for k, v in dict(obs=ro.obs, mask=ro.mask, actions=ro.actions,
                                                ret=returns).items()}
    state_obs = None if ro.state_obs is None else trainer._tensor(ro.state_obs)
    size = len(ro)
    mb = math.ceil(size / max(1, math.ceil(size / 1024)))
    trainer.model.train()
    ce_sum, acc_sum, batches = 0.0, 0.0, 0
    for _ in range(cfg.bc_epochs):
        order = trainer.np_rng.permutation(size)
        for start in range(0, size, mb):
            idx = torch.from_numpy(order[start:start + mb]).to(trainer.device)
            logits, values = trainer.model(t["obs"][idx], t["mask"][idx],
                                           None if state_obs is None else state_obs[idx])
            ce = nn.functional.cross_entropy(logits, t["actions"][idx])
            v_loss = 0.5 * ((values - t["ret"][idx]) ** 2).mean()
            loss = ce + cfg.vf_coef * v_loss
            trainer.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(trainer.model.parameters(), cfg.max_grad_norm)
            trainer.optimizer.step()
            ce_sum += ce.item()
            acc_sum += (logits.argmax(-1) == t["actions"][idx]).float().mean().item()
            batches += 1
    return {"cross_entropy": ce_sum / batches, "accuracy": acc_sum / batches}


def warm_start(trainer: "Trainer", bot: Any) -> Iterator[tuple[int, dict[str, float]]]:
    """Imitate ``bc_hands`` teacher hands chunk by chunk; yield (hands so far, chunk stats)."""
    cfg = trainer.cfg
    for group in trainer.optimizer.param_groups:
        group["lr"] = cfg.bc_learning_rate
    done, chunk = 0, 0
    while done < cfg.bc_hands:
        hands = min(cfg.bc_chunk_hands, cfg.bc_hands - done)
        rollout = teacher_games(trainer, bot, hands, chunk)
        stats = imitate(trainer, rollout)
        done += hands
        chunk += 1
        yield done, stats
    trainer.bc_done = True
