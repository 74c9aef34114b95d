"""Duplicate evaluation of two bots: ``fh-eval A B`` and :func:`duplicate`.

Deal ``i`` is generated from the seed (its dealer too) and played several times with the same
cards, the bots changing seats:

* four players: twice, agent A's team on seats 0 and 2 and agent B's on 1 and 3, then the other
  way round, so that both teams hold the same cards;
* six players (§9.2): twice in the same way, A's team of three on seats 0, 2, 4 and B's on
  1, 3, 5, then the other way round;
* three players (§9.1, everyone for themselves): three times, A alone on seat 0, 1, then 2,
  with a copy of B on each of the two other seats.

The value of a deal is A's hand points minus B's, averaged over its plays, where with three
players B's hand points are the mean of its two seats'; a hand thrown in counts 0 (it stays in
the mean, which is per deal).  So two equal bots score 0 at every size.  The report gives the
mean with a 95% confidence interval (Student's t over the deal values), the contracts each side
bid and made by kind (with three players B's column counts both copies of B), and the average
level of its ordinary contracts.  ``games`` plays whole games to the target, each game once per
seating as above, and reports A's win rate (a draw or an unfinished game counts as an equal
share: one half, or one third with three players, which is also the win rate of two equal bots
there) with a 95% Wilson interval.

``fh-eval --tournament BOT BOT ...`` (:mod:`agents.tournament`) plays every pair of several bots
this way on the same deals and rates them.

Every random choice comes from the seed and the deal's index (each seat's generator is
``Random("seed/deal/swap/seat")``, ``swap`` the seating), so the results do not depend on
``workers``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

from fh_env import actions as A
from fh_env.contracts import DRAW
from fh_env.engine import NO_CONTRACT, HandResult, State, side_of
from fh_env.records import save_states
from fh_env.rules import Rules, RulesSpec, resolve_rules
from fh_env.rules import rules_name as rules_name_of

from .base import Bot
from .match import play_game, play_hand

KINDS = ("suit", "notrump", "nullo", "open nullo", "double nullo")


def contract_kind(contract: int) -> str:
    """``suit``, ``notrump``, ``nullo``, ``open nullo``, ``double nullo`` or ``no contract``."""
    if contract == NO_CONTRACT:
        return "no contract"
    if contract in A.NULLO_TYPES:
        return A.action_to_str(contract)
    return "notrump" if A.bid_strain(contract) == A.NT else "suit"


def deal_seed(seed: int, index: int) -> int:
    """The engine seed of deal (or game) ``index`` of an evaluation seeded with ``seed``."""
    return random.Random(f"fh-eval/{seed}/{index}").getrandbits(62)


def seat_rngs(seed: int, index: int, swap: int, players: int = 4) -> list[random.Random]:
    return [random.Random(f"{seed}/{index}/{swap}/{seat}") for seat in range(players)]


def seatings(players: int = 4) -> range:
    """The seatings (``swap`` values) of one duplicate deal: 2, or 3 with three players."""
    return range(3 if players == 3 else 2)


def seat_bots(a: Bot, b: Bot, swap: int, players: int = 4) -> list[Bot]:
    """Four or six players: A on the even seats (``swap=0``) or the odd ones (``swap=1``).
    Three players: A on seat ``swap``, B on the two others."""
    if players == 3:
        return [a if seat == swap else b for seat in range(3)]
    return [a if seat % 2 == swap else b for seat in range(players)]


def a_side(swap: int, players: int = 4) -> int:
    """The side (team, or seat with three players) A scores for in seating ``swap``."""
    return swap


# ---------------------------------------------------------------------------- statistics
def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (Cornish-Fisher expansion; exact enough for df >= 3)."""
    z = _normal_quantile(p)
    if df <= 0:
        return z
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


def _normal_quantile(p: float) -> float:
    """Inverse of the standard normal CDF (by bisection on math.erf; plenty fast here)."""
    lo, hi = -10.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float, float]:
    """(mean, low, high, standard deviation) of ``values`` with a t interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, -math.inf, math.inf, 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half, sd


def wilson(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    z = _normal_quantile(0.5 + level / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------------------- results
def json_ready(value: Any) -> Any:
    """``value`` with every non-finite float (an interval from one deal: -inf, inf; NaN)
    replaced by None, and dataclasses as dictionaries, so that it is strict JSON."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if hasattr(value, "to_dict"):
        return json_ready(value.to_dict())
    return value


