"""The batched duplicate path (arena/batched.py) plays the engine path's games, hand for hand.

``arena.duplicate.play_deal`` plays a deal through the reference engine; ``play_deals`` plays it
as rows of the compiled core.  Every record (points, contract, declaring side, made) must be
the same, for every bot kind the batched path takes, every preset and table size.
"""

from __future__ import annotations

import pytest

from arena import duplicate as evaluate
from arena.batched import batch_player, may_batch, play_deals, play_games, view_player
from arena.duplicate import duplicate, play_deal, play_game_pair
from agents.registry import make_bot
from fh_env.rules import Rules, resolve_rules
from conftest import FOUR_PLAYER_PRESETS


def both_paths(a_spec: str, b_spec: str, rules: Rules, deals: int, seed: int = 7):
    a, b = make_bot(a_spec, rules), make_bot(b_spec, rules)
    engine = [play_deal(a, b, rules, seed, i) for i in range(deals)]
    pa, pb = batch_player(a, rules), batch_player(b, rules)
    assert pa is not None and pb is not None
    return engine, play_deals(pa, pb, rules, seed, range(deals))


@pytest.mark.parametrize("preset", sorted(FOUR_PLAYER_PRESETS))
def test_rule_against_random_plays_the_engine_games_in_every_preset(preset: str) -> None:
    engine, batched = both_paths("rule", "random", resolve_rules(preset), 25)
    assert batched == engine
    assert any(rec[2] is not None for pair in engine for rec in pair)  # contracts were played


@pytest.mark.parametrize("bots", [("random", "random"), ("rule", "random")])
@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
def test_other_table_sizes_play_the_engine_games(preset: str, bots: tuple[str, str]) -> None:
    rules = resolve_rules(preset)
    engine, batched = both_paths(*bots, rules, 20)
    assert batched == engine
    assert all(len(pair) == (3 if rules.players == 3 else 2) for pair in batched)


def test_neural_agent_plays_the_engine_games() -> None:
    engine, batched = both_paths("neural:ppo-selfplay", "rule", resolve_rules(None), 60)
    assert batched == engine
    # the agent bid in these games: the comparison covers its calls, not only its card play
    assert sum(rec[3] == "A" for pair in engine for rec in pair) > 10


def test_sampling_neural_agent_draws_from_the_seat_generators() -> None:
    engine, batched = both_paths("neural:ppo-selfplay,greedy=0", "random", resolve_rules(None), 30)
    assert batched == engine


@pytest.mark.parametrize("spec", ["nmc:best,samples=8", "nmc:best,samples=4,rollout=net",
                                  "nmc:best,samples=6,belief=1,top=3,margin=5"])
def test_nmc_plays_the_engine_games(spec: str) -> None:
    """``nmc`` batched (the card searches of every row on turn scored together) plays the
    engine path's games: the same worlds from the same seat generators, the same choices."""
    engine, batched = both_paths(spec, "rule", resolve_rules(None), 12)
    assert batched == engine
    assert sum(rec[3] == "A" for pair in engine for rec in pair) > 2


def test_nmc_options_that_need_the_engine_take_it() -> None:
    rules = resolve_rules(None)
    for spec in ("nmc:best,time=0.01", "nmc:best,calls=4", "nmc:best,discards=4",
                 "nmc:best,infer=1"):
        assert batch_player(make_bot(spec, rules), rules) is None, spec
    assert batch_player(make_bot("nmc:best,samples=3", rules), rules) is not None


@pytest.mark.parametrize("preset", ["three-handed", None])
def test_a_bot_asked_row_by_row_plays_the_engine_games(preset: str | None) -> None:
    """``view_player`` (any bot, asked through each row's view) plays ``mcfast``, which has no
    batched player, as the engine path does: the same views and seat generators, so the same
    worlds drawn and the same choices."""
    rules = resolve_rules(preset)
    a, b = make_bot("mcfast:samples=4", rules), make_bot("rule", rules)
    assert batch_player(a, rules) is None
    engine = [play_deal(a, b, rules, 11, i) for i in range(8)]
    assert play_deals(view_player(a), batch_player(b, rules), rules, 11, range(8)) == engine
    assert sum(rec[3] == "A" for pair in engine for rec in pair) > 2


def test_whole_games_are_the_engine_games() -> None:
    rules = resolve_rules(None)
    a, b = make_bot("rule", rules), make_bot("neural:ppo-selfplay", rules)
    engine = [play_game_pair(a, b, rules, 3, i) for i in range(4)]
    batched = play_games(batch_player(a, rules), batch_player(b, rules), rules, 3, range(4))
    assert batched == engine
    assert all(hands > 1 for pair in engine for _, hands in pair)  # several hands a game


def test_games_stop_at_the_hand_limit() -> None:
    rules = resolve_rules(None)
    a, b = make_bot("rule", rules), make_bot("neural:ppo-selfplay", rules)
    engine = [play_game_pair(a, b, rules, 3, i, max_hands=2) for i in range(5)]
    batched = play_games(batch_player(a, rules), batch_player(b, rules), rules, 3, range(5),
                         max_hands=2)
    assert batched == engine
    assert any(result is None for pair in batched for result, _ in pair)


def test_duplicate_takes_the_batched_path_for_batchable_bots(monkeypatch) -> None:
    def engine_path(*args, **kwargs):
        raise AssertionError("the engine path was used")

    monkeypatch.setattr(evaluate, "play_deal", engine_path)
    monkeypatch.setattr(evaluate, "play_game_pair", engine_path)
    result = duplicate("rule", "random", deals=20, games=2, seed=1)
    assert result.deals == 20 and result.games is not None and result.games.games == 4


def test_bots_that_need_the_engine_and_saved_records_take_the_engine_path(tmp_path) -> None:
    rules = resolve_rules(None)
    assert not may_batch("mc") and not may_batch("mcfast")
    assert may_batch("rule") and may_batch("neural:ppo-selfplay") and may_batch("random")
    assert batch_player(make_bot("mc", rules), rules) is None
    saved = duplicate("rule", "random", deals=3, seed=2, save=str(tmp_path))
    assert len(list(tmp_path.glob("deal-*.json"))) == 3
    assert saved.mean == duplicate("rule", "random", deals=3, seed=2).mean
