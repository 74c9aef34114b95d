"""Evaluation during and after training, and what it writes to TensorBoard.

The games are played by :func:`arena.duplicate.duplicate` (duplicate deals, seats swapped,
mean and 95% confidence interval of the hand-point difference per deal); this module only
wraps the current policy as a greedy :class:`agents.neural.NeuralBot`, logs the results (with
the contracts the agent bid and made, by kind), and logs what the learner's team declared in
its training games since the previous evaluation.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np

from arena.duplicate import duplicate
from arena.results import KINDS, contract_kind
from arena.seating import seatings
from agents.neural import NeuralBot
from agents.registry import make_bot
from fh_env import actions as A

if TYPE_CHECKING:
    from torch.utils.tensorboard import SummaryWriter

    from .ppo import Trainer

#: Deals of every evaluation come from this seed, so evaluations compare like with like.
EVAL_SEED = 20_500


def log_contracts(writer: "SummaryWriter", log: list[tuple[int, int, int]], step: int) -> None:
    """What the learner's team declared in its training hands, and how often it made it."""
    if not log:
        return
    rows = np.array(log, dtype=np.int64).reshape(-1, 3)
    ours = rows[rows[:, 1] == 1]
    writer.add_scalar("contracts/declared_rate", len(ours) / len(rows), step)
    writer.add_scalar("contracts/no_contract_rate", float(np.mean(rows[:, 0] < 0)), step)
    if not len(ours):
        return
    writer.add_histogram("contracts/bid", ours[:, 0], step, bins=np.arange(0.5, 29.5))
    levels = [A.bid_level(int(c)) for c in ours[:, 0] if A.is_ordinary_bid(int(c))]
    if levels:
        writer.add_scalar("contracts/mean_level", float(np.mean(levels)), step)
    kinds = [contract_kind(int(c)).replace(" ", "_") for c in ours[:, 0]]
    counts = Counter(kinds)
    for kind, count in sorted(counts.items()):
        made = ours[np.array(kinds) == kind, 2]
        writer.add_scalar(f"contracts/share/{kind}", count / len(ours), step)
        writer.add_scalar(f"contracts/made_rate/{kind}", float(made.mean()), step)
    writer.add_scalar("contracts/made_rate/all", float(ours[:, 2].mean()), step)


def evaluate(trainer: "Trainer", opponents: list[str], deals: int,
             seed: int = EVAL_SEED) -> dict[str, Any]:
    """Duplicate evaluation of the current (greedy) policy against each opponent spec."""
    if not opponents:
        return {}
    policy = copy.deepcopy(trainer.model.policy).cpu()
    bot = NeuralBot(policy, trainer.rules, greedy=True, name="learner")
    return {spec: duplicate(bot, make_bot(spec), trainer.rules, deals=deals, seed=seed)
            for spec in opponents}


def log_evaluation(writer: "SummaryWriter", trainer: "Trainer", opponents: list[str],
                   deals: int, step: int) -> dict[str, Any]:
    """Evaluate; write eval/<opponent>/{mean,ci_low,ci_high}, the contracts the agent bid in
    those games (share of hands and made rate per kind, mean level), and the training-game
    contract statistics since the previous evaluation."""
    results = evaluate(trainer, opponents, deals)
    for spec, result in results.items():
        name = spec.replace(":", "_").replace(",", "_").replace("=", "")
        writer.add_scalar(f"eval/{name}/mean", result.mean, step)
        writer.add_scalar(f"eval/{name}/ci_low", result.ci_low, step)
        writer.add_scalar(f"eval/{name}/ci_high", result.ci_high, step)
        ours = result.contracts.get("A", {})
        for kind in KINDS:
            bid, made = ours.get(kind, [0, 0])
            tag = kind.replace(" ", "_")
            plays = len(seatings(result.players)) * result.deals  # hands A played
            writer.add_scalar(f"eval/{name}/bid_share/{tag}", bid / plays, step)
            if bid:
                writer.add_scalar(f"eval/{name}/made_rate/{tag}", made / bid, step)
        writer.add_scalar(f"eval/{name}/mean_level", result.avg_level.get("A", 0.0), step)
    log_contracts(writer, trainer.contract_log, step)
    trainer.contract_log.clear()
    writer.flush()
    return results


def format_table(results: dict[str, Any]) -> str:
    """The final evaluation as a plain-text table."""
    if not results:
        return "no evaluation (final_eval_opponents is empty)"
    lines = [f"{'opponent':<18}{'deals':>6}{'mean diff':>11}{'95% CI':>20}{'bid/made':>10}"
             f"{'seconds':>9}  verdict", "-" * 88]
    for spec, r in results.items():
        verdict = ("better" if r.ci_low > 0 else "worse" if r.ci_high < 0 else "not separated")
        bid = sum(v[0] for v in r.contracts.get("A", {}).values())
        made = sum(v[1] for v in r.contracts.get("A", {}).values())
        lines.append(f"{spec:<18}{r.deals:>6}{r.mean:>+11.1f}"
                     f"{f'[{r.ci_low:+.1f}, {r.ci_high:+.1f}]':>20}{f'{bid}/{made}':>10}"
                     f"{r.seconds:>9.0f}  {verdict}")
    if any(getattr(r, "players", 4) == 3 for r in results.values()):
        lines.append("mean diff: hand points of the trained agent minus the mean of its two "
                     "opponents' per deal (each deal played three times, the agent on each "
                     "seat); bid/made: the agent's contracts")
    else:
        lines.append("mean diff: hand points of the trained agent's team minus the opponents' "
                     "per deal (each deal played twice, seats swapped); bid/made: the agent's "
                     "contracts")
    return "\n".join(lines)
