"""Session 33: does the nullo branch keep up in a search step?  For each agent, on collected
distillation data (``train.distill`` .npz pieces), the agreement with the teacher's card and
the mean regret (points, by the search's scores) of the agent's greedy card, apart for the
card decisions of suit contracts, of the declarer in nullo-type contracts and of their
defenders.

Usage: python state/session33/nullo_regret.py --data PIECE.npz ... --agents SPEC ...
"""
import argparse

import numpy as np
import torch

import fh_env.actions as A
from agents.neural import NeuralBot, masked_logits
from fh_env.compiled.engine import PLAY
from train.distill import Batches, load_data, regret


def groups(records: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """Card decisions of suit/notrump contracts, and of nullo declarers and defenders."""
    play = records["phase"] == PLAY
    nullo = np.isin(records["contract"], A.NULLO_TYPES)
    sides = 3 if players == 6 else players if players == 3 else 2
    declaring = (records["turn"] % sides) == (records["declarer"] % sides)
    return {"suit/notrump": play & ~nullo, "nullo declarer": play & nullo & declaring,
            "nullo defence": play & nullo & ~declaring}


def measure(spec: str, data: dict, rules, batch: int = 4096) -> dict[str, list[float]]:
    net = NeuralBot.load(spec).net.eval()
    batches = Batches(rules)
    out: dict[str, list[float]] = {}
    with torch.no_grad():
        for start in range(0, len(data["labels"]), batch):
            sl = slice(start, start + batch)
            records = data["records"][sl]
            obs, mask = batches(records)
            logits = masked_logits(net(obs)[0], mask)
            labels = torch.from_numpy(data["labels"][sl].astype(np.int64))
            scores = torch.from_numpy(data["scores"][sl].astype(np.float32))
            hit = (logits.argmax(1) == labels).numpy()
            for name, rows in groups(records, rules.players).items():
                acc = out.setdefault(name, [0, 0, 0.0, 0])
                acc[0] += int(hit[rows].sum())
                acc[1] += int(rows.sum())
                r, k = regret(logits[torch.from_numpy(rows)], scores[torch.from_numpy(rows)])
                acc[2] += r
                acc[3] += k
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--data", nargs="+", required=True)
    p.add_argument("--agents", nargs="+", required=True)
    args = p.parse_args()
    rules = NeuralBot.load(args.agents[0]).rules
    data = load_data(args.data, rules)
    print(f"{len(data['labels'])} decisions")
    for spec in args.agents:
        for name, (hit, n, lost, k) in measure(spec, data, rules).items():
            print(f"{spec:50} {name:15} {n:8d} agree {hit / max(1, n):6.1%} "
                  f"regret {lost / max(1, k):6.2f}")


if __name__ == "__main__":
    main()
