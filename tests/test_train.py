"""PPO pieces: masking, the loss, per-seat GAE and bookkeeping, config, and short real runs."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.neural import masked_logits
from fh_env import NUM_ACTIONS
from fh_env import actions as A
from train.config import TrainConfig, field_docs
from train.model import ActorCritic, legal_entropy, sample
from train.ppo import RolloutBuffer, Trainer, per_seat_gae, ppo_loss

torch.set_num_threads(1)


def _random_masks(rng: np.random.Generator, rows: int) -> torch.Tensor:
    mask = (rng.random((rows, NUM_ACTIONS)) < 0.1).astype(np.int8)
    mask[np.arange(rows), rng.integers(NUM_ACTIONS, size=rows)] = 1  # at least one legal
    return torch.from_numpy(mask)


SMOKE = Path(__file__).resolve().parent.parent / "configs" / "train" / "smoke.toml"


def tiny_config(**changes) -> TrainConfig:
    """configs/train/smoke.toml (self-play and snapshots only, no bots) with some changes."""
    return dataclasses.replace(TrainConfig.from_toml(SMOKE), **changes)


# ---------------------------------------------------------------------- masking
def test_masked_sampling_never_returns_an_illegal_action() -> None:
    rng = np.random.default_rng(0)
    gen = torch.Generator().manual_seed(0)
    for _ in range(20):
        mask = _random_masks(rng, 256)
        logits = torch.from_numpy(rng.normal(0, 5, (256, NUM_ACTIONS)).astype(np.float32))
        logits[mask == 0] += 1e4  # illegal actions would win by far if unmasked
        actions, logp = sample(masked_logits(logits, mask), gen)
        assert mask.gather(1, actions.unsqueeze(1)).all()
        assert torch.isfinite(logp).all()


def test_model_masks_its_own_logits() -> None:
    rng = np.random.default_rng(1)
    net = ActorCritic(12, [16], generator=torch.Generator().manual_seed(0))
    mask = _random_masks(rng, 64)
    logits, values = net(torch.randn(64, 12), mask)
    probs = torch.softmax(logits, -1)
    assert (probs[mask == 0] == 0).all()
    assert values.shape == (64,)
    entropy = legal_entropy(logits, mask)
    single = mask.sum(1) == 1
    assert torch.allclose(entropy[single], torch.zeros(int(single.sum())), atol=1e-6)
    assert (entropy <= torch.log(mask.sum(1).float()) + 1e-5).all()


def _loss_and_grad(illegal_value: float) -> tuple[float, torch.Tensor, dict]:
    rng = np.random.default_rng(2)
    cfg = TrainConfig()
    n = 32
    mask = _random_masks(rng, n)
    raw = torch.from_numpy(rng.normal(0, 1, (n, NUM_ACTIONS)).astype(np.float32))
    raw[mask == 0] = illegal_value
    raw.requires_grad_(True)
    legal_rows = [np.flatnonzero(m) for m in mask.numpy()]
    actions = torch.tensor([int(rng.choice(r)) for r in legal_rows])
    values = torch.from_numpy(rng.normal(0, 1, n).astype(np.float32)).requires_grad_(True)
    loss, stats = ppo_loss(raw, values, mask, actions,
                           old_logprobs=torch.full((n,), -1.5), old_values=torch.zeros(n),
                           advantages=torch.from_numpy(rng.normal(0, 1, n).astype(np.float32)),
                           returns=torch.ones(n), cfg=cfg)
    loss.backward()
    return loss.item(), raw.grad.clone(), stats


def test_loss_ignores_illegal_actions() -> None:
    """Changing the logits of illegal actions changes neither the loss nor any gradient."""
    base_loss, base_grad, base_stats = _loss_and_grad(0.0)
    for value in (50.0, -7.0, 1e6):
        loss, grad, stats = _loss_and_grad(value)
        assert loss == base_loss and stats == base_stats
        assert torch.equal(grad, base_grad)
    mask_rows = _random_masks(np.random.default_rng(2), 32)
    assert (base_grad[mask_rows == 0] == 0).all()


# ---------------------------------------------------------------------- per-seat bookkeeping
def test_buffer_links_each_seats_decisions_and_credits_its_last() -> None:
    buf = RolloutBuffer(num_envs=2)
    # env 0: seat 0 acts three times in a row (an exchange), then seat 2; env 1: seat 1, 3, 1
    order = [(0, 0), (1, 1), (0, 0), (1, 3), (0, 0), (0, 2), (1, 1)]
    for env, seat in order:
        buf.add(np.array([env]), np.array([seat]), obs=np.zeros((1, 3), np.float32),
                mask=np.ones((1, NUM_ACTIONS), np.int8), actions=np.zeros(1, np.int64),
                logprobs=np.zeros(1, np.float32), values=np.zeros(1, np.float32))
    buf.end_hand(0, np.array([5.0, -5.0, 5.0, -5.0]), (0, 2))
    buf.end_hand(1, np.array([2.0, -2.0, 2.0, -2.0]), (1, 3))
    ro = buf.finish()
    assert ro.next_index.tolist() == [2, 6, 4, -1, -1, -1, -1]
    assert ro.dones.tolist() == [False, False, False, True, True, True, True]
    assert ro.rewards.tolist() == [0, 0, 0, -2, 5, 5, -2]


def test_buffer_refuses_unfinished_hands() -> None:
    buf = RolloutBuffer(num_envs=1)
    buf.add(np.array([0]), np.array([0]), actions=np.zeros(1, np.int64))
    with pytest.raises(RuntimeError, match="hand in progress"):
        buf.finish()


def test_per_seat_gae_follows_each_seats_chain() -> None:
    # Two interleaved sequences: a = 0 -> 2 -> 3 (done, reward 1), b = 1 -> 4 (done, reward -1).
    rewards = np.array([0, 0, 0, 1, -1], np.float32)
    values = np.array([0.5, 0.2, 0.4, 0.8, -0.3], np.float32)
    dones = np.array([0, 0, 0, 1, 1], bool)
    nxt = np.array([2, 4, 3, -1, -1])
    gamma, lam = 0.9, 0.8
    adv, ret = per_seat_gae(rewards, values, dones, nxt, gamma, lam)
    d3 = 1 - 0.8
    d2 = 0 + gamma * 0.8 - 0.4
    d0 = 0 + gamma * 0.4 - 0.5
    d4 = -1 + 0.3
    d1 = 0 + gamma * -0.3 - 0.2
    expect = [d0 + gamma * lam * (d2 + gamma * lam * d3), d1 + gamma * lam * d4,
              d2 + gamma * lam * d3, d3, d4]
    np.testing.assert_allclose(adv, expect, rtol=1e-6)
    np.testing.assert_allclose(ret, np.array(expect) + values, rtol=1e-6)
    # With gamma = lambda = 1 the return of every decision is its hand's final reward.
    _, ret1 = per_seat_gae(rewards, values, dones, nxt, 1.0, 1.0)
    np.testing.assert_allclose(ret1, [1, -1, 1, 1, -1], rtol=1e-6)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=40), st.integers(0, 2**31),
       st.floats(0.5, 1.0), st.floats(0.0, 1.0))
def test_per_seat_gae_equals_plain_gae_on_each_seats_sequence(seats, seed, gamma, lam) -> None:
    """Interleaved per-seat chains give what ordinary GAE gives on each chain alone."""
    rng = np.random.default_rng(seed)
    buf = RolloutBuffer(num_envs=1)
    values = rng.normal(size=len(seats)).astype(np.float32)
    for seat in seats:
        buf.add(np.array([0]), np.array([seat]), actions=np.zeros(1, np.int64))
    final = rng.normal(size=4).astype(np.float32)
    buf.end_hand(0, final, (0, 1, 2, 3))
    ro = buf.finish()
    adv, ret = per_seat_gae(ro.rewards, values, ro.dones, ro.next_index, gamma, lam)
    for seat in set(seats):
        chain = [t for t, s in enumerate(seats) if s == seat]
        v = values[chain]
        rewards = np.zeros(len(chain), np.float32)
        rewards[-1] = final[seat]
        expect, running = np.zeros(len(chain)), 0.0
        for k in reversed(range(len(chain))):
            nxt = v[k + 1] if k + 1 < len(chain) else 0.0
            running = rewards[k] + gamma * nxt - v[k] + gamma * lam * running
            expect[k] = running
        np.testing.assert_allclose(adv[chain], expect, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(ret[chain], expect + v, rtol=1e-4, atol=1e-4)


def test_rollout_holds_only_learner_decisions_with_hand_rewards() -> None:
    trainer = Trainer(tiny_config(num_envs=6, rollout_steps=3))
    rollout, info = trainer.collect()
    assert len(rollout) >= 6 * 3
    # every decision chain ends with a done carrying the scaled team reward
    ends = np.flatnonzero(rollout.dones)
    assert len(ends) >= 2 * 6
    assert (rollout.next_index[~rollout.dones] > np.flatnonzero(~rollout.dones)).all()
    assert all(m[a] == 1 for m, a in zip(rollout.mask, rollout.actions))
    hands = [r for rs in info["returns"].values() for r in rs]
    assert len(ends) == 2 * len(hands)  # every seat calls in every hand (no misdeal here)
    assert not rollout.rewards[~rollout.dones].any()
    # both learner seats get the team's scaled reward on their last decision of the hand
    assert rollout.rewards.sum() == pytest.approx(2 * trainer.cfg.reward_scale * sum(hands))


# ---------------------------------------------------------------------- config
def test_config_overrides_and_round_trip(tmp_path: Path) -> None:
    cfg = TrainConfig().override(["num_envs=8", "hidden_sizes=[32, 16]", "anneal_lr=false",
                                  "eval_opponents=random,rule", "learning_rate=1e-3",
                                  "rules=australian"])
    assert cfg.num_envs == 8 and cfg.hidden_sizes == [32, 16] and cfg.anneal_lr is False
    assert cfg.eval_opponents == ["random", "rule"] and cfg.learning_rate == 1e-3
    cfg.save(tmp_path)
    assert TrainConfig.from_toml(tmp_path / "config.toml") == cfg
    assert (tmp_path / "rules.toml").read_text().startswith("deck = ")
    with pytest.raises(ValueError, match="unknown config key"):
        TrainConfig.from_dict({"num_env": 3})
    with pytest.raises(ValueError, match="num_envs"):
        TrainConfig().override(["num_envs=many"])
    with pytest.raises(ValueError, match="at least 1"):
        TrainConfig(num_envs=0).validate()
    assert set(field_docs()) == set(TrainConfig().to_dict())


def test_shipped_configs_load() -> None:
    root = Path(__file__).resolve().parent.parent / "configs" / "train"
    from train.pipeline import is_pipeline

    names = sorted(str(p.relative_to(root).with_suffix("")) for p in root.rglob("*.toml")
                   if not is_pipeline(p))  # pipelines: tests/test_pipeline.py
    assert {"quick", "default", "long", "long-continued"} <= set(names)
    for name in names:
        TrainConfig.from_toml(root / f"{name}.toml").validate()
    # one fine-tune recipe per 4-player preset, each under its own preset
    from fh_env.rules import PRESETS

    four = {p for p, options in PRESETS.items() if options.get("players", 4) == 4}
    presets = {n.split("/", 1)[1] for n in names if n.startswith("presets/")}
    assert presets == four - {"australian-no-nullo"}
    for preset in presets:
        assert TrainConfig.from_toml(root / "presets" / f"{preset}.toml").rules == preset


# ---------------------------------------------------------------------- warm start, teacher
class HighestBot:
    """A deterministic teacher: always the highest legal action id (10NT, then high cards)."""

    name = "highest"

    def act(self, view, rng) -> int:
        return view.legal.bit_length() - 1


def test_teacher_games_record_every_seat_of_complete_hands() -> None:
    from train.imitation import teacher_games

    trainer = Trainer(tiny_config(num_envs=3))
    rollout = teacher_games(trainer, HighestBot(), hands=5, chunk=0)
    assert rollout.dones.sum() == 4 * 5  # each seat's last decision of each of the 5 hands
    assert all(m[a] for m, a in zip(rollout.mask, rollout.actions))
    assert all(a == np.flatnonzero(m)[-1] for m, a in zip(rollout.mask, rollout.actions))
    assert len(rollout) > 5 * 40  # whole hands were played, not thrown in


def test_warm_start_imitates_the_teacher() -> None:
    from train.imitation import warm_start

    trainer = Trainer(tiny_config(bc_hands=60, bc_chunk_hands=20, bc_epochs=6,
                                  bc_learning_rate=3e-3, hidden_sizes=[32]))
    assert not trainer.bc_done
    accuracy = [stats["accuracy"] for _, stats in warm_start(trainer, HighestBot())]
    assert trainer.bc_done and len(accuracy) == 3
    assert accuracy[-1] > 0.8 and accuracy[-1] > accuracy[0]


def test_teacher_bids_are_not_trained_on() -> None:
    trainer = Trainer(tiny_config(bid_teacher_share=1.0, num_envs=6),
                      make_bot=lambda spec: HighestBot())
    rollout, _ = trainer.collect()
    assert len(rollout) > 0
    assert not rollout.mask[:, :30].any()  # no auction decision was stored
    trainer = Trainer(tiny_config(bid_teacher_share=0.0, num_envs=6))
    assert trainer.collect()[0].mask[:, :30].any()


# ---------------------------------------------------------------------- the command line
def test_cli_trains_logs_and_ends_with_an_evaluation_table(tmp_path: Path, capsys) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from train import cli

    run = tmp_path / "run"
    code = cli.main(["--config", str(SMOKE), "--run-dir", str(run), "--no-progress",
                     "--set", "total_steps=300", "--final-eval-deals", "3",
                     "--set", "league_random=0.5", "--bid-teacher-share", "0.5"])
    assert code == 0
    out = capsys.readouterr().out
    assert "random" in out and "95% CI" in out
    assert TrainConfig.from_toml(run / "config.toml").bid_teacher_share == 0.5
    assert (run / "eval.json").exists() and (run / "agent.pt").exists()
    events = EventAccumulator(str(run))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    assert {"losses/policy", "losses/value", "losses/entropy", "losses/approx_kl",
            "losses/clipfrac", "losses/explained_variance", "charts/steps_per_second",
            "charts/episodic_return", "eval/random/mean", "eval/random/ci_low",
            "eval/random/ci_high"} <= tags
    assert "hyperparameters/text_summary" in events.Tags()["tensors"]
    # a second run into the same directory is refused, as are bad settings
    assert cli.main(["--config", str(SMOKE), "--run-dir", str(run)]) == 2
    assert "already holds a run" in capsys.readouterr().err
    assert cli.main(["--set", "no_such_field=1", "--run-dir", str(tmp_path / "x")]) == 2
    assert "no_such_field" in capsys.readouterr().err
    assert cli.main(["--resume", str(run), "--config", str(SMOKE)]) == 2
    assert not (tmp_path / "x").exists()


def test_play_teacher_labels_card_play_only_and_pulls_the_loss() -> None:
    from agents.rule import RuleBot

    trainer = Trainer(tiny_config(play_teacher_coef=1.0, num_envs=6),
                      make_bot=lambda spec: RuleBot())
    ro, _ = trainer.collect()
    assert ro.teacher is not None and len(ro.teacher) == len(ro)
    auction = ro.mask[:, :A.DISCARD_BASE].any(1)
    assert (ro.teacher[auction] == -1).all()
    taught = ro.teacher[~auction]
    assert len(taught) and (taught >= 0).all()
    assert ro.mask[np.flatnonzero(~auction), taught].all()  # the teacher's actions are legal
    # the loss grows by exactly coef * cross-entropy of the teacher's actions
    n = len(ro)
    logits = torch.randn(n, NUM_ACTIONS, generator=torch.Generator().manual_seed(0))
    args = (logits, torch.zeros(n), torch.from_numpy(ro.mask), torch.from_numpy(ro.actions),
            torch.zeros(n), torch.zeros(n), torch.ones(n), torch.zeros(n))
    base, _ = ppo_loss(*args, trainer.cfg)
    pulled, stats = ppo_loss(*args, trainer.cfg, torch.from_numpy(ro.teacher))
    assert stats["teacher_ce"] > 0
    assert pulled.item() == pytest.approx(base.item() + stats["teacher_ce"], rel=1e-5)
    trainer.learn(ro)  # runs with the teacher term


def test_keep_eval_agents_writes_one_loadable_agent_per_evaluation(tmp_path: Path) -> None:
    from agents.neural import NeuralBot
    from train import cli

    run = tmp_path / "run"
    code = cli.main(["--config", str(SMOKE), "--run-dir", str(run), "--no-progress",
                     "--set", "total_steps=300", "--eval-every", "1", "--eval-deals", "2",
                     "--final-eval-opponents", "[]", "--keep-eval-agents", "true"])
    assert code == 0
    kept = sorted((run / "evals").glob("agent-*.pt"))
    updates = json.loads((run / "eval.json").read_text())["updates"]
    assert updates >= 2 and len(kept) == updates
    steps = [int(p.stem.split("-")[1]) for p in kept]
    assert steps == sorted(set(steps))  # one file per evaluation, named by its step
    bot = NeuralBot.load(kept[-1])
    assert bot.rules == TrainConfig.from_toml(run / "config.toml").make_rules()


def test_central_critic_learns_from_the_whole_state() -> None:
    from fh_env import observe

    trainer = Trainer(tiny_config(central_critic=True))
    rollout, _ = trainer.collect()
    assert rollout.state_obs.shape == (len(rollout), observe.STATE_SIZE)
    assert (rollout.state_obs[:, :observe.OBS_SIZE] == rollout.obs).all()  # own view first
    assert rollout.state_obs[:, observe.OBS_SIZE:].any()  # then the hidden cards
    critic = [p.detach().clone() for p in trainer.model.critic.parameters()]
    head = trainer.model.policy.value_head.weight.detach().clone()
    trainer.learn(rollout)
    assert not all(torch.equal(a, b) for a, b in zip(critic, trainer.model.critic.parameters()))
    assert torch.equal(head, trainer.model.policy.value_head.weight)  # unused with a critic


def test_init_policy_starts_a_run_from_a_trained_agent(tmp_path: Path, capsys) -> None:
    """A preset's agent is fine-tuned from the default rules' one: same network, other rules."""
    from agents.neural import read_checkpoint, resolve_checkpoint
    from train import cli
    from train.checkpoint import CheckpointError, load_initial_policy

    shipped = read_checkpoint(resolve_checkpoint("ppo-selfplay"))["policy"]
    net = dict(hidden_sizes=list(shipped["hidden_sizes"]), trump_first=True)
    trainer = Trainer(tiny_config(rules="australian", **net))
    load_initial_policy(trainer, "ppo-selfplay")
    for key, value in trainer.model.policy.state_dict().items():
        assert torch.equal(value, shipped["state_dict"][key]), key
    # another network is refused, naming the difference, and the weights stay as they were
    small = Trainer(tiny_config(hidden_sizes=[32]))
    before = {k: v.clone() for k, v in small.model.policy.state_dict().items()}
    with pytest.raises(CheckpointError, match="hidden_sizes|trump_first"):
        load_initial_policy(small, "ppo-selfplay")
    assert all(torch.equal(v, before[k]) for k, v in small.model.policy.state_dict().items())
    # from the command line: a missing agent is a one-line error, exit status 2
    assert cli.main(["--config", str(SMOKE), "--run-dir", str(tmp_path / "r"),
                     "--set", "init_policy='no-such-agent'"]) == 2
    assert "init_policy" in capsys.readouterr().err and not (tmp_path / "r").exists()
    with pytest.raises(ValueError, match="init_policy"):
        TrainConfig(init_policy="no-such-agent").validate()


def test_a_neural_teacher_labels_every_game_at_once_as_it_would_one_by_one() -> None:
    """A network teaches in one forward pass a step (kickstarting, configs/train/quick.toml);
    its labels are those its own act() gives game by game from each seat's view."""
    from agents.neural import NeuralBot
    from agents.registry import make_bot
    from train.imitation import teacher_games

    teacher = make_bot("neural:best")

    class OneByOne(NeuralBot):  # not batch_player's type: the view-by-view path
        pass

    slow = OneByOne.__new__(OneByOne)
    slow.__dict__.update(teacher.__dict__)
    rollouts = [teacher_games(Trainer(tiny_config(num_envs=4, rules="australian-no-nullo")),
                              bot, hands=8, chunk=0) for bot in (teacher, slow)]
    a, b = rollouts
    assert len(a) > 8 * 40
    for name in ("obs", "mask", "actions", "rewards", "dones"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_a_trained_teacher_of_other_rules_is_refused_before_the_run() -> None:
    with pytest.raises(ValueError, match=r"config bc_teacher='neural:best' is invalid with "
                                         r"rules='canadian': .*trained under other rules"):
        tiny_config(rules="canadian", bc_hands=10, bc_teacher="neural:best")
    tiny_config(rules="canadian", bc_hands=0, bc_teacher="neural:best")  # not imitated: no check
    tiny_config(rules="canadian", bc_hands=10, bc_teacher="neural:best-canadian")
    # the teachers of the bids and of the card play, where they are used
    with pytest.raises(ValueError, match=r"config bid_teacher='neural:best' is invalid"):
        tiny_config(rules="canadian", bid_teacher_share=0.2, bid_teacher="neural:best")
    with pytest.raises(ValueError, match=r"config play_teacher='nmc:best' is invalid"):
        tiny_config(rules="canadian", play_teacher_coef=0.1, play_teacher="nmc:best")
    tiny_config(rules="canadian", bid_teacher_share=0.0, bid_teacher="neural:best")
