"""Deal branches (train.branches): each candidate played out on the dealt cards, as the engine
plays it, and the collection that stores them."""

from __future__ import annotations

import random
from collections.abc import Iterable

import numpy as np
import pytest
import torch

from arena.batched import batch_player, view_player
from agents.mc import team_score
from agents.neural import NeuralBot
from agents.registry import make_bot
from fh_env import observe
from fh_env.actions import NULLO, NULLO_TYPES, NUM_ACTIONS, OPEN_NULLO, PASS
from fh_env.compiled.engine import AUCTION, PLAY
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, State, side_of
from fh_env.rules import Rules
from fh_env.view import seat_view
from train import distill
from train.branches import DealBranches


@pytest.fixture(scope="module")
def network() -> NeuralBot:
    return NeuralBot.load("ppo-selfplay", greedy=True)


def _logits(network: NeuralBot, state: State) -> tuple[np.ndarray, np.ndarray]:
    view = seat_view(state, state.turn)
    with torch.no_grad():
        logits, _ = network.net(torch.from_numpy(observe.encode(view)).unsqueeze(0))
    return logits.numpy(), observe.action_mask(view)[None].astype(np.int8)


@pytest.mark.parametrize("ours", [0, 1, None], ids=["rule-odd", "rule-even", "self-play"])
def test_a_branch_scores_the_hand_the_engine_plays_from_that_call(network, ours) -> None:
    """Every scored candidate of a call, a kitty discard and a card is the team score of
    the hand the reference engine plays after it on the same cards: the network on its side,
    the rule bot on the other's (or the network everywhere)."""
    rules = State().rules  # the default rules: the network encodes under its own (same game)
    assert rules != network.rules and rules.same_game(network.rules)
    checked = _check_branches(network, rules, ours, seeds=range(5))
    assert checked[Phase.AUCTION] >= 5 and checked[Phase.EXCHANGE] >= 1
    assert checked[Phase.PLAY] >= 10


def test_a_six_handed_branch_gives_the_other_team_to_the_rule_bot() -> None:
    """At six players the teams are seats 0, 2, 4 and 1, 3, 5 (§9.2): with `rule` holding the
    odd seats, every scored candidate is still the hand the engine plays after it."""
    six = NeuralBot.load("best-six-handed", greedy=True)
    checked = _check_branches(six, six.rules, 0, seeds=range(6))
    assert checked[Phase.AUCTION] >= 2 and checked[Phase.PLAY] >= 4


@pytest.mark.parametrize("ours", [0, 2])
def test_a_three_handed_branch_gives_the_two_other_seats_to_the_rule_bot(ours: int) -> None:
    """At three players each seat is a side of its own (§9.1): with the network on one seat
    and `rule` on both others, every scored candidate is the hand the engine plays after it,
    scored against the mean of the two others' points."""
    three = NeuralBot.load("best-three-handed", greedy=True)
    checked = _check_branches(three, three.rules, ours, seeds=range(8))
    assert checked[Phase.AUCTION] >= 2 and checked[Phase.PLAY] >= 4


def test_a_branch_against_mcfast_plays_its_searches_from_one_stream() -> None:
    """``mcfast`` has no batched player: at the tables of a collection it is asked row by row
    (``arena.batched.view_player``) and in the branches it draws its worlds from the branches'
    one generator.  Every scored candidate is still the hand the engine plays after it, with
    ``mcfast`` drawing from the same stream in the same order (the candidates side by side,
    a decision of each live branch a step)."""
    three = NeuralBot.load("best-three-handed", greedy=True)
    checked = _check_branches(three, three.rules, 1, seeds=range(3), opponent="mcfast:samples=3")
    assert checked[Phase.PLAY] >= 4


