"""Which part of a bot's play makes its difference?  Calls, leads and follows swapped in duplicate.

Why: a fitted network can agree with its teacher more and still play worse, and a match of the
whole bot does not say where.  ``SplitBot`` plays the calls (auction and exchange), the leads
and the follows of a trick from different bots, so that ``python -m arena.split A B`` can
measure A's calls, A's leads and A's follows each alone in B's play, against B, on the same
duplicate deals::

    python -m arena.split neural:runs/x/agent.pt neural:best --deals 2000 --seed 2061
    python -m arena.split nmc:best neural:best --parts leads,follows --workers 2

Each row is a duplicate match of B with that part of A's play against B itself.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Sequence

from fh_env.engine import Phase
from fh_env.rules import Rules
from fh_env.view import SeatView

from agents.base import Bot
from agents.registry import make_bot
from fh_env.rules import load_rules

from .duplicate import duplicate

PARTS = ("calls", "leads", "follows")


class SplitBot:
    """Plays each part of the game (:data:`PARTS`) with its own bot: the auction and the
    exchange are ``calls``, the first card of a trick ``leads``, every other card ``follows``."""

    def __init__(self, calls: Bot, leads: Bot, follows: Bot, name: str = "split") -> None:
        self.parts = {"calls": calls, "leads": leads, "follows": follows}
        self.name = name
        self._specs: tuple[dict[str, str], Rules, str] | None = None

    @classmethod
    def from_specs(cls, specs: dict[str, str], rules: Rules, name: str = "split") -> SplitBot:
        """Each part's bot from its registry spec (one bot a distinct spec).  Such a SplitBot
        can be sent to worker processes: it pickles as its specs and is rebuilt there."""
        built = {spec: make_bot(spec, rules) for spec in dict.fromkeys(specs.values())}
        bot = cls(**{part: built[specs[part]] for part in PARTS}, name=name)
        bot._specs = (dict(specs), rules, name)
        return bot

    def __reduce__(self) -> tuple:
        if self._specs is None:
            raise TypeError("a SplitBot built from bot objects stays in its process; build it "
                            "with SplitBot.from_specs to play with workers")
        return (SplitBot.from_specs, self._specs)

    @staticmethod
    def part(view: SeatView) -> str:
        """The part of the game ``view``'s decision belongs to."""
        if view.phase != Phase.PLAY:
            return "calls"
        return "follows" if view.trick else "leads"

    def check_rules(self, rules: Rules) -> None:
        for bot in self.parts.values():
            check = getattr(bot, "check_rules", None)
            if check is not None:
                check(rules)

    def act(self, view: SeatView, rng: random.Random) -> int:
        return self.parts[self.part(view)].act(view, rng)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena.split", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split(
        "\n\n", 1)[1])
    parser.add_argument("a", help="the bot whose parts are tried (a registry spec)")
    parser.add_argument("b", help="the bot that plays the rest, and the opponent")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"comma-separated parts of A to try alone (of {', '.join(PARTS)})")
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals a match")
    parser.add_argument("--seed", type=int, default=0, help="the deals' seed")
    parser.add_argument("--rules", default="australian-no-nullo",
                        help="a preset name or a rules TOML file (default: australian-no-nullo)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes that play the deals (the bots are copied to each)")
    args = parser.parse_args(argv)
    try:
        parts = args.parts.split(",")
        unknown = [p for p in parts if p not in PARTS]
        if unknown:
            raise ValueError(f"--parts takes {', '.join(PARTS)}, not {', '.join(unknown)}")
        for flag, value in (("--deals", args.deals), ("--workers", args.workers)):
            if value < 1:
                raise ValueError(f"{flag} must be at least 1, not {value}")
        rules = load_rules(args.rules)
        splits = {part: SplitBot.from_specs(
            {p: (args.a if p == part else args.b) for p in PARTS}, rules,
            name=f"{args.b} with {args.a}'s {part}") for part in parts}
    except ValueError as err:  # CheckpointError and bad specs are ValueErrors
        print(f"python -m arena.split: error: {err}", file=sys.stderr)
        return 2
    print(f"each part of {args.a} alone in {args.b}'s play, against {args.b}: {args.deals} "
          f"duplicate deals of seed {args.seed}")
    for part, split in splits.items():
        res = duplicate(split, args.b, rules, deals=args.deals, seed=args.seed,
                        workers=args.workers)
        print(f"{part:<8} {res.mean:+6.1f}  95% CI [{res.ci_low:+.1f}, {res.ci_high:+.1f}]",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
