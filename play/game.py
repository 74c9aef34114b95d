"""The game loop: one person and the bots (two, three or five: any table size of rules §9)
playing hand after hand until the game ends.

:class:`Game` seats the bots (each with its own seeded generator), keeps the game record (a
:class:`fh_env.records.Recorder`, saved after every hand when asked), asks the person for calls,
discards and plays through a :class:`play.terminal.Terminal`, refuses illegal entries with the
reason (:mod:`play.explain`) and shows the learning aids (:mod:`play.aids`) that are switched on.
It talks to the person only through the terminal, so tests drive it with scripted input.
:class:`Table` is the part without a screen (seats, bots' moves, record, claims), which the
browser front end (:mod:`play.web`) shares.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from rich.panel import Panel
from rich.text import Text

from fh_env import actions as A
from fh_env.cards import SUIT_NAMES, SUITS, card_name
from fh_env.claims import ClaimError, apply_claim
from fh_env.contracts import DRAW
from fh_env.engine import Phase, State, side_of
from fh_env.records import Recorder
from fh_env.rules import Rules
from fh_env.view import seat_view

from agents.base import Bot

from .entries import (HELP, Command, EntryError, NeedSuit, menu, parse_call, parse_entry,
                      parse_suit)
from .aids import AidUnavailable
from .explain import explain_illegal
from .render import (SEATS, action_line, action_text, analysis_text, card_text, choice_text,
                     contract_line, counter_table, decode, estimates_table, is_discard,
                     result_text, reveal_panel, seat_label, side_names, table_view, trick_line)
from .terminal import Quit, Terminal

if TYPE_CHECKING:
    from .aids import Helper

AIDS = ("hint", "estimate", "counter", "analyse", "reveal")


@dataclass
class Seat:
    """Who sits in a seat: a bot (with its own seeded generator) or, when ``bot`` is None,
    the person."""

    name: str
    bot: Bot | None = None
    rng: random.Random | None = None


class Table:
    """The engine-driving part of a game that every front end shares: the seats (bots with
    their own seeded generators, the person), the record (:class:`fh_env.records.Recorder`,
    saved when asked), the aids switched on, the bots' moves and the person's claims.  It
    shows nothing: :class:`Game` (the terminal) and :mod:`play.web` (the browser) do."""

    def __init__(self, rules: Rules, person: int, bots: Mapping[int, Bot], seed: int = 0,
                 aids: Iterable[str] = (), save: str | Path | None = None,
                 hands: int | None = None, helper: "Helper | None" = None,
                 state: State | None = None) -> None:
        """``state`` starts the game from a given deal (``State.from_deal``) instead of the
        seed's first deal."""
        n = rules.players
        if person not in range(n) or set(bots) != set(range(n)) - {person}:
            raise ValueError(f"bots must fill every seat 0..{n - 1} but the person's ({person})")
        self.rules, self.person, self.seed = rules, person, seed
        self.players = n
        self.names = SEATS[n]  # the seats' names at this table size
        self.seats = {s: Seat(b.name, b, random.Random(f"{seed}/seat/{s}"))
                      for s, b in bots.items()}
        self.seats[person] = Seat("you")
        self.save_path = Path(save) if save else None
        self.max_hands = hands
        self.aids = set(aids)
        unknown = self.aids - set(AIDS)
        if unknown:
            raise ValueError(f"unknown aid(s) {', '.join(sorted(unknown))}; aids: "
                             f"{', '.join(AIDS)}")
        self.helper = helper  # an play.aids.Helper, when any aid needs one
        self.recorder = Recorder(state if state is not None else State(rules, seed=seed),
                                 players=[self.seats[s].name for s in range(n)])
        self.hand_no = 1

    @property
    def state(self) -> State:
        return self.recorder.state

    def partners(self) -> list[int]:
        """The person's partners, clockwise from the left: one (four players), two (six),
        none (three)."""
        n = self.players
        return [s for s in ((self.person + k) % n for k in range(1, n))
                if side_of(n, s) == side_of(n, self.person)]

    def opponents(self) -> list[int]:
        """The other side's seats, clockwise from the person's left."""
        n = self.players
        return [s for s in ((self.person + k) % n for k in range(1, n))
                if side_of(n, s) != side_of(n, self.person)]

    def write_record(self) -> None:
        """Save the record (every hand so far) when a file was given."""
        if self.save_path is not None:
            self.recorder.save(self.save_path)

    def bot_action(self, seat: int) -> int:
        """What the bot in ``seat`` plays now, from its own view and generator."""
        info = self.seats[seat]
        return info.bot.act(seat_view(self.state, seat), info.rng)  # type: ignore[union-attr]

    def claim(self, step: Callable[[int], None] | None = None) -> bool:
        """The person claims the remaining tricks (§5.11): when the claim stands the hand is
        played out through ``step`` (the recorder by default), so record and score are as if
        played; a refused claim changes nothing.  Raises ClaimError outside the play."""
        return apply_claim(self.state, self.person, step or self.recorder.apply)

    def next_hand(self) -> None:
        self.recorder.next_hand()
        self.hand_no += 1


