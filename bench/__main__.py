"""Every benchmark as one command: ``python -m bench [--seconds S] [--runs N] [--only A,B]
[--json PATH] [--quick]``.

Prints one table: each of our systems beside a reference measured in the same run, and the ratio
ours ÷ reference (the headline: absolute rates move with the machine and its load, ratios much
less).  Every figure is a median over ``--runs`` runs.  The sections (``--only``):

* ``engine``: the reference engine, random full hands/s and actions/s, default rules and
  american-double-nullo, against a bare-Python loop of the same kind of work (``bench.engine``);
* ``env``: the AEC env, agent steps/s and hands/s through ``agent_iter``/``last``/``step``,
  against PettingZoo's ``connect_four_v3`` ``env()`` and ``raw_env()``, and ``env()`` against
  itself before incremental observations (``bench.env.before_env``) (``bench.env``);
* ``vector``: the numba fast core at several batch sizes N, against the engine (``bench.vector``);
* ``vector_env``: ``fh_env.envs.vector.VectorEnv`` agent steps/s with observations and masks at
  several N, against the engine building the same one game at a time (``bench.vector_env``);
* ``eval``: ``fh-eval``'s duplicate deals per CPU second through the engine and batched in the
  compiled core, ``neural:ppo-selfplay`` against ``rule`` and ``rule`` against ``random``
  (``bench.evaluate``);
* ``mc``: milliseconds per Monte Carlo decision at each level, against the time of one random
  engine hand (``bench.mc``);
* ``peers``: OpenSpiel's ``euchre`` and ``bridge`` driven from Python, with and without an
  observation tensor and legal mask per decision, against our engine doing the same
  (``bench.peers``; OpenSpiel comes with ``pip install '.[bench]'``).

The whole table, the settings, the machine (CPUs, Python, library versions, load average) and a
timestamp go to ``--json PATH`` (default ``bench/results/<timestamp>.json``, git-ignored), so that
runs can be compared over time.  ``--quick`` shortens everything, for a smoke test.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable

from bench import common

SECTIONS = ("engine", "env", "vector", "vector_env", "rule", "eval", "mc", "mcfast", "peers")
Row = dict[str, Any]


@dataclass(frozen=True)
class Settings:
    seconds: float
    runs: int
    quick: bool
    sizes: tuple[int, ...]  # vector: batch sizes N
    env_sizes: tuple[int, ...]  # vector_env: batch sizes N
    positions: int  # mc: decision points
    levels: tuple[int, ...]  # mc: levels timed


def settings(seconds: float | None, runs: int | None, quick: bool) -> Settings:
    """The defaults, or the short ones of ``--quick``; explicit ``--seconds``/``--runs`` win."""
    if quick:
        return Settings(seconds if seconds is not None else 0.1, runs or 3, True, (1, 64), (64,),
                        4, (4,))
    return Settings(seconds if seconds is not None else 1.0, runs or 5, False,
                    (1, 64, 1024, 4096), (64, 256, 1024), 30, (4, 5, 6))


def row(section: str, system: str, clock: str, value: float, unit: str,
        value2: float | None = None, unit2: str | None = None, ratio: float | None = None,
        ratio_of: str | None = None) -> Row:
    """One line of the table: a system, its main figure (and a second one), measured on
    ``clock`` ("cpu": per CPU second of this process, "wall"), and the headline ratio."""
    return {"section": section, "system": system, "clock": clock, "value": value, "unit": unit,
            "value2": value2, "unit2": unit2, "ratio": ratio, "ratio_of": ratio_of}


# ---------------------------------------------------------------------------------- sections
def engine_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    from bench import engine

    raw = engine.measure(s.seconds, s.runs)
    rows = [row("engine", "bare-Python reference loop (deal 43, 50 choices)", "wall",
                raw["reference_loops_per_s"], "loops/s")]
    for name, r in raw["rules"].items():
        rows.append(row("engine", f"engine random hands, {name}", "wall", r["hands_per_s"],
                        "hands/s", r["actions_per_s"], "actions/s",
                        r["hands_per_reference_loop"], "hands ÷ reference loops"))
    return raw, rows


def env_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    import fh_env
    from bench import env as bench_env
    from fh_env.envs.aec import raw_env

    bench_env._connect_four()  # stands pygame in where it is missing (rendering only)
    from pettingzoo.classic import connect_four_v3

    before = "fh_env.env() before: full re-encoding, PettingZoo wrapper paths"
    makers: dict[str, Callable[[], Any]] = {
        "fh_env.env()": fh_env.env, "fh_env.raw_env()": raw_env,
        before: bench_env.before_env,
        "connect_four_v3.env()": connect_four_v3.env,
        "connect_four_v3.raw_env()": connect_four_v3.raw_env}
    ours_of = {"fh_env.env()": "connect_four_v3.env()",
               "fh_env.raw_env()": "connect_four_v3.raw_env()"}

    def play(make: Callable[[], Any], seed: list[int]) -> dict[str, float]:
        seed[0] += 1000
        steps, episodes = bench_env.random_play(make, s.seconds, seed=seed[0])
        return {"steps_per_cpu_s": steps, "episodes_per_cpu_s": episodes}

    seeds = {name: [0] for name in makers}
    runs = common.rounds({name: (lambda m=m, sd=seeds[name]: play(m, sd))
                          for name, m in makers.items()}, s.runs)
    figures: dict[str, dict[str, Any]] = common.medians(runs)
    rows = []
    for name, f in figures.items():
        ref = ours_of.get(name)
        ratio = (common.median_ratio(runs, name, ref, "steps_per_cpu_s") if ref else None)
        episodes = "hands/s" if name.startswith("fh_env") else "games/s"
        label = name if ref else f"peer: PettingZoo {name}"
        if name == before:  # the env before incremental observations, in the same rounds
            ratio = common.median_ratio(runs, "fh_env.env()", before, "steps_per_cpu_s")
            f["env_steps_ratio_to_before"] = ratio
            rows.append(row("env", name, "cpu", f["steps_per_cpu_s"], "agent steps/s",
                            f["episodes_per_cpu_s"], episodes, ratio,
                            "fh_env.env() agent steps ÷ this"))
            continue
        rows.append(row("env", label, "cpu", f["steps_per_cpu_s"], "agent steps/s",
                        f["episodes_per_cpu_s"], episodes, ratio,
                        f"agent steps ÷ {ref}" if ref else None))
        if ref:
            f["steps_ratio_to_" + ref] = ratio
    return {"seconds": s.seconds, "runs": s.runs, "systems": figures}, rows


def vector_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    from bench import vector

    raw = vector.measure("australian", list(s.sizes), s.seconds, s.runs)
    rows = []
    for r in raw["results"]:
        if r["what"] == "engine":
            rows.append(row("vector", "engine (reference), one game at a time", "cpu",
                            r["hands_per_cpu_s"], "hands/s"))
        elif r["what"] == "fast_jit":
            rows.append(row("vector", f"fast core, compiled random hands, N={r['n']}", "cpu",
                            r["hands_per_cpu_s"], "hands/s", ratio=r["ratio_cpu_s"],
                            ratio_of="hands ÷ engine hands"))
        else:
            rows.append(row("vector", f"fast core, step() from Python, N={r['n']}", "cpu",
                            r["hands_per_cpu_s"], "hands/s", r["core_hands_per_cpu_s"],
                            "hands/s w/o numpy chooser", r["ratio_cpu_s"],
                            "hands ÷ engine hands"))
    return raw, rows


def vector_env_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    from bench import vector_env

    raw = vector_env.measure("australian", list(s.env_sizes), s.seconds, s.runs)
    rows = []
    for r in raw["results"]:
        if r["what"] == "engine":
            rows.append(row("vector_env", "engine + observation + mask, one game at a time",
                            "cpu", r["steps_per_cpu_s"], "agent steps/s", r["hands_per_cpu_s"],
                            "hands/s"))
        else:
            rows.append(row("vector_env", f"VectorEnv.step (obs + mask), N={r['n']}", "cpu",
                            r["steps_per_cpu_s"], "agent steps/s", r["hands_per_cpu_s"],
                            "hands/s", r["ratio_cpu_s"], "agent steps ÷ engine steps"))
    return raw, rows


def mc_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    from agents.mc import LEVELS, MCBot
    from bench import engine, mc
    from fh_env.rules import Rules

    rules_name = "australian-no-nullo"
    rules = Rules.preset(rules_name)
    views = mc.decision_points(rules, s.positions)
    bots = {f"mc{lv}": MCBot(samples=LEVELS[lv]) for lv in s.levels}

    def reference() -> dict[str, float]:
        hands, _, _, cpu = engine.random_hands(rules, s.seconds)
        return {"ms_per_hand": 1000 * cpu / hands}

    systems: dict[str, Callable[[], dict[str, Any]]] = {"engine": reference}
    systems |= {name: (lambda b=bot: mc.time_bot(b, views)) for name, bot in bots.items()}
    runs = common.rounds(systems, s.runs)
    ref_ms = statistics.median(r["engine"]["ms_per_hand"] for r in runs)
    bare = mc.bare_speed(rules, s.seconds)
    rows = [row("mc", "engine random hand (reference)", "cpu", ref_ms, "ms/hand"),
            row("mc", "bare rule-bot rollout from a play position", "cpu",
                bare["rollouts_per_s"], "rollouts/s", bare["samples_per_s"], "sampler draws/s",
                bare["rollouts_per_s"] * ref_ms / 1000, "rollouts ÷ random hands")]
    raw: dict[str, Any] = {"rules": rules_name, "positions": len(views), "runs": s.runs,
                           "engine_ms_per_random_hand": ref_ms, "bare": bare}
    for name, bot in bots.items():
        samples = [r[name] for r in runs]
        figures = {key: statistics.median(x[key] for x in samples)
                   for key in ("ms_per_decision", "decisions_per_s", "rollouts_per_s")}
        phases = {p for x in samples for p in x["ms_by_phase"]}
        figures["ms_by_phase"] = {p: statistics.median(x["ms_by_phase"][p] for x in samples
                                                       if p in x["ms_by_phase"]) for p in phases}
        ratio = statistics.median(r[name]["ms_per_decision"] / r["engine"]["ms_per_hand"]
                                  for r in runs)
        figures["decision_over_random_hand"] = ratio
        raw[name] = figures
        rows.append(row("mc", f"{name} decision ({bot.samples} worlds)", "cpu",
                        figures["ms_per_decision"], "ms/decision", figures["rollouts_per_s"],
                        "rollouts/s", ratio, "decision time ÷ random-hand time"))
    return raw, rows


def rule_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    """The compiled rule bot against the Python one, and a learner against it in VectorEnv."""
    from bench import rule

    res = rule.agreement(2_000 if s.quick else 20_000, seed=0)
    python_rate = res.positions / res.python_s
    compiled = rule.compiled_rate(res.records, rule.Rules())
    vs = rule.measure_vs_rule([256], s.seconds, s.runs)[0]
    raw = {"positions": res.positions, "agree": res.agree, "python_decisions_per_s": python_rate,
           "compiled_decisions_per_s": compiled, "vs_rule": vs}
    rows = [row("rule", "rule bot, Python (seat_view + act)", "wall", python_rate, "decisions/s"),
            row("rule", f"rule bot, compiled ({res.agree:,} of {res.positions:,} agree)", "wall",
                compiled, "decisions/s", ratio=compiled / python_rate,
                ratio_of="compiled ÷ Python decisions"),
            row("rule", "learner vs rule in VectorEnv, Python bot, N=256", "cpu",
                vs["python"]["learner_steps_per_cpu_s"], "learner steps/s"),
            row("rule", "same, compiled bot", "cpu", vs["compiled"]["learner_steps_per_cpu_s"],
                "learner steps/s", ratio=vs["ratio_learner_steps_per_cpu_s"],
                ratio_of="÷ Python bot"),
            row("rule", "same, compiled bot and deals='compiled'", "cpu",
                vs["compiled_deals"]["learner_steps_per_cpu_s"], "learner steps/s",
                ratio=vs["deals_ratio_learner_steps_per_cpu_s"], ratio_of="÷ Python bot")]
    return raw, rows


def eval_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    """fh-eval's duplicate deals through the engine and batched in the compiled core."""
    from bench import evaluate

    raw = evaluate.measure(deals=20 if s.quick else 200, runs=s.runs)
    raw.update(evaluate.measure(evaluate.SEARCH_PAIRS, deals=2 if s.quick else 10, runs=1))
    rows = []
    for pair, r in raw.items():
        rows += [row("eval", f"fh-eval {pair}, engine path", "cpu",
                     r["engine_deals_per_cpu_s"], "deals/s"),
                 row("eval", f"fh-eval {pair}, batched (arena.batched)", "cpu",
                     r["batched_deals_per_cpu_s"], "deals/s", ratio=r["ratio"],
                     ratio_of="÷ engine path")]
    net = evaluate.measure_rollout_net(positions=300 if s.quick else 1500, runs=s.runs)
    raw["rollout_net"] = net
    rows += [row("eval", "nmc's rollout policy (best, 8,192 rows), torch forward pass", "cpu",
                 net["torch_rows_per_cpu_s"], "rows/s"),
             row("eval", "nmc's rollout policy (best, 8,192 rows), RolloutNet (sparse, compiled)",
                 "cpu", net["rollout_net_rows_per_cpu_s"], "rows/s", ratio=net["ratio"],
                 ratio_of="÷ torch forward")]
    return raw, rows