def _check_branches(network: NeuralBot, rules: Rules, ours: int | None,
                    seeds: Iterable[int], opponent: str = "rule") -> dict[Phase, int]:
    """Compare the branches' scores of the network's decisions (calls, discards and the first
    few cards of each hand) with the reference engine's play-outs, the network on side
    ``ours`` (every seat: ``None``) and ``opponent`` elsewhere; the count checked by phase.

    The branches' opponent draws from one generator, the play-outs' from a twin of it, each
    decision's candidates played out side by side as :meth:`DealBranches.play_out` does."""
    other = make_bot(opponent, rules)
    bots = [other if ours is not None and side_of(rules.players, seat) != ours else network
            for seat in range(rules.players)]
    player = batch_player(other, rules) or view_player(other)
    branches = DealBranches(network, rules, None if ours is None else player,
                            rng=random.Random(5))
    twin = random.Random(5)
    checked = {Phase.AUCTION: 0, Phase.EXCHANGE: 0, Phase.PLAY: 0}
    for seed in seeds:
        state = State(rules, seed=seed)
        while state.phase in checked:
            if bots[state.turn] is network and (state.phase != Phase.PLAY
                                                or checked[Phase.PLAY] < 4 * (seed + 1)):
                logits, mask = _logits(network, state)
                fast = FastGames(1, rules)
                fast.set_state(0, state)
                q = branches.scores(fast.games, None if ours is None else np.array([ours]),
                                    logits, mask)[0]
                scored = np.flatnonzero(~np.isnan(q))
                assert 2 <= len(scored) <= 4 or (len(scored) == 0 and mask.sum() == 1)
                if len(scored):
                    picks = branches.choose(logits[0], mask[0], int(fast.games["phase"][0]))
                    assert sorted(picks) == scored.tolist()
                    outs = _play_outs([state.clone() for _ in picks], picks, bots, twin)
                    for action, out in zip(picks, outs):
                        expected = team_score(out, side_of(rules.players, state.turn))
                        assert q[action] == pytest.approx(expected), (seed, action)
                checked[state.phase] += 1
            state.apply(bots[state.turn].act(seat_view(state, state.turn), random.Random(0)))
    return checked


def _play_outs(states: list[State], first: list[int], bots: list, rng: random.Random
               ) -> list[State]:
    """Each state after its first action, played to the end of the hand side by side: at each
    step one decision of every live state in order, every bot drawing from ``rng``."""
    for state, action in zip(states, first):
        state.apply(action)
    while live := [s for s in states if s.phase not in (Phase.HAND_OVER, Phase.GAME_OVER)]:
        for state in live:
            state.apply(bots[state.turn].act(seat_view(state, state.turn), rng))
    return states


def test_candidates_are_the_networks_favourites_with_pass_among_them(network) -> None:
    branches = DealBranches(network, State().rules, candidates=3)
    logits = np.array([-5.0, 3.0, 2.0, 4.0, 1.0, 9.0])
    mask = np.array([1, 1, 1, 1, 1, 0])
    assert branches.choose(logits, mask, AUCTION) == [3, 1, PASS]
    assert branches.choose(logits, mask, PLAY) == [3, 1, 2]
    assert branches.choose(logits, np.array([0, 1, 0, 0, 0, 0]), AUCTION) == [1]
    with pytest.raises(ValueError, match="at least 2"):
        DealBranches(network, State().rules, candidates=1)


def test_nullo_calls_give_the_favourite_nullo_a_place_in_the_auction(network) -> None:
    branches = DealBranches(network, State().rules, nullo_calls=True)
    logits = np.zeros(NUM_ACTIONS)
    logits[[5, 6, 7, 8]] = [9.0, 8.0, 7.0, 6.0]
    logits[[NULLO, OPEN_NULLO]] = [-3.0, -2.0]
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[[PASS, 5, 6, 7, 8, NULLO, OPEN_NULLO]] = 1
    assert branches.choose(logits, mask, AUCTION) == [5, 6, OPEN_NULLO, PASS]
    logits[NULLO] = 8.5  # a favourite already: nothing moves for it
    assert branches.choose(logits, mask, AUCTION) == [5, NULLO, 6, PASS]
    mask[[NULLO, OPEN_NULLO]] = 0  # none legal: pass alone takes a place
    assert branches.choose(logits, mask, AUCTION) == [5, 6, 7, PASS]
    assert branches.choose(logits, mask, PLAY) == [5, 6, 7, 8]
    with pytest.raises(ValueError, match="at least 3 candidates with nullo calls"):
        DealBranches(network, State().rules, candidates=2, nullo_calls=True)