class Game(Table):
    """One game between the person (seat ``person``) and the bots, shown on ``term``."""

    def __init__(self, rules: Rules, person: int, bots: Mapping[int, Bot], term: Terminal,
                 seed: int = 0, aids: Iterable[str] = (), save: str | Path | None = None,
                 hands: int | None = None, helper: "Helper | None" = None,
                 state: State | None = None) -> None:
        super().__init__(rules, person, bots, seed=seed, aids=aids, save=save, hands=hands,
                         helper=helper, state=state)
        self.term = term
        self.tricks_shown = 0  # the tricks of this hand already shown (show_tricks_won)

    # ------------------------------------------------------------------ running
    def run(self) -> State:
        """Play until the game ends, ``hands`` hands are over, or the person quits."""
        rules, me = self.rules, self.person
        names = {s: f"{self.names[s]} ({self.seats[s].name})" for s in range(self.players)}
        goal = (f"to {rules.target}" if rules.game_over == "points"
                else f"{rules.hands_to_play} hands")
        partners = [names[s] for s in self.partners()]
        opponents = [names[s] for s in self.opponents()]
        who = (f"partner{'s' if len(partners) > 1 else ''} {_and(partners)}; "
               if partners else "playing for yourself; ")
        self.term.show(
            Text(f"Five Hundred ({self.players} players): you are {self.names[me]}, {who}"
                 f"opponent{'s' if len(opponents) > 1 else ''} {_and(opponents)}.",
                 style="bold"),
            Text(f"Seed {self.seed}; playing {goal}. Type help for help."))
        try:
            while True:
                self.play_hand()
                self.save()
                if self.state.game_over:
                    self.announce_winner()
                    break
                if self.max_hands is not None and self.hand_no >= self.max_hands:
                    self.term.show(Text(f"Stopping after {self.hand_no} hand"
                                        f"{'s' if self.hand_no > 1 else ''}, as asked."))
                    break
                answer = self.term.ask("Press Enter for the next hand (q to quit)> ")
                if answer.strip().lower() in ("q", "quit", "exit"):
                    raise Quit()
                self.next_hand()
        except Quit:
            self.term.show(Text("Goodbye."))
        self.save(final=True)
        return self.state

    def save(self, final: bool = False) -> None:
        if self.save_path is not None:
            self.write_record()
            if final:
                self.term.show(Text(f"Game record saved to {self.save_path}"))

    def play_hand(self) -> None:
        state = self.state
        self.term.show(Text(f"\nHand {self.hand_no}: {self.names[state.dealer]} deals.",
                            style="bold"))
        self.tricks_shown = len(state.tricks)
        while not state.is_terminal:
            seat = state.turn
            phase = state.phase
            if seat == self.person:
                self.person_turn()
            else:
                self.bot_turn(seat)
            if phase == Phase.EXCHANGE and state.phase != Phase.EXCHANGE and state.turn >= 0:
                self.term.show(Text(f"{self.names[state.turn]} leads."))
            if len(state.tricks) > self.tricks_shown:
                self.show_tricks_won()
        self.term.show(result_text(state, self.person))
        if "reveal" in self.aids:
            self.term.show(reveal_panel(state, self.person))

    def show_tricks_won(self) -> None:
        """Show each trick finished since the last shown (one after a card, all of the rest
        after a claim that stood), each once."""
        view = seat_view(self.state, self.person)
        for i in range(min(self.tricks_shown, len(view.tricks)), len(view.tricks)):
            self.term.show(trick_line(view, self.person, i))
        self.tricks_shown = len(view.tricks)

    def apply(self, seat: int, action: int) -> None:
        state = self.state
        self.recorder.apply(action)
        n = self.players
        if is_discard(action, n) and seat != self.person:
            if state.phase != Phase.EXCHANGE or state.turn != seat:  # the others' are hidden
                self.term.show(Text(f"{self.names[seat]} takes the kitty and discards "
                                    f"{state.rules.kitty_size} cards."))
            return
        self.term.show(action_line(seat_label(seat, self.person, n), action, self.rules.jokers,
                                   n))
        if action < A.DISCARD_BASE and state.phase != Phase.AUCTION \
                and state.contract is not None:
            self.term.show(contract_line(seat_view(state, self.person), self.person))

    def bot_turn(self, seat: int) -> None:
        self.apply(seat, self.bot_action(seat))

    # ------------------------------------------------------------------ the person's turn
    def prompt(self) -> str:
        state = self.state
        if state.phase == Phase.AUCTION:
            return "Your call> "
        if state.phase == Phase.EXCHANGE:
            n = state.discards_left
            return f"Discard {n} card{'s' if n > 1 else ''}> "
        return "Your lead> " if not state.trick else "Your play> "

    def show_table(self) -> None:
        view = seat_view(self.state, self.person)
        self.term.show(table_view(view, self.person, self.hand_no))
        items = menu(self.state)
        line = Text()
        for i, (label, actions) in enumerate(items, 1):
            line.append(f"{i}:", style="dim")
            line.append_text(choice_text(actions[0], self.rules.jokers, self.players)
                             if len(actions) == 1
                             else card_text(decode(actions[0], self.players)[1],
                                            self.rules.jokers))
            line.append("  ")
        self.term.show(line)

    def person_turn(self) -> None:
        state = self.state
        self.show_table()
        self.show_aids()
        completions = self.completions()
        while True:
            text = self.term.ask(self.prompt(), completions)
            try:
                entry = parse_entry(text, state)
            except EntryError as err:
                self.term.show(Text(str(err), style="yellow"))
                continue
            if isinstance(entry, Command):
                self.command(entry)
                if state.is_terminal or state.turn != self.person:
                    return  # a claim that stood finished the hand
                continue
            if isinstance(entry, NeedSuit):
                entry = self.ask_joker_suit(entry.card)
                if entry is None:
                    continue
            if self.apply_entry(entry):
                return

    def apply_entry(self, actions: list[int]) -> bool:
        """Apply the person's actions in turn; False (nothing applied) when the first is
        illegal.  Several discards may come at once; the rest stop at the first illegal one."""
        state = self.state
        for i, action in enumerate(actions):
            if state.turn != self.person:
                break
            if not state.is_legal(action):
                self.term.show(Text(f"Not allowed: {explain_illegal(state, action)}.",
                                    style="bold yellow"))
                return i > 0
            self.apply(self.person, action)
        return True

    def ask_joker_suit(self, c: int) -> list[int] | None:
        state = self.state
        table = A.action_table(self.players)
        allowed = [s for s in range(4) if state.is_legal(table.joker_lead_action(c, s))]
        if not allowed:
            self.term.show(Text(f"Not allowed: {explain_illegal(state, table.play_base + c)}.",
                                style="bold yellow"))
            return None
        names = ", ".join(f"{SUITS[s]} ({SUIT_NAMES[s]})" for s in allowed)
        while True:
            text = self.term.ask(f"The {card_name(c, self.rules.jokers)} names which suit? "
                                 f"{names}> ", [SUITS[s] for s in allowed])
            try:
                return [table.joker_lead_action(c, parse_suit(text))]
            except EntryError as err:
                self.term.show(Text(str(err), style="yellow"))

    def completions(self) -> list[str]:
        jokers = self.rules.jokers
        table = A.action_table(self.players)
        names = []
        for a in self.state.legal_actions():
            name = table.to_str(a, jokers)
            names.append(name.split(" ", 1)[1] if " " in name and name[0] in "pd"
                         and not name.startswith("pass") else name)
        return names + ["hint", "estimate", "counter", "analyse", "aid", "claim", "help", "quit"]

    # ------------------------------------------------------------------ commands and aids
    def command(self, cmd: Command) -> None:
        if cmd.name == "help":
            self.term.show(Text(HELP))
        elif cmd.name == "quit":
            raise Quit()
        elif cmd.name == "table":
            self.show_table()
        elif cmd.name == "aid":
            self.toggle_aid(cmd.arg)
        elif cmd.name == "claim":
            self.claim_tricks()
        elif cmd.name in AIDS:
            if cmd.name not in self.aids:
                self.term.show(Text(f"The {cmd.name} aid is off; turn it on with "
                                    f"'aid {cmd.name} on'.", style="yellow"))
            else:
                self.show_aid(cmd.name, cmd.arg, asked=True)

    def claim_tricks(self) -> None:
        """The ``claim`` command: judged with every hand in view (docs/rules.md §5.11)."""
        try:
            stood = self.claim()
        except ClaimError as err:
            self.term.show(Text(f"No claim now: {err}.", style="yellow"))
            return
        if not stood:
            self.term.show(Text("Your claim does not stand: the other side can take a trick "
                                "(or, for a nullo claim, make you take one). Play on.",
                                style="bold yellow"))
            return
        self.term.show(Text("Your claim stands: the remaining tricks are played out for you.",
                            style="bold green"))
        self.show_tricks_won()

    def toggle_aid(self, arg: str) -> None:
        words = arg.lower().split()
        if len(words) == 2 and words[0] in AIDS and words[1] in ("on", "off"):
            if words[1] == "on":
                self.aids.add(words[0])
            else:
                self.aids.discard(words[0])
        elif words:
            self.term.show(Text(f"usage: aid NAME on|off, with NAME one of {', '.join(AIDS)}",
                                style="yellow"))
            return
        self.term.show(Text("Aids: " + ", ".join(f"{a} {'on' if a in self.aids else 'off'}"
                                                   for a in AIDS)))

    def show_aids(self) -> None:
        for name in ("counter", "hint", "estimate"):
            if name in self.aids:
                self.show_aid(name, "", asked=False)

    def show_aid(self, name: str, arg: str, asked: bool) -> None:
        state = self.state
        view = seat_view(state, self.person)
        jokers = self.rules.jokers
        if name == "counter":
            if view.phase == Phase.PLAY or asked:
                self.term.show(counter_table(view, self.person))
            return
        if name == "reveal":
            self.term.show(Text("The hands are shown after the hand.", style="yellow"))
            return
        if self.helper is None:
            self.term.show(Text("No bot is set up for this aid in this game.", style="yellow"))
            return
        try:
            if name == "hint":
                text = Text(f"Hint ({self.helper.hint_bot.name}): ", style="cyan")
                text.append_text(action_text(self.helper.hint(state, view), jokers,
                                             self.players))
                self.term.show(text)
            elif name == "estimate":
                self.term.show(estimates_table(self.helper.estimates(state, view), jokers,
                                               self.players))
            elif name == "analyse":
                self.analyse(arg)
        except AidUnavailable as err:  # its bot does not play this table size
            self.term.show(Text(f"The {name} aid is not available in this game: {err}",
                                style="yellow"))

    def analyse(self, arg: str) -> None:
        state = self.state
        if state.phase != Phase.AUCTION:
            self.term.show(Text("Bids are analysed during the auction.", style="yellow"))
            return
        try:
            bid = parse_call(arg) if arg.strip() else None
        except EntryError as err:
            self.term.show(Text(str(err), style="yellow"))
            return
        if bid is None or bid in (A.PASS, A.MISDEAL):
            self.term.show(Text("usage: analyse BID, for example 'analyse 7H'", style="yellow"))
            return
        if not state.is_legal(bid):
            self.term.show(Text(f"Not now: {explain_illegal(state, bid)}.", style="yellow"))
            return
        try:
            result = self.helper.analyse(state, seat_view(state, self.person), bid)
        except ValueError as err:
            self.term.show(Text(str(err), style="yellow"))
            return
        self.term.show(analysis_text(result, self.person, self.rules.jokers, self.players))

    def announce_winner(self) -> None:
        self.term.show(Panel(Text(winner_text(self.state, self.person), style="bold")))


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def winner_text(state: State, person: int) -> str:
    """``Game over: N/S win, 520 to 310. You win.`` (three players: every score, in order)."""
    s, n = state.scores, state.rules.players
    sides = side_names(n)
    if state.winner == DRAW:
        if n == 3:
            return "The game is drawn: " + ", ".join(f"{sides[i]} {p}" for i, p in enumerate(s)) + "."
        return f"The game is drawn, {s[0]} to {s[1]}."
    w = state.winner
    you = "You win" if w == side_of(n, person) else "You lose"
    if n == 3:
        others = ", ".join(f"{sides[i]} {s[i]}" for i in range(3) if i != w)
        return f"Game over: {sides[w]} wins with {s[w]} ({others}). {you}."  # type: ignore[index]
    return f"Game over: {sides[w]} win, {s[w]} to {s[1 - w]}. {you}."  # type: ignore[index]