def dumps_json(value: Any, indent: int | None = 2) -> str:
    """Strict JSON of ``value`` (:func:`json_ready`: non-finite numbers become null)."""
    return json.dumps(json_ready(value), indent=indent, allow_nan=False)


@dataclass
class GamesResult:
    games: int  # games played (each game once per seating: twice, or three times)
    wins: float  # A's wins, a draw counting an equal share (1/2, or 1/3 with three players)
    draws: int
    unfinished: int  # games stopped at the hand limit (counted as draws)
    win_rate: float
    ci_low: float
    ci_high: float
    mean_hands: float


@dataclass
class DuplicateResult:
    """What :func:`duplicate` measured.  Points are per deal (the mean of its plays: two, or
    three with three players, where B's points are the mean of its two seats')."""

    a: str
    b: str
    rules: str
    seed: int
    deals: int
    mean: float  # A's hand points minus B's, per deal
    ci_low: float
    ci_high: float
    sd: float
    a_points: float  # A's own hand points per deal
    b_points: float
    thrown_in: int  # hands (of plays x deals) thrown in
    #: team ("A"/"B") -> contract kind -> [declared, made]
    contracts: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    avg_level: dict[str, float] = field(default_factory=dict)  # team -> mean ordinary level
    games: GamesResult | None = None
    seconds: float = 0.0
    players: int = 4  # the table size: 3 and 6 change the seatings (see the module doc)

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data (intervals from a single deal are infinite floats here;
        :func:`json_ready` turns them into None for JSON)."""
        return asdict(self)

    def to_json(self, indent: int | None = 2) -> str:
        """Strict JSON (no Infinity or NaN: a non-finite number is written as null)."""
        return dumps_json(self.to_dict(), indent=indent)

    def format(self) -> str:
        plays = len(seatings(self.players))
        head = f"{self.a} (A) vs {self.b} (B), rules {self.rules}, {self.deals} duplicate deals "
        if self.players == 3:
            head += f"({plays * self.deals} hands: A on each seat against two B), "
        else:
            head += f"({plays * self.deals} hands), "
        lines = [head + f"seed {self.seed}",
                 f"A - B points per deal: {self.mean:+.1f}  95% CI [{self.ci_low:+.1f}, "
                 f"{self.ci_high:+.1f}]  (sd {self.sd:.1f}; A {self.a_points:+.1f}, "
                 f"B {self.b_points:+.1f}; hands thrown in {self.thrown_in})",
                 f"{'contracts':<14}{'A bid':>7}{'made':>6}{'rate':>7}{'B bid':>9}{'made':>6}"
                 f"{'rate':>7}"]
        for kind in KINDS:
            row = f"{kind:<14}"
            for team in ("A", "B"):
                bid, made = self.contracts.get(team, {}).get(kind, [0, 0])
                rate = f"{made / bid:.0%}" if bid else "-"
                width = 7 if team == "A" else 9
                row += f"{bid:>{width}}{made:>6}{rate:>7}"
            lines.append(row)
        lines.append(f"{'average level':<14}{self.avg_level.get('A', 0):>20.2f}"
                     f"{self.avg_level.get('B', 0):>22.2f}")
        if self.games is not None:
            g = self.games
            even = " (even: 33.3%)" if self.players == 3 else ""
            lines.append(f"games: A wins {g.win_rate:.1%}  95% CI [{g.ci_low:.1%}, "
                         f"{g.ci_high:.1%}]{even} of {g.games} games ({g.draws} drawn, "
                         f"{g.unfinished} unfinished, {g.mean_hands:.1f} hands a game)")
        lines.append(f"({self.seconds:.1f} s)")
        return "\n".join(lines)


# ---------------------------------------------------------------------------- playing
_WORKER: dict[str, Any] = {}


def hand_record(res: HandResult, players: int, swap: int) -> tuple:
    """(A points, B points, contract or None, declaring side 'A'/'B'/None, made) of a hand's
    result in seating ``swap``; with three players B's points are the mean of its two seats'."""
    mine = a_side(swap, players)  # A holds seats 0, 2 (team 0) unless swapped
    points = res.hand_points
    team = None
    if res.declarer is not None:
        team = "A" if side_of(players, res.declarer) == mine else "B"
    others = [p for side, p in enumerate(points) if side != mine]
    b_points = others[0] if len(others) == 1 else sum(others) / len(others)
    return (points[mine], b_points, res.contract, team, bool(res.made))


def play_deal(a: Bot, b: Bot, rules: Rules, seed: int, index: int,
              save: str | None = None) -> list[tuple]:
    """Deal ``index`` played once per seating (twice with the teams swapped; three times with
    three players, A on each seat): one hand record per play.

    With ``save`` (a folder) every play is written as the game record ``deal-NNNNN.json``.
    """
    out, states = [], []
    n = rules.players
    for swap in seatings(n):
        state = State(rules, seed=deal_seed(seed, index))
        play_hand(state, seat_bots(a, b, swap, n), seat_rngs(seed, index, swap, n))
        out.append(hand_record(state.result, n, swap))
        states.append(state)
    if save:
        save_states(states, Path(save) / f"deal-{index:05d}.json", event="fh-eval", deal=index,
                    players=[[_name(p) for p in seat_bots(a, b, swap, n)]
                             for swap in seatings(n)])
    return out


def play_game_pair(a: Bot, b: Bot, rules: Rules, seed: int, index: int,
                   max_hands: int = 200) -> list[tuple[int | None, int]]:
    """Game ``index`` played once per seating (twice with the teams swapped; three times with
    three players): (A's result, hands) for each.

    A's result is 1 (won), 0 (lost), ``DRAW`` or None (stopped at ``max_hands``).
    """
    out = []
    n = rules.players
    for swap in seatings(n):
        state = State(rules, seed=deal_seed(seed + 7919, index))
        play_game(state, seat_bots(a, b, swap, n), seat_rngs(seed + 7919, index, swap, n),
                  max_hands)
        if state.winner is None:
            result = None
        elif state.winner == DRAW:
            result = DRAW
        else:
            result = 1 if state.winner == a_side(swap, n) else 0
        out.append((result, state.hands_played))
    return out


_WORKER_PROCESS = False


def _init_pool_worker(*args: Any) -> None:
    global _WORKER_PROCESS
    _WORKER_PROCESS = True
    _init_worker(*args)


def _init_worker(a: Bot | str, b: Bot | str, rules: Rules, seed: int,
                 save: str | None = None) -> None:
    from .registry import make_bot

    from .batched import batch_player

    bots = [make_bot(x, rules) if isinstance(x, str) else x for x in (a, b)]
    players = [batch_player(x, rules) for x in bots] if save is None else [None, None]
    _WORKER.update(a=bots[0], b=bots[1], rules=rules, seed=seed, save=save,
                   batched=players if None not in players else None)
    torch = sys.modules.get("torch")  # loaded by a neural agent
    if torch is not None and _WORKER_PROCESS:
        torch.set_num_threads(1)  # one worker process per core: no thread oversubscription


def _deal_chunk(indices: tuple[int, int]) -> list[list[tuple]]:
    w = _WORKER
    if w["batched"]:
        from .batched import play_deals

        return play_deals(*w["batched"], w["rules"], w["seed"], range(*indices))
    return [play_deal(w["a"], w["b"], w["rules"], w["seed"], i, w["save"])
            for i in range(*indices)]


def _game_chunk(indices: tuple[int, int]) -> list[list[tuple]]:
    w = _WORKER
    if w["batched"]:
        from .batched import play_games

        return play_games(*w["batched"], w["rules"], w["seed"], range(*indices))
    return [play_game_pair(w["a"], w["b"], w["rules"], w["seed"], i) for i in range(*indices)]


def _run(kind: str, n: int, a: Bot | str, b: Bot | str, rules: Rules, seed: int, workers: int,
         progress: bool, desc: str, save: str | None = None, bar: Any = None
         ) -> list[list[tuple]]:
    """Play deals (``kind="deals"``) or game pairs ``0 .. n-1``; ``bar``: a progress bar to
    advance (and leave open) instead of a new one."""
    from .batched import may_batch

    # Bots that play batched in the compiled core (agents.batched) take big chunks.
    size = 64 if save is None and may_batch(a) and may_batch(b) else 8
    chunk = max(1, min(size, n // max(1, 4 * workers)))
    chunks = [(i, min(n, i + chunk)) for i in range(0, n, chunk)]
    fn = _deal_chunk if kind == "deals" else _game_chunk
    own_bar = bar is None
    if own_bar:
        bar = progress_bar(n, desc, progress)
    out: list[list[tuple]] = []
    if workers <= 1:
        _init_worker(a, b, rules, seed, save)
        for c in chunks:
            out.extend(fn(c))
            bar.update(c[1] - c[0])
    else:
        # A forked child of a process whose torch thread pool is running can hang on its first
        # torch call (the neural agent), so fork only while torch is not loaded.
        fork = "fork" in mp.get_all_start_methods() and "torch" not in sys.modules
        ctx = mp.get_context("fork" if fork else "spawn")
        with ctx.Pool(workers, _init_pool_worker, (a, b, rules, seed, save)) as pool:
            for c, part in zip(chunks, pool.imap(fn, chunks)):
                out.extend(part)
                bar.update(c[1] - c[0])
    if own_bar:
        bar.close()
    return out


def progress_bar(total: int, desc: str, enabled: bool):
    """A tqdm bar on stderr (tqdm imported only when a bar is made); off when not ``enabled``."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, file=sys.stderr, disable=not enabled, leave=False)


def _name(bot: Bot | str) -> str:
    return bot if isinstance(bot, str) else getattr(bot, "name", type(bot).__name__)


def duplicate(a: Bot | str, b: Bot | str, rules: RulesSpec = None, deals: int = 200,
              seed: int = 0, games: int = 0, workers: int = 1,
              progress: bool = False, rules_name: str | None = None,
              save: str | None = None) -> DuplicateResult:
    """Play A's team against B's team on ``deals`` duplicate deals (and ``games`` game pairs:
    each game once per seating).  With three players A plays alone against two copies of B
    (see the module doc).

    ``a`` and ``b`` are bots or registry specs (specs are rebuilt in each worker process).
    ``save``: a folder for the record of each deal (:mod:`fh_env.records`, ``fh-replay``).
    """
    return _duplicate(a, b, rules, deals=deals, seed=seed, games=games, workers=workers,
                      progress=progress, rules_name=rules_name, save=save)[0]


def _duplicate(a: Bot | str, b: Bot | str, rules: RulesSpec = None, deals: int = 200,
               seed: int = 0, games: int = 0, workers: int = 1, progress: bool = False,
               rules_name: str | None = None, save: str | None = None, bar: Any = None
               ) -> tuple[DuplicateResult, list[float]]:
    """:func:`duplicate` and the value of each deal (A's points minus B's, deal ``i`` at
    index ``i``); ``bar``: a progress bar to advance (the tournament's) instead of new ones."""
    if rules_name is None:
        rules_name = rules if isinstance(rules, str) else None
    rules = resolve_rules(rules)
    for bot in (a, b):
        if isinstance(bot, str):
            from .registry import check_spec

            check_spec(bot)  # fail before any play (workers build their own bots)
        else:
            check = getattr(bot, "check_rules", None)  # a neural bot: trained for these rules?
            if callable(check):
                check(rules)
    start = time.perf_counter()
    records = _run("deals", deals, a, b, rules, seed, workers, progress, "deals", save, bar)
    values, a_pts, b_pts = [], [], []
    contracts = {t: {k: [0, 0] for k in KINDS} for t in ("A", "B")}
    levels: dict[str, list[int]] = {"A": [], "B": []}
    thrown = 0
    for pair in records:
        plays = len(pair)
        values.append(sum(h[0] - h[1] for h in pair) / plays)
        a_pts.append(sum(h[0] for h in pair) / plays)
        b_pts.append(sum(h[1] for h in pair) / plays)
        for _, _, contract, team, made in pair:
            if contract is None:
                thrown += 1
            elif team is not None:
                kind = contract_kind(contract)
                contracts[team][kind][0] += 1
                contracts[team][kind][1] += made
                if kind in ("suit", "notrump"):
                    levels[team].append(A.bid_level(contract))
    mean, low, high, sd = mean_ci(values)
    result = DuplicateResult(
        a=_name(a), b=_name(b), rules=rules_name or rules_name_of(rules), seed=seed, deals=deals,
        mean=mean, ci_low=low, ci_high=high, sd=sd,
        a_points=sum(a_pts) / max(1, deals), b_points=sum(b_pts) / max(1, deals),
        thrown_in=thrown, contracts=contracts,
        avg_level={t: (sum(v) / len(v) if v else 0.0) for t, v in levels.items()},
        players=rules.players)
    if games:
        pairs = _run("games", games, a, b, rules, seed, workers, progress, "games", bar=bar)
        played = [g for pair in pairs for g in pair]
        share = 1 / rules.sides  # a draw or an unfinished game: an equal share
        wins = sum(1.0 if r == 1 else share if r in (DRAW, None) else 0.0 for r, _ in played)
        low_g, high_g = wilson(wins, len(played))
        result.games = GamesResult(
            games=len(played), wins=wins, draws=sum(1 for r, _ in played if r == DRAW),
            unfinished=sum(1 for r, _ in played if r is None), win_rate=wins / len(played),
            ci_low=low_g, ci_high=high_g,
            mean_hands=sum(h for _, h in played) / len(played))
    result.seconds = time.perf_counter() - start
    return result, values


# ---------------------------------------------------------------------------- command line
def parser() -> argparse.ArgumentParser:
    from .registry import bot_help

    p = argparse.ArgumentParser(
        prog="fh-eval",
        description="Duplicate evaluation: agent A's team against agent B's team, each deal "
                    "played twice with the teams swapped (four or six players), or three times "
                    "with A on each seat against two copies of B (three players).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=bot_help() + "\n\nA bad bot, option, rules file or checkpoint is refused "
               "with a one-line reason and exit status 2, before anything is played or written.")
    p.add_argument("a", help="agent A: a bot spec (see the list below)")
    p.add_argument("b", help="agent B (same specs)")
    p.add_argument("--rules", default="australian-no-nullo",
                   help="a preset name or a rules TOML file (default: australian-no-nullo)")
    p.add_argument("--deals", type=int, default=200, help="duplicate deals (default 200)")
    p.add_argument("--games", type=int, default=0,
                   help="also play this many whole games (each twice) and report A's win rate")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    p.add_argument("--workers", type=int, default=1, help="processes to split the work over")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON (strict: an interval that one deal cannot "
                        "give is null)")
    p.add_argument("--save", default=None, metavar="DIR",
                   help="write the record of each duplicate deal (both plays) to DIR, "
                        "readable by fh-replay")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--tournament", action="store_true",
                   help="fh-eval --tournament BOT BOT ...: play every pair of the bots on the "
                        "same duplicate deals and rate them (see fh-eval --tournament --help)")
    return p