def mcfast_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    """mcfast (compiled sampler and rule-bot rollouts) against its Python-sampler self and mc;
    then mcfast alone at three and six players."""
    import random as _random

    from agents.mc import MCBot
    from agents.mc_fast import FastMCBot
    from bench import mc_fast
    from fh_env.rules import Rules

    views = mc_fast.play_views(Rules(), s.positions)
    fast, before = FastMCBot(100), mc_fast.PythonSamplerMCBot(100)
    for bot in (fast, before):
        bot.act(views[0], _random.Random(0))  # compile outside the timing
    key = "median_ms_with_choice"
    figures = {"fast": mc_fast.summary(mc_fast.time_decisions(fast, views), views),
               "python_sampler": mc_fast.summary(mc_fast.time_decisions(before, views), views),
               "mc": mc_fast.summary(mc_fast.time_decisions(MCBot(10), views), views, 10.0)}
    rows = [row("mcfast", "mcfast play decision, 100 worlds (compiled sampler and rollouts)",
                "cpu", figures["fast"][key], "ms/decision"),
            row("mcfast", "same, Python sampler (before)", "cpu",
                figures["python_sampler"][key], "ms/decision",
                ratio=figures["python_sampler"][key] / figures["fast"][key],
                ratio_of="÷ mcfast"),
            row("mcfast", "mc, 10 worlds scaled to 100", "cpu", figures["mc"][key], "ms/decision",
                ratio=figures["mc"][key] / figures["fast"][key], ratio_of="÷ mcfast")]
    for preset in ("three-handed", "six-handed"):  # the other table sizes (§9)
        views = mc_fast.play_views(Rules.preset(preset), s.positions)
        fast.act(views[0], _random.Random(0))
        figures[f"fast_{preset}"] = mc_fast.summary(mc_fast.time_decisions(fast, views), views)
        rows.append(row("mcfast", f"same, {preset} ({views[0].rules.players} players)", "cpu",
                        figures[f"fast_{preset}"][key], "ms/decision",
                        ratio=figures[f"fast_{preset}"][key] / figures["fast"][key],
                        ratio_of="÷ 4 players"))
    return figures, rows


