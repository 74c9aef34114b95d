"""agents.neural: the trained policy behind the Bot protocol, and its checkpoint files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import torch

from agents.base import Bot
from agents.match import play_hand
from agents.neural import CheckpointError, NeuralBot, PolicyNet, make_neural_bot
from fh_env import Rules, State, observe, seat_view
from train.checkpoint import export_agent, save_atomic, state_of
from train.config import TrainConfig
from train.ppo import Trainer

torch.set_num_threads(1)
SMOKE = Path(__file__).resolve().parent.parent / "configs" / "train" / "smoke.toml"


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[Trainer, Path]:
    run = tmp_path_factory.mktemp("run")
    trainer = Trainer(TrainConfig.from_toml(SMOKE))
    trainer.train_update()
    save_atomic(state_of(trainer), run / "checkpoint.pt")
    export_agent(trainer, run / "agent.pt")
    return trainer, run


@pytest.mark.parametrize("greedy", [True, False])
def test_plays_only_legal_actions_through_whole_hands(trained, greedy: bool) -> None:
    _, run = trained
    bot = NeuralBot.load(run / "agent.pt", greedy=greedy)
    assert isinstance(bot, Bot)
    for seed in range(6):
        state = play_hand(State(Rules(), seed=seed), [bot] * 4,
                          [random.Random(seed * 4 + s) for s in range(4)])
        assert state.is_terminal  # play_hand applies each action, so illegal ones would raise


def test_greedy_plays_the_most_likely_legal_action(trained) -> None:
    trainer, run = trained
    bot = NeuralBot.load(run, greedy=True)  # a run directory resolves to its checkpoint.pt
    state = State(Rules(), seed=3)
    view = seat_view(state, state.turn)
    logits, _ = trainer.model.policy(torch.from_numpy(observe.encode(view)).unsqueeze(0))
    mask = torch.from_numpy(observe.action_mask(view))
    expected = int(torch.argmax(logits[0].masked_fill(mask == 0, -1e9)))
    assert bot.act(view, random.Random(0)) == expected


def test_sampling_is_reproducible_from_the_rng(trained) -> None:
    _, run = trained
    bot = NeuralBot.load(run / "agent.pt", greedy=False)
    state = State(Rules(), seed=8)
    view = seat_view(state, state.turn)
    first = [bot.act(view, random.Random(k)) for k in range(30)]
    assert first == [bot.act(view, random.Random(k)) for k in range(30)]
    assert all(view.legal >> a & 1 for a in first)


def test_agent_file_is_small_and_loads_safely(trained) -> None:
    _, run = trained
    data = torch.load(run / "agent.pt", weights_only=True)
    assert "train" not in data and "critic" not in data
    assert (run / "agent.pt").stat().st_size < (run / "checkpoint.pt").stat().st_size


def test_refuses_other_rules_unless_asked(trained) -> None:
    _, run = trained
    state = State(Rules.preset("australian"), seed=1)
    view = seat_view(state, state.turn)
    with pytest.raises(CheckpointError, match="other rules"):
        NeuralBot.load(run / "agent.pt").act(view, random.Random(0))
    assert view.legal >> NeuralBot.load(run / "agent.pt", strict_rules=False).act(
        view, random.Random(0)) & 1


def test_names_resolve_and_errors_are_clear(trained, tmp_path: Path) -> None:
    _, run = trained
    assert make_neural_bot(str(run / "agent.pt")).greedy
    assert not make_neural_bot(f"{run / 'agent.pt'}:sample").greedy
    with pytest.raises(CheckpointError, match="no checkpoint 'no-such-name'"):
        make_neural_bot("no-such-name")
    with pytest.raises(CheckpointError, match="needs a checkpoint"):
        make_neural_bot("")
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"PK\x03\x04 truncated zip")
    with pytest.raises(CheckpointError, match="corrupt"):
        NeuralBot.load(bad)


def test_policy_net_shapes() -> None:
    net = PolicyNet(observe.OBS_SIZE, [8, 4])
    logits, value = net(torch.zeros(3, observe.OBS_SIZE))
    assert logits.shape == (3, 130) and value.shape == (3,)