def load_rules(spec: str) -> Rules:
    """:func:`fh_env.rules.resolve_rules` for a command line: every failure (a missing, unreadable,
    non-text or invalid rules file, an unknown preset) is a ValueError naming the file."""
    try:
        return resolve_rules(spec)
    except UnicodeDecodeError:
        raise ValueError(f"rules file {spec} is not a text (TOML) file") from None
    except IsADirectoryError:
        raise ValueError(f"rules file {spec} is a directory, not a TOML file") from None
    except FileNotFoundError as err:
        raise ValueError(str(err)) from None
    except OSError as err:
        raise ValueError(f"rules file {spec} cannot be read: {err.strerror or err}") from None
    except (TypeError, KeyError) as err:
        raise ValueError(f"rules file {spec}: {err}") from None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--tournament" in argv:  # fh-eval --tournament BOT BOT ... (agents.tournament)
        from .tournament import main as tournament_main

        return tournament_main(argv)
    args = parser().parse_args(argv)
    from .registry import make_bot

    try:
        if args.deals < 1 or args.games < 0 or args.workers < 1:
            raise ValueError("--deals and --workers must be at least 1, --games at least 0")
        rules = load_rules(args.rules)
        for spec in (args.a, args.b):
            make_bot(spec, rules)  # fail early on a bad name, option, checkpoint or rules
        if args.save is not None:
            save = Path(args.save)
            for folder in (save, *save.parents):
                if folder.exists():
                    if not folder.is_dir():
                        raise ValueError(f"--save {args.save}: {folder} is a file, not a folder")
                    break
    except (ValueError, OSError) as err:  # CheckpointError is a ValueError
        print(f"fh-eval: error: {' '.join(str(err).split())}", file=sys.stderr)
        return 2
    result = duplicate(args.a, args.b, rules, deals=args.deals, seed=args.seed,
                       games=args.games, workers=args.workers,
                       progress=not args.no_progress and sys.stderr.isatty(),
                       rules_name=args.rules, save=args.save)
    print(result.to_json() if args.json else result.format())
    return 0


if __name__ == "__main__":
    sys.exit(main())
