"""The ``fh-eval`` command line: ``fh-eval A B`` (one duplicate match), ``fh-eval A B --through
X`` (A and B each against X on the same deals, paired) and ``fh-eval --tournament BOT BOT ...``
(every pair, rated).

This module alone reads ``sys.argv``, dispatches the two forms, and turns a bad bot, option,
count, rules file or checkpoint into one line on stderr and exit status 2, before anything is
played or written; the matches themselves are :func:`arena.duplicate.duplicate` and
:func:`arena.tournament.tournament`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from agents.registry import bot_help, make_bot
from fh_env.rules import load_rules

from .duplicate import duplicate
from .paired import through
from .tournament import check_bots, tournament

RULES_HELP = "a preset name or a rules TOML file (default: australian-no-nullo)"


def parser() -> argparse.ArgumentParser:
    """``fh-eval A B``'s options."""
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
    p.add_argument("--rules", default="australian-no-nullo", help=RULES_HELP)
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
    p.add_argument("--through", default=None, metavar="X",
                   help="compare A and B through a common opponent: A against X and B against "
                        "X on the same deals, and A's value minus B's deal by deal with its 95%% "
                        "CI (narrower than either match's where A and B play alike); not with "
                        "--games or --save")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--tournament", action="store_true",
                   help="fh-eval --tournament BOT BOT ...: play every pair of the bots on the "
                        "same duplicate deals and rate them (see fh-eval --tournament --help)")
    return p


def tournament_parser() -> argparse.ArgumentParser:
    """``fh-eval --tournament BOT BOT ...``'s options."""
    p = argparse.ArgumentParser(
        prog="fh-eval --tournament",
        description="Round robin: every pair of the bots plays a duplicate match on the same "
                    "deals; prints each pair's points per deal (A - B, 95% CI) and a "
                    "Bradley-Terry rating of each bot, fitted on the duplicate deals won, tied "
                    "and lost, with a 95% interval by bootstrap over the deals.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=bot_help() + "\n\nA bad bot, option, rules file or checkpoint, fewer than two "
               "bots or a bot given twice is refused with a one-line reason and exit status 2, "
               "before anything is played.")
    p.add_argument("--tournament", action="store_true", help="(this mode)")
    p.add_argument("bots", nargs="*", metavar="BOT", help="two or more bot specs")
    p.add_argument("--rules", default="australian-no-nullo", help=RULES_HELP)
    p.add_argument("--deals", type=int, default=200,
                   help="duplicate deals per pair, the same for every pair (default 200)")
    p.add_argument("--games", type=int, default=0,
                   help="also play this many whole games per pair (each once per seating) and "
                        "report the first bot's win rate")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    p.add_argument("--workers", type=int, default=1, help="processes to split each pair over")
    p.add_argument("--bootstrap", type=int, default=1000,
                   help="bootstrap resamples of the deals for the rating intervals (default "
                        "1000; 0: none)")
    p.add_argument("--anchor", default=None, metavar="BOT",
                   help="give this bot the rating 0 (default: the mean rating is 0)")
    p.add_argument("--json", action="store_true",
                   help="print the result as strict JSON (an interval that one deal cannot give "
                        "is null)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return p


def check_counts(args: argparse.Namespace, **least: int) -> None:
    """ValueError naming the first option below its least value (``deals=1`` means
    ``--deals`` must be at least 1)."""
    for name, low in least.items():
        value = getattr(args, name)
        if value < low:
            raise ValueError(f"--{name} must be at least {low}, not {value}")


def main(argv: Sequence[str] | None = None) -> int:
    """``fh-eval``: a match, or with ``--tournament`` a round robin."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--tournament" in argv:
        return tournament_main(argv)
    args = parser().parse_args(argv)
    try:
        check_counts(args, deals=1, games=0, workers=1)
        rules = load_rules(args.rules)
        for spec in (args.a, args.b, *([args.through] if args.through is not None else [])):
            make_bot(spec, rules)  # fail early on a bad name, option, checkpoint or rules
        if args.through is not None and (args.games or args.save is not None):
            raise ValueError("--through plays two matches of deals only: drop --games and "
                             "--save (play each match alone for those)")
        if args.save is not None:
            _check_save_folder(args.save)
    except (ValueError, OSError) as err:  # CheckpointError is a ValueError
        return _refuse(err)
    progress = not args.no_progress and sys.stderr.isatty()
    if args.through is not None:
        paired = through(args.a, args.b, args.through, rules, deals=args.deals, seed=args.seed,
                         workers=args.workers, progress=progress, rules_name=args.rules)
        print(paired.to_json() if args.json else paired.format())
        return 0
    result = duplicate(args.a, args.b, rules, deals=args.deals, seed=args.seed,
                       games=args.games, workers=args.workers, progress=progress,
                       rules_name=args.rules, save=args.save)
    print(result.to_json() if args.json else result.format())
    return 0


def tournament_main(argv: Sequence[str] | None = None) -> int:
    """``fh-eval --tournament BOT BOT ...``."""
    args = tournament_parser().parse_intermixed_args(argv)
    try:
        check_counts(args, deals=1, games=0, workers=1, bootstrap=0)
        rules = load_rules(args.rules)
        names = check_bots(args.bots, rules)
        if args.anchor is not None and args.anchor not in names:
            raise ValueError(f"--anchor {args.anchor!r} is not one of the bots "
                             f"({', '.join(names)})")
    except (ValueError, OSError) as err:  # CheckpointError is a ValueError
        return _refuse(err)
    result = tournament(names, rules, deals=args.deals, seed=args.seed, games=args.games,
                        workers=args.workers,
                        progress=not args.no_progress and sys.stderr.isatty(),
                        rules_name=args.rules, bootstrap=args.bootstrap, anchor=args.anchor)
    print(result.to_json() if args.json else result.format())
    return 0


def _check_save_folder(save: str) -> None:
    """ValueError if ``--save`` (or a folder above it) is a file."""
    path = Path(save)
    for folder in (path, *path.parents):
        if folder.exists():
            if not folder.is_dir():
                raise ValueError(f"--save {save}: {folder} is a file, not a folder")
            return


def _refuse(err: Exception) -> int:
    print(f"fh-eval: error: {' '.join(str(err).split())}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
