"""arena.split: calls, leads and follows routed to their own bots, in worker processes too,
and its command line."""

from __future__ import annotations

import pickle

import pytest

from arena.duplicate import duplicate
from agents.registry import make_bot
from arena.split import SplitBot, main
from fh_env.engine import Phase
from fh_env.rules import Rules


class Recorder:
    """Plays like ``bot`` and keeps every view it was asked about."""

    def __init__(self, bot) -> None:
        self.bot, self.name, self.views = bot, f"rec:{bot.name}", []

    def act(self, view, rng):
        self.views.append(view)
        return self.bot.act(view, rng)


def test_each_part_goes_to_its_own_bot() -> None:
    calls, leads, follows = (Recorder(make_bot("rule")) for _ in range(3))
    split = SplitBot(calls, leads, follows)
    res = duplicate(split, "rule", deals=6, seed=3)
    assert all(r.views for r in (calls, leads, follows))
    assert all(v.phase in (Phase.AUCTION, Phase.EXCHANGE) for v in calls.views)
    assert all(v.phase == Phase.PLAY and not v.trick for v in leads.views)
    assert all(v.phase == Phase.PLAY and v.trick for v in follows.views)
    # the rule bot in every part is the rule bot: the same play, to the point
    assert res.mean == 0.0 and res.a_points == res.b_points


def test_a_part_of_another_bot_changes_the_play() -> None:
    random_leads = SplitBot(make_bot("rule"), make_bot("random"), make_bot("rule"))
    assert duplicate(random_leads, "rule", deals=20, seed=3).mean < 0


def test_command_line_rows_and_one_line_errors(capsys) -> None:
    assert main(["random", "rule", "--parts", "leads,follows", "--deals", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("each part of random") and len(out) == 3
    assert out[1].startswith("leads") and out[2].startswith("follows")
    for argv in (["nope", "rule"], ["rule", "rule", "--parts", "kitty"],
                 ["rule", "rule", "--deals", "0"], ["rule", "rule", "--workers", "0"],
                 ["rule", "rule", "--rules", "nowhere"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("python -m arena.split: error:") and "\n" not in err


def test_a_split_from_specs_plays_the_same_in_worker_processes() -> None:
    specs = {"calls": "rule", "leads": "random", "follows": "rule"}
    split = SplitBot.from_specs(specs, Rules())
    copy = pickle.loads(pickle.dumps(split))  # what a spawned worker receives
    assert copy.parts["calls"] is copy.parts["follows"] and copy.name == split.name
    one = duplicate(split, "rule", deals=12, seed=4)
    two = duplicate(SplitBot.from_specs(specs, Rules()), "rule", deals=12, seed=4, workers=2)
    assert (one.mean, one.a_points) == (two.mean, two.a_points) and one.mean < 0


def test_a_split_of_bot_objects_says_it_cannot_go_to_workers() -> None:
    split = SplitBot(make_bot("rule"), make_bot("random"), make_bot("rule"))
    with pytest.raises(TypeError, match="SplitBot.from_specs"):
        pickle.dumps(split)
