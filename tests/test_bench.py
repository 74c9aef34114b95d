"""Smoke tests of ``python -m bench``: the command runs, prints one table and writes the JSON record
with the keys that later runs are compared by; and the timing helpers' arithmetic."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench import __main__ as bench_main
from bench import common, peers
from fh_env.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
ROW_KEYS = {"section", "system", "clock", "value", "unit", "value2", "unit2", "ratio", "ratio_of"}


def test_quick_engine_section_command_line(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--only", "engine", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(out.read_text())
    assert {"timestamp", "command", "machine", "settings", "sections", "table", "notes",
            "seconds", "load_average_after"} <= set(record)
    machine = record["machine"]
    assert machine["cpu_count"] >= 1 and machine["python"].count(".") == 2
    assert machine["packages"]["numpy"] and machine["packages"]["numba"]
    assert len(machine["load_average"]) == 3 and len(machine["load_average_end"]) == 3
    assert record["settings"]["quick"] is True and record["settings"]["runs"] >= 3
    assert list(record["sections"]) == ["engine"]
    assert set(record["sections"]["engine"]["rules"]) == {"australian-no-nullo",
                                                          "american-double-nullo"}
    table = record["table"]
    assert [r["section"] for r in table] == ["engine"] * 3
    assert all(set(r) == ROW_KEYS for r in table)
    assert table[0]["ratio"] is None  # the reference itself
    for r in table[1:]:
        assert r["value"] > 0 and r["value2"] > r["value"]  # actions/s exceed hands/s
        assert r["ratio"] == pytest.approx(r["value"] / table[0]["value"], rel=1e-9)
    # One Markdown table on stdout: header, rule, one line per row, all the same width.
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("|")]
    assert len(lines) == 2 + len(table)
    assert len({len(ln) for ln in lines}) == 1
    assert str(out) in proc.stdout


def test_unknown_section_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as err:
        bench_main.main(["--only", "engine,nonsense"])
    assert err.value.code == 2
    assert "nonsense" in capsys.readouterr().err


def test_peers_without_openspiel_keeps_our_rows(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(peers, "have_openspiel", lambda: False)
    record = bench_main.main(["--quick", "--seconds", "0.05", "--only", "peers",
                              "--json", str(tmp_path / "p.json")])
    assert [r["system"] for r in record["table"]] == [*peers.OURS.values(), peers.AEC]
    assert all(r["ratio"] is None for r in record["table"])
    assert record["sections"]["peers"]["aec_over_bridge_games"] is None
    assert any("OpenSpiel" in note for note in record["notes"])
    plain, observed = (record["sections"]["peers"]["systems"][n] for n in peers.OURS.values())
    # Building an observation and a mask at every decision cannot make play faster.
    assert observed["steps_per_cpu_s"] < plain["steps_per_cpu_s"]


def test_peer_systems_pair_each_peer_with_ours() -> None:
    table = peers.systems()
    ours = [name for name, (_, ref) in table.items() if ref is None]
    assert ours == [*peers.OURS.values(), peers.AEC]
    refs = [ref for _, ref in table.values() if ref is not None]
    assert all(ref in ours for ref in refs)
    assert len(refs) == (4 if peers.have_openspiel() else 0)


def test_ours_work_plays_whole_hands() -> None:
    steps, hands = peers.ours_work(Rules(), observe=True)()
    assert hands == 10 and steps >= 10 * 4  # at least every seat calls once a hand
    steps, hands = peers.aec_work()()  # through fh_env.env(), as a PettingZoo user does
    assert hands == 10 and steps >= 10 * 4


def test_the_aec_env_stands_beside_openspiels_bridge_in_games_per_second(tmp_path) -> None:
    record = bench_main.main(["--quick", "--seconds", "0.05", "--only", "peers",
                              "--json", str(tmp_path / "p.json")])
    raw = record["sections"]["peers"]
    ratio = raw["aec_over_bridge_games"]
    assert ratio > 0
    side = [r for r in record["table"] if r["system"].startswith(peers.AEC + " vs ")]
    assert len(side) == 1 and side[0]["ratio"] == ratio
    assert side[0]["unit"] == "hands/s" and side[0]["unit2"] == "bridge games/s"


def test_ratio_is_the_median_of_per_round_ratios() -> None:
    # Load halves both systems in round 2: the per-round ratio stays 2, the ratio of medians
    # over these rounds would not.
    runs = [{"a": {"x": 10.0}, "b": {"x": 5.0}},
            {"a": {"x": 4.0}, "b": {"x": 2.0}},
            {"a": {"x": 12.0}, "b": {"x": 6.0}},
            {"a": {"x": 1.0}, "b": {"x": 9.0}}]
    assert common.median_ratio(runs, "a", "b", "x") == 2.0
    assert common.medians(runs) == {"a": {"x": 7.0}, "b": {"x": 5.5}}


def test_timed_counts_steps_and_episodes() -> None:
    calls = []

    def work() -> tuple[int, int]:
        calls.append(1)
        sum(range(20_000))
        return 30, 2

    rates = common.timed(work, 0.02)
    assert rates["steps_per_episode"] == 15.0
    assert rates["steps_per_cpu_s"] == pytest.approx(15 * rates["episodes_per_cpu_s"])
    assert len(calls) >= 1 and rates["episodes_per_cpu_s"] > 0


def test_default_json_path_is_in_the_ignored_results_folder() -> None:
    path = common.default_json_path("2026-11-30T02:54:45+00:00")
    assert path.parent == ROOT / "bench" / "results" and path.name == "2026-11-30T025445Z.json"
    ignored = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=ROOT)
    assert ignored.returncode == 0


def test_every_section_has_a_runner() -> None:
    assert tuple(bench_main.RUNNERS) == bench_main.SECTIONS
