"""PPO self-play for Five Hundred, readable top to bottom (in the style of CleanRL's ppo.py).

One update:

1. **Rollout** (:meth:`Trainer.collect`).  ``num_envs`` games are played side by side with
   :class:`fh_env.envs.vector.VectorEnv`, one hand per game (``episode="hand"``).  In every game one
   side is the learner (all its seats play the current network) and the other seats are drawn
   from the :class:`~train.league.League`.  (Sides: teams of two with four players, of three
   with six; with three players each plays for itself, so the learner holds one seat and the
   drawn opponent the two others.)  Only the learner's decisions are stored (in a
   ``bid_teacher_share`` of the games a bot makes the learner's auction calls; those are not
   stored either).  A game keeps dealing new hands until it has contributed ``rollout_steps``
   learner decisions, then waits for the hand it is in to end: a rollout holds complete hands
   only.  (Before the first rollout, :mod:`train.imitation` may warm the network up.)  The
   ``rule`` bot, wherever it plays (league seats, bid and play teacher), is its compiled twin
   (:mod:`agents.compiled.rule`, the same decisions): the league's ``rule`` seats are played
   inside ``VectorEnv.step`` (``bots=``), without a Python call per decision, at every table
   size.
2. **Per-seat bookkeeping.**  Turns in Five Hundred are not cyclic (the declarer exchanges
   several cards in a row, a nullo partner sits out, a trick's winner leads next), and the
   reward comes only at the end of the hand.  So each seat's decisions in a hand form their own
   sequence, linked by ``next_index``; when the hand ends, the seat's reward (its team's hand
   points minus the other team's, times ``reward_scale``) is credited to that seat's *last*
   decision, which is marked ``done``.  Every learner seat gets its side's reward.
3. **GAE per seat sequence** (:func:`per_seat_gae`): ``delta_t = r_t + gamma V(next_t) - V_t``
   where ``next_t`` is the same seat's next decision (none after ``done``), and advantages run
   backwards along that chain.  Because every sequence is complete, no value is bootstrapped.
4. **Update** (:func:`ppo_loss`): the clipped PPO objective with action masking: the masks
   stored with the rollout are applied again to the new logits, illegal logits become a large
   negative constant (no gradient flows to them), and the entropy bonus counts legal actions only.
   With ``play_teacher_coef`` the loss also pulls card play and discards toward a teacher bot's
   choices, recorded in the rollout (``Rollout.teacher``).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import torch
from torch import nn

from agents.neural import PolicyNet, masked_logits
from agents.compiled.rule import RuleSeats, compiles
from fh_env import actions as A
from fh_env import observe
from fh_env.engine import side_of
from fh_env.envs.vector import VectorEnv, game_seed
from fh_env.view import seat_view

from .config import TrainConfig
from .league import League, Opponent
from .model import ActorCritic, legal_entropy, sample


# ---------------------------------------------------------------------- rollout storage
@dataclass
class Rollout:
    """The learner's decisions of one rollout, in the order they were made."""

    obs: np.ndarray  # float32 [B, obs size of the table size's layout]
    state_obs: np.ndarray | None  # float32 [B, state size] with a centralised critic
    mask: np.ndarray  # int8 [B, num_actions]
    actions: np.ndarray  # int64 [B]
    logprobs: np.ndarray  # float32 [B]
    values: np.ndarray  # float32 [B]
    rewards: np.ndarray  # float32 [B]
    dones: np.ndarray  # bool [B]: the seat's last decision of its hand
    next_index: np.ndarray  # int64 [B]: the same seat's next decision in the hand, -1 if done
    teacher: np.ndarray | None = None  # int64 [B]: play_teacher's action, -1 in the auction

    def __len__(self) -> int:
        return len(self.actions)


