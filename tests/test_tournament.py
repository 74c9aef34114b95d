"""Round robin with ratings (arena.tournament, ``fh-eval --tournament``) and ``neural:best``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arena.duplicate import duplicate_values
from arena.seating import deal_seed
from arena.cli import main as eval_main
from agents.random_bot import RandomBot
from agents.rule import BidParams, RuleBot
from arena.cli import tournament_main as main
from arena.tournament import bradley_terry, outcome_counts, tournament
from fh_env.rules import Rules


@pytest.fixture(scope="module")
def small() -> object:
    """random, rule and a second rule bot under another name, 6 deals, 2 game pairs."""
    return tournament(["random", RuleBot(), RuleBot(name="rule-copy")], Rules(), deals=6,
                      seed=3, games=2, bootstrap=200)


# ---------------------------------------------------------------------------- the table
def test_the_table_has_every_pair_once_in_the_order_of_the_bots(small) -> None:
    assert small.bots == ["random", "rule", "rule-copy"]
    assert [(p.a, p.b) for p in small.pairs] == [("random", "rule"), ("random", "rule-copy"),
                                                  ("rule", "rule-copy")]
    for p in small.pairs:
        assert len(p.values) == 6 and p.result.deals == 6
        assert sum(p.record) == 6
        assert p.result.mean == pytest.approx(sum(p.values) / 6)
        assert p.result.games is not None and p.result.games.games == 4  # 2 pairs of games
    assert [r.bot for r in small.ratings][-1] == "random"
    text = small.format()
    assert "3 bots, 3 pairs" in text and "A wins games" in text
    for p in small.pairs:
        assert any(line.startswith(f"{p.a} ") and f" {p.b} " in line for line in text.splitlines())
    assert "note: random lost every deal" in text  # its gap is set by the prior


def test_every_pair_plays_the_same_deals(small) -> None:
    """The same deal seeds for every pair; the two copies of the rule bot, being the same
    player, score exactly the same on every deal against random (the same cards), and each
    pair's values are those of the same match played alone."""
    seeds = [deal_seed(3, i) for i in range(6)]
    assert all(p.deal_seeds == seeds for p in small.pairs)
    assert small.to_dict()["deal_seeds"] == seeds
    assert small.pair("random", "rule").values == small.pair("random", "rule-copy").values
    assert small.pair("rule", "rule-copy").values == [0.0] * 6
    alone = duplicate_values("random", "rule", Rules(), deals=6, seed=3)[1]
    assert small.pair("random", "rule").values == alone


def test_rule_is_rated_far_above_random() -> None:
    result = tournament(["random", "rule"], Rules(), deals=12, seed=1, bootstrap=300)
    rule, random_ = result.ratings
    assert rule.bot == "rule" and random_.bot == "random"
    assert rule.ci_low > random_.ci_high
    assert rule.rating - random_.rating > 400  # odds above 10 to 1 on a deal
    assert rule.rating == pytest.approx(-random_.rating)  # centred on the mean
    assert rule.won == 12 and random_.lost == 12
    assert rule.points == pytest.approx(-random_.points) and rule.points > 300
    anchored = tournament(["random", "rule"], Rules(), deals=12, seed=1, bootstrap=50,
                          anchor="random")
    assert anchored.ratings[1].rating == 0 == anchored.ratings[1].ci_low
    assert anchored.ratings[0].rating == pytest.approx(rule.rating - random_.rating)


def test_results_do_not_depend_on_the_workers() -> None:
    one = tournament(["random", "rule"], Rules(), deals=4, seed=5, bootstrap=20)
    two = tournament(["random", "rule"], Rules(), deals=4, seed=5, bootstrap=20, workers=2)
    assert one.pairs[0].values == two.pairs[0].values
    assert [r.rating for r in one.ratings] == [r.rating for r in two.ratings]


def test_three_players_play_a_tournament_too() -> None:
    result = tournament(["random", "rule"], "three-handed", deals=3, seed=0, bootstrap=20)
    assert result.players == 3 and result.rules == "three-handed"
    assert result.ratings[0].bot == "rule"


# ---------------------------------------------------------------------------- the model
def test_bradley_terry_is_the_maximum_likelihood_fit() -> None:
    wins = np.array([[0, 30, 10], [10, 0, 20], [30, 20, 0.0]])
    r = bradley_terry(wins, prior_ties=0)
    n = wins + wins.T
    p = 1 / (1 + np.exp(-(r[:, None] - r[None, :])))
    assert np.abs((wins - n * p).sum(1)).max() < 1e-8  # the score equations hold
    assert r.sum() == pytest.approx(0)
    equal = bradley_terry(np.array([[0, 5], [5, 0.0]]))
    assert equal == pytest.approx([0, 0])
    # A bot that wins everything stays finite thanks to the prior tie, and more deals of the
    # same one-sided kind move it further away.
    gap = [np.ptp(bradley_terry(np.array([[0, k], [0, 0.0]]))) for k in (10, 100)]
    assert all(np.isfinite(gap)) and gap[1] > gap[0] > 0
    # Replicates are fitted independently.
    both = bradley_terry(np.stack([wins, wins.T]), prior_ties=0)
    assert both[0] == pytest.approx(r) and both[1] == pytest.approx(-r)


