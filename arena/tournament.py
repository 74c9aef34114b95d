"""Round robin of duplicate matches with ratings: ``fh-eval --tournament BOT BOT ...``.

Every pair of bots plays :func:`arena.duplicate.duplicate` on the same deals: deal ``i`` of
every pair is dealt from ``deal_seed(seed, i)`` (:func:`arena.seating.deal_seed`), so the
pairs differ only by the players.  For each pair the report gives A's points minus B's per deal
with its 95% t interval, and how many deals A won, tied and lost (a deal is won when its
duplicate value, A's points minus B's averaged over its plays, is above zero).

The rating of each bot is a Bradley-Terry model fitted by maximum likelihood on those per-deal
outcomes: bot ``i`` beats bot ``j`` on a deal with probability ``1 / (1 + exp(r_j - r_i))``;
a tied deal counts half a win to each, and every pair gets one virtual tied deal (a weak prior
that keeps the ratings finite when one bot wins every deal of a pair, as ``rule`` does against
``random``).  Ratings are shown on the Elo scale (``400 / ln 10`` times ``r``: 400 points is
odds of 10 to 1 on a deal), centred on the mean of the bots, or with ``anchor`` at that bot's 0.
Their 95% intervals are percentile intervals of a bootstrap over the deals: the deal indices are
resampled with replacement (the same indices for every pair, since a deal is the same cards in
every pair) and the model refitted.

Why per-deal outcomes and not the mean points: hand points are heavy-tailed (a failed 10NT or
a random player's bids dominate a mean), so a model of points would be driven by a few deals and
by the weakest player; wins and losses of duplicate deals are bounded, fit the pairwise-comparison
model the rating assumes, and give a rating that says how often a bot outscores another on the
same cards.  The points per deal stay in the pairwise table, which is where to read margins.

With ``games`` each pair also plays that many whole games per seating to the target
(:func:`arena.duplicate.duplicate`'s ``games``) and the table gives A's win rate with its Wilson
interval beside the points.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Sequence

import numpy as np

from fh_env.rules import Rules, RulesSpec, resolve_rules
from fh_env.rules import rules_name as rules_name_of

from agents.base import Bot

from .duplicate import bot_name, check_counts, duplicate_values, progress_bar
from .results import DuplicateResult, dumps_json
from .seating import deal_seed

#: Elo points per natural-log unit of the Bradley-Terry rating.
ELO = 400 / math.log(10)
#: Virtual tied deals added to every pair (half a win each way).
PRIOR_TIES = 1.0


# ---------------------------------------------------------------------------- the model
def bradley_terry(wins: np.ndarray, prior_ties: float = PRIOR_TIES, iterations: int = 100,
                  tol: float = 1e-10) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry ratings (natural-log scale, mean 0).

    ``wins[..., i, j]`` is how often bot ``i`` beat bot ``j`` (a tie counted half to each);
    leading dimensions are independent problems (bootstrap replicates), fitted together.
    ``prior_ties`` virtual tied games are added to every pair that played (``n_ij > 0``).
    Newton's method on the concave log-likelihood, with steps limited to 1 (e-fold of odds)
    per bot per iteration.
    """
    w = np.asarray(wins, dtype=float)
    n = w + np.swapaxes(w, -1, -2)
    played = n > 0
    w = w + np.where(played, prior_ties / 2, 0.0)
    n = n + np.where(played, prior_ties, 0.0)
    k = w.shape[-1]
    r = np.zeros(w.shape[:-1])
    for _ in range(iterations):
        diff = r[..., :, None] - r[..., None, :]
        p = 1 / (1 + np.exp(-diff))  # P(i beats j)
        grad = (w - n * p).sum(-1)
        info = n * p * (1 - p)
        # The Hessian of the negative log-likelihood: sum_j info_ij on the diagonal, -info_ij off.
        hess = np.where(np.eye(k, dtype=bool), info.sum(-1)[..., None], -info)
        # Fix the translation: solve on the first k-1 ratings with the last held, then centre.
        step = np.zeros_like(r)
        step[..., :-1] = np.linalg.solve(hess[..., :-1, :-1], grad[..., :-1, None])[..., 0]
        step = np.clip(step, -1.0, 1.0)
        r = r + step
        r = r - r.mean(-1, keepdims=True)
        if np.max(np.abs(step)) < tol:
            break
    return r


def outcome_counts(values: dict[tuple[int, int], np.ndarray], bots: int,
                   index: np.ndarray | None = None) -> np.ndarray:
    """``wins[i, j]`` from the per-deal values of each pair (``values[(i, j)][d]``: i's points
    minus j's on deal ``d``), over the deals ``index`` (all by default; with a 2-D ``index``
    one matrix per row, for the bootstrap)."""
    shape = (() if index is None or index.ndim == 1 else (index.shape[0],)) + (bots, bots)
    wins = np.zeros(shape)
    for (i, j), v in values.items():
        v = v if index is None else v[index]
        score = np.where(v > 0, 1.0, np.where(v < 0, 0.0, 0.5))
        wins[..., i, j] = score.sum(-1)
        wins[..., j, i] = (1 - score).sum(-1)
    return wins


