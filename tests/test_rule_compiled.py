"""The compiled rule bot (agents.compiled.rule) against agents.rule, decision by decision.

Every decision of games under every preset (four players, ``three-handed``, ``six-handed``) and
random rule sets of each table size, played by the rule bot on all seats, at random, or a mix
(``bench.rule.compare``), must be the one ``RuleBot().act(seat_view(state, seat), rng)`` makes;
``python -m bench.rule --positions 300000 [--players 3|6]`` runs the same comparison on a larger
scale.  The positions compared are checked to come under the rules of each table size (the
three-player defenders' loose cooperation, the six-player partners who sit out a nullo, the
bidding allowances of §9), and those rules to decide the Python bot's move in some of them, so
that a twin that played one of them wrong would fail.  Then the ways the twin is used: the
batched kernels, ``VectorEnv.step(..., bots=...)`` (the same hands as the Python bot passed to
``step``), the imitation teacher's labels and the league's rule seats, at every table size.
"""

from __future__ import annotations

import random
from collections import Counter
from unittest import mock

import numpy as np
import pytest

from agents import rule as R
from agents.rule import BidParams, RuleBot
from agents.compiled.rule import RuleSeats, act, choose, compiles, encode_bot, play_seats
from bench.rule import Comparison, compare
from fh_env import actions as A
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, side_of
from fh_env.envs.vector import VectorEnv
from fh_env.rules import PRESETS, Rules
from fh_env.view import SeatView, seat_view

from test_compiled import random_rules

KINDS = {"auction", "exchange", "lead", "follow", "joker_lead", "nullo_lead", "nullo_follow"}
SIZE_PRESETS = {3: "three-handed", 4: "american-double-nullo", 6: "six-handed"}
#: The positions under the rules of a table size (bench.rule.cases) that the random rule sets
#: of each size must reach.
CASES = {4: {"partner_called", "sitting_out"},
         3: {"defender_lead", "mate_winning_declarer_to_play", "mate_winning_declarer_played"},
         6: {"partner_called", "sitting_out"}}


def _check(res: Comparison) -> None:
    assert not res.mismatches, res.mismatches[:3]
    assert res.agree == res.positions


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_decides_as_the_python_bot(preset: str) -> None:
    rules = Rules.preset(preset)
    four = rules.players == 4
    res = compare(rules, hands=400 if four else 800, seed=11)
    _check(res)
    assert res.positions > (8_000 if four else 18_000)
    if not four:
        assert KINDS <= set(res.by_kind), res.by_kind


@pytest.mark.parametrize("players", [4, 3, 6])
def test_random_rule_sets_decide_as_the_python_bot(players: int) -> None:
    rng = random.Random("rule-compiled" if players == 4 else f"rule-compiled-{players}")
    res = Comparison()
    sets, hands = {4: (40, 80), 3: (40, 80), 6: (30, 50)}[players]
    for k in range(sets):
        compare(random_rules(rng, players), hands=hands, seed=k, out=res)
    _check(res)
    assert res.positions > 70_000
    assert KINDS <= set(res.by_kind), res.by_kind  # every kind of decision was compared
    assert all(res.by_case[c] > 500 for c in CASES[players]), res.by_case


# ------------------------------------------------------------ the rules of a table size decide
def _parity(seat: int, players: int, contract, declarer: int) -> int:
    """friends_of as if every table played in teams of seat parity (no 3-player rule)."""
    return sum(1 << s for s in range(seat % 2, players, 2))


def _alone(seat: int, players: int, contract, declarer: int) -> int:
    """friends_of as if the three-player defenders did not cooperate."""
    return 1 << seat if players == 3 else R.friends_of(seat, players, contract, declarer)


def _one_partner(seat: int, players: int, contract, declarer: int) -> int:
    """friends_of as if six players had one partner each (the four-player seat across)."""
    return (1 << seat) | (1 << (seat + 2) % players)


def _one_sits_out(leader: int, sitting_out: int = -1, players: int = 4) -> tuple[int, ...]:
    """trick_order as if only the declarer's partner across sat a nullo out (four players)."""
    order = ((leader + i) % players for i in range(players))
    return tuple(s for s in order if s != sitting_out)


def _play(view: SeatView) -> int:
    return R.choose_play(view.seat, view.hand, view.legal, view.unseen, view.trick, view.leader,
                         view.led, view.context, view.contract, view.declarer, view.sitting_out,
                         view.voids, view.exposed, view.rules.players)


