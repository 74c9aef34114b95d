"""The two command lines: ``fh-play`` (:func:`main`: a game against the bots) and ``fh-replay``
(:func:`replay_main`: step through a saved record).

fh-play: a person takes one seat; bots (any name :func:`agents.registry.make_bot` knows) take the
others, under any preset or rules file, at a table of four, three or six (``--rules
three-handed``, ``six-handed``; in the terminal or, with ``--web``, in the browser).  The
screen shows the person's hand sorted and coloured by suit, the auction, the trick in
progress, tricks won and the scores; calls, discards and plays are typed by name (``7H``,
``pass``, ``QS``, ``JK H``) or by number from the menu, with tab completion where the terminal
has readline.  An illegal entry is refused with the engine's reason (``you must follow hearts:
you hold J♦``).  Learning aids (:mod:`play.aids`) can be switched on with ``--aids`` or, during
the game, ``aid NAME on``.

This module only reads the arguments, builds the rules, bots and terminal, and hands over to
:class:`play.game.Game` (or walks :func:`fh_env.records.replay`); ``python -m play.cli`` and
``python -m play`` run fh-play.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Sequence

from rich.text import Text

from fh_env.records import load_record, replay
from fh_env.rules import Rules, resolve_rules
from fh_env.view import seat_view

from agents.base import Bot

from .entries import HELP
from .game import AIDS, Game
from .render import (DEFAULT_SEAT, SEATS, SHORT, action_line, is_discard, reveal_panel,
                     result_text, seat_label, side_names, table_view, trick_line)
from .terminal import Quit, Terminal


def parse_seat(text: str, players: int = 4) -> int:
    """A seat typed as its number, name or short name (``south``, ``s``, ``2``; six players
    ``north-east``, ``ne``, ``3``)."""
    word = text.strip().lower()
    for seat, name in enumerate(SEATS[players]):
        if word in (str(seat), name.lower(), name.lower().replace("-", ""),
                    SHORT[players][seat].lower()):
            return seat
    raise ValueError(f"{text!r} is not a seat at a table of {players}: 0-{players - 1} or "
                     + ", ".join(n.lower() for n in SEATS[players]))


def parse_aids(text: str) -> list[str]:
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    if words == ["all"]:
        return list(AIDS)
    if words == ["none"]:
        return []
    bad = [w for w in words if w not in AIDS]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown aid(s) {', '.join(bad)}; choose from "
                                         f"{', '.join(AIDS)}, all or none")
    return words


def play_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fh-play", description="Play Five Hundred in the terminal against bots.",
        epilog="In the game: " + HELP[0].lower() + HELP[1:])
    p.add_argument("--rules", default="australian-no-nullo",
                   help="a preset (%(default)s by default) or a rules TOML file")
    p.add_argument("--seat", default=None,
                   help="your seat, by name or number: north, east, south (default) or west; "
                        "three-handed north, east, west (default); six-handed north, "
                        "north-east, south-east, south (default), south-west, north-west "
                        "(or n, ne, se, s, sw, nw)")
    p.add_argument("--opponents", default="mc",
                   help="bot for every opponent, or one name per opponent clockwise from your "
                        "left: 'LEFT,RIGHT' (four or three players), 'A,B,C' (six players) "
                        "(default: mc)")
    p.add_argument("--partner", default=None,
                   help="bot for your partner (default: mc); six-handed one name for both "
                        "partners or two, 'LEFT,RIGHT'; three-handed has no partner")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the deals and bots (default: a fresh one, shown at the start)")
    p.add_argument("--aids", type=parse_aids, default=[],
                   help=f"learning aids to switch on: comma-separated from {', '.join(AIDS)}, "
                        "or all")
    p.add_argument("--hint-bot", default="mc", help="the bot whose hint the hint aid shows")
    p.add_argument("--samples", type=int, default=None,
                   help="deals the estimate and analyse aids simulate (default: the mc bot's)")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="write the game record (JSON) to FILE after every hand")
    p.add_argument("--hands", type=int, default=None,
                   help="stop after this many hands (default: play to the end of the game)")
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")
    web = p.add_argument_group("in the browser (needs the web extra)")
    web.add_argument("--web", action="store_true",
                     help="play in the browser: serve the game on a local web server")
    web.add_argument("--host", default="127.0.0.1",
                     help="address to listen on (default %(default)s: this machine only)")
    web.add_argument("--port", type=int, default=8500, help="port (default %(default)s)")
    web.add_argument("--no-browser", action="store_true", help="do not open a browser")
    web.add_argument("--pace", type=int, default=700, metavar="MS",
                     help="milliseconds between the bots' moves on the page (default "
                          "%(default)s)")
    web.add_argument("--allow-remote", action="store_true",
                     help="let --host be an address other machines reach (with a warning: "
                          "the game has no password)")
    web.add_argument("--stats", default=None, metavar="PATH",
                     help="the statistics file (SQLite; default: "
                          "$XDG_DATA_HOME/fivehundred-rl/stats.sqlite3)")
    return p


def _names(text: str, count: int, option: str, shape: str) -> list[str]:
    names = [w.strip() for w in text.split(",") if w.strip()]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise ValueError(f"{option} takes one bot name or {count}, {shape}")
    return names


def bot_names(args: argparse.Namespace, person: int, players: int = 4) -> dict[int, str]:
    """The bot of every seat but the person's, from --opponents and --partner: opponents
    clockwise from the person's left, then partners (six players: two seats and four seats on,
    clockwise; three players have none)."""
    n = players
    opponents = [(person + k) % n for k in range(1, n) if k % 2 == 1 or n == 3]
    partners = [(person + k) % n for k in range(2, n, 2)] if n != 3 else []
    if n == 3 and args.partner is not None:
        raise ValueError("three-handed, everyone plays for themselves: there is no --partner "
                         "(name both opponents with --opponents LEFT,RIGHT)")
    shape = {3: "'LEFT,RIGHT'", 4: "'LEFT,RIGHT'", 6: "'A,B,C' clockwise from your left"}[n]
    names = dict(zip(opponents, _names(args.opponents, len(opponents), "--opponents", shape)))
    if partners:
        names.update(zip(partners, _names(args.partner or "mc", len(partners), "--partner",
                                           "'LEFT,RIGHT'")))
    return names


def build_bots(args: argparse.Namespace, person: int, rules=None) -> dict[int, Bot]:
    """The bots, each checked against the rules (a bot that refuses a table size says so)."""
    from agents.registry import make_bot

    players = rules.players if rules is not None else 4
    return {seat: make_bot(name, rules)
            for seat, name in bot_names(args, person, players).items()}


def main(argv: Sequence[str] | None = None, term: Terminal | None = None) -> int:
    args = play_parser().parse_args(argv)
    try:
        rules = resolve_rules(args.rules)
        args.seat = (DEFAULT_SEAT[rules.players] if args.seat is None
                     else parse_seat(args.seat, rules.players))
        bots = build_bots(args, args.seat, rules)
    except (ValueError, FileNotFoundError) as err:
        print(f"fh-play: {err}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    from .aids import Helper  # aids may be switched on during the game, so always ready

    helper = Helper(rules, hint_bot=args.hint_bot, samples=args.samples, seed=seed)
    if args.web:
        named = [a for a in (sys.argv[1:] if argv is None else argv)
                 if a.split("=")[0] in ("--opponents", "--partner")]
        return web_main(args, rules, bots if named else None, helper, seed)
    term = term or Terminal.interactive(args.no_color)
    game = Game(rules, args.seat, bots, term, seed=seed, aids=args.aids, save=args.save,
                hands=args.hands, helper=helper)
    game.run()
    return 0


def web_main(args: argparse.Namespace, rules, bots: dict[int, Bot] | None, helper,
             seed: int) -> int:
    """fh-play --web: the game served to a browser.  With bots named (--opponents,
    --partner) that game starts at once; else the page opens on the start screen (preset,
    difficulty, target).  Every game is saved (``--save``, or
    ``fh-games/web-seed<SEED>.json``); the statistics go to ``--stats`` or the user's data
    folder (:mod:`play.web.stats`)."""
    from .web import missing_extra

    problem = missing_extra()
    if problem:
        print(f"fh-play: {problem}", file=sys.stderr)
        return 2
    from .web.guard import check_bind
    from .web.server import Host, create_app, serve
    from .web.session import WebGame
    from .web.stats import Stats, StatsError, default_path

    try:
        warning = check_bind(args.host, args.allow_remote)
        stats = Stats(args.stats or default_path())
    except (ValueError, StatsError, OSError) as err:
        print(f"fh-play: {err}", file=sys.stderr)
        return 2
    if warning:
        print(f"fh-play: {warning}", file=sys.stderr)
    host = Host(None, stats=stats, pace_ms=args.pace)
    if bots is not None:
        save = args.save or f"fh-games/web-seed{seed}.json"
        game = WebGame(rules, args.seat, bots, seed=seed, aids=args.aids, save=save,
                       helper=helper, pace_ms=args.pace)
        host = Host(game, stats=stats, pace_ms=args.pace, level="custom")
        print(f"Seed {seed}; the game record is saved to {save} after every hand.")
    print(f"Statistics: {stats.path}")
    serve(create_app(host=host, bind=args.host), args.host, args.port, not args.no_browser)
    if host.game is not None:
        host.game.write_record()
    stats.close()
    return 0


# ---------------------------------------------------------------------- fh-replay


def replay_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fh-replay",
                                description="Step through a Five Hundred game record.",
                                epilog="Enter steps, n skips to the next hand, q quits.")
    p.add_argument("file", help="a record written by fh-play --save or fh-eval --save")
    p.add_argument("--hand", type=int, default=None, help="show only this hand (1, 2, ...)")
    p.add_argument("--seat", default=None,
                   help="show the game as this seat saw it, by name or number (default: "
                        "every hand open)")
    p.add_argument("--no-pause", action="store_true",
                   help="print every step without waiting for Enter")
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")
    p.add_argument("--web", action="store_true",
                   help="step through it in the browser (needs the web extra)")
    p.add_argument("--host", default="127.0.0.1", help="with --web: address (%(default)s)")
    p.add_argument("--port", type=int, default=8500, help="with --web: port (%(default)s)")
    p.add_argument("--no-browser", action="store_true", help="with --web: open no browser")
    p.add_argument("--allow-remote", action="store_true",
                   help="with --web: let --host be an address other machines reach")
    return p


def replay_main(argv: Sequence[str] | None = None, term: Terminal | None = None) -> int:
    args = replay_parser().parse_args(argv)
    try:
        record = load_record(args.file)
        n = Rules.from_dict(record["rules"]).players
        person = parse_seat(args.seat, n) if args.seat is not None else -1
    except (ValueError, FileNotFoundError) as err:
        print(f"fh-replay: {err}", file=sys.stderr)
        return 2
    if args.web:
        from .web import missing_extra

        problem = missing_extra()
        if problem:
            print(f"fh-replay: {problem}", file=sys.stderr)
            return 2
        from .web.guard import check_bind
        from .web.server import create_app, serve

        try:
            warning = check_bind(args.host, args.allow_remote)
        except ValueError as err:
            print(f"fh-replay: {err}", file=sys.stderr)
            return 2
        if warning:
            print(f"fh-replay: {warning}", file=sys.stderr)
        serve(create_app(None, replay_record=record, bind=args.host, replay_only=True),
              args.host, args.port, not args.no_browser, "/replay?file=1")
        return 0
    term = term or Terminal.interactive(args.no_color)
    pause = not args.no_pause and (term.read is not input or sys.stdin.isatty())
    players = record.get("players") or ["?"] * n
    names = SEATS[n]
    term.show(Text(f"{len(record['hands'])} hands ({n} players). Enter steps, n skips to the "
                   "next hand, q quits.", style="bold"))
    skip_to, tricks = -1, 0
    try:
        for step in replay(record):
            hand_no = step.hand + 1
            if args.hand is not None and hand_no != args.hand:
                continue
            state = step.state
            if step.action is None:
                seats = record["hands"][step.hand].get("players", players)
                term.show(Text(f"\nHand {hand_no}: {names[state.dealer]} deals. "
                               + ", ".join(f"{names[s]} {seats[s]}" for s in range(n)),
                               style="bold"))
                tricks = 0
                continue
            view = seat_view(state, person if person >= 0 else step.seat)
            hidden = (person >= 0 and step.seat != person and is_discard(step.action, n))
            if not hidden:  # with --seat, the others' discards stay face down
                term.show(action_line(seat_label(step.seat, person, n), step.action,
                                      state.rules.jokers, n))
            if len(state.tricks) > tricks:
                tricks = len(state.tricks)
                term.show(trick_line(view, person))
            if state.is_terminal:
                term.show(reveal_panel(state, person), result_text(state, person))
                continue
            if not pause or skip_to == step.hand:
                continue
            shown = None if person >= 0 else dict(enumerate(state.hands))
            term.show(table_view(view, person, hand_no, shown))
            answer = term.ask("Enter: next step, n: next hand, q: quit> ").strip().lower()
            if answer == "q":
                break
            if answer == "n":
                skip_to = step.hand
    except Quit:
        pass
    except ValueError as err:
        term.show(Text(f"The record does not replay: {err}", style="bold red"))
        return 1
    final = record.get("final_scores")
    if final:
        term.show(Text("Final scores: " + ", ".join(f"{name} {score}" for name, score
                                                    in zip(side_names(n), final))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