# ---------------------------------------------------------------------------- results
@dataclass
class PairResult:
    """One pair's duplicate match (``result``) and its per-deal values."""

    a: str
    b: str
    result: DuplicateResult
    values: list[float]  # A's points minus B's on deal i (deal seed deal_seeds[i])
    deal_seeds: list[int]

    @property
    def record(self) -> tuple[int, int, int]:
        """Deals A won, tied, lost."""
        return (sum(v > 0 for v in self.values), sum(v == 0 for v in self.values),
                sum(v < 0 for v in self.values))

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        won, tied, lost = self.record
        return {"a": self.a, "b": self.b, "deals": r.deals, "mean": r.mean,
                "ci_low": r.ci_low, "ci_high": r.ci_high, "sd": r.sd,
                "won": won, "tied": tied, "lost": lost,
                "games": None if r.games is None else r.games.__dict__.copy(),
                "seconds": r.seconds, "values": list(self.values),
                "deal_seeds": list(self.deal_seeds), "duplicate": r.to_dict()}


@dataclass
class Rating:
    bot: str
    rating: float  # Elo scale
    ci_low: float
    ci_high: float
    won: int  # deals won, tied, lost over all its pairs
    tied: int
    lost: int
    points: float  # its mean points per deal minus the opponent's, averaged over its pairs


@dataclass
class TournamentResult:
    bots: list[str]
    rules: str
    seed: int
    deals: int  # per pair
    games: int  # game pairs per pair (0: none)
    players: int
    pairs: list[PairResult]
    ratings: list[Rating]  # best first
    bootstrap: int
    anchor: str | None = None
    seconds: float = 0.0
    model: str = field(default=(
        "Bradley-Terry on duplicate deal outcomes (won/tied/lost; a tie is half a win), one "
        "virtual tied deal per pair, Elo scale; 95% intervals: percentile bootstrap over deals"))

    def pair(self, a: str, b: str) -> PairResult:
        """The match of ``a`` and ``b`` (either order as played)."""
        for p in self.pairs:
            if (p.a, p.b) in ((a, b), (b, a)):
                return p
        raise KeyError((a, b))

    def to_dict(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "rules": self.rules, "seed": self.seed,
                "deals": self.deals, "games": self.games, "players": self.players,
                "deal_seeds": [deal_seed(self.seed, i) for i in range(self.deals)],
                "pairs": [p.to_dict() for p in self.pairs],
                "ratings": [dict(r.__dict__, rank=k + 1) for k, r in enumerate(self.ratings)],
                "model": self.model, "bootstrap": self.bootstrap, "anchor": self.anchor,
                "seconds": self.seconds}

    def to_json(self, indent: int | None = 2) -> str:
        """Strict JSON (a non-finite number, an interval from one deal, is null)."""
        return dumps_json(self.to_dict(), indent=indent)

    def format(self) -> str:
        width = max(12, *(len(b) for b in self.bots)) + 2
        lines = [f"tournament: {len(self.bots)} bots, {len(self.pairs)} pairs, rules "
                 f"{self.rules}, {self.deals} duplicate deals per pair (the same deals for "
                 f"every pair), seed {self.seed}"]
        head = (f"{'A':<{width}}{'B':<{width}}{'A - B':>8}  {'95% CI':<18}"
                f"{'won':>5}{'tied':>5}{'lost':>5}")
        if self.games:
            head += f"  {'A wins games':>12}  95% CI"
        lines += ["", "pairs (A's points minus B's per deal; duplicate deals A won, tied, lost):",
                  head]
        for p in self.pairs:
            r = p.result
            won, tied, lost = p.record
            row = (f"{p.a:<{width}}{p.b:<{width}}{r.mean:>+8.1f}  "
                   f"{_interval(r.ci_low, r.ci_high, '+.1f'):<18}{won:>5}{tied:>5}{lost:>5}")
            if r.games is not None:
                g = r.games
                row += (f"  {g.win_rate:>12.1%}  [{g.ci_low:.1%}, {g.ci_high:.1%}] "
                        f"of {g.games}")
            lines.append(row.rstrip())
        centre = f"{self.anchor} = 0" if self.anchor else "mean 0"
        lines += ["", f"ratings (Bradley-Terry on deal outcomes, Elo scale, {centre}; 95% CI: "
                      f"bootstrap over deals, {self.bootstrap} resamples):",
                  f"{'rank':<6}{'bot':<{width}}{'rating':>7}  {'95% CI':<16}"
                  f"{'won':>6}{'tied':>6}{'lost':>6}  {'points/deal vs field':>20}"]
        for k, r in enumerate(self.ratings):
            lines.append(f"{k + 1:<6}{r.bot:<{width}}{r.rating:>+7.0f}  "
                         f"{_interval(r.ci_low, r.ci_high, '+.0f'):<16}{r.won:>6}{r.tied:>6}"
                         f"{r.lost:>6}  {r.points:>+20.1f}")
        for r in self.ratings:
            if r.won + r.tied + r.lost and (r.won == 0 or r.lost == 0):
                lines.append(f"note: {r.bot} {'lost' if r.won == 0 else 'won'} every deal it did "
                             "not tie: its distance from the others is set by the prior (one "
                             "virtual tied deal a pair) and the deal count, a bound rather than "
                             "an estimate")
        lines.append(f"({self.seconds:.1f} s)")
        return "\n".join(lines)


