"""Session 35 prototype: DAgger of the rule bot's nullo defence into the network's nullo branch.

The teacher of :func:`train.nullo_play.collect` is ``RuleDefence`` (state/session35/rule_defence.py):
the network's calls and declarer-side cards, the rule bot's defence.  So the contracts are the
network's own, the declarer's (and partner's) rows are labelled with the network's own card (they
keep the branch's play there) and the defenders' with the rule bot's.

Usage: python state/session35/rule_defence_fit.py collect --hands 4000 --seed 35200 --out runs/s35-rd/a.npz
       python state/session35/rule_defence_fit.py fit --data runs/s35-rd/a.npz ... --out runs/s35-rd/fit.pt
"""
import argparse
import sys

sys.path.insert(0, "state/session35")

from agents.neural import NeuralBot  # noqa: E402
from agents.registry import make_bot  # noqa: E402
from rule_defence import RuleDefence  # noqa: E402
from train import imitate, nullo_play  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=("collect", "fit"))
    p.add_argument("--agent", default="best-american")
    p.add_argument("--hands", type=int, default=4000)
    p.add_argument("--seed", type=int, default=35200)
    p.add_argument("--mix", type=float, default=0.5)
    p.add_argument("--data", nargs="*")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    if args.what == "collect":
        bot = NeuralBot.load(args.agent, greedy=True)
        teacher = RuleDefence(bot, make_bot("rule", bot.rules), bot.rules.players)
        data = nullo_play.collect(bot, teacher, args.hands, args.seed, args.mix)
        imitate.save_piece(data, bot.rules, args.out, nullo_play.FORMAT)
        print(f"{len(data['label'])} card decisions -> {args.out}", flush=True)
    else:
        hist = nullo_play.fit_agent(args.agent, args.data, args.out, args.epochs,
                                    args.learning_rate, declarer_weight=1.0, seed=35)
        for row in hist:
            print(row)


if __name__ == "__main__":
    main()
