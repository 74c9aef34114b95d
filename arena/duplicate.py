"""One duplicate match of two bots: :func:`duplicate` (what ``fh-eval A B`` runs).

Each deal is played once per seating (:mod:`arena.seating`: twice with the teams swapped, or
three times with three players, A on each seat against two copies of B).  The value of a deal
is A's hand points minus B's, averaged over its plays, where with three players B's hand points
are the mean of its two seats'; a hand thrown in counts 0 (it stays in the mean, which is per
deal).  So two equal bots score 0 at every size.  The report (:class:`arena.results.
DuplicateResult`) gives the mean with a 95% confidence interval (Student's t over the deal
values), the contracts each side bid and made by kind (with three players B's column counts
both copies of B), and the average level of its ordinary contracts.  ``games`` plays whole games
to the target, each game once per seating, and reports A's win rate (a draw or an unfinished
game counts as an equal share: one half, or one third with three players, which is also the win
rate of two equal bots there) with a 95% Wilson interval.

Bots that have a batched form (:func:`arena.batched.batch_player`: ``rule``, ``random``,
``neural``) play the deals as rows of the compiled core, with the same seeds and so the same
games; the others play one deal at a time on the engine (:mod:`arena.match`), as does a small
match while the core's kernels are not yet compiled (:mod:`arena.warm`).
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

from agents.base import Bot
from fh_env import actions as A
from fh_env.contracts import DRAW
from fh_env.engine import State
from fh_env.records import save_states
from fh_env.rules import Rules, RulesSpec, resolve_rules
from fh_env.rules import rules_name as rules_name_of

from .match import play_game, play_hand
from .pool import process_pool
from .results import KINDS, DuplicateResult, GamesResult, contract_kind
from .seating import (GAME_SEED_OFFSET, a_side, deal_seed, hand_record, seat_bots, seat_rngs,
                      seatings)
from .stats import mean_ci, wilson

_WORKER: dict[str, Any] = {}


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
                    players=[[bot_name(p) for p in seat_bots(a, b, swap, n)]
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
        state = State(rules, seed=deal_seed(seed + GAME_SEED_OFFSET, index))
        play_game(state, seat_bots(a, b, swap, n), seat_rngs(seed + GAME_SEED_OFFSET, index, swap, n),
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
                 save: str | None = None, engine: bool = False) -> None:
    """Build the bots (specs are built here, in each process) and how they play: batched in the
    compiled core, or on the engine (a ``save`` folder, a bot without a batched form, or
    ``engine``: the kernels compile in the background)."""
    from agents.registry import make_bot

    from .batched import batch_player

    bots = [make_bot(x, rules) if isinstance(x, str) else x for x in (a, b)]
    players = ([batch_player(x, rules) for x in bots] if save is None and not engine
               else [None, None])
    _WORKER.update(a=bots[0], b=bots[1], rules=rules, seed=seed, save=save,
                   batched=players if None not in players else None)
    torch = sys.modules.get("torch")  # loaded by a neural agent
    if torch is not None and _WORKER_PROCESS:
        torch.set_num_threads(1)  # one worker process per core: no thread oversubscription


def _engine_while_cold(a: Bot | str, b: Bot | str, rules: Rules, work: int) -> bool:
    """Whether a batched match plays on the engine because its kernels are cold.

    A small match (``work`` deals, at most :data:`arena.warm.ENGINE_WORK_WHEN_COLD`) does not
    wait tens of seconds for a compile: the kernels compile in the background for the next run.
    A larger one compiles the cold kernels now, in parallel, before its first deal."""
    from .warm import ENGINE_WORK_WHEN_COLD, cached, compile_in_background, parts_for, \
        warm_if_cold

    parts = parts_for((a, b))
    cold = [p for p in parts if not cached(p)]
    if not cold:
        return False
    if work <= ENGINE_WORK_WHEN_COLD and compile_in_background(rules, cold):
        return True
    warm_if_cold(rules, cold)
    return False


def _load_batched() -> None:
    """Before the progress bar: play deal 0 once, batched, and throw it away, so that the
    compiled core's kernels are loaded from numba's cache (or compiled, with the notice of
    :mod:`fh_env.compiled` on its own line) now, and the bar never sits at 0 meanwhile.  Every
    deal is played from its own seeds, so the deals played afterwards are as without it."""
    w = _WORKER
    if w["batched"]:
        from .batched import play_deals

        play_deals(*w["batched"], w["rules"], w["seed"], range(0, 1))


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

    batched = save is None and may_batch(a) and may_batch(b)
    engine = batched and _engine_while_cold(a, b, rules, n if kind == "deals" else 10 * n)
    # Bots that play batched in the compiled core (arena.batched) take big chunks.
    size = 64 if batched and not engine else 8
    chunk = max(1, min(size, n // max(1, 4 * workers)))
    chunks = [(i, min(n, i + chunk)) for i in range(0, n, chunk)]
    fn = _deal_chunk if kind == "deals" else _game_chunk
    own_bar = bar is None
    if workers <= 1:
        _init_worker(a, b, rules, seed, save, engine)
        _load_batched()
    if own_bar:
        bar = progress_bar(n, desc, progress)
    out: list[list[tuple]] = []
    if workers <= 1:
        for c in chunks:
            out.extend(fn(c))
            bar.update(c[1] - c[0])
    else:
        # A forked child of a process whose torch thread pool is running can hang on its first
        # torch call (the neural agent), so fork only while torch is not loaded.
        fork = "fork" in mp.get_all_start_methods() and "torch" not in sys.modules
        with process_pool(workers, fork, _init_pool_worker,
                          (a, b, rules, seed, save, engine)) as pool:
            for c, part in zip(chunks, pool.imap(fn, chunks)):
                out.extend(part)
                bar.update(c[1] - c[0])
            pool.close()  # let the workers exit: terminated ones can leave semaphores behind
            pool.join()
    if own_bar:
        bar.close()
    return out


def progress_bar(total: int, desc: str, enabled: bool):
    """A tqdm bar on stderr (tqdm imported only when a bar is made); off when not ``enabled``."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, file=sys.stderr, disable=not enabled, leave=False)