def _interval(low: float, high: float, fmt: str) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return "[-, -]"
    return f"[{low:{fmt}}, {high:{fmt}}]"


# ---------------------------------------------------------------------------- playing
def check_bots(bots: Sequence[Bot | str], rules: Rules | None = None) -> list[str]:
    """The names of the bots (specs as written), or ValueError: fewer than two, a name given
    twice, an unknown or bad spec (:func:`agents.registry.check_spec`; with ``rules`` each spec
    is also built for them, which catches a checkpoint or table size that cannot play)."""
    from agents.registry import check_spec, make_bot

    if len(bots) < 2:
        raise ValueError(f"a tournament needs at least two bots, got {len(bots)}")
    names = [bot_name(b).strip() if isinstance(b, str) else bot_name(b) for b in bots]
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"bot {name!r} is given twice; every bot of a tournament needs "
                             "its own name")
        seen.add(name)
    for bot in bots:
        if isinstance(bot, str):
            check_spec(bot)
            if rules is not None:
                make_bot(bot, rules)
        elif rules is not None:
            check = getattr(bot, "check_rules", None)
            if callable(check):
                check(rules)
    return names


def tournament(bots: Sequence[Bot | str], rules: RulesSpec = None, deals: int = 200,
               seed: int = 0, games: int = 0, workers: int = 1, progress: bool = False,
               rules_name: str | None = None, bootstrap: int = 1000,
               anchor: str | None = None) -> TournamentResult:
    """Every pair of ``bots`` (bots or registry specs) in duplicate on the same ``deals`` deals
    (and ``games`` game pairs), and the Bradley-Terry ratings (see the module doc).

    Pairs are played in the order of ``bots``: (0, 1), (0, 2), ..., (1, 2), ...; the first of
    a pair is its A.
    """
    if rules_name is None:
        rules_name = rules if isinstance(rules, str) else None
    rules = resolve_rules(rules)
    names = check_bots(bots, rules)
    if anchor is not None and anchor not in names:
        raise ValueError(f"--anchor {anchor!r} is not one of the bots ({', '.join(names)})")
    check_counts(deals=(deals, 1), games=(games, 0), workers=(workers, 1),
                 bootstrap=(bootstrap, 0))
    start = time.perf_counter()
    pairs_idx = list(combinations(range(len(bots)), 2))
    bar = progress_bar(len(pairs_idx) * (deals + games), "tournament", progress)
    pairs: list[PairResult] = []
    seeds = [deal_seed(seed, i) for i in range(deals)]
    for i, j in pairs_idx:
        bar.set_description(f"{names[i]} vs {names[j]}")
        result, values = duplicate_values(bots[i], bots[j], rules, deals=deals, seed=seed,
                                          games=games, workers=workers, progress=progress,
                                          rules_name=rules_name, bar=bar)
        result.a, result.b = names[i], names[j]
        pairs.append(PairResult(names[i], names[j], result, values, list(seeds)))
    bar.close()
    ratings = rate(names, pairs_idx, pairs, deals, bootstrap, seed, anchor)
    return TournamentResult(bots=names, rules=rules_name or rules_name_of(rules), seed=seed,
                            deals=deals, games=games, players=rules.players, pairs=pairs,
                            ratings=ratings, bootstrap=bootstrap, anchor=anchor,
                            seconds=time.perf_counter() - start)


def rate(names: list[str], pairs_idx: list[tuple[int, int]], pairs: list[PairResult],
         deals: int, bootstrap: int, seed: int, anchor: str | None = None) -> list[Rating]:
    """Bradley-Terry ratings with bootstrap intervals, best first."""
    k = len(names)
    values = {ij: np.asarray(p.values, dtype=float) for ij, p in zip(pairs_idx, pairs)}
    shift = (lambda r: r - r[..., [names.index(anchor)]]) if anchor else (lambda r: r)
    point = shift(bradley_terry(outcome_counts(values, k))) * ELO
    low = np.full(k, -math.inf)
    high = np.full(k, math.inf)
    if bootstrap > 0 and deals > 1:
        rng = np.random.default_rng([seed, 0x70])
        index = rng.integers(0, deals, size=(bootstrap, deals))
        boot = shift(bradley_terry(outcome_counts(values, k, index))) * ELO
        low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    out = []
    for b, name in enumerate(names):
        won = tied = lost = 0
        points = []
        for (i, j), p in zip(pairs_idx, pairs):
            if b not in (i, j):
                continue
            w, t, l = p.record
            if b == j:
                w, l = l, w
            won, tied, lost = won + w, tied + t, lost + l
            points.append(p.result.mean if b == i else -p.result.mean)
        out.append(Rating(name, float(point[b]), float(low[b]), float(high[b]), won, tied,
                          lost, sum(points) / len(points)))
    out.sort(key=lambda r: -r.rating)
    return out
