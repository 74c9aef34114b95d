"""Duplicate evaluation (arena.duplicate, ``fh-eval``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.duplicate import duplicate, play_deal
from arena.results import contract_kind
from arena.stats import mean_ci, t_quantile, wilson
from agents.random_bot import RandomBot
from agents.rule import RuleBot
from fh_env import actions as A
from fh_env.engine import NO_CONTRACT
from fh_env.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def test_a_bot_against_itself_scores_exactly_zero_on_every_deal():
    """Both plays of a deal hold the same cards with the teams swapped, so a deterministic bot
    against itself gives the same hand twice with the points swapped."""
    result = duplicate(RuleBot(), RuleBot(), Rules.preset("australian"), deals=30, seed=1)
    assert result.mean == 0 and result.sd == 0
    assert result.contracts["A"] == result.contracts["B"]
    assert result.avg_level["A"] == result.avg_level["B"]


def test_rule_beats_random_with_an_interval_above_zero():
    result = duplicate("rule", "random", Rules(), deals=40, seed=2)
    assert result.ci_low > 100 and result.mean > 300
    assert result.a_points - result.b_points == pytest.approx(result.mean)
    bid = sum(v[0] for v in result.contracts["B"].values())
    assert bid > 40  # random bids all the time
    assert result.avg_level["B"] > result.avg_level["A"]


def test_the_value_of_a_deal_is_the_mean_of_its_two_plays():
    rules = Rules()
    pair = play_deal(RuleBot(), RandomBot(), rules, seed=3, index=0)
    result = duplicate(RuleBot(), RandomBot(), rules, deals=1, seed=3)
    assert result.mean == ((pair[0][0] - pair[0][1]) + (pair[1][0] - pair[1][1])) / 2


class _Passer:
    name = "passer"

    def act(self, view, rng):
        return A.PASS if view.legal & 1 else view.legal_actions()[0]


def test_hands_thrown_in_count_zero_and_stay_in_the_mean():
    result = duplicate(_Passer(), _Passer(), Rules(), deals=5, seed=4)
    assert result.thrown_in == 10 and result.mean == 0 and result.deals == 5


def test_results_do_not_depend_on_the_number_of_workers():
    one = duplicate("rule", "random", Rules.preset("american"), deals=12, seed=5, games=2)
    two = duplicate("rule", "random", Rules.preset("american"), deals=12, seed=5, games=2,
                    workers=2)
    a, b = one.to_dict(), two.to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_games_report_a_win_rate_with_a_wilson_interval():
    result = duplicate("rule", "random", Rules(), deals=2, seed=6, games=4)
    games = result.games
    assert games is not None and games.games == 8
    assert games.win_rate >= 0.75
    assert games.ci_low <= games.win_rate <= games.ci_high
    assert (games.ci_low, games.ci_high) == wilson(games.wins, games.games)


def test_statistics():
    assert t_quantile(0.975, 10) == pytest.approx(2.228, abs=0.01)
    assert t_quantile(0.975, 30) == pytest.approx(2.042, abs=0.003)
    assert t_quantile(0.975, 10**6) == pytest.approx(1.960, abs=0.001)
    low, high = wilson(50, 100)
    assert (low, high) == (pytest.approx(0.4038, abs=1e-3), pytest.approx(0.5962, abs=1e-3))
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(0, 10)[0] == pytest.approx(0.0)
    mean, lo, hi, sd = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and sd == pytest.approx(1.29099, abs=1e-4)
    assert hi - mean == pytest.approx(t_quantile(0.975, 3) * sd / 2)
    assert contract_kind(A.bid_action(7, A.NT)) == "notrump"
    assert contract_kind(A.bid_action(8, 2)) == "suit"
    assert contract_kind(A.OPEN_NULLO) == "open nullo"
    assert contract_kind(NO_CONTRACT) == "no contract"


def test_the_command_line_prints_a_table_or_json(capsys):
    assert main(["rule", "random", "--deals", "4", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "95% CI" in text and "rule (A) vs random (B)" in text and "average level" in text
    assert main(["rule", "random", "--deals", "4", "--games", "1", "--json", "--seed", "9",
                 "--rules", str(ROOT / "configs" / "rules" / "australian.toml")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 4 and data["seed"] == 9 and data["games"]["games"] == 2
    assert data["rules"].endswith("australian.toml")
    assert set(data["contracts"]["A"]) == {"suit", "notrump", "nullo", "open nullo",
                                           "double nullo"}


def test_the_command_line_rejects_bad_arguments(capsys):
    assert main(["rule", "nobody", "--deals", "2"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["rule", "random", "--rules", "no-such-preset"]) == 2
    assert "preset" in capsys.readouterr().err


# ------------------------------------------------------------------ three and six players (§9)
def test_three_players_play_each_deal_three_times_with_a_on_each_seat():
    rules = Rules.preset("three-handed")
    plays = play_deal(RuleBot(), RandomBot(), rules, seed=3, index=0)
    assert len(plays) == 3
    result = duplicate(RuleBot(), RandomBot(), rules, deals=1, seed=3)
    assert result.mean == pytest.approx(sum(a - b for a, b, *_ in plays) / 3)
    assert result.players == 3 and "A on each seat against two B" in result.format()
    same = duplicate(RuleBot(), RuleBot(), rules, deals=10, seed=1, games=1)
    assert same.mean == 0 and same.sd == 0 and same.games.games == 3
    assert "(even: 33.3%)" in same.format()


def test_six_players_swap_the_teams_of_three():
    from arena.seating import seat_bots

    a, b = RuleBot(), RandomBot()
    assert seat_bots(a, b, 0, 6) == [a, b, a, b, a, b]
    assert seat_bots(a, b, 1, 6) == [b, a, b, a, b, a]
    result = duplicate("rule", "random", Rules.preset("six-handed"), deals=6, seed=2, games=1)
    assert result.ci_low > 100 and result.games.games == 2 and result.players == 6


def test_the_command_line_takes_three_and_six_handed_rules(capsys):
    assert main(["rule", "random", "--deals", "3", "--rules", "three-handed", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 3
    assert main(["mcfast:rollout=policy", "rule", "--deals", "1", "--rules", "six-handed"]) == 2
    assert "four players only" in capsys.readouterr().err


# ------------------------------------------------------------------ through a common opponent
@pytest.mark.parametrize("preset", ["australian", "three-handed", "six-handed"])
def test_through_pairs_the_two_matches_deal_by_deal(preset):
    """A - B through X is the per-deal difference of the two matches on the same deals: its
    mean is the difference of their means, and its interval is the paired one (not either
    match's, nor their sum's)."""
    from arena.duplicate import duplicate_values
    from arena.paired import through

    rules = Rules.preset(preset)
    result = through("rule", "random", "random", rules, deals=8, seed=11)
    a_vs_x, a_values = duplicate_values("rule", "random", rules, deals=8, seed=11)
    b_vs_x, b_values = duplicate_values("random", "random", rules, deals=8, seed=11)
    assert len(set(a_values)) > 1 and len(set(b_values)) > 1  # a wrong pairing would show
    assert result.a_vs_x.to_dict() | {"seconds": 0} == a_vs_x.to_dict() | {"seconds": 0}
    assert result.b_vs_x.to_dict() | {"seconds": 0} == b_vs_x.to_dict() | {"seconds": 0}
    paired = mean_ci([u - v for u, v in zip(a_values, b_values)])
    assert (result.mean, result.ci_low, result.ci_high, result.sd) == paired
    assert result.sd != mean_ci([u - v for u, v in zip(a_values, b_values[::-1])])[3]
    assert result.mean == pytest.approx(a_vs_x.mean - b_vs_x.mean)
    # the seed reaches both matches
    assert through("rule", "random", "random", rules, deals=8, seed=12).mean != result.mean


def test_a_bot_through_anything_equals_itself_exactly():
    from arena.paired import through

    result = through("rule", "rule", "random", Rules(), deals=10, seed=13)
    assert result.mean == 0 and result.sd == 0 and result.ci_low == result.ci_high == 0


def test_the_command_line_takes_through(capsys):
    assert main(["rule", "random", "--through", "rule", "--deals", "3", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "rule (A) vs rule (B)" in text and "random (A) vs rule (B)" in text
    assert "rule (A) - random (B) through rule, the same 3 deals:" in text
    assert main(["rule", "random", "--through", "rule", "--deals", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["a_vs_x"]["deals"] == data["b_vs_x"]["deals"] == 3
    assert data["mean"] == pytest.approx(data["a_vs_x"]["mean"] - data["b_vs_x"]["mean"])


@pytest.mark.parametrize("args, message", [
    (["--through", "nobody"], "unknown bot 'nobody'"),
    (["--through", "rule", "--games", "2"], "--through plays two matches of deals only"),
    (["--through", "rule", "--save", "somewhere"], "--through plays two matches of deals only"),
])
def test_through_refuses_what_it_cannot_do(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    assert main(["rule", "random", "--deals", "2", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fh-eval: error:") and message in err and "\n" not in err.strip()
    assert not (tmp_path / "somewhere").exists()
