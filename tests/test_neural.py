"""agents.neural: the trained policy behind the Bot protocol, and its checkpoint files."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.base import Bot
from arena.match import play_hand
from agents.neural import CheckpointError, NeuralBot, PolicyNet, make_neural_bot
from agents.registry import make_bot
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
    with pytest.raises(CheckpointError, match="truncated"):
        NeuralBot.load(bad)


def test_policy_net_shapes() -> None:
    net = PolicyNet(observe.OBS_SIZE, [8, 4])
    logits, value = net(torch.zeros(3, observe.OBS_SIZE))
    assert logits.shape == (3, 130) and value.shape == (3,)


# ---------------------------------------------------------------------- trump-first relabelling
def _play_positions(count: int) -> list:
    """Views of seats on turn in the play of suit contracts (rule bots, default rules)."""
    from agents.rule import RuleBot

    bot, rng, out = RuleBot(), random.Random(5), []
    for seed in range(200):
        state = State(Rules(), seed=seed)
        while not state.is_terminal:
            view = seat_view(state, state.turn)
            if state.phase.name == "PLAY" and state.context < 4 and rng.random() < 0.3:
                out.append(view)
            state.apply(bot.act(view, rng))
        if len({v.context for v in out}) == 4 and len(out) >= count:
            return out
    raise AssertionError("no positions under every trump suit")


def test_trump_first_relabels_cards_and_suits_of_real_positions() -> None:
    obs_index, action_index = observe.trump_first_indices()
    hand, tricks = observe.LAYOUT["hand"], observe.LAYOUT["tricks"]
    for view in _play_positions(60):
        t = view.context
        label = observe.TRUMP_FIRST[t]
        assert label[t] == 0 and label[t ^ 1] == 1  # trump first, its colour's suit second
        obs = observe.encode(view)
        assert obs[observe.TRUMP_SLICE].argmax() == t
        new = obs[obs_index[t]]
        expected = {label[c // 11] * 11 + c % 11 if c < 44 else c
                    for c in range(46) if view.hand >> c & 1}
        assert set(np.flatnonzero(new[hand])) == expected
        # the trick slots hold the same cards, relabelled, and the led suit moves with them
        assert new[tricks].sum() == obs[tricks].sum()
        # every legal play keeps its logit: action a reads the relabelled action's output
        for a in np.flatnonzero(observe.action_mask(view)):
            c = int(a) - 76
            if 0 <= c < 44:
                assert action_index[t, a] == 76 + label[c // 11] * 11 + c % 11
        assert (obs_index[4] == np.arange(observe.OBS_SIZE)).all()


def test_trump_first_net_reads_relabelled_observations() -> None:
    net = PolicyNet(observe.OBS_SIZE, [16], torch.Generator().manual_seed(0), trump_first=True)
    plain = PolicyNet(observe.OBS_SIZE, [16], torch.Generator().manual_seed(0))
    obs_index, action_index = observe.trump_first_indices()
    views = _play_positions(8)
    auction = seat_view(State(Rules(), seed=1), 1)
    obs = torch.from_numpy(np.stack([observe.encode(v) for v in views + [auction]]))
    logits, values = net(obs)
    ref_logits, ref_values = plain(obs)
    # the auction (no trump yet) is read as it is
    assert torch.equal(logits[-1], ref_logits[-1]) and values[-1] == ref_values[-1]
    for k, view in enumerate(views):
        t = view.context
        x = plain.trunk(obs[k][torch.from_numpy(obs_index[t].copy())])
        head = plain.policy_head(x)
        assert torch.allclose(logits[k], head[torch.from_numpy(action_index[t].copy())])
        assert torch.allclose(values[k], plain.value_head(x).squeeze(-1))


def test_trump_first_survives_checkpoints(tmp_path: Path) -> None:
    from train.checkpoint import load_into
    from agents.neural import read_checkpoint

    cfg = TrainConfig.from_toml(SMOKE)
    cfg.trump_first = True
    trainer = Trainer(cfg)
    export_agent(trainer, tmp_path / "agent.pt")
    save_atomic(state_of(trainer), tmp_path / "checkpoint.pt")
    bot = NeuralBot.load(tmp_path / "agent.pt")
    assert bot.net.trump_first
    obs = torch.from_numpy(observe.encode(_play_positions(1)[0])).unsqueeze(0)
    assert torch.equal(bot.net(obs)[0], trainer.model.policy.eval()(obs)[0])
    other = Trainer(TrainConfig.from_toml(SMOKE))  # trump_first off
    with pytest.raises(CheckpointError, match="trump_first"):
        load_into(other, read_checkpoint(tmp_path / "checkpoint.pt"))


def test_shipped_agent_loads_by_name_and_plays_well_against_random() -> None:
    from arena.duplicate import duplicate
    from agents.random_bot import RandomBot
    from agents.neural import CHECKPOINT_DIR

    path = CHECKPOINT_DIR / "ppo-selfplay.pt"
    assert path.stat().st_size < 5_000_000  # "a few MB at most"
    bot = make_neural_bot("ppo-selfplay")
    assert bot.net.trump_first and bot.rules.same_game(Rules())  # trained before open_nullo_ties=higher
    result = duplicate(bot, RandomBot(), Rules(), deals=20, seed=3)
    assert result.ci_low > 300  # rule itself scores about +530 a deal against random


def test_a_checkpoint_refuses_another_table_size_even_when_not_strict() -> None:
    """§9: a 4-player network cannot read a 3- or 6-player observation; strict_rules=0 does
    not change that (it would crash at the first move)."""
    for spec in ("neural:ppo-selfplay", "neural:ppo-selfplay,strict_rules=0"):
        with pytest.raises(CheckpointError, match="trained for 4 players and cannot play 3"):
            make_bot(spec, rules=Rules.preset("three-handed"))


@pytest.mark.parametrize("old", ["ppo-long", "ppo-distilled", "ppo-distilled-5", "ppo-distilled-f3",
                                 "ppo-distilled-f6", "ppo-distilled-b2"])
def test_older_shipped_names_still_load(old):
    """Checkpoints were renamed for what they are; the names they were first shipped under
    still load the same file, through the one alias table (agents.shipped.RENAMED)."""
    from agents.neural import resolve_checkpoint
    from agents.shipped import RENAMED

    new = RENAMED[old]
    assert resolve_checkpoint(old) == resolve_checkpoint(new)
    assert resolve_checkpoint(new).name == f"{new}.pt"
    assert not resolve_checkpoint(new).with_name(f"{old}.pt").exists()


def test_a_run_directory_names_its_checkpoint(tmp_path):
    """neural:DIR takes a training run's checkpoint.pt, or a pipeline run's best.pt (its
    training checkpoint first where both are there); a directory with neither is refused."""
    import shutil

    from agents.neural import CheckpointError, resolve_checkpoint

    shipped = resolve_checkpoint("ppo-selfplay")
    pipeline_run = tmp_path / "pipeline"
    pipeline_run.mkdir()
    shutil.copy(shipped, pipeline_run / "best.pt")
    assert resolve_checkpoint(pipeline_run) == pipeline_run / "best.pt"
    shutil.copy(shipped, pipeline_run / "checkpoint.pt")
    assert resolve_checkpoint(pipeline_run) == pipeline_run / "checkpoint.pt"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CheckpointError, match="not a run directory with a checkpoint.pt or best.pt"):
        resolve_checkpoint(empty)
