"""A network's nullo branch (agents.neural.PolicyNet.nullo) and ``python -m train.distill join``."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from agents.neural import CheckpointError, NeuralBot, PolicyNet
from fh_env import actions as A
from fh_env import observe
from fh_env.engine import Phase, State
from fh_env.rules import Rules
from fh_env.view import seat_view
from train import distill

RULES = Rules.preset("australian")


def _positions(rules: Rules = RULES) -> dict[str, list[np.ndarray]]:
    """Observations of random hands, by kind: a nullo contract's card play, its exchange, a
    suit contract's card play, the auction."""
    lay = observe.layout(rules.players)
    kinds: dict[str, list[np.ndarray]] = {"nullo play": [], "nullo exchange": [],
                                          "suit play": [], "auction": []}
    for seed in range(2000):
        rng = random.Random(seed)
        state = State(rules, seed=seed)
        seen: list[tuple[str, np.ndarray]] = []
        while not state.is_terminal:
            phase = state.phase
            nullo = state.contract in A.NULLO_TYPES
            kind = ("auction" if phase == Phase.AUCTION else
                    ("nullo " if nullo else "suit ") + ("play" if phase == Phase.PLAY
                                                        else "exchange"))
            seen.append((kind, lay.encode(seat_view(state, state.turn)).copy()))
            state.apply(rng.choice(state.legal_actions()))
        for kind, obs in seen:
            if kind in kinds and len(kinds[kind]) < 40:
                kinds[kind].append(obs)
        if all(len(v) >= 40 for v in kinds.values()):
            break
    assert all(kinds.values()), {k: len(v) for k, v in kinds.items()}
    return kinds


@pytest.mark.parametrize("preset", ["australian", "three-handed", "six-handed"])
def test_the_branch_plays_the_cards_of_nullo_contracts_and_nothing_else(preset: str) -> None:
    rules = Rules.preset(preset)
    lay = observe.layout(rules.players)
    four = rules.players == 4  # the relabelling reads 4 players only
    shape = dict(obs_size=lay.size, hidden_sizes=[32], trump_first=four,
                 num_actions=lay.num_actions, features=True)
    gen = torch.Generator().manual_seed(3)
    main, other = PolicyNet(**shape, generator=gen), PolicyNet(**shape, generator=gen)
    joined = main.with_nullo_branch(other)
    kinds = _positions(rules)
    obs = torch.from_numpy(np.concatenate([np.stack(v) for v in kinds.values()]))
    owner = np.concatenate([[k] * len(v) for k, v in kinds.items()])
    with torch.no_grad():
        logits, values = joined(obs)
        want = {"main": main(obs), "nullo": other(obs)}
    for kind in kinds:
        rows = torch.from_numpy(owner == kind)
        source = want["nullo" if kind == "nullo play" else "main"]
        assert torch.equal(logits[rows], source[0][rows]), kind
        assert torch.equal(values[rows], source[1][rows]), kind
        other_source = want["main" if kind == "nullo play" else "nullo"]
        assert not torch.equal(logits[rows], other_source[0][rows]), kind


def test_a_branch_needs_a_table_sizes_layout() -> None:
    with pytest.raises(ValueError, match="nullo branch .which reads the phase and contract. reads a table size"):
        PolicyNet(observe.OBS_SIZE + 1, [16], nullo_branch=True)


def test_join_writes_an_agent_that_loads_and_refuses_what_cannot_join(tmp_path, capsys) -> None:
    out = tmp_path / "joined.pt"
    distill.join_nullo_branch("distill-australian-2", "distill-australian", out)
    bot = NeuralBot.load(out)
    assert bot.net.nullo_branch and bot.rules == RULES
    base, nullo = NeuralBot.load("distill-australian-2").net, NeuralBot.load(
        "distill-australian").net
    kinds = _positions()
    for kind, source in (("nullo play", nullo), ("suit play", base), ("auction", base)):
        obs = torch.from_numpy(np.stack(kinds[kind]))
        with torch.no_grad():
            assert torch.equal(bot.net(obs)[0], source(obs)[0]), kind
    with pytest.raises(CheckpointError, match="cannot be joined again"):
        distill.join_nullo_branch(out, "distill-australian", tmp_path / "again.pt")
    with pytest.raises(CheckpointError, match="play other rules"):
        distill.join_nullo_branch("distill-australian-2", "distill-branches-2", tmp_path / "x.pt")
    with pytest.raises(CheckpointError, match="other shapes or inputs"):
        distill.join_nullo_branch("distill-australian-2", "ppo-australian", tmp_path / "y.pt")
    assert not (tmp_path / "x.pt").exists() and not (tmp_path / "y.pt").exists()
    assert distill.main(["join", "--base", "distill-australian-2", "--nullo", "ppo-australian",
                         "--out", str(tmp_path / "z.pt")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("python -m train.distill: error:") and "\n" not in err


def test_network_rollouts_refuse_a_branched_agent(tmp_path) -> None:
    from agents.registry import make_bot

    out = tmp_path / "joined.pt"
    distill.join_nullo_branch("distill-australian-2", "distill-australian", out)
    make_bot(f"nmc:{out}", RULES)  # rule-bot rollouts, as before
    with pytest.raises(ValueError, match="nullo branch, which network rollouts do not compile"):
        make_bot(f"nmc:{out},rollout=net", RULES)