def peers_section(s: Settings) -> tuple[dict[str, Any], list[Row]]:
    from bench import peers

    raw = peers.measure(s.seconds, s.runs)
    rows = []
    for name, f in raw["systems"].items():
        ours = f["compared_with"]
        rows.append(row("peers", name if ours is None else f"peer: {name}", "cpu",
                        f["steps_per_cpu_s"], "agent steps/s", f["episodes_per_cpu_s"],
                        "hands/s" if ours is None else "games/s", f["ours_over_this"],
                        f"{ours} steps ÷ this" if ours else None))
    if raw.get("aec_over_bridge_games") is not None:
        aec, bridge = (raw["systems"][peers.AEC], raw["systems"][peers.BRIDGE_OBSERVED])
        rows.append(row("peers", f"{peers.AEC} vs {peers.BRIDGE_OBSERVED}", "cpu",
                        aec["episodes_per_cpu_s"], "hands/s", bridge["episodes_per_cpu_s"],
                        "bridge games/s", raw["aec_over_bridge_games"],
                        "AEC hands ÷ bridge games"))
    return raw, rows


RUNNERS: dict[str, Callable[[Settings], tuple[dict[str, Any], list[Row]]]] = {
    "engine": engine_section, "env": env_section, "vector": vector_section,
    "vector_env": vector_env_section, "rule": rule_section, "eval": eval_section, "mc": mc_section,
    "mcfast": mcfast_section, "peers": peers_section}


