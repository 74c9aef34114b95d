"""Session 35: is the rule bot's nullo defence better than the network's?  A bot that plays the
cards of the side against a nullo's declarer with the rule bot and everything else with the
network, against the network alone (duplicate deals).

Usage: python state/session35/rule_defence.py --rules american --deals 2000 --seed 2477
"""
import argparse

from agents.registry import make_bot
from arena.duplicate import duplicate
from fh_env.actions import NULLO_TYPES
from fh_env.engine import Phase, side_of
from fh_env.rules import Rules


class RuleDefence:
    def __init__(self, network, rule, players: int) -> None:
        self.network, self.rule, self.players = network, rule, players
        self.name = f"rule-defence({network.name})"

    def act(self, view, rng):
        if (view.phase == Phase.PLAY and view.contract in NULLO_TYPES
                and side_of(self.players, view.seat) != side_of(self.players, view.declarer)):
            return self.rule.act(view, rng)
        return self.network.act(view, rng)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rules", default="american")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=2477)
    args = p.parse_args()
    rules = Rules.preset(args.rules)
    network = make_bot(f"neural:best-{args.rules}", rules)
    bot = RuleDefence(network, make_bot("rule", rules), rules.players)
    print(duplicate(bot, network, rules, rules_name=args.rules, deals=args.deals, seed=args.seed))


if __name__ == "__main__":
    main()