def test_a_collection_with_nullo_calls_branches_on_a_nullo_wherever_one_is_legal() -> None:
    """Three-handed: its network never bids a nullo, so only the option puts one among the
    scored calls."""
    teacher = make_bot("nmc:distill-three-handed,samples=2")
    rules = teacher.network.rules
    for nullo_calls in (False, True):
        data = distill.collect(teacher, hands=12, seed=5, num_envs=4, progress=False,
                               cards=False, deal="calls", nullo_calls=nullo_calls)
        auction = data["records"]["phase"] == AUCTION
        masks = distill.Batches(rules)(data["records"])[1].numpy()[auction]
        scored = ~np.isnan(data["scores"].astype(np.float32)[auction])
        nullo = list(NULLO_TYPES)
        legal = masks[:, nullo].any(1) & (masks.sum(1) > 1)
        assert legal.sum() >= 10
        tried = scored[:, nullo].any(1)
        if nullo_calls:
            assert tried[legal].all()
        else:
            assert tried[legal].mean() < 0.5
    with pytest.raises(ValueError, match="candidates of deal branches only"):
        distill.collect(teacher, hands=1, seed=5, num_envs=1, progress=False, cards=True,
                        nullo_calls=True)


def test_a_deal_collection_stores_the_networks_scored_decisions(tmp_path, capsys) -> None:
    """``--search deal-calls``: the network's calls and discards only (one partnership's, with
    ``--opponent``), each scored on its favourite few, labelled with its own choice; the CLI
    refuses a teacher that searches calls too."""
    teacher = make_bot("nmc:ppo-selfplay,samples=2")
    data = distill.collect(teacher, hands=8, seed=4, num_envs=4, progress=False,
                           opponent="rule", cards=False, deal="calls")
    records = data["records"]
    assert (records["phase"] < PLAY).all() and (records["phase"] == AUCTION).sum() >= 8
    scores = data["scores"].astype(np.float32)
    scored = ~np.isnan(scores)
    multi = observe_masks(records).sum(1) > 1
    assert (scored.sum(1)[multi] >= 2).all() and (scored.sum(1) <= 4).all()
    assert scored[np.arange(len(scores)), data["labels"]][multi].all(), "its own call is tried"
    sides = {}
    for record in records:
        sides.setdefault(record["dealt_hands"].tobytes(), set()).add(int(record["turn"]) % 2)
    assert all(len(s) == 1 for s in sides.values())
    # deal="all": every decision of the network, the cards too, each scored where it has a
    # choice
    data = distill.collect(teacher, hands=2, seed=4, num_envs=2, progress=False,
                           opponent="rule", cards=False, deal="all")
    assert (data["records"]["phase"] == PLAY).sum() >= 10
    multi = observe_masks(data["records"]).sum(1) > 1
    assert (~np.isnan(data["scores"].astype(np.float32))).sum(1)[multi].min() >= 2
    out = tmp_path / "d.npz"
    assert distill.main(["collect", "--teacher", "nmc:ppo-selfplay,samples=2,calls=4", "--search",
                         "deal-calls", "--hands", "1", "--seed", "1", "--out", str(out)]) == 2
    assert "calls=N" in capsys.readouterr().err and not out.exists()


def observe_masks(records: np.ndarray) -> np.ndarray:
    """The legal masks of stored decisions."""
    return distill.Batches(State().rules)(records)[1].numpy()