# ---------------------------------------------------------------------------------- output
def _number(x: float) -> str:
    if x >= 1000:
        return f"{x:,.0f}"
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def _ratio(x: float) -> str:
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.3g}"


def format_table(rows: list[Row]) -> str:
    """The rows as one Markdown table (aligned, so it reads in a terminal too)."""
    head = ["section", "system", "clock", "figure", "second figure", "ratio", "ratio is"]
    body = [[r["section"], r["system"], r["clock"], f"{_number(r['value'])} {r['unit']}",
             "" if r["value2"] is None else f"{_number(r['value2'])} {r['unit2']}",
             "" if r["ratio"] is None else _ratio(r["ratio"]), r["ratio_of"] or ""]
            for r in rows]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    right = {3, 4, 5}

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.rjust(w) if i in right else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"

    rule = "|" + "|".join("-" * (w + 1) + (":" if i in right else "-")
                          for i, w in enumerate(widths)) + "|"
    return "\n".join([line(head), rule, *map(line, body)])


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="sections: " + ", ".join(SECTIONS))
    parser.add_argument("--seconds", type=float, help="length of one run (default 1; quick 0.1)")
    parser.add_argument("--runs", type=int, help="runs per figure, median (default 5; quick 3)")
    parser.add_argument("--only", help="comma list of sections (default all)")
    parser.add_argument("--json", metavar="PATH",
                        help="write the table as JSON here (default bench/results/<time>.json)")
    parser.add_argument("--quick", action="store_true", help="short runs, for a smoke test")
    args = parser.parse_args(argv)
    only = SECTIONS if args.only is None else tuple(x.strip() for x in args.only.split(","))
    unknown = [x for x in only if x not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; sections: {', '.join(SECTIONS)}")
    if (args.seconds is not None and not 0 < args.seconds < math.inf) or (
            args.runs is not None and args.runs < 1):
        parser.error("--seconds must be a positive number and --runs at least 1")
    if args.json is not None:
        problem = common.unwritable(args.json)
        if problem:
            parser.error(f"--json {args.json}: {problem}")
    s = settings(args.seconds, args.runs, args.quick)

    stamp = common.timestamp()
    record: dict[str, Any] = {
        "timestamp": stamp, "command": " ".join(["python -m bench", *(argv if argv is not None
                                                                         else sys.argv[1:])]),
        "machine": common.machine_info(), "settings": asdict(s), "sections": {}, "seconds": {},
        "load_average_after": {},
        "table": [], "notes": []}
    for name in SECTIONS:
        if name not in only:
            continue
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        raw, rows = RUNNERS[name](s)
        record["seconds"][name] = round(time.perf_counter() - start, 1)
        record["load_average_after"][name] = common.load_average()
        record["sections"][name] = raw
        record["table"] += rows
    if "peers" in only and not record["sections"]["peers"]["openspiel"]:
        record["notes"].append("OpenSpiel is not installed (pip install '.[bench]'): "
                               "no euchre/bridge rows")
    record["machine"]["load_average_end"] = common.load_average()

    load = record["machine"]["load_average"]
    print(f"{record['command']}   {stamp}, {record['machine']['cpu_count']} CPUs, "
          f"load average {load} -> {record['machine']['load_average_end']}")
    print(f"Every figure is a median of {s.runs} runs of {s.seconds:g} s; clock cpu = per CPU "
          "second of this process, wall = per wall-clock second; ratio = ours ÷ the reference "
          "measured in the same run.")
    print(format_table(record["table"]))
    for note in record["notes"]:
        print(note)
    path = common.write_json(args.json or common.default_json_path(stamp), record)
    print(f"JSON: {path}")
    return record


if __name__ == "__main__":
    main()
