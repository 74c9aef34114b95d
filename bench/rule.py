"""The compiled rule bot (:mod:`agents.compiled.rule`) against the Python one (:mod:`agents.rule`):
agreement over many positions, decisions per second, and a learner against ``rule`` in
:class:`fh_env.envs.vector.VectorEnv` with the bot on the Python path and in compiled code.

    python -m bench.rule [--positions 300000] [--seed 0] [--seconds 2.0] [--runs 3]
                         [--sizes 256 1024] [--players 4] [--json]

* **agreement**: games under every preset and random rule sets of a table size (``--players``:
  4, or 3 or 6), in turn, are played with, per game, every seat the rule bot, every seat
  random, or a random mix (random seats draw from the legal actions, biased toward passing,
  misdeals and nullo-type bids as ``tests/test_compiled.py`` does); at every decision the
  compiled bot's action on the fast core's record is compared with
  ``RuleBot().act(seat_view(state, seat), rng)`` on the engine state of the same game
  (:func:`compare`, which ``tests/test_rule_compiled.py`` runs on a smaller scale).  Any
  disagreement is printed (the command exits 1).  Besides the kind of each decision, the
  positions where a rule of a table size applies are counted (:func:`cases`).
* **decisions/s**: the Python bot's ``seat_view`` + ``act`` per position (timed inside the
  agreement run) against the compiled :func:`agents.compiled.rule.act` over the same kind of
  positions in one batch of records.
* **learner vs rule** (four players): ``VectorEnv`` (one hand per episode, default rules) with
  a learner on seats 0 and 2 (uniformly random legal actions, drawn in numpy) and ``rule`` on
  seats 1 and 3: today's Python path (``seat_view(venv.states[i], seat)`` + ``RuleBot.act``
  for each bot row, the bot's action passed to ``step``) against the bots played inside
  ``step`` in compiled code (``step(actions, bots=RuleSeats(rules), bot_seats=...)``).  The
  figure is learner decisions per CPU second; ``core`` leaves out the time of the learner's
  numpy draw.  Each figure is the median of ``--runs`` interleaved runs, the ratio the median
  of the per-round ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from agents.rule import RuleBot, _winning
from agents.compiled.rule import RuleSeats, act
from fh_env import actions as A
from fh_env.actions import action_table
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, State, side_of, trick_order
from fh_env.envs.vector import VectorEnv
from fh_env.rules import _CHOICES, PRESETS, Rules
from fh_env.view import SeatView, seat_view

#: The presets of each table size.
SIZE_PRESETS = {n: [name for name, o in PRESETS.items() if o.get("players", 4) == n]
                for n in (3, 4, 6)}
FOUR_PLAYER_PRESETS = SIZE_PRESETS[4]
_NUMBERS = {
    "nullo_value": (250, 150, 350), "open_nullo_value": (500, 350, 250),
    "double_nullo_value": (500, 250, 600), "hands_to_play": (1, 2, 3),
    "target": (500, 250, 1000), "floor": (-500, -250, -1000),
    "bidding_rounds": ("unlimited", "unlimited", 1, 2, 3),
}


def random_rules(rng: random.Random, players: int = 4) -> Rules:
    """A random valid rule set of a table size: every option drawn from its choices (invalid
    draws redrawn; with 3 or 6 players the deck and double nullo are the size's).  The
    differential tests draw their rule sets here too."""
    bools = [name for name, value in Rules().to_dict().items() if isinstance(value, bool)]
    while True:
        options = {name: rng.choice(choices) for name, choices in _CHOICES.items()}
        options.update({name: rng.choice(values) for name, values in _NUMBERS.items()})
        options.update({name: rng.random() < 0.5 for name in bools})
        options["players"] = players
        if players != 4:
            options["deck"], options["double_nullo"] = Rules.deck, "off"
        try:
            return Rules(**options)
        except ValueError:
            continue


def random_choice(state: State, rng: random.Random, pass_prob: float) -> int:
    """A random legal action, biased so that short auctions, misdeals and nullos all occur."""
    legal = state.legal_actions()
    if state.phase == Phase.AUCTION:
        if A.MISDEAL in legal and rng.random() < 0.5:
            return A.MISDEAL
        if A.PASS in legal and rng.random() < pass_prob:
            return A.PASS
        nullos = [a for a in legal if a in A.NULLO_TYPES]
        if nullos and rng.random() < 0.3:
            return rng.choice(nullos)
    return rng.choice(legal)


@dataclass
class Comparison:
    """What :func:`compare` saw: positions, agreements, the first disagreements, timings."""

    positions: int = 0
    agree: int = 0
    hands: int = 0
    by_kind: Counter = field(default_factory=Counter)  # auction, exchange, [nullo_]lead, ...
    by_case: Counter = field(default_factory=Counter)  # the rules of a table size (cases())
    mismatches: list[dict] = field(default_factory=list)
    python_s: float = 0.0  # seat_view + RuleBot.act, summed over positions
    records: list[np.ndarray] = field(default_factory=list)  # snapshots of compared positions
    keep_records: int = 0  # how many positions to keep in ``records``


def _kind(state: State, action: int) -> str:
    if state.phase == Phase.AUCTION:
        return "auction"
    if state.phase == Phase.EXCHANGE:
        return "exchange"
    leads = action_table(state.rules.players).joker_lead_base
    kind = "joker_lead" if action >= leads else "lead" if not state.trick else "follow"
    return "nullo_" + kind if state.contract in A.NULLO_TYPES else kind


def cases(state: State) -> list[str]:
    """The rules of a table size that the decision of the seat on turn of ``state`` comes
    under (the rule bot's, :mod:`agents.rule`): ``partner_called`` (an auction where a partner
    has bid: four and six players), ``sitting_out`` (play with seats sitting out: nullo with
    four or six players), and with three players, a defender against a contract leading
    (``defender_lead``) or following to a trick the other defender is winning, before the
    declarer plays (``mate_winning_declarer_to_play``: a rival then) or after
    (``mate_winning_declarer_played``: a partner then)."""
    players, seat = state.rules.players, state.turn
    if state.phase == Phase.AUCTION:
        if any(s != seat and side_of(players, s) == side_of(players, seat) and a != A.PASS
               for s, a in state.calls):
            return ["partner_called"]
        return []
    if state.phase != Phase.PLAY:
        return []
    out = ["sitting_out"] if state.sitting_out >= 0 else []
    if (players == 3 and state.contract is not None and state.contract >= 0
            and state.contract not in A.NULLO_TYPES and seat != state.declarer):
        if not state.trick:
            out.append("defender_lead")
        else:
            order = trick_order(state.leader, state.sitting_out, players)
            _, winner = _winning(state.trick, state.leader, state.led, state.context,
                                 state.sitting_out, players)
            if winner != state.declarer:
                out.append("mate_winning_declarer_to_play"
                           if state.declarer in order[len(state.trick) + 1:]
                           else "mate_winning_declarer_played")
    return out


def compare(rules: Rules, hands: int, seed: int, batch: int = 32, pass_prob: float = 0.6,
            out: Comparison | None = None,
            hook: Callable[[State, SeatView, int], None] | None = None) -> Comparison:
    """Play ``hands`` hands of ``rules`` (``batch`` at a time) and compare the two bots at every
    decision (see the module docstring); return the tally (added to ``out`` when given).
    ``hook(state, view, action)``, if given, sees every compared position and the Python
    bot's action there."""
    res = out if out is not None else Comparison()
    rng = random.Random(f"compare/{seed}")
    bot, bot_rng = RuleBot(), random.Random(0)
    twin = RuleSeats(rules)
    every = (1 << rules.players) - 1  # a bit per seat
    n = min(batch, hands)
    fast = FastGames(n, rules, seed=seed)
    states: list[State] = [None] * n  # type: ignore[list-item]
    rule_seats = [0] * n
    started = 0

    def start(i: int) -> None:
        nonlocal started
        started += 1
        state = State(rules, seed=rng.getrandbits(48))
        states[i] = state
        fast.set_state(i, state)
        mode = rng.randrange(3)  # all rule, all random, a random mix of seats
        rule_seats[i] = every if mode == 0 else 0 if mode == 1 else rng.randrange(every + 1)

    for i in range(n):
        start(i)
    active = np.ones(n, dtype=bool)
    got = np.empty(n, dtype=np.int64)
    actions = np.full(n, -1, dtype=np.int64)
    clock = time.perf_counter
    while active.any():
        rows = np.flatnonzero(active)
        act(fast.games, fast._rules, twin.record, rows, got)
        if sum(len(r) for r in res.records) < res.keep_records:
            res.records.append(fast.games[rows].copy())
        actions[:] = -1
        for k, i in enumerate(rows.tolist()):
            state = states[i]
            seat = state.turn
            t0 = clock()
            view = seat_view(state, seat)
            expected = bot.act(view, bot_rng)
            res.python_s += clock() - t0
            if hook is not None:
                hook(state, view, expected)
            res.positions += 1
            res.by_kind[_kind(state, expected)] += 1
            res.by_case.update(cases(state))
            if expected == int(got[k]):
                res.agree += 1
            elif len(res.mismatches) < 20:
                res.mismatches.append({"rules": rules.to_dict(), "state": state.to_dict(),
                                       "seat": seat, "expected": expected, "got": int(got[k])})
            action = expected if rule_seats[i] >> seat & 1 else random_choice(state, rng,
                                                                               pass_prob)
            state.apply(action)
            actions[i] = action
        fast.step(actions, skip_negative=True)
        for i in rows.tolist():
            if states[i].is_terminal:
                res.hands += 1
                if started < hands:
                    start(i)
                else:
                    active[i] = False
    return res


def rule_sets(count: int, seed: int, players: int = 4) -> list[Rules]:
    """Every preset of a table size, then random rule sets of it, ``count`` in all."""
    presets = [Rules.preset(name) for name in SIZE_PRESETS[players]]
    rng = random.Random(f"bench-rule/{seed}")
    out = presets[:count]
    while len(out) < count:
        out.append(random_rules(rng, players))
    return out


def agreement(positions: int, seed: int, hands_per_set: int = 200,
              keep_records: int = 20_000, players: int = 4) -> Comparison:
    """:func:`compare` over the presets and random rule sets of a table size, in turn, until
    ``positions`` decisions."""
    res = Comparison(keep_records=keep_records)
    k = 0
    names = SIZE_PRESETS[players]
    rng = random.Random(f"bench-rule/{seed}")
    while res.positions < positions:
        rules = Rules.preset(names[k % len(names)]) if k % 2 == 0 else \
            random_rules(rng, players)
        compare(rules, hands_per_set, seed=seed * 100_003 + k, out=res)
        k += 1
    return res


def compiled_rate(records: list[np.ndarray], rules: Rules, repeat: int = 5) -> float:
    """Compiled decisions per second over the kept positions (one batch; best of ``repeat``).

    The records come from several rule sets; the rule set only changes the bidding tables and
    the legality checks, so timing them all under ``rules`` measures the same work."""
    games = np.concatenate(records)
    fast = FastGames(1, rules)
    twin = RuleSeats(rules)
    rows = np.arange(len(games), dtype=np.int64)
    out = np.empty(len(games), dtype=np.int64)
    act(games[:1], fast._rules, twin.record, rows[:1], out)  # compile
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        act(games, fast._rules, twin.record, rows, out)
        best = min(best, time.perf_counter() - t0)
    return len(games) / best


# ------------------------------------------------------------------ learner vs rule, VectorEnv
def vs_rule(n: int, compiled: bool, seconds: float, rules: Rules | None = None,
            seed: int = 0, deals: str = "engine") -> dict[str, float]:
    """A learner (random legal actions) on seats 0, 2 against ``rule`` on 1, 3 (docstring);
    ``deals``: VectorEnv's deals, the engine's (drawn in Python) or the compiled core's."""
    rules = rules if rules is not None else Rules()
    venv = VectorEnv(n, rules, seed=seed, deals=deals)
    rng, bot_rng = np.random.default_rng(seed), random.Random(seed)
    bot, twin = RuleBot(), RuleSeats(rules)
    bot_seats = np.full(n, 0b1010, dtype=np.uint8)
    mask, seat = venv.mask, venv.seat
    learner = hands = 0
    chooser = 0.0
    clock = time.process_time
    start = clock()
    while True:
        t0 = clock()
        actions = np.argmax(np.where(mask != 0, rng.random(mask.shape), -1.0), axis=1)
        chooser += clock() - t0
        bots = seat % 2 == 1
        learner += n - int(np.count_nonzero(bots))
        if compiled:
            actions[bots] = -1  # the first decision of a new hand is a bot's: step plays it
            _, mask, _, seat, _, infos = venv.step(actions, bots=twin, bot_seats=bot_seats)
        else:
            for i in np.flatnonzero(bots).tolist():
                actions[i] = bot.act(seat_view(venv.states[i], int(seat[i])), bot_rng)
            _, mask, _, seat, _, infos = venv.step(actions)
        hands += int(np.count_nonzero(infos["hand_over"]))
        cpu = clock() - start
        if cpu >= seconds:
            return {"learner_steps_per_cpu_s": learner / cpu,
                    "core_learner_steps_per_cpu_s": learner / (cpu - chooser),
                    "hands_per_cpu_s": hands / cpu}


def measure_vs_rule(sizes: list[int], seconds: float, runs: int) -> list[dict]:
    for n in sizes:
        vs_rule(n, True, 0.05, deals="compiled")  # warm-up: compile
    rows = []
    for n in sizes:
        rounds = [(vs_rule(n, False, seconds), vs_rule(n, True, seconds),
                   vs_rule(n, True, seconds, deals="compiled")) for _ in range(runs)]
        row: dict = {"n": n}
        for name, k in (("python", 0), ("compiled", 1), ("compiled_deals", 2)):
            row[name] = {key: statistics.median(r[k][key] for r in rounds) for key in rounds[0][k]}
        for key in ("learner_steps_per_cpu_s", "core_learner_steps_per_cpu_s"):
            row["ratio_" + key] = statistics.median(r[1][key] / r[0][key] for r in rounds)
            row["deals_ratio_" + key] = statistics.median(r[2][key] / r[0][key] for r in rounds)
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--players", type=int, choices=(3, 4, 6), default=4,
                        help="the table size of the agreement and decision rates (the learner "
                        "vs rule runs are four players')")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    wall = time.perf_counter()
    res = agreement(args.positions, args.seed, players=args.players)
    agree_s = time.perf_counter() - wall
    python_rate = res.positions / res.python_s
    compiled = compiled_rate(res.records, Rules(players=args.players))
    vs = measure_vs_rule(args.sizes, args.seconds, args.runs)
    result = {"players": args.players, "positions": res.positions, "agree": res.agree,
              "hands": res.hands, "by_kind": dict(res.by_kind), "by_case": dict(res.by_case),
              "mismatches": res.mismatches[:5], "agreement_seconds": agree_s,
              "python_decisions_per_s": python_rate, "compiled_decisions_per_s": compiled,
              "decision_ratio": compiled / python_rate, "vs_rule": vs}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"agreement: {res.agree:,} of {res.positions:,} positions ({res.hands:,} hands, "
              f"{agree_s:.0f} s): " + ", ".join(f"{k} {v:,}" for k, v in sorted(
                  res.by_kind.items())))
        if res.by_case:
            print("  positions under the rules of a table size: " + ", ".join(
                f"{k} {v:,}" for k, v in sorted(res.by_case.items())))
        for m in res.mismatches[:5]:
            print("  MISMATCH", json.dumps({k: m[k] for k in ("seat", "expected", "got")}),
                  json.dumps(m["rules"]), json.dumps(m["state"])[:2000])
        print(f"rule decisions/s: Python (seat_view + act) {python_rate:,.0f}, compiled (act, "
              f"one batch of {len(np.concatenate(res.records)):,}) {compiled:,.0f}: "
              f"x{compiled / python_rate:,.0f}")
        print(f"learner vs rule in VectorEnv, learner decisions per CPU s, median of "
              f"{args.runs} runs of {args.seconds:g} s")
        print(f"{'N':>5} {'python':>10} {'compiled':>10} {'ratio':>6} {'core python':>12} "
              f"{'core compiled':>14} {'ratio':>6}")
        for title, name, ratio in (("", "compiled", "ratio_"), (
                "the same with VectorEnv(deals='compiled') (deals drawn in the compiled core)",
                "compiled_deals", "deals_ratio_")):
            if title:
                print(title)
            for row in vs:
                p, c = row["python"], row[name]
                print(f"{row['n']:>5} {p['learner_steps_per_cpu_s']:>10,.0f} "
                      f"{c['learner_steps_per_cpu_s']:>10,.0f} "
                      f"{row[ratio + 'learner_steps_per_cpu_s']:>6.1f} "
                      f"{p['core_learner_steps_per_cpu_s']:>12,.0f} "
                      f"{c['core_learner_steps_per_cpu_s']:>14,.0f} "
                      f"{row[ratio + 'core_learner_steps_per_cpu_s']:>6.1f}")
    if res.agree != res.positions:
        sys.exit(1)
    return result


if __name__ == "__main__":
    main()