class RolloutBuffer:
    """Collects learner decisions and links each seat's decisions of a hand into a sequence."""

    def __init__(self, num_envs: int, players: int = 4) -> None:
        self.chunks: dict[str, list[np.ndarray]] = {k: [] for k in (
            "obs", "state_obs", "mask", "actions", "logprobs", "values", "teacher")}
        self.rewards: list[float] = []
        self.dones: list[bool] = []
        self.next_index: list[int] = []
        self.last = np.full((num_envs, players), -1, dtype=np.int64)  # open sequence ends

    def add(self, envs: np.ndarray, seats: np.ndarray, **arrays: np.ndarray | None) -> None:
        """Append one decision for each row of ``envs`` (made by ``seats``)."""
        start = len(self.rewards)
        for key, value in arrays.items():
            if value is not None:
                self.chunks[key].append(value)
        for k, (env, seat) in enumerate(zip(envs.tolist(), seats.tolist())):
            prev = self.last[env, seat]
            if prev >= 0:
                self.next_index[prev] = start + k
            self.last[env, seat] = start + k
        n = len(envs)
        self.rewards += [0.0] * n
        self.dones += [False] * n
        self.next_index += [-1] * n

    def end_hand(self, env: int, rewards: np.ndarray, seats: tuple[int, ...]) -> None:
        """Credit each of ``seats`` its hand reward on its last decision; close its sequence."""
        for seat in seats:
            t = self.last[env, seat]
            if t >= 0:
                self.rewards[t] += float(rewards[seat])
                self.dones[t] = True
                self.last[env, seat] = -1

    def finish(self) -> Rollout:
        if (self.last >= 0).any():
            raise RuntimeError("a rollout ended with a hand in progress")
        cat = {k: np.concatenate(v) if v else None for k, v in self.chunks.items()}
        return Rollout(obs=cat["obs"], state_obs=cat["state_obs"], mask=cat["mask"],
                       actions=cat["actions"], logprobs=cat["logprobs"], values=cat["values"],
                       rewards=np.asarray(self.rewards, dtype=np.float32),
                       dones=np.asarray(self.dones, dtype=bool),
                       next_index=np.asarray(self.next_index, dtype=np.int64),
                       teacher=cat["teacher"])