def _without_rules(view: SeatView) -> dict[str, int]:
    """The Python bot's move in ``view`` without each rule of its table size (by name) that
    could apply there."""
    players, out = view.rules.players, {}
    if view.phase == Phase.AUCTION:
        if players == 3:
            out["kitty_alone"] = R.choose_call(view, BidParams(kitty_alone=0.0))
        if players == 6:
            out["partner_scale_six"] = R.choose_call(view, BidParams(partner_scale_six=1.0))
        return out
    if view.phase != Phase.PLAY or view.legal & (view.legal - 1) == 0:
        return out
    if players == 3:
        for name, friends in (("declarer_alone", _parity), ("defenders_cooperate", _alone)):
            with mock.patch.object(R, "friends_of", friends):
                out[name] = _play(view)
        contract = view.contract
        if view.trick and contract is not None and contract >= 0 and \
                contract not in A.NULLO_TYPES and view.seat != view.declarer:
            friends = R.friends_of(view.seat, 3, contract, view.declarer)
            out["rivals_before_the_declarer"] = R._follow(  # no declarer: no rivals
                view.seat, view.hand, view.legal, view.unseen, view.trick, view.leader, view.led,
                view.context, view.sitting_out, view.voids, R.kit(3), friends, -1)
    if players == 6:
        with mock.patch.object(R, "friends_of", _one_partner):
            out["teams_of_three"] = _play(view)
        if view.sitting_out >= 0:
            with mock.patch.object(R, "trick_order", _one_sits_out):
                out["both_partners_sit_out"] = _play(view)
    return out


DECIDING = {3: {"kitty_alone", "declarer_alone", "defenders_cooperate",
                "rivals_before_the_declarer"},
            6: {"partner_scale_six", "teams_of_three", "both_partners_sit_out"}}


@pytest.mark.parametrize("players", [3, 6])
def test_the_rules_of_each_size_decide_compared_positions(players: int) -> None:
    """Each rule of the table size changes the Python bot's move in some of the positions
    compared (where the twin agrees with it): a twin without the rule would fail there."""
    deciding: Counter = Counter()

    def hook(state, view: SeatView, action: int) -> None:
        for name, other in _without_rules(view).items():
            deciding[name] += other != action

    rng = random.Random(f"rule-compiled-deciding-{players}")
    res = compare(Rules.preset(SIZE_PRESETS[players]), hands=150, seed=3, hook=hook)
    for k in range(6):
        compare(random_rules(rng, players), hands=40, seed=k, out=res, hook=hook)
    _check(res)
    assert set(deciding) == DECIDING[players]
    assert all(deciding[name] >= 20 for name in DECIDING[players]), deciding


# ------------------------------------------------------------ bidding constants, kernels
@pytest.mark.parametrize("players", [4, 3, 6])
def test_bid_params_are_the_bots(players: int) -> None:
    """Other bidding constants (make_bot("rule:nt_risk=...")) change both bots alike."""
    rules = Rules.preset(SIZE_PRESETS[players])
    params = BidParams(nt_risk=-1.0, partner_unknown=2.5, nullo_limit=2.0, kitty=1.0,
                       kitty_alone=2.0, partner_scale_six=1.25)
    bot, twin = RuleBot(params), RuleSeats(rules, params)
    fast = FastGames(64, rules, seed=5)
    seen = Counter()
    rng = random.Random(0)
    for _ in range(70):
        rows = np.flatnonzero(~fast.done)
        if not len(rows):
            break
        got = twin.act(fast, rows)
        for k, i in enumerate(rows.tolist()):
            state = fast.to_state(i)
            assert got[k] == bot.act(seat_view(state, state.turn), rng)
            seen[got[k]] += 1
        actions = np.zeros(fast.num_games, dtype=np.int64)
        actions[rows] = got
        fast.step(actions)
    assert len(seen) > 10
    assert compiles(bot) == params and compiles(RuleSeats) is None


@pytest.mark.parametrize("preset", ["australian", "three-handed", "six-handed"])
def test_batch_kernels(preset: str) -> None:
    rules = Rules.preset(preset)
    fast = FastGames(16, rules, seed=2)
    rec = encode_bot(rules)
    rows = np.arange(16, dtype=np.int64)
    out = np.empty(16, dtype=np.int64)
    act(fast.games, fast._rules, rec, rows, out)
    assert all(out[i] == choose(fast.games[i], fast._rules[0], rec[0]) for i in range(16))
    # play_seats with every seat plays the hands out, as act + step would
    other = FastGames(16, rules, seed=2)
    steps = 0
    while not other.done.all():
        act(other.games, other._rules, rec, rows, out)
        steps += int((out >= 0).sum())
        other.step(out, skip_negative=True)
    every = np.full(16, (1 << rules.players) - 1, np.uint8)
    decisions = play_seats(fast.games, fast._rules, rec, rows, every)
    assert decisions == steps and (fast.games == other.games).all() and fast.done.all()
    act(fast.games, fast._rules, rec, rows, out)
    assert (out == -1).all()  # hands over


