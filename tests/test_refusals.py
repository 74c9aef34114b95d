"""Every refusal says what is accepted, and names the one bad input (issue 32, points 4 and 5).

A newcomer's first mistakes, each as it was met: ``--deals -5`` named three flags, a rules typo
in ``fh-train`` repeated itself, ``neural:best-PRESET`` for a preset without an agent listed
nothing.  Each refusal below must name the input that was refused and list what would have
been accepted instead.
"""

from __future__ import annotations

import re

import pytest

from fh_env import actions as A
from fh_env.cards import parse_card
from fh_env.engine import State
from fh_env.rules import PRESETS, Rules, load_rules

PRESET_LIST = ", ".join(PRESETS)


def _refusal(fn) -> str:
    with pytest.raises((ValueError, TypeError)) as err:
        fn()
    return str(err.value)


def _best_of_a_preset_without_one():
    """Every preset has a shipped agent now: six-handed's is taken away to see the refusal."""
    from agents.shipped import BEST_AGENTS

    with pytest.MonkeyPatch.context() as patch:
        patch.delitem(BEST_AGENTS, "six-handed")
        return _make_bot("neural:best-six-handed")


def _single(**kwargs):
    from fh_env.envs.single import SingleSeatEnv

    return SingleSeatEnv(**kwargs)


def _aec(**kwargs):
    import fh_env

    return fh_env.env(**kwargs)


def _reset(**options):
    env = _aec()
    env.reset(seed=0, options=options)


def _make_bot(spec):
    from agents.registry import make_bot

    return make_bot(spec)


def _vector(**kwargs):
    from fh_env.envs.vector import VectorEnv

    return VectorEnv(2, **kwargs)


# (what is refused, the refusal, words it must hold: the input and what is accepted)
CASES = [
    ("a preset typo", lambda: load_rules("australain"),
     ["'australain'", PRESET_LIST, ".toml rules file"]),
    ("a rules preset", lambda: Rules.preset("nope"), ["'nope'", PRESET_LIST]),
    ("a rule option", lambda: Rules().replace(nulo="anytime"),
     ["nulo", "known options: ", "nullo", "min_bid_level"]),
    ("a rule value", lambda: Rules().replace(nullo="sometimes"), ["nullo='sometimes'",
                                                                  "choose one of"]),
    ("a card name", lambda: parse_card("1Z"), ["'1Z'", "S, C, D, H", "'10S'"]),
    ("an action name", lambda: A.str_to_action("bid 6"), ["'bid 6'", "'pass'", "'6S'",
                                                          "'play <card>'"]),
    ("an action id", lambda: A.action_to_str(999), ["999", "0..129"]),
    ("an illegal action", lambda: State(Rules(), seed=0).apply(A.PLAY_BASE),
     ["illegal action", "legal actions: pass, 6S, 6C"]),
    ("a bot name", lambda: _make_bot("nobody"), ["'nobody'", "known bots: ", "rule", "mc"]),
    ("a bot option", lambda: _make_bot("mc:foo=1"), ["'foo'", "accepted options: samples"]),
    ("a bot option value", lambda: _make_bot("mc:samples=0"), ["samples='0'",
                                                              "an integer at least 1"]),
    ("a checkpoint", lambda: _make_bot("neural:nothing"), ["'nothing'", "shipped: ",
                                                           "ppo-selfplay"]),
    ("neural:best of a preset without one", _best_of_a_preset_without_one,
     ["neural:best-six-handed", "has no shipped agent", "best agents exist for: ",
      "neural:best-australian-no-nullo (= neural:distill-branches-2, also neural:best)",
      "neural:best-american (= neural:distill-american-calls-steps-5)"]),
    ("neural:best of no preset", lambda: _make_bot("neural:best-nowhere"),
     ["'nowhere' is not a preset", PRESET_LIST, "best agents exist for: neural:best-"]),
    ("a bot by name in the single-seat env", lambda: _single(opponents="nobody"),
     ["'nobody'", "known bots: "]),
    ("a bot object", lambda: _single(opponents=42), ["42", "bot name such as 'rule'"]),
    ("learner seats", lambda: _single(seats=(0, 1)), ["(0, 1)", "one seat (s,)", "(0, 2)"]),
    ("an episode", lambda: _aec(episode="match"), ["'match'", "hand", "game"]),
    ("a reward", lambda: _aec(reward="score"), ["'score'", "diff", "points", "win"]),
    ("a render mode", lambda: _aec(render_mode="rgb"), ["'rgb'", "ansi", "human"]),
    ("a reset option", lambda: _reset(dealr=1), ["'dealr'", "rules", "dealer", "deal"]),
    ("a dealer", lambda: _reset(dealer=7), ["7", "0..3"]),
    ("vector deals", lambda: _vector(deals="numpy"), ["'numpy'", "'engine'", "'compiled'"]),
]


@pytest.mark.parametrize("what, refuse, words", CASES, ids=[c[0] for c in CASES])
def test_a_refusal_names_the_input_and_what_is_accepted(what, refuse, words):
    message = _refusal(refuse)
    for word in words:
        assert word in message, f"{what}: {word!r} missing from {message!r}"


# ---------------------------------------------------------------------------- one bad input
def test_fh_eval_names_the_one_bad_count(capsys):
    from arena.cli import main

    for args, flag in ((["--deals", "-5"], "--deals"), (["--games", "-1"], "--games"),
                       (["--workers", "0"], "--workers")):
        assert main(["rule", "random", *args, "--no-progress"]) == 2
        err = capsys.readouterr().err.strip()
        assert err == f"fh-eval: error: {flag} must be at least {0 if flag == '--games' else 1}" \
                      f", not {args[1]}", err
    assert main(["--tournament", "rule", "random", "--bootstrap", "-5", "--no-progress"]) == 2
    assert capsys.readouterr().err.strip() == ("fh-eval: error: --bootstrap must be at least 0, "
                                               "not -5")


def test_arena_split_names_the_bad_count(capsys):
    from arena.split import main

    assert main(["rule", "random", "--deals", "-5"]) == 2
    assert capsys.readouterr().err.strip() == ("python -m arena.split: error: --deals must be at "
                                               "least 1, not -5")


def test_the_library_names_the_one_bad_count():
    """duplicate(deals=-5) used to play nothing and report a mean of 0; the tournament named
    every count at once ("deals and workers must be at least 1, games and bootstrap ...")."""
    from arena.duplicate import duplicate
    from arena.tournament import tournament

    assert _refusal(lambda: duplicate("rule", "rule", deals=-5)) == "deals=-5 must be at least 1"
    assert _refusal(lambda: duplicate("rule", "rule", workers=0)) == "workers=0 must be at least 1"
    assert _refusal(lambda: tournament(["rule", "random"], None, deals=2, bootstrap=-1)) == (
        "bootstrap=-1 must be at least 0")
    assert _refusal(lambda: tournament(["rule", "random"], None, deals=0)) == (
        "deals=0 must be at least 1")


def test_a_rules_typo_in_fh_train_is_said_once():
    """It was ``config rules='australain' is invalid: rules='australain' is neither ...``."""
    from train.config import TrainConfig

    message = _refusal(lambda: TrainConfig(rules="australain"))
    assert len(re.findall("australain", message)) == 1, message
    assert message.startswith("config rules='australain' is neither")
    assert PRESET_LIST in message
