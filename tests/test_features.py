"""The network's derived card-play inputs (agents.features) against the engine's own view."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from agents.features import FEATURE_SIZE, CardFeatures, feature_size, feature_slices
from agents.neural import PolicyNet
from bench.rule import random_rules
from conftest import act, do, mask, start_play, start_table_play
from fh_env import observe
from fh_env.cards import TABLES, card_strength, cards_of, parse_card
from fh_env.engine import Phase, State, trick_order
from fh_env.observe import TRUMP_FIRST, trump_first_indices
from fh_env.rules import PRESETS, Rules
from fh_env.view import seat_view

FEATURES = {n: CardFeatures(n) for n in observe.TABLE_SIZES}


def features(view, relabel: bool = False) -> dict[str, np.ndarray]:
    n = view.rules.players
    obs = torch.from_numpy(observe.encode(view)[None].copy())
    row = None
    if relabel:
        trump = obs[:, observe.TRUMP_SLICE]
        row = torch.where(trump.sum(1) > 0, trump.argmax(1), 4)
        obs = obs.gather(1, torch.from_numpy(trump_first_indices()[0].copy())[row])
    out = FEATURES[n](obs, row)[0].numpy()
    return {name: out[s] for name, s in feature_slices(n).items()}


def bits(m: int, players: int = 4) -> np.ndarray:
    out = np.zeros(observe.layout(players).num_cards, dtype=np.float32)
    out[list(cards_of(m))] = 1.0
    return out


def expected(view) -> dict[str, np.ndarray]:
    """The same blocks from the view, card by card with fh_env.cards's functions."""
    ctx, unseen, n = view.context, view.unseen, view.rules.players
    suit = TABLES.suit[ctx]
    scale = 16 if n == 6 else 11  # the most plain cards of a suit in the table's card ids

    def own(c: int) -> int:
        return card_strength(c, ctx, min(suit[c], 3))

    masters = [c for c in cards_of(view.hand)
               if not any((suit[d] == suit[c] or suit[d] == 4) and own(d) > own(c)
                          for d in cards_of(unseen))]
    out = np.zeros(5, dtype=np.float32)
    for d in cards_of(unseen):
        out[suit[d]] += 1 / scale
    winning, best, beats = np.zeros(n, np.float32), 0, 0
    if view.trick:
        seats = trick_order(view.leader, view.sitting_out, n)
        keys = [card_strength(c, ctx, view.led) for c in view.trick]
        i = int(np.argmax(keys))
        if keys[i] >= 0:
            winning[(seats[i] - view.seat) % n] = 1.0
            best = 1 << view.trick[i]
        beats = sum(1 << c for c in cards_of(view.hand)
                    if card_strength(c, ctx, view.led) > max(keys))
    return {"played": bits(view.played, n), "unseen": bits(unseen, n),
            "masters": bits(sum(1 << c for c in masters), n), "out": out, "winning": winning,
            "best": bits(best, n), "beats": bits(beats, n)}


NAMES = list(PRESETS)
RULE_SETS = [Rules.preset(name) for name in NAMES] + [
    random_rules(random.Random(f"features/{k}")) for k in range(12)] + [
    random_rules(random.Random(f"features/{n}/{k}"), n) for n in (3, 6) for k in range(4)]