def test_outcome_counts_count_ties_half() -> None:
    values = {(0, 1): np.array([10.0, 0.0, -5.0, 3.0])}
    wins = outcome_counts(values, 2)
    assert wins.tolist() == [[0, 2.5], [1.5, 0]]
    boot = outcome_counts(values, 2, np.array([[0, 0, 0, 0], [2, 2, 1, 1]]))
    assert boot[0].tolist() == [[0, 4], [0, 0]] and boot[1].tolist() == [[0, 1], [3, 0]]


# ---------------------------------------------------------------------------- JSON
def _strict(text: str) -> dict:
    def refuse(name: str) -> None:
        raise AssertionError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def test_json_is_strict_and_complete(small) -> None:
    data = _strict(small.to_json())
    assert data["bots"] == small.bots and data["deals"] == 6 and data["seed"] == 3
    assert len(data["pairs"]) == 3 and len(data["ratings"]) == 3
    pair = data["pairs"][0]
    assert {"a", "b", "mean", "ci_low", "ci_high", "won", "tied", "lost", "values",
            "deal_seeds", "games", "duplicate"} <= set(pair)
    assert [r["rank"] for r in data["ratings"]] == [1, 2, 3]
    # One deal: no interval can be computed, and JSON says null, not Infinity.
    one = _strict(tournament(["random", "rule"], Rules(), deals=1, seed=0).to_json())
    assert one["pairs"][0]["ci_low"] is None and one["ratings"][0]["ci_high"] is None


def test_the_command_line_prints_json(capsys) -> None:
    assert eval_main(["--tournament", "random", "rule", "--deals", "2", "--json",
                      "--no-progress", "--bootstrap", "10"]) == 0
    data = _strict(capsys.readouterr().out)
    assert data["bots"] == ["random", "rule"] and data["ratings"][0]["bot"] == "rule"
    assert main(["random", "--deals", "2", "rule", "--no-progress"]) == 0  # intermixed
    assert "ratings (Bradley-Terry" in capsys.readouterr().out


def test_fh_eval_a_b_is_unchanged(capsys) -> None:
    assert eval_main(["rule", "random", "--deals", "2", "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("rule (A) vs random (B)")


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("args, message", [
    (["rule"], "at least two bots, got 1"),
    ([], "at least two bots, got 0"),
    (["rule", "random", "rule"], "'rule' is given twice"),
    (["rule", "nobody"], "unknown bot 'nobody'"),
    (["rule", "mc:foo=1"], "has no option 'foo'"),
    (["rule", "random", "--deals", "0"], "--deals must be at least 1, not 0"),
    (["rule", "random", "--rules", "no-such-preset"], "no-such-preset"),
    (["rule", "random", "--anchor", "mc"], "--anchor 'mc' is not one of the bots"),
    (["rule", "mcfast:rollout=policy", "--rules", "three-handed"], "mcfast"),
    (["rule", "neural:best-nowhere"], "no best agent for neural:best-nowhere"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, capsys) -> None:
    assert eval_main(["--tournament", *args, "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fh-eval: error: ")
    assert message in lines[0]


def test_bot_objects_with_the_same_name_are_refused() -> None:
    with pytest.raises(ValueError, match="given twice"):
        tournament([RuleBot(), RuleBot(BidParams(kitty=0.3))], Rules(), deals=1)
    with pytest.raises(ValueError, match="at least two"):
        tournament([RandomBot()], Rules(), deals=1)


# ---------------------------------------------------------------------------- neural:best
def test_neural_best_is_the_shipped_agent_for_the_default_rules() -> None:
    from agents.registry import check_spec, make_bot
    from agents.shipped import BEST_AGENTS, DEFAULT_PRESET
    from fh_env.rules import rules_name

    assert rules_name(Rules()) == DEFAULT_PRESET
    assert BEST_AGENTS[DEFAULT_PRESET] == "distill-branches-2"
    check_spec("neural:best")
    check_spec(f"neural:best-{DEFAULT_PRESET},greedy=0")
    bot = make_bot("neural:best", Rules())
    assert bot.name == "neural:distill-branches-2"
    for preset, name in BEST_AGENTS.items():  # each is trained under its preset
        make_bot(f"neural:best-{preset}", Rules.preset(preset))
    assert make_bot("neural:best:sample").greedy is False


@pytest.mark.parametrize("spec, message", [
    ("neural:best-six-handed", "'six-handed' has no shipped agent; best agents exist "
                                 "for: neural:best-australian-no-nullo (= neural:distill-branches-2, "
                                 "also neural:best), neural:best-australian (= "
                                 "neural:distill-australian-nullo-declarer), neural:best-canadian (= "
                                 "neural:distill-canadian-calls-steps-4)"),
    ("neural:best-nowhere", "'nowhere' is not a preset (presets: australian-no-nullo"),
])
def test_neural_best_for_a_preset_without_one_lists_what_exists(spec, message,
                                                              monkeypatch) -> None:
    from agents.registry import check_spec, make_bot
    from agents.shipped import BEST_AGENTS

    monkeypatch.delitem(BEST_AGENTS, "six-handed")  # every preset has one now

    for fn in (check_spec, make_bot):
        with pytest.raises(ValueError) as err:
            fn(spec)
        assert message in str(err.value)