# ------------------------------------------------------------ VectorEnv, training
def _learner(obs: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic learner: a legal action picked by a hash of the observation."""
    legal = np.flatnonzero(mask)
    return int(legal[int(obs.sum() * 7919) % len(legal)])


@pytest.mark.parametrize("players", [4, 3, 6])
@pytest.mark.parametrize("episode", ["hand", "game"])
def test_vector_env_bot_seats_play_the_hands_the_python_bot_plays(episode: str,
                                                                  players: int) -> None:
    """The learner (the seats of side 0: 0 and 2, seat 0 alone with three players, 0, 2 and 4
    with six) sees the same observations and gets the same rewards whether the rule seats (the
    others) are played inside step (compiled) or their actions are passed to step."""
    rules = Rules.preset(SIZE_PRESETS[players])
    n = 6
    bot_mask = sum(1 << s for s in range(players) if side_of(players, s) != 0)
    logs = []
    for compiled in (False, True):
        venv = VectorEnv(n, rules, seed=3, episode=episode)
        bot, twin = RuleBot(), RuleSeats(rules)
        seats = np.full(n, bot_mask, dtype=np.uint8)
        log: list[list] = [[] for _ in range(n)]
        obs, mask, seat = venv.obs, venv.mask, venv.seat
        done_count = 0
        while done_count < 40:
            actions = np.full(n, -1, dtype=np.int64)
            for i in range(n):
                if not bot_mask >> int(seat[i]) & 1:
                    log[i].append(("obs", obs[i].tobytes(), mask[i].tobytes()))
                    actions[i] = _learner(obs[i], mask[i])
                elif not compiled:
                    actions[i] = bot.act(seat_view(venv.states[i], int(seat[i])), None)
            if compiled:
                obs, mask, rewards, seat, done, infos = venv.step(actions, bots=twin,
                                                                  bot_seats=seats)
            else:
                obs, mask, rewards, seat, done, infos = venv.step(actions)
            for i in np.flatnonzero(infos["hand_over"]).tolist():
                log[i].append(("end", rewards[i].tolist(), bool(done[i]),
                               infos["results"][i]))
                done_count += 1
        logs.append(log)
    py, fast = logs
    for a, b in zip(py, fast):
        m = min(len(a), len(b))
        assert m > 20 and a[:m] == b[:m]
    # the states of rows played by bots are fresh conversions, up to date
    assert all(s.to_dict() == venv.fast.to_state(i).to_dict() | {"seed": s.seed}
               for i, s in enumerate(venv.states))


def test_vector_env_bot_seats_are_checked() -> None:
    venv = VectorEnv(2, Rules(), seed=0)
    with pytest.raises(ValueError):
        venv.step(np.full(2, -1), bots=RuleSeats(Rules()), bot_seats=np.zeros(3))


@pytest.mark.parametrize("players", [4, 3, 6])
def test_imitation_labels_are_the_python_bots(players: int) -> None:
    from train.imitation import teacher_games
    from train.ppo import Trainer
    from test_train import tiny_config

    class PythonRule(RuleBot):  # not compiled: the Python path
        pass

    rollouts = []
    rules = "australian-no-nullo" if players == 4 else SIZE_PRESETS[players]
    for bot in (RuleBot(), PythonRule()):
        trainer = Trainer(tiny_config(num_envs=4, rules=rules))
        rollouts.append(teacher_games(trainer, bot, hands=12, chunk=0))
    a, b = rollouts
    assert len(a) > 12 * 20
    for name in ("obs", "mask", "actions", "rewards", "dones", "next_index"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


@pytest.mark.parametrize("players", [4, 3, 6])
def test_league_rule_seats_run_compiled(players: int) -> None:
    from train.ppo import Trainer
    from test_train import tiny_config

    rules = "australian-no-nullo" if players == 4 else SIZE_PRESETS[players]
    trainer = Trainer(tiny_config(rules=rules, num_envs=6, rollout_steps=4, league_self=0.0,
                                  league_past=0.0, league_rule=1.0, bid_teacher_share=0.5,
                                  bid_teacher="rule", play_teacher_coef=0.5,
                                  play_teacher="rule"))
    assert set(trainer.compiled) == {"rule", "bid_teacher", "play_teacher"}
    rollout, info = trainer.collect()
    assert set(info["returns"]) == {"rule"} and len(info["returns"]["rule"]) >= 6
    assert all(m[a] == 1 for m, a in zip(rollout.mask, rollout.actions))
    taught = rollout.teacher >= 0
    assert taught.any() and rollout.mask[np.flatnonzero(taught), rollout.teacher[taught]].all()
    assert not trainer.venv._tracked  # no engine State was built for a bot
    # At most one done decision for each learner seat (one side's seats) in each hand: the rule
    # seats, all the others, were played by the twin, not by the learner.
    learner_seats = [side_of(players, s) for s in range(players)].count(0)
    assert 0 < rollout.dones.sum() <= learner_seats * len(info["returns"]["rule"])
