"""The compiled rule bot (agents.rule_compiled) against agents.rule, decision by decision.

Every decision of games under every 4-player preset and random 4-player rule sets, played by the
rule bot on all seats, at random, or a mix (``bench.rule.compare``), must be the one
``RuleBot().act(seat_view(state, seat), rng)`` makes; ``python -m bench.rule --positions 300000``
runs the same comparison on a larger scale.  Then the ways the twin is used: the batched
kernels, ``VectorEnv.step(..., bots=...)`` (the same hands as the Python bot passed to
``step``), and the imitation teacher's labels.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from agents.rule import BidParams, RuleBot
from agents.rule_compiled import RuleSeats, act, choose, compiles, encode_bot, play_seats
from bench.rule import Comparison, compare
from fh_env.compiled.games import FastGames
from fh_env.envs.vector import VectorEnv
from fh_env.rules import Rules
from fh_env.view import seat_view

from conftest import FOUR_PLAYER_PRESETS
from test_compiled import random_rules

KINDS = {"auction", "exchange", "lead", "follow", "joker_lead", "nullo_lead", "nullo_follow"}


def _check(res: Comparison) -> None:
    assert not res.mismatches, res.mismatches[:3]
    assert res.agree == res.positions


@pytest.mark.parametrize("preset", sorted(FOUR_PLAYER_PRESETS))
def test_every_preset_decides_as_the_python_bot(preset: str) -> None:
    res = compare(Rules.preset(preset), hands=400, seed=11)
    _check(res)
    assert res.positions > 8_000


def test_random_rule_sets_decide_as_the_python_bot() -> None:
    rng = random.Random("rule-compiled")
    res = Comparison()
    for k in range(40):
        compare(random_rules(rng), hands=80, seed=k, out=res)
    _check(res)
    assert res.positions > 80_000
    assert KINDS <= set(res.by_kind), res.by_kind  # every kind of decision was compared


def test_bid_params_are_the_bots() -> None:
    """Other bidding constants (make_bot("rule:nt_risk=...")) change both bots alike."""
    rules = Rules.preset("american-double-nullo")
    params = BidParams(nt_risk=-1.0, partner_unknown=2.5, nullo_limit=2.0, kitty=1.0)
    bot, twin = RuleBot(params), RuleSeats(rules, params)
    fast = FastGames(64, rules, seed=5)
    seen = Counter()
    rng = random.Random(0)
    for _ in range(40):
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


def test_batch_kernels() -> None:
    rules = Rules.preset("australian")
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
    decisions = play_seats(fast.games, fast._rules, rec, rows, np.full(16, 15, np.uint8))
    assert decisions == steps and (fast.games == other.games).all() and fast.done.all()
    act(fast.games, fast._rules, rec, rows, out)
    assert (out == -1).all()  # hands over
    with pytest.raises(ValueError):
        encode_bot(Rules.preset("three-handed"))


def _learner(obs: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic learner: a legal action picked by a hash of the observation."""
    legal = np.flatnonzero(mask)
    return int(legal[int(obs.sum() * 7919) % len(legal)])


@pytest.mark.parametrize("episode", ["hand", "game"])
def test_vector_env_bot_seats_play_the_hands_the_python_bot_plays(episode: str) -> None:
    """The learner (seats 0, 2) sees the same observations and gets the same rewards whether the
    rule seats are played inside step (compiled) or their actions are passed to step."""
    rules = Rules.preset("american-double-nullo")
    n = 6
    logs = []
    for compiled in (False, True):
        venv = VectorEnv(n, rules, seed=3, episode=episode)
        bot, twin = RuleBot(), RuleSeats(rules)
        seats = np.full(n, 0b1010, dtype=np.uint8)
        log: list[list] = [[] for _ in range(n)]
        obs, mask, seat = venv.obs, venv.mask, venv.seat
        done_count = 0
        while done_count < 40:
            actions = np.full(n, -1, dtype=np.int64)
            for i in range(n):
                if seat[i] % 2 == 0:
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


def test_imitation_labels_are_the_python_bots() -> None:
    from train.imitation import teacher_games
    from train.ppo import Trainer
    from test_train import tiny_config

    class PythonRule(RuleBot):  # not compiled: the Python path
        pass

    rollouts = []
    for bot in (RuleBot(), PythonRule()):
        trainer = Trainer(tiny_config(num_envs=4))
        rollouts.append(teacher_games(trainer, bot, hands=12, chunk=0))
    a, b = rollouts
    assert len(a) > 12 * 20
    for name in ("obs", "mask", "actions", "rewards", "dones", "next_index"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_league_rule_seats_run_compiled() -> None:
    from train.ppo import Trainer
    from test_train import tiny_config

    trainer = Trainer(tiny_config(num_envs=6, rollout_steps=4, league_self=0.0,
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
