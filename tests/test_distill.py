"""Search distillation (train.distill): collected decisions, their targets, the regret, the CLI."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from agents.mc import distinct_plays, play_groups
from agents.neural import NeuralBot
from agents.registry import make_bot
from fh_env.compiled.engine import PLAY
from fh_env.engine import Phase, State
from fh_env.view import seat_view
from train import distill
from train.model import widen


@pytest.fixture(scope="module")
def collected() -> tuple[object, dict[str, np.ndarray]]:
    teacher = make_bot("nmc:ppo-selfplay,samples=8")
    return teacher, distill.collect(teacher, hands=6, seed=5, num_envs=3, progress=False)


def test_play_groups_cover_the_legal_actions_once_led_by_the_distinct_plays() -> None:
    for seed in range(30):
        state = State(seed=seed)
        rng = np.random.default_rng(seed)
        while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            view = seat_view(state, state.turn)
            legal = view.legal_actions()
            if state.phase == Phase.PLAY:
                groups = play_groups(view)
                assert sorted(a for g in groups for a in g) == sorted(legal)
                assert sorted(g[0] for g in groups) == distinct_plays(view)
            state.apply(int(rng.choice(legal)))


def test_records_give_back_the_observations_and_masks_of_their_decisions(collected) -> None:
    teacher, data = collected
    rules = teacher.network.rules
    # Replay: the stored records, re-encoded, are what a VectorEnv would show.
    obs, mask = distill.Batches(rules)(data["records"])
    assert obs.shape == (len(data["labels"]), teacher.network.net.obs_size)
    labels = torch.from_numpy(data["labels"].astype(np.int64))
    assert bool(mask.gather(1, labels[:, None]).all()), "every label is legal"
    play = data["records"]["phase"] == PLAY
    searched = ~np.isnan(data["scores"]).all(1)
    assert play.any() and (~play).any()
    assert not (searched & ~play).any(), "calls and discards carry no scores"
    # Scored actions are exactly legal ones, and the teacher's card scores the best.
    scored = ~np.isnan(data["scores"][searched])
    assert np.array_equal(scored, mask.numpy()[searched] == 1)
    best = np.nanmax(data["scores"][searched].astype(np.float32), axis=1)
    chosen = data["scores"][searched][np.arange(scored.shape[0]), data["labels"][searched]]
    assert np.allclose(chosen, best)


def test_calls_are_labelled_with_the_teachers_network(collected) -> None:
    teacher, data = collected
    obs, mask = distill.Batches(teacher.network.rules)(data["records"])
    calls = data["records"]["phase"] != PLAY
    greedy = distill._greedy(teacher.network.net, obs.numpy()[calls], mask.numpy()[calls])
    assert np.array_equal(greedy, data["labels"][calls])


def test_targets_soften_by_score_and_fall_back_to_the_label() -> None:
    mask = torch.tensor([[1, 1, 1, 0], [1, 1, 0, 0]], dtype=torch.int8)
    nan = math.nan
    scores = torch.tensor([[10.0, 0.0, 10.0, nan], [nan, nan, nan, nan]])
    labels = torch.tensor([0, 1])
    t = distill.targets(labels, scores, mask, temperature=5.0)
    e = math.exp(-2)
    assert torch.allclose(t[0], torch.tensor([1 / (2 + e), e / (2 + e), 1 / (2 + e), 0.0]))
    assert torch.equal(t[1], torch.tensor([0.0, 1.0, 0.0, 0.0]))
    hard = distill.targets(labels, scores, mask, temperature=0.0)
    assert torch.equal(hard[0], torch.tensor([1.0, 0.0, 0.0, 0.0]))


def test_anchored_targets_step_from_the_starting_policy() -> None:
    mask = torch.tensor([[1, 1, 1, 0], [1, 1, 0, 0]], dtype=torch.int8)
    nan = math.nan
    scores = torch.tensor([[10.0, 0.0, 10.0, nan], [nan, nan, nan, nan]])
    prior = torch.log(torch.tensor([[0.1, 0.8, 0.1, 0.0], [0.3, 0.7, 0.0, 0.0]]))
    t = distill.targets(torch.tensor([0, 0]), scores, mask, temperature=5.0, prior=prior)
    weights = torch.tensor([0.1 * math.exp(2), 0.8, 0.1 * math.exp(2), 0.0])
    assert torch.allclose(t[0], weights / weights.sum())
    # Where the search did not run, the starting policy itself, not the teacher's label.
    assert torch.allclose(t[1], torch.tensor([0.3, 0.7, 0.0, 0.0]))


def test_targets_take_a_temperature_per_decision() -> None:
    """Searched calls and cards fit at their own temperatures (``--call-temperature``)."""
    mask = torch.ones((2, 2), dtype=torch.int8)
    scores = torch.tensor([[10.0, 0.0], [10.0, 0.0]])
    t = distill.targets(torch.tensor([0, 0]), scores, mask, torch.tensor([5.0, 20.0]))
    assert torch.allclose(t[0], torch.softmax(torch.tensor([2.0, 0.0]), 0))
    assert torch.allclose(t[1], torch.softmax(torch.tensor([0.5, 0.0]), 0))


def test_regret_is_the_score_given_up_by_the_greedy_action() -> None:
    nan = math.nan
    scores = torch.tensor([[10.0, 4.0, nan], [nan, nan, nan], [1.0, 3.0, nan]])
    logits = torch.tensor([[0.0, 1.0, 5.0], [1.0, 0.0, 0.0], [0.0, 2.0, -1.0]])
    logits[0, 2] = -1e9  # illegal
    assert distill.regret(logits, scores) == (6.0, 2)
    # a greedy action the search did not score (a deal branch's few candidates) is not counted
    scores = torch.cat([scores, torch.tensor([[5.0, nan, 2.0]])])
    logits = torch.cat([logits, torch.tensor([[0.0, 3.0, 1.0]])])
    assert distill.regret(logits, scores) == (6.0, 2)


def test_fitting_moves_the_network_toward_the_teacher(collected, tmp_path) -> None:
    teacher, data = collected
    student = NeuralBot.load("ppo-selfplay")
    torch.manual_seed(0)
    for p in student.net.parameters():  # a scrambled start, so that there is much to learn
        p.data.add_(torch.randn_like(p) * 0.05)
    batches = distill.Batches(student.rules)
    everything = np.arange(len(data["labels"]))
    before = distill.evaluate(student.net, data, everything, batches)
    distill.fit(student.net, data, student.rules, epochs=8, learning_rate=1e-3, holdout=0.0,
                progress=False)
    after = distill.evaluate(student.net, data, everything, batches)
    assert after["regret"] < before["regret"]
    assert after["card_agreement"] > before["card_agreement"]


def test_command_line_collects_fits_and_refuses_bad_files(tmp_path, capsys) -> None:
    data = tmp_path / "d.npz"
    assert distill.main(["collect", "--teacher", "nmc:ppo-selfplay,samples=4", "--hands", "2",
                         "--num-envs", "2", "--seed", "3", "--out", str(data)]) == 0
    out = tmp_path / "agent.pt"
    assert distill.main(["fit", "--init", "ppo-selfplay", "--data", str(data), "--epochs", "1",
                         "--holdout", "0.5", "--out", str(out)]) == 0
    assert NeuralBot.load(str(out)).net.obs_size == NeuralBot.load("ppo-selfplay").net.obs_size
    bad = tmp_path / "bad.npz"
    bad.write_bytes(data.read_bytes()[:100])
    capsys.readouterr()
    assert distill.main(["fit", "--init", "ppo-selfplay", "--data", str(bad), "--out",
                         str(tmp_path / "x.pt")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("python -m train.distill: error: cannot read") and "\n" not in err
    assert not (tmp_path / "x.pt").exists()
    assert distill.main(["collect", "--teacher", "rule", "--hands", "2", "--seed", "1",
                         "--out", str(tmp_path / "y.npz")]) == 2
    assert distill.main(["fit", "--init", "ppo-selfplay", "--data", str(data), "--temperature",
                         "-1", "--out", str(tmp_path / "z.pt")]) == 2
    assert not (tmp_path / "z.pt").exists()
    wide = tmp_path / "wide.pt"
    assert distill.main(["fit", "--init", "ppo-selfplay", "--data", str(data), "--epochs", "1",
                         "--hidden", "300,260,256", "--out", str(wide)]) == 0
    assert NeuralBot.load(str(wide)).net.hidden_sizes == [300, 260, 256]
    feat = tmp_path / "feat.pt"
    assert distill.main(["fit", "--init", "ppo-selfplay", "--data", str(data), "--epochs", "1",
                         "--features", "--hidden", "300,256", "--out", str(feat)]) == 0
    net = NeuralBot.load(str(feat)).net
    assert net.features and net.hidden_sizes == [300, 256]
    assert distill.main(["fit", "--init", str(feat), "--data", str(data), "--epochs", "1",
                         "--features", "--out", str(tmp_path / "feat2.pt")]) == 0
    assert NeuralBot.load(str(tmp_path / "feat2.pt")).net.features
    capsys.readouterr()
    for bad_sizes in ("128,128", "wide", "300,0"):
        assert distill.main(["fit", "--init", "ppo-selfplay", "--data", str(data), "--hidden",
                             bad_sizes, "--out", str(tmp_path / "w.pt")]) == 2
        assert "\n" not in capsys.readouterr().err.strip()
    assert not (tmp_path / "w.pt").exists()


def test_a_widened_network_computes_what_it_started_from() -> None:
    net = NeuralBot.load("ppo-selfplay").net
    gen = torch.Generator().manual_seed(1)
    obs = (torch.rand(32, net.obs_size, generator=gen) < 0.05).float()
    logits, values = net(obs)
    for sizes in ([256, 256], [512, 300], [512, 512, 256, 256]):
        wide = widen(net, sizes, gen)
        assert wide.hidden_sizes == sizes
        wide_logits, wide_values = wide(obs)
        assert torch.allclose(wide_logits, logits, atol=1e-4)
        assert torch.allclose(wide_values, values, atol=1e-4)
    # the new units do learn: a gradient reaches the weights that read them
    wide = widen(net, [512, 512])
    wide(obs)[0].logsumexp(1).sum().backward()
    assert wide.policy_head.weight.grad[:, 256:].abs().sum() > 0
    with pytest.raises(ValueError, match="cannot widen"):
        widen(net, [128, 256])
    with pytest.raises(ValueError, match="cannot widen"):
        widen(net, [512])
    with pytest.raises(ValueError, match="cannot widen"):
        widen(net, [512, 512, 128])  # an added layer narrower than the last old one


def test_an_interrupted_collection_keeps_what_it_has(monkeypatch) -> None:
    """Ctrl-C (or SIGTERM, through main) mid-collection returns the decisions so far, every
    array the same length, instead of losing them."""
    teacher = make_bot("nmc:ppo-selfplay,samples=4")
    calls = {"n": 0}
    decide = teacher.decide

    def interrupted(view, rng):
        calls["n"] += 1
        if calls["n"] == 30:
            raise KeyboardInterrupt
        return decide(view, rng)

    monkeypatch.setattr(teacher, "decide", interrupted)
    data = distill.collect(teacher, hands=50, seed=3, num_envs=4, progress=False)
    n = len(data["labels"])
    assert 0 < n < 50 * 40
    assert len(data["records"]) == len(data["scores"]) == n
    assert np.isfinite(data["scores"].astype(np.float32)).sum(axis=1).max() > 1  # searched


@pytest.mark.parametrize("spec", ["nmc:ppo-selfplay,samples=4", "nmc:best-six-handed,samples=2"])
def test_an_opponent_holds_one_partnership_and_its_decisions_are_not_stored(spec: str) -> None:
    """``--opponent rule``: in every hand only one team's decisions are stored (seats of one
    parity, at four players and at six, §9.2), the sides swap from one hand of a table to the
    next, and the stored ones are still searched."""
    teacher = make_bot(spec)
    data = distill.collect(teacher, hands=12, seed=9, num_envs=2, progress=False,
                           opponent="rule")
    records = data["records"]
    sides: dict[bytes, set[int]] = {}
    for record in records:
        sides.setdefault(record["dealt_hands"].tobytes(), set()).add(int(record["turn"]) % 2)
    assert len(sides) >= 10, "a dozen hands, each with stored decisions"
    assert all(len(s) == 1 for s in sides.values()), "one partnership a hand"
    assert {next(iter(s)) for s in sides.values()} == {0, 1}, "the sides swap"
    assert np.isfinite(data["scores"].astype(np.float32)).sum(axis=1).max() > 1
    with pytest.raises(ValueError, match="unknown bot 'nobot'"):
        distill.collect(teacher, hands=1, seed=9, num_envs=1, progress=False, opponent="nobot")


def test_an_opponent_holds_both_other_seats_at_three_players() -> None:
    """Three players are three sides (§9.1): with ``--opponent rule`` the network holds one seat
    a hand, the bot the two others; only that seat's decisions are stored, and the network's
    seat moves on from one hand of a table to the next, through all three."""
    teacher = make_bot("nmc:best-three-handed,samples=2")
    data = distill.collect(teacher, hands=12, seed=9, num_envs=2, progress=False,
                           opponent="rule")
    seats: dict[bytes, set[int]] = {}
    for record in data["records"]:
        seats.setdefault(record["dealt_hands"].tobytes(), set()).add(int(record["turn"]))
    assert len(seats) >= 10, "a dozen hands, each with stored decisions"
    assert all(len(s) == 1 for s in seats.values()), "one seat a hand"
    assert {next(iter(s)) for s in seats.values()} == {0, 1, 2}, "the seat moves on"
    assert np.isfinite(data["scores"].astype(np.float32)).sum(axis=1).max() > 1


def test_deal_branches_against_mcfast_give_the_same_data_for_the_same_seed() -> None:
    """``--opponent mcfast`` (no batched player: asked row by row, and drawing its worlds in
    the branches from a stream of the collection's seed): the same seed gives the same
    decisions and scores, another seed other ones."""
    teacher = distill.make_teacher("nmc:best-three-handed", "deal")
    cards, deal = distill.SEARCH_PARTS["deal"]

    def run(seed: int) -> dict[str, np.ndarray]:
        return distill.collect(teacher, hands=3, seed=seed, num_envs=2, progress=False,
                               opponent="mcfast:samples=2", cards=cards, deal=deal)

    first, again, other = run(4), run(4), run(5)
    assert first["records"].tobytes() == again["records"].tobytes()
    assert np.array_equal(first["scores"], again["scores"], equal_nan=True)
    assert first["records"].tobytes() != other["records"].tobytes()
    assert np.isfinite(first["scores"].astype(np.float32)).sum(axis=1).max() > 1


@pytest.mark.parametrize("part", ["leads", "nullo"])
def test_a_card_search_step_of_part_of_the_cards_stores_that_part_only(part: str) -> None:
    """``nmc:...,cards=leads`` (or ``nullo``) searches the first card of each trick (or the cards
    of nullo-type contracts) and lets the network play the rest: only the searched decisions
    are stored, so that nothing the search did not score is fitted as if it had."""
    from fh_env.actions import NULLO_TYPES

    spec = "best-australian" if part == "nullo" else "ppo-selfplay"
    teacher = make_bot(f"nmc:{spec},samples=4,cards={part}")
    data = distill.collect(teacher, hands=40 if part == "nullo" else 4, seed=9, num_envs=8,
                           progress=False)
    records = data["records"]
    assert len(records) and (records["phase"] == PLAY).all()
    if part == "leads":
        assert (records["ntrick"] == 0).all()
    else:
        assert np.isin(records["contract"], NULLO_TYPES).all()
    scored = np.isfinite(data["scores"].astype(np.float32)).sum(axis=1) > 1
    assert scored.mean() > 0.5  # most have two or more cards to search


def test_a_call_search_collection_stores_scored_calls_only(tmp_path, capsys) -> None:
    """``--search calls``: the auction's decisions only, each scored on the network's
    favourite calls, labelled with the best of them; the CLI refuses a teacher that does not
    search calls."""
    teacher = make_bot("nmc:ppo-selfplay,samples=2,calls=6")
    data = distill.collect(teacher, hands=6, seed=4, num_envs=3, progress=False, cards=False)
    assert (data["records"]["phase"] == 0).all() and len(data["labels"]) >= 12
    scores = data["scores"].astype(np.float32)
    scored = ~np.isnan(scores)
    assert scored.any(1).all() and (scored.sum(1) <= 4).all()
    chosen = scores[np.arange(len(scores)), data["labels"]]
    assert np.allclose(chosen, np.nanmax(scores, axis=1))
    out = tmp_path / "c.npz"
    assert distill.main(["collect", "--teacher", "nmc:ppo-selfplay,samples=2", "--search", "calls",
                         "--hands", "1", "--seed", "1", "--out", str(out)]) == 2
    assert "calls=N" in capsys.readouterr().err and not out.exists()