def bot_name(bot: Bot | str) -> str:
    """A bot's name in reports: the spec as written, or the object's ``name``."""
    return bot if isinstance(bot, str) else getattr(bot, "name", type(bot).__name__)


def check_counts(**least: tuple[int, int]) -> None:
    """ValueError naming the first count below its least value: ``check_counts(deals=(d, 1))``
    refuses ``d < 1`` as ``deals=-5 must be at least 1``, naming that argument alone."""
    for name, (value, low) in least.items():
        if value < low:
            raise ValueError(f"{name}={value} must be at least {low}")


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
    return duplicate_values(a, b, rules, deals=deals, seed=seed, games=games, workers=workers,
                            progress=progress, rules_name=rules_name, save=save)[0]


def duplicate_values(a: Bot | str, b: Bot | str, rules: RulesSpec = None, deals: int = 200,
                     seed: int = 0, games: int = 0, workers: int = 1, progress: bool = False,
                     rules_name: str | None = None, save: str | None = None, bar: Any = None
                     ) -> tuple[DuplicateResult, list[float]]:
    """:func:`duplicate` and the value of each deal (A's points minus B's, deal ``i`` at
    index ``i``); ``bar``: a progress bar to advance (the tournament's) instead of new ones."""
    check_counts(deals=(deals, 1), games=(games, 0), workers=(workers, 1))
    if rules_name is None:
        rules_name = rules if isinstance(rules, str) else None
    rules = resolve_rules(rules)
    for bot in (a, b):
        if isinstance(bot, str):
            from agents.registry import check_spec

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
        a=bot_name(a), b=bot_name(b), rules=rules_name or rules_name_of(rules), seed=seed,
        deals=deals,
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