def per_seat_gae(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray,
                 next_index: np.ndarray, gamma: float, lam: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns along each seat's own chain of decisions (see module docstring)."""
    adv = np.zeros(len(rewards), dtype=np.float32)
    for t in range(len(rewards) - 1, -1, -1):
        if dones[t]:
            adv[t] = rewards[t] - values[t]
        else:
            n = next_index[t]
            adv[t] = rewards[t] + gamma * values[n] - values[t] + gamma * lam * adv[n]
    return adv, adv + values


# ---------------------------------------------------------------------- the loss
def ppo_loss(logits: torch.Tensor, values: torch.Tensor, mask: torch.Tensor,
             actions: torch.Tensor, old_logprobs: torch.Tensor, old_values: torch.Tensor,
             advantages: torch.Tensor, returns: torch.Tensor, cfg: TrainConfig,
             teacher: torch.Tensor | None = None) -> tuple[torch.Tensor, dict[str, float]]:
    """The clipped PPO loss of one minibatch; ``logits`` are raw or masked (masked again here).

    With ``teacher`` (the teacher's action per row, -1 where there is none) the loss adds
    ``cfg.play_teacher_coef`` times the cross-entropy of the teacher's actions.
    """
    logits = masked_logits(logits, mask)
    logp = torch.log_softmax(logits, dim=-1).gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    entropy = legal_entropy(logits, mask).mean()
    logratio = logp - old_logprobs
    ratio = logratio.exp()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - logratio).mean()
        clipfrac = ((ratio - 1.0).abs() > cfg.clip_coef).float().mean()
    if cfg.norm_adv and len(advantages) > 1:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    pg_loss = torch.max(-advantages * ratio,
                        -advantages * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
    if cfg.clip_vloss:
        clipped = old_values + (values - old_values).clamp(-cfg.clip_coef, cfg.clip_coef)
        v_loss = 0.5 * torch.max((values - returns) ** 2, (clipped - returns) ** 2).mean()
    else:
        v_loss = 0.5 * ((values - returns) ** 2).mean()
    loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
    stats = {"policy": pg_loss.item(), "value": v_loss.item(), "entropy": entropy.item(),
             "approx_kl": approx_kl.item(), "clipfrac": clipfrac.item()}
    if teacher is not None and cfg.play_teacher_coef > 0:
        taught = teacher >= 0
        if taught.any():
            ce = nn.functional.cross_entropy(logits[taught], teacher[taught])
            loss = loss + cfg.play_teacher_coef * ce
            stats["teacher_ce"] = ce.item()
    return loss, stats


# ---------------------------------------------------------------------- the trainer
@dataclass
class _Tables:
    """What one rollout knows of each table: its opponent from the league, the learner's side,
    whether the bid teacher calls for the learner there, the bots' generators, whether the
    table still plays, and which seats the compiled rule bot plays inside ``venv.step``."""

    opponents: list[Opponent]
    learner_team: np.ndarray
    teacher_game: np.ndarray
    bot_rngs: list[random.Random]
    active: np.ndarray
    learner_steps: np.ndarray
    bot_seats: np.ndarray
    #: Per side, the seats outside it (a bit per seat): the opponent's, when the learner has it.
    others: list[int]
    rule_compiled: bool

    @classmethod
    def draw(cls, trainer: "Trainer", n: int) -> "_Tables":
        """The tables of a rollout, drawn in the trainer's generators' fixed order."""
        opponents = [trainer.league.draw(trainer.np_rng) for _ in range(n)]
        learner_team = trainer.np_rng.integers(trainer.sides, size=n)
        teacher_game = trainer.np_rng.random(n) < trainer.cfg.bid_teacher_share
        bot_rngs = [random.Random(trainer.py_rng.getrandbits(64)) for _ in range(n)]
        others = [sum(1 << s for s in range(trainer.players) if trainer.side_of_seat[s] != t)
                  for t in range(trainer.sides)]
        tables = cls(opponents, learner_team, teacher_game, bot_rngs,
                     np.ones(n, dtype=bool), np.zeros(n, dtype=np.int64),
                     np.zeros(n, dtype=np.uint8), others, "rule" in trainer.compiled)
        for i in range(n):
            tables.seat_bots(i)
        return tables

    def seat_bots(self, i: int) -> None:
        """Table ``i``'s seats for the compiled rule bot: the opponents', while it plays."""
        rule = self.rule_compiled and self.opponents[i].kind == "rule"
        self.bot_seats[i] = self.others[self.learner_team[i]] if rule and self.active[i] else 0


class Trainer:
    """Everything a run holds (train.checkpoint saves and restores all of it exactly).

    ``make_bot`` builds bots from specs (default: :func:`agents.registry.make_bot`).
    """

    def __init__(self, cfg: TrainConfig, make_bot: Callable[[str], Any] | None = None) -> None:
        cfg.validate()
        self.cfg = cfg
        self.rules = cfg.make_rules()
        torch.set_num_threads(cfg.torch_threads)
        self.device = torch.device(cfg.device)
        # Random generators: one of each kind, all from the seed, all saved in checkpoints.
        self.py_rng = random.Random(cfg.seed)  # bots' per-game generators
        self.np_rng = np.random.default_rng(cfg.seed)  # league draws, minibatch order
        self.torch_rng = torch.Generator().manual_seed(cfg.seed)  # init, action sampling
        layout = observe.layout(self.rules.players)  # this table size's observations, actions
        state_size = layout.state_size if cfg.central_critic else 0
        self.model = ActorCritic(layout.size, cfg.hidden_sizes, state_size, self.torch_rng,
                                 cfg.trump_first, layout.num_actions,
                                 cfg.features).to(self.device)
        #: The learner's side is drawn among these; the side of each seat.
        self.players, self.sides = self.rules.players, self.rules.sides
        self.side_of_seat = np.array([side_of(self.players, s) for s in range(self.players)])
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.learning_rate, eps=1e-5)
        shares = cfg.league_shares()
        # The bots of this run by role: league opponents, and the auction teacher.
        roles = {k: spec for k, spec in (("rule", "rule"), ("mc", cfg.mc_bot),
                                         ("random", "random")) if k in shares}
        if cfg.bid_teacher_share > 0:
            roles["bid_teacher"] = cfg.bid_teacher
        if cfg.play_teacher_coef > 0:
            roles["play_teacher"] = cfg.play_teacher
        if roles and make_bot is None:
            from agents.registry import make_bot
        self.bots = {role: make_bot(spec) for role, spec in roles.items()}  # type: ignore[misc]
        #: The roles played by the rule bot, as its compiled twin (agents.compiled.rule): the
        #: same decisions, made in compiled code from the game records (the league's ``rule``
        #: seats are played inside VectorEnv.step), at every table size.
        self.compiled = {role: RuleSeats(self.rules, params) for role, bot in self.bots.items()
                         if (params := compiles(bot)) is not None}
        self.league = League(shares, cfg.league_size, self.bots)
        self.venv = VectorEnv(cfg.num_envs, self.rules, seed=0, episode="hand")
        self.update = 0
        self.global_step = 0
        self.bc_done = cfg.bc_hands == 0  # the imitation warm start (train.imitation) is over
        #: (contract id or -1, declared by the learner's team, made) of each hand since the
        #: last evaluation; NO_CONTRACT (-1) hands and hands thrown in both read -1.
        self.contract_log: list[tuple[int, int, int]] = []
        #: Where rollouts come from: None, :meth:`collect` in this process; otherwise a callable
        #: ``collector(trainer) -> (rollout, info)`` such as :class:`train.workers.RayWorkers`.
        self.collector: Callable[["Trainer"], tuple[Rollout, dict[str, Any]]] | None = None

    # ------------------------------------------------------------------ acting
    def _state_features(self, rows: np.ndarray, seats: np.ndarray,
                        venv: VectorEnv | None = None) -> np.ndarray | None:
        """Centralised-critic input for the given games: encode_state from each seat's side."""
        if self.model.critic is None:
            return None
        return (venv or self.venv).encode_state(rows, seats)

    def _tensor(self, array: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(array).to(self.device)

    def collect(self) -> tuple[Rollout, dict[str, Any]]:
        """Play one rollout (see the module docstring); return it and some statistics.

        Each step routes every table's seat on turn to whoever plays it (:meth:`_who_plays`),
        lets each kind of player act on its rows, steps the tables, and ends the hands that
        ended (:meth:`_end_hands`)."""
        cfg, venv = self.cfg, self.venv
        obs, mask, seat = venv.reset(seed=game_seed(cfg.seed, 1 << 20, self.update))
        tables = _Tables.draw(self, venv.num_envs)
        buffer = RolloutBuffer(venv.num_envs, self.players)
        returns: dict[str, list[float]] = {}
        self.model.eval()
        while tables.active.any():
            actions = np.full(venv.num_envs, -1, dtype=np.int64)
            in_auction = mask[:, :A.DISCARD_BASE].any(1)
            learner, kinds = self._who_plays(tables, seat, in_auction)
            self._compiled_act(kinds, actions)
            self._network_act(learner, kinds, obs, mask, seat, in_auction, tables, buffer,
                              actions)
            self._snapshots_act(kinds, tables, obs, mask, actions)
            self._bots_act(kinds, seat, tables, actions)
            rule_twin = self.compiled.get("rule")
            if rule_twin is not None:  # the league's rule seats, played inside venv.step
                obs, mask, rewards, seat, done, infos = venv.step(
                    actions, bots=rule_twin, bot_seats=tables.bot_seats)
            else:
                obs, mask, rewards, seat, done, infos = venv.step(actions)
            self._end_hands(tables, rewards, infos, buffer, returns)
        return buffer.finish(), {"returns": returns}

    def _who_plays(self, tables: "_Tables", seat: np.ndarray, in_auction: np.ndarray
                   ) -> tuple[np.ndarray, list[str]]:
        """The tables where the learner plays, and the kind of player of every other table's
        seat on turn ("" for the learner's, "bid_teacher" for its taught calls)."""
        n = len(tables.active)
        learner = tables.active & (self.side_of_seat[seat] == tables.learner_team)
        # In "teacher" games the learner's auction calls come from cfg.bid_teacher.
        taught = learner & tables.teacher_game & in_auction
        learner &= ~taught
        kinds = [tables.opponents[i].kind if tables.active[i] and not learner[i] else ""
                 for i in range(n)]
        for i in np.flatnonzero(taught).tolist():
            kinds[i] = "bid_teacher"
        return learner, kinds

    def _compiled_act(self, kinds: list[str], actions: np.ndarray) -> None:
        """Compiled bots (the bid teacher's calls); the rule seats still on turn at the start
        of a hand are played by ``venv.step`` itself (action -1)."""
        for kind, twin in self.compiled.items():
            if kind == "rule":
                continue
            crow = np.array([i for i, k in enumerate(kinds) if k == kind], dtype=np.int64)
            if len(crow):
                actions[crow] = twin.act(self.venv.fast, crow)

    def _network_act(self, learner: np.ndarray, kinds: list[str], obs: np.ndarray,
                     mask: np.ndarray, seat: np.ndarray, in_auction: np.ndarray,
                     tables: "_Tables", buffer: "RolloutBuffer", actions: np.ndarray) -> None:
        """The current network, for the learner and for "self" opponents in one batch; the
        learner's decisions go to the buffer."""
        rows = np.flatnonzero(learner | (np.array(kinds) == "self"))
        if not len(rows):
            return
        is_learner = learner[rows]
        state_obs = self._state_features(rows, seat[rows])
        with torch.no_grad():
            logits, values = self.model(
                self._tensor(obs[rows]), self._tensor(mask[rows]),
                None if state_obs is None else self._tensor(state_obs))
            chosen, logp = sample(logits.cpu(), self.torch_rng)  # CPU generator
        actions[rows] = chosen.numpy()
        lrows = rows[is_learner]
        if len(lrows):
            buffer.add(lrows, seat[lrows], obs=obs[lrows], mask=mask[lrows],
                       teacher=self._play_teacher(lrows, seat, in_auction, tables.bot_rngs),
                       state_obs=None if state_obs is None else state_obs[is_learner],
                       actions=actions[lrows],
                       logprobs=logp.numpy()[is_learner],
                       values=values.cpu().numpy()[is_learner])
            tables.learner_steps[lrows] += 1

    def _snapshots_act(self, kinds: list[str], tables: "_Tables", obs: np.ndarray,
                       mask: np.ndarray, actions: np.ndarray) -> None:
        """Frozen snapshots of the league, one batch per snapshot."""
        for j, net in enumerate(self.league.snapshots):
            prow = np.array([i for i, k in enumerate(kinds) if k == "past"
                             and tables.opponents[i].snapshot == j], dtype=np.int64)
            if len(prow):
                with torch.no_grad():
                    logits = masked_logits(net(self._tensor(obs[prow]))[0],
                                           self._tensor(mask[prow]))
                    actions[prow] = sample(logits.cpu(), self.torch_rng)[0].numpy()

    def _bots_act(self, kinds: list[str], seat: np.ndarray, tables: "_Tables",
                  actions: np.ndarray) -> None:
        """Python bots, each from its seat's view only."""
        for i, kind in enumerate(kinds):
            if kind in self.bots and kind not in self.compiled:
                view = seat_view(self.venv.states[i], int(seat[i]))
                actions[i] = self.bots[kind].act(view, tables.bot_rngs[i])

    def _end_hands(self, tables: "_Tables", rewards: np.ndarray, infos: dict[str, Any],
                   buffer: "RolloutBuffer", returns: dict[str, list[float]]) -> None:
        """Close the hands that ended: rewards to the buffer, statistics, and a new opponent
        for the table, or the table's end once the learner has made its steps."""
        for i in np.flatnonzero(infos["hand_over"]).tolist():
            team = int(tables.learner_team[i])
            seats = tuple(np.flatnonzero(self.side_of_seat == team).tolist())
            buffer.end_hand(i, rewards[i] * self.cfg.reward_scale, seats)
            # Seat `team` is on side `team` at every table size.
            returns.setdefault(tables.opponents[i].kind, []).append(float(rewards[i, team]))
            result = infos["results"][i]
            by_learner = (result.declarer is not None
                          and int(self.side_of_seat[result.declarer]) == team)
            contract = -1 if result.contract is None else result.contract  # -1: none
            self.contract_log.append((contract, int(by_learner), int(bool(result.made))))
            if tables.learner_steps[i] >= self.cfg.rollout_steps:
                tables.active[i] = False
            else:
                tables.opponents[i] = self.league.draw(self.np_rng)
                tables.learner_team[i] = self.np_rng.integers(self.sides)
                tables.teacher_game[i] = self.np_rng.random() < self.cfg.bid_teacher_share
            tables.seat_bots(i)

    def _play_teacher(self, rows: np.ndarray, seat: np.ndarray, in_auction: np.ndarray,
                      rngs: list[random.Random]) -> np.ndarray | None:
        """play_teacher's choice for each learner decision of ``rows``; -1 in the auction."""
        bot = self.bots.get("play_teacher")
        if bot is None:
            return None
        out = np.full(len(rows), -1, dtype=np.int64)
        twin = self.compiled.get("play_teacher")
        if twin is not None:
            playing = ~in_auction[rows]
            out[playing] = twin.act(self.venv.fast, rows[playing])
            return out
        for k, i in enumerate(rows.tolist()):
            if not in_auction[i]:
                out[k] = bot.act(seat_view(self.venv.states[i], int(seat[i])), rngs[i])
        return out

    # ------------------------------------------------------------------ learning
    def learn(self, ro: Rollout) -> dict[str, float]:
        """PPO epochs over one rollout; return the mean losses and diagnostics."""
        cfg = self.cfg
        adv, ret = per_seat_gae(ro.rewards, ro.values, ro.dones, ro.next_index,
                                cfg.gamma, cfg.gae_lambda)
        t = {k: self._tensor(v) for k, v in dict(
            obs=ro.obs, mask=ro.mask, actions=ro.actions, logprobs=ro.logprobs,
            values=ro.values, adv=adv, ret=ret).items()}
        state_obs = None if ro.state_obs is None else self._tensor(ro.state_obs)
        teacher = None if ro.teacher is None else self._tensor(ro.teacher)
        size = len(ro)
        mb = math.ceil(size / cfg.num_minibatches)
        self.model.train()
        totals: dict[str, list[float]] = {}
        stop = False
        for _ in range(cfg.update_epochs):
            order = self.np_rng.permutation(size)
            for start in range(0, size, mb):
                idx = torch.from_numpy(order[start:start + mb]).to(self.device)
                logits, values = self.model(t["obs"][idx], t["mask"][idx],
                                            None if state_obs is None else state_obs[idx])
                loss, stats = ppo_loss(logits, values, t["mask"][idx], t["actions"][idx],
                                       t["logprobs"][idx], t["values"][idx], t["adv"][idx],
                                       t["ret"][idx], cfg,
                                       None if teacher is None else teacher[idx])
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm)
                self.optimizer.step()
                for k, v in stats.items():
                    totals.setdefault(k, []).append(v)
                if cfg.target_kl > 0 and stats["approx_kl"] > cfg.target_kl:
                    stop = True
                    break
            if stop:
                break
        out = {k: float(np.mean(v)) for k, v in totals.items()}
        var = float(np.var(ret))
        out["explained_variance"] = float("nan") if var == 0 else 1 - float(
            np.var(ret - ro.values)) / var
        return out

    def set_learning_rate(self) -> float:
        frac = 1.0 - self.global_step / self.cfg.total_steps if self.cfg.anneal_lr else 1.0
        lr = self.cfg.learning_rate * max(frac, 0.0)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        return lr

    def train_update(self) -> dict[str, Any]:
        """One rollout and one PPO update; then league snapshot bookkeeping."""
        start = time.perf_counter()
        rollout, info = self.collect() if self.collector is None else self.collector(self)
        lr = self.set_learning_rate()
        stats = self.learn(rollout)
        self.global_step += len(rollout)
        self.update += 1
        if self.update % self.cfg.snapshot_every == 0:
            self.league.add_snapshot(self.model.policy, self.update)
        elapsed = time.perf_counter() - start
        stats.update(steps=len(rollout), seconds=elapsed, learning_rate=lr,
                     steps_per_second=len(rollout) / max(elapsed, 1e-9), returns=info["returns"])
        return stats

    @property
    def policy(self) -> PolicyNet:
        return self.model.policy
