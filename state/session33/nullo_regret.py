"""Session 33: does the nullo branch keep up in a search step?  For each agent, on collected
distillation data (``train.distill`` .npz pieces), the agreement with the teacher's card and
the mean regret (points, by the search's scores) of the agent's greedy card, apart for the
card decisions of suit contracts, of the declarer in nullo-type contracts and of their
defenders.

Usage: python state/session33/nullo_regret.py --data PIECE.npz ... --agents SPEC ...
"""
import argparse

import numpy as np

import fh_env.actions as A
from agents.neural import NeuralBot
from fh_env.compiled.engine import PLAY
from train.distill import Batches, evaluate, load_data


def groups(records: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """Card decisions of suit/notrump contracts, and of nullo declarers and defenders."""
    play = records["phase"] == PLAY
    nullo = np.isin(records["contract"], A.NULLO_TYPES)
    sides = 3 if players == 6 else players if players == 3 else 2
    declaring = (records["turn"] % sides) == (records["declarer"] % sides)
    return {"suit/notrump": play & ~nullo, "nullo declarer": play & nullo & declaring,
            "nullo defence": play & nullo & ~declaring}


def measure(spec: str, data: dict, rules) -> dict[str, dict[str, float]]:
    """train.distill.evaluate on each group's rows (all card decisions)."""
    net = NeuralBot.load(spec).net
    batches = Batches(rules)
    return {name: evaluate(net, data, np.flatnonzero(rows), batches)
            for name, rows in groups(data["records"], rules.players).items()}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--data", nargs="+", required=True)
    p.add_argument("--agents", nargs="+", required=True)
    args = p.parse_args()
    rules = NeuralBot.load(args.agents[0]).rules
    data = load_data(args.data, rules)
    print(f"{len(data['labels'])} decisions")
    for spec in args.agents:
        for name, row in measure(spec, data, rules).items():
            print(f"{spec:50} {name:15} {row['searched']:8d} searched  agree "
                  f"{row['card_agreement']:6.1%} regret {row['regret']:6.2f}")


if __name__ == "__main__":
    main()