IDS = NAMES + [f"random-{k}" for k in range(12)] + [
    f"random-{n}p-{k}" for n in (3, 6) for k in range(4)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_features_match_the_view_through_random_play(rules):
    """Property: at every decision of random hands, for the seat on turn and another seat,
    the blocks equal what the view says, and (four players) relabelled they are the same
    blocks with the card ids (and suits) relabelled."""
    rng = random.Random(f"features-play/{rules}")
    n = rules.players
    index = trump_first_indices()[0][:, observe.LAYOUT["hand"]] - observe.LAYOUT["hand"].start
    checked, plays = 0, 0
    while plays < 60:
        state = State(rules, seed=rng.randrange(1 << 30))
        while not state.is_terminal:
            for seat in {state.turn, (state.turn + 1) % n}:
                view = seat_view(state, seat)
                got, want = features(view), expected(view)
                for name in want:
                    np.testing.assert_allclose(got[name], want[name], atol=1e-6,
                                               err_msg=f"{name} {state.phase} ctx {view.context}")
                if view.phase == Phase.PLAY and n == 4:
                    rel = features(view, relabel=True)
                    row = view.context if view.context < 4 else 4
                    for name in ("played", "unseen", "masters", "best", "beats"):
                        np.testing.assert_array_equal(rel[name], got[name][index[row]], name)
                    np.testing.assert_array_equal(rel["winning"], got["winning"])
                    labels = TRUMP_FIRST[row] if row < 4 else range(4)
                    np.testing.assert_allclose(rel["out"][list(labels) + [4]], got["out"],
                                               atol=1e-6)
                if view.phase == Phase.PLAY:
                    plays += 1
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > plays


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_the_compiled_twin_gives_the_modules_inputs_bit_for_bit(rules):
    """Differential: :class:`agents.compiled.features.CompiledFeatures` (the network rollouts'
    inputs) equals CardFeatures on unrelabelled observations of random play, every decision of
    every phase, for the seat on turn and another, under presets and random rule sets."""
    from agents.compiled.features import CompiledFeatures

    rng = random.Random(f"features-twin/{rules}")
    n = rules.players
    rows = []
    for _ in range(10):
        state = State(rules, seed=rng.randrange(1 << 30))
        while not state.is_terminal:
            for seat in {state.turn, (state.turn + 1) % n}:
                rows.append(observe.encode(seat_view(state, seat)))
            state.apply(rng.choice(state.legal_actions()))
    obs = np.stack(rows).astype(np.float32)
    want = FEATURES[n](torch.from_numpy(obs), None).numpy()
    picked = np.arange(len(obs) - 1, -1, -2, dtype=np.int64)  # some rows, out of order
    got = CompiledFeatures(FEATURES[n])(obs, picked)
    for name, block in feature_slices(n).items():  # every block is seen set
        assert want[picked][:, block].any(), name
    np.testing.assert_array_equal(got, want[picked])


def test_a_hand_built_trick():
    """Spades trump, seat 0 declarer, on a hand-built deal: which cards are gone and still
    out, which are masters (the joker over the right bower, the left bower a trump and not a
    club), who is winning a trick and which cards would take it."""
    state = start_play(Rules(), ["JS AS 5S 6S 7H 8D 9D 10D 4H 5D",
                                 "KS AH 6H 8H 9H 10H 7D 6D 5C 6C",
                                 "QS QH 7C 8C 9C 10C JC 4D JD QD",
                                 "JK 10S KH 9S 8S 7S QC KC AC AD"],
                       "6S", kitty="KD JH 5H", declarer=0)
    do(state, "JS", "KS", "QS", "7S")  # seat 0 wins with the right bower
    do(state, "AS", "AH", "JC", "8S")  # seat 1 has no trump left; the left bower wins
    view = seat_view(state, 1)
    f = features(view)
    gone = [parse_card(c) for c in ("JS", "KS", "QS", "7S", "AS", "AH", "JC", "8S")]
    assert f["played"][gone].all() and f["played"].sum() == 8
    assert f["unseen"][gone].sum() == 0 and f["unseen"][parse_card("JK")] == 1
    assert f["masters"][parse_card("10H")] == 0  # KH and QH are out
    f3 = features(seat_view(state, 3))
    # every trump above its 10S has gone, and the AH: all eight of its cards are masters
    assert f3["masters"].sum() == 8 and f3["masters"][parse_card("10S")] == 1
    assert f3["winning"].sum() == 0 and f3["beats"].sum() == 0  # no trick in progress
    state2 = start_play(Rules(), ["JS AS 5S 6S 7H 8D 9D 10D 4H 5D",
                                  "KS AH 6H 8H 9H 10H 7D 6D 5C 6C",
                                  "QS QH 7C 8C 9C 10C JC 4D JD QD",
                                  "JK 10S KH 9S 8S 7S QC KC AC AD"],
                        "6S", kitty="KD JH 5H", declarer=0)
    do(state2, "7H", "AH")  # seat 0 leads 7H, seat 1 takes the lead with AH
    v3 = seat_view(state2, 2)
    f3 = features(v3)
    assert f3["winning"].tolist() == [0, 0, 0, 1]  # seat 1 is three seats to seat 2's left
    assert f3["best"][parse_card("AH")] == 1 and f3["best"].sum() == 1
    assert f3["beats"][parse_card("QS")] == 1 and f3["beats"][parse_card("QH")] == 0
    assert f3["masters"][parse_card("QS")] == 0  # JK, 10S, 9S ... and the bowers are out
    f4 = features(seat_view(state2, 3))
    # QC is the top club: the JC is out but is a trump (the left bower), not a club
    assert f4["unseen"][parse_card("JC")] == 1 and f4["masters"][parse_card("QC")] == 1
    assert f4["masters"][parse_card("10S")] == 0 and f4["masters"][parse_card("JK")] == 1
    # trumps it cannot place: JS AS 5S 6S (seat 0), KS (seat 1), QS JC (seat 2)
    assert round(float(f4["out"][0]) * 11) == 7
    v0 = seat_view(state2, 0)
    f0 = features(v0)
    assert f0["masters"][parse_card("JS")] == 0  # the joker outranks the right bower
    assert f0["masters"].sum() == 0  # every suit has a higher card out
    assert f0["unseen"][parse_card("KD")] == 0  # its own discards: the kitty it put back
    assert f0["unseen"][[parse_card("4S"), parse_card("4C")]].sum() == 0  # not in a 43 deck


def test_a_policy_with_features_reads_them_and_starts_like_the_network_it_extends():
    net = PolicyNet(observe.OBS_SIZE, [32, 16], torch.Generator().manual_seed(0),
                    trump_first=True)
    wide = net.with_features()
    assert wide.features and wide.trunk[0].in_features == observe.OBS_SIZE + FEATURE_SIZE
    rng = random.Random(5)
    obs = []
    for k in range(30):
        state = State(Rules(), seed=k)
        while not state.is_terminal and rng.random() < 0.97:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            obs.append(observe.encode(seat_view(state, state.turn)))
    x = torch.from_numpy(np.stack(obs))
    a, b = net(x), wide(x)
    torch.testing.assert_close(a[0], b[0])
    torch.testing.assert_close(a[1], b[1])
    with torch.no_grad():
        wide.trunk[0].weight[:, observe.OBS_SIZE:] = 1.0
    assert not torch.allclose(wide(x)[0], a[0])  # the new inputs reach the logits


def test_features_train_under_ppo_survive_checkpoints_and_must_match(tmp_path):
    """fh-train with ``features = true``: an update runs, the exported agent plays exactly the
    trainer's policy, and a run without them refuses the checkpoint (and an init_policy)."""
    from pathlib import Path

    from agents.neural import CheckpointError, NeuralBot, read_checkpoint
    from train.checkpoint import export_agent, load_initial_policy, load_into, save_atomic, \
        state_of
    from train.config import TrainConfig
    from train.ppo import Trainer

    smoke = Path(__file__).resolve().parent.parent / "configs" / "train" / "smoke.toml"
    cfg = TrainConfig.from_toml(smoke)
    cfg.trump_first = cfg.features = True
    trainer = Trainer(cfg)
    before = trainer.model.policy.trunk[0].weight[:, observe.OBS_SIZE:].clone()
    trainer.train_update()
    assert not torch.equal(before, trainer.model.policy.trunk[0].weight[:, observe.OBS_SIZE:])
    export_agent(trainer, tmp_path / "agent.pt")
    save_atomic(state_of(trainer), tmp_path / "checkpoint.pt")
    bot = NeuralBot.load(tmp_path / "agent.pt")
    assert bot.net.features
    rng = random.Random(3)
    state = State(Rules(), seed=3)
    while state.phase != Phase.PLAY or len(state.trick) < 2:
        state = State(Rules(), seed=rng.randrange(99)) if state.is_terminal else state
        state.apply(rng.choice(state.legal_actions()))
    obs = torch.from_numpy(observe.encode(seat_view(state, state.turn))).unsqueeze(0)
    assert torch.equal(bot.net(obs)[0], trainer.model.policy.eval()(obs)[0])
    plain = TrainConfig.from_toml(smoke)
    plain.trump_first = True
    other = Trainer(plain)
    with pytest.raises(CheckpointError, match="features"):
        load_into(other, read_checkpoint(tmp_path / "checkpoint.pt"))
    with pytest.raises(CheckpointError, match="features"):
        load_initial_policy(other, str(tmp_path / "agent.pt"))


def test_other_table_sizes_read_their_own_layout():
    """Three and six players: the blocks are as wide as their layout says (six players: 64
    card ids, six seats), and a network reads them, starting like the one it extends (a nullo
    branch, which the three-handed agents have, included)."""
    for n in (3, 6):
        lay = observe.layout(n)
        c = lay.num_cards
        assert feature_size(n) == 5 * c + 5 + n
        net = PolicyNet(lay.size, [16], torch.Generator().manual_seed(n),
                        num_actions=lay.num_actions)
        branch = PolicyNet(lay.size, [16], torch.Generator().manual_seed(n + 1),
                           num_actions=lay.num_actions)
        joined = net.with_nullo_branch(branch)
        rng = random.Random(n)
        obs = []
        while len(obs) < 40:
            state = State(Rules.preset("three-handed" if n == 3 else "six-handed"),
                          seed=rng.randrange(1 << 30))
            while not state.is_terminal:
                if rng.random() < 0.1:
                    obs.append(observe.encode(seat_view(state, state.turn)))
                state.apply(rng.choice(state.legal_actions()))
        x = torch.from_numpy(np.stack(obs))
        for old in (net, joined):
            new = old.with_features()
            assert new.features and new.trunk[0].in_features == lay.size + feature_size(n)
            assert new.nullo_branch == old.nullo_branch
            torch.testing.assert_close(new(x)[0], old(x)[0])
            torch.testing.assert_close(new(x)[1], old(x)[1])


def test_six_players_a_hand_built_trick():
    """Six players, hearts trump: the 13 of hearts (a card of the six-handed pack only) is a
    trump below the king, the sixth seat's card wins, and only a higher trump beats it."""
    rules = Rules.preset("six-handed")
    # the named cards; the rest of each hand is filled from the pack in id order
    hands = ["AH KH 2C", "QH", "10H", "9H", "8H", "13H 3H"]
    state = start_table_play(rules, hands, ["6H"] + ["pass"] * 5, kitty="JC JD JK")
    act(state, "AH", "QH", "10H", "9H", "8H", "13H")
    act(state, "2C")  # seat 0 won; it leads again
    f = features(seat_view(state, 1))
    assert f["winning"].tolist() == [0, 0, 0, 0, 0, 1]  # seat 0 is five to seat 1's left
    assert f["best"][parse_card("2C")] == 1
    f0 = features(seat_view(state, 5))
    assert f0["beats"][parse_card("3H")] == 1  # any trump takes a club lead
    assert f0["played"][parse_card("13H")] == 1 and f0["played"].sum() == 7
    f2 = features(seat_view(state, 0))
    # its KH: above it the joker and the left bower, which it discarded, and the right bower
    assert f2["unseen"][[parse_card(c) for c in ("JK", "JD", "13H")]].sum() == 0
    assert f2["unseen"][parse_card("JH")] == 1 and f2["masters"][parse_card("KH")] == 0
    assert f2["unseen"][parse_card("13D")] == 1
    assert round(float(f2["out"][3]) * 16) == int(f2["unseen"][
        [c for c in range(64) if TABLES.suit[3][c] == 3]].sum())


def test_an_empty_batch_has_empty_features():
    """A batch of no rows (a collection step where no game is on the network's turn) is a
    batch of no features, not an error."""
    import torch

    from agents.features import FEATURE_SIZE, CardFeatures
    from fh_env import observe

    assert CardFeatures()(torch.zeros(0, observe.OBS_SIZE)).shape == (0, FEATURE_SIZE)
