"""Training at three and six players: the network's sizes, the learner's seats, exact resume,
and a tiny fh-train run per size whose agent plays legal moves under its rules (fh-eval)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest
import torch

from arena.duplicate import duplicate
from agents.neural import CheckpointError, NeuralBot, read_checkpoint
from fh_env import observe
from fh_env.engine import side_of
from train.checkpoint import load_checkpoint, save_atomic, state_of
from train.config import TrainConfig
from train.ppo import Trainer

torch.set_num_threads(1)

SMOKE = Path(__file__).resolve().parent.parent / "configs" / "train" / "smoke.toml"
SIZES = {"three-handed": 3, "six-handed": 6}


def tiny_config(rules: str, **changes) -> TrainConfig:
    """configs/train/smoke.toml under ``rules``, with some changes."""
    return dataclasses.replace(TrainConfig.from_toml(SMOKE), rules=rules, **changes)


class Legal:
    """Wraps a bot and checks that each of its moves is legal in the view it was given."""

    def __init__(self, bot) -> None:
        self.bot, self.name, self.moves = bot, bot.name, 0

    def check_rules(self, rules) -> None:
        self.bot.check_rules(rules)

    def act(self, view, rng: random.Random) -> int:
        action = self.bot.act(view, rng)
        assert (view.legal >> action) & 1, f"illegal move {action}"
        self.moves += 1
        return action


@pytest.mark.parametrize("rules", SIZES)
def test_network_sizes_and_learner_seats_follow_the_table_size(rules: str) -> None:
    players = SIZES[rules]
    lay = observe.layout(players)
    trainer = Trainer(tiny_config(rules, central_critic=True, league_random=0.5))
    assert trainer.model.policy.obs_size == lay.size
    assert trainer.model.policy.policy_head.out_features == lay.num_actions
    assert trainer.model.critic.net[0].in_features == lay.state_size
    rollout, info = trainer.collect()
    assert rollout.obs.shape[1] == lay.size and rollout.mask.shape[1] == lay.num_actions
    assert rollout.state_obs.shape[1] == lay.state_size
    assert all(m[a] for m, a in zip(rollout.mask, rollout.actions))
    hands = sum(len(v) for v in info["returns"].values())
    # Every seat of the learner's side ends each hand it played with one done decision: one
    # seat with three players (each for itself), three with six.
    learner_seats = 1 if players == 3 else 3
    assert rollout.dones.sum() <= learner_seats * hands
    assert rollout.dones.sum() > (learner_seats - 1) * hands
    assert [side_of(players, s) for s in range(players)].count(0) == learner_seats


@pytest.mark.parametrize("rules", SIZES)
def test_trainer_state_round_trip_at_other_sizes(rules: str, tmp_path: Path) -> None:
    cfg = tiny_config(rules, central_critic=True, league_random=0.3, league_rule=0.3,
                      bid_teacher_share=0.3)
    a = Trainer(cfg)
    assert set(a.compiled) == {"rule", "bid_teacher"}  # the rule bot's compiled twin
    for _ in range(2):
        a.train_update()
    save_atomic(state_of(a), tmp_path / "c.pt")
    b = Trainer(dataclasses.replace(cfg))
    load_checkpoint(b, tmp_path / "c.pt")
    a.train_update()
    b.train_update()
    assert all(torch.equal(x, y) for x, y in zip(a.model.parameters(), b.model.parameters()))
    # A checkpoint of one size is refused by a run of another.
    with pytest.raises(CheckpointError):
        load_checkpoint(Trainer(tiny_config("australian-no-nullo")), tmp_path / "c.pt")


@pytest.mark.parametrize("rules", SIZES)
def test_trump_first_is_refused_at_other_sizes(rules: str) -> None:
    with pytest.raises(ValueError, match="trump_first.*4-player"):
        tiny_config(rules, trump_first=True)
    tiny_config("australian-no-nullo", trump_first=True)  # four players: fine


def test_quick_configs_of_other_sizes_load() -> None:
    root = SMOKE.parent
    for name, players in (("quick-three", 3), ("quick-six", 6)):
        cfg = TrainConfig.from_toml(root / f"{name}.toml").validate()
        assert cfg.make_rules().players == players and not cfg.trump_first


@pytest.mark.parametrize("rules", SIZES)
def test_tiny_run_writes_an_agent_that_plays_its_size(rules: str, tmp_path: Path,
                                                      capsys) -> None:
    """fh-train end to end (imitation of the rule bot, a league with rule and random
    seats, a centralised critic, the final table), then the agent in fh-eval."""
    from arena import cli as evaluate
    from train import cli

    players = SIZES[rules]
    run = tmp_path / "run"
    code = cli.main(["--config", str(SMOKE), "--run-dir", str(run), "--no-progress",
                     "--rules", rules, "--total-steps", "2000", "--num-envs", "8",
                     "--bc-hands", "16", "--bc-chunk-hands", "8", "--central-critic", "true",
                     "--set", "league_rule=0.3", "--set", "league_random=0.3",
                     "--bid-teacher-share", "0.2", "--checkpoint-every", "5",
                     "--final-eval-deals", "3", "--set", "final_eval_opponents=['random']"])
    assert code == 0
    out = capsys.readouterr().out
    assert "random" in out and "95% CI" in out
    data = read_checkpoint(run / "agent.pt")
    assert data["rules"]["players"] == players
    assert data["obs_size"] == observe.layout(players).size
    assert data["num_actions"] == observe.layout(players).num_actions
    assert read_checkpoint(run / "checkpoint.pt")["train"]["global_step"] >= 2000

    bot = Legal(NeuralBot.load(run))
    result = duplicate(bot, "random", rules, deals=3, seed=5)
    assert result.players == players and bot.moves > 0
    with pytest.raises(CheckpointError, match=f"trained for {players} players"):
        duplicate(NeuralBot.load(run), "random", "australian-no-nullo", deals=1)
    # fh-eval --rules SIZE neural:RUN random
    assert evaluate.main(["--rules", rules, f"neural:{run}", "random", "--deals", "2",
                          "--no-progress"]) == 0
    assert "neural" in capsys.readouterr().out
    # sampling too: every move legal
    sampler = Legal(NeuralBot.load(run / "agent.pt", greedy=False))
    duplicate(sampler, "rule", rules, deals=2, seed=9)
    assert sampler.moves > 0
    assert np.isfinite(result.mean)
