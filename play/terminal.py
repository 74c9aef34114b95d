"""fh-play: play Five Hundred in a terminal against the bots; fh-replay: step through a record.

A person takes one seat; bots (any name :func:`agents.registry.make_bot` knows) take the others,
under any preset or rules file.  The screen shows the person's hand sorted and coloured by suit,
the auction, the trick in progress, tricks won and the scores; calls, discards and plays are
typed by name (``7H``, ``pass``, ``QS``, ``JK H``) or by number from the menu, with tab
completion where the terminal has readline.  An illegal entry is refused with the reason,
worked out from the rules (``you must follow hearts; J♦ is a heart this hand``).  Learning aids
(:mod:`play.aids`) can be switched on with ``--aids`` or, during the game, ``aid NAME on``.

The game loop (:class:`Game`) talks to the person only through a :class:`Terminal` (a rich
console and a ``read(prompt)`` callable), so tests drive it with a scripted input stream; the
rendering functions build rich renderables from a :class:`fh_env.SeatView`, so the screen
shows only what the person's seat may know.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from fh_env import actions as A
from fh_env.cards import (JOKER, JOKER_BITS, NO_SUIT, NT_STANDARD, SUIT_NAMES, SUIT_SYMBOLS,
                          SUITS, TABLES, card_name, card_strength, cards_of, effective_suit,
                          parse_card, suit_of)
from fh_env.contracts import DRAW
from fh_env.engine import NO_CONTRACT, Phase, State, rule_tables, trick_order
from fh_env.records import Recorder, load_record, replay
from fh_env.rules import Rules
from fh_env.view import SeatView, seat_view

from agents.base import Bot
from agents.evaluate import load_rules

if TYPE_CHECKING:
    from .aids import BidAnalysis, Estimate, Helper

SEAT_NAMES = ("North", "East", "South", "West")
TEAM_NAMES = ("N/S", "E/W")
SUIT_STYLES = ("bold", "green", "dark_orange", "red", "bold magenta")  # S C D H, jokers
AIDS = ("hint", "estimate", "counter", "analyse", "reveal")


# ---------------------------------------------------------------------- naming and colour


def card_label(c: int, jokers: int = 1) -> str:
    """``10♥``, ``J♦``, ``JK``: a card name with its suit symbol."""
    if c >= JOKER:
        return card_name(c, jokers)
    name = card_name(c, jokers)
    return name[:-1] + SUIT_SYMBOLS[suit_of(c)]


def card_text(c: int, jokers: int = 1) -> Text:
    return Text(card_label(c, jokers), style=SUIT_STYLES[min(suit_of(c), NO_SUIT)])


def action_label(action: int, jokers: int = 1) -> str:
    """A readable action name: ``7♥``, ``6NT``, ``pass``, ``Q♠``, ``JK (names ♥)``."""
    if A.is_ordinary_bid(action):
        strain = A.bid_strain(action)
        return f"{A.bid_level(action)}{'NT' if strain == A.NT else SUIT_SYMBOLS[strain]}"
    if A.DISCARD_BASE <= action < A.PLAY_BASE:
        return "discard " + card_label(action - A.DISCARD_BASE, jokers)
    if action >= A.JOKER_LEAD_BASE:
        named = (action - A.JOKER_LEAD_BASE) % 4
        return f"{card_label(A.played_card(action), jokers)} (names {SUIT_SYMBOLS[named]})"
    if action >= A.PLAY_BASE:
        return card_label(action - A.PLAY_BASE, jokers)
    return A.action_to_str(action, jokers)


def action_text(action: int, jokers: int = 1) -> Text:
    if action >= A.PLAY_BASE:
        c = A.played_card(action)
        text = card_text(c, jokers)
        if action >= A.JOKER_LEAD_BASE:
            named = (action - A.JOKER_LEAD_BASE) % 4
            text.append(f" (names {SUIT_SYMBOLS[named]})", style=SUIT_STYLES[named])
        return text
    if A.is_ordinary_bid(action) and A.bid_strain(action) != A.NT:
        return Text(action_label(action, jokers), style=SUIT_STYLES[A.bid_strain(action)])
    return Text(action_label(action, jokers))


def suit_groups(hand: int, context: int) -> list[tuple[int, list[int]]]:
    """The cards of a hand grouped by the suit they belong to in ``context``, high card first.

    Side suits come in S C D H order, then the trump suit (bowers and jokers included); without
    trumps the jokers come last, apart.
    """
    groups: dict[int, list[int]] = {}
    for c in cards_of(hand):
        groups.setdefault(effective_suit(c, context), []).append(c)
    order = [s for s in range(4) if s != context] + [context if context < 4 else NO_SUIT]
    out = []
    for suit in order:
        if suit in groups:
            led = suit if suit < 4 else 0
            cards = sorted(groups[suit], key=lambda c: -card_strength(c, context, led))
            out.append((suit, cards))
    return out


def hand_text(hand: int, context: int, jokers: int = 1, mark_trumps: bool = True) -> Text:
    text = Text()
    for i, (suit, cards) in enumerate(suit_groups(hand, context)):
        if i:
            text.append("   ")
        for j, c in enumerate(cards):
            if j:
                text.append(" ")
            text.append_text(card_text(c, jokers))
        if mark_trumps and suit == context and context < 4:
            text.append(" (trumps)", style="dim")
    return text or Text("(no cards)", style="dim")


def seat_label(seat: int, person: int) -> str:
    return SEAT_NAMES[seat] + (" (you)" if seat == person else "")


def team_label(team: int, person: int) -> str:
    return TEAM_NAMES[team] + (" (you)" if person % 2 == team else "")


# ---------------------------------------------------------------------- the table


def trick_text(view: SeatView, leader: int, cards: Sequence[int], led: int,
               person: int) -> Text:
    jokers = view.rules.jokers
    text = Text()
    for i, (seat, c) in enumerate(zip(trick_order(leader, view.sitting_out), cards)):
        if i:
            text.append("  ")
        text.append(SEAT_NAMES[seat] + " ", style="bold" if seat == person else "")
        text.append_text(card_text(c, jokers))
        if i == 0 and c >= JOKER and view.context >= NT_STANDARD and 0 <= led < 4:
            text.append(f" (names {SUIT_SYMBOLS[led]})", style=SUIT_STYLES[led])
    return text


def auction_table(view: SeatView, person: int) -> Table:
    """The calls so far, one column per seat from the dealer's left."""
    jokers = view.rules.jokers
    order = [(view.dealer + k) % 4 for k in range(1, 5)]
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2, 0, 0))
    for seat in order:
        table.add_column(seat_label(seat, person), style="bold" if seat == person else "")
    rows: list[list[Text]] = []
    column = 4
    for seat, action in view.calls:
        index = order.index(seat)
        if index <= column:
            rows.append([Text("") for _ in order])
        rows[-1][index] = action_text(action, jokers)
        column = index
    for row in rows:
        table.add_row(*row)
    if not rows:
        table.add_row(*[Text("") for _ in order])
    return table


def choice_text(action: int, jokers: int = 1) -> Text:
    """An action as the menu and the estimates show it: a discard by its card alone."""
    if A.DISCARD_BASE <= action < A.PLAY_BASE:
        return card_text(action - A.DISCARD_BASE, jokers)
    return action_text(action, jokers)


def action_line(who: str, action: int, jokers: int = 1) -> Text:
    """``West calls 7♥``, ``North passes``, ``East plays K♣``, ``South discards 4♦``."""
    if action == A.PASS:
        return Text(f"{who} passes")
    if A.DISCARD_BASE <= action < A.PLAY_BASE:
        verb = "discards"
    else:
        verb = "plays" if action >= A.PLAY_BASE else "calls"
    text = Text(f"{who} {verb} ")
    text.append_text(choice_text(action, jokers))
    return text


def trick_line(view: SeatView, person: int) -> Text:
    """The last trick played and who won it."""
    leader, cards, winner, led = view.tricks[-1]
    text = Text(f"Trick {len(view.tricks)}: ")
    text.append_text(trick_text(view, leader, cards, led, person))
    text.append(f"  → {seat_label(winner, person)} wins it", style="bold")
    return text


def contract_line(view: SeatView, person: int) -> Text:
    jokers = view.rules.jokers
    if view.contract is None:
        if view.high_bid >= 0:
            return Text(f"High bid {action_label(view.high_bid, jokers)} by "
                        f"{seat_label(view.high_bidder, person)}")
        return Text("No bid yet")
    if view.contract == NO_CONTRACT:
        return Text("No contract: every team scores 10 a trick")
    text = Text(f"Contract {action_label(view.contract, jokers)} by "
                f"{seat_label(view.declarer, person)}")
    if view.sitting_out >= 0:
        text.append(f"; {SEAT_NAMES[view.sitting_out]} sits out")
    return text


def table_view(view: SeatView, person: int, hand_no: int,
               shown: Mapping[int, int] | None = None) -> Panel:
    """The whole table as seat ``view.seat`` sees it; ``shown`` adds hands to show (a replay,
    or the person's own cards when ``view`` is another seat's)."""
    jokers = view.rules.jokers
    ctx = view.context if view.contract is not None else NT_STANDARD
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    score = Text()
    for team in (0, 1):
        if team:
            score.append("   ")
        score.append(f"{team_label(team, person)} {view.scores[team]}")
    grid.add_row("Scores", score)
    grid.add_row("Auction", auction_table(view, person))
    grid.add_row("", contract_line(view, person))
    if view.phase >= Phase.PLAY or view.tricks:
        won = view.tricks_won
        tricks = Text(f"{TEAM_NAMES[0]} {won[0] + won[2]}   {TEAM_NAMES[1]} {won[1] + won[3]}"
                      f"   ({len(view.tricks)} of 10 played)")
        grid.add_row("Tricks", tricks)
        if view.tricks:
            leader, cards, winner, led = view.tricks[-1]
            last = trick_text(view, leader, cards, led, person)
            last.append(f"  → {SEAT_NAMES[winner]}", style="dim")
            grid.add_row("Last trick", last)
        if view.phase == Phase.PLAY:
            current = trick_text(view, view.leader, view.trick, view.led, person)
            grid.add_row(f"Trick {len(view.tricks) + 1}",
                         current if view.trick else Text("(nothing led yet)", style="dim"))
    for seat, picked, _ in view.exchanges:
        if view.phase == Phase.EXCHANGE and seat == view.seat == view.turn:
            grid.add_row("Kitty", hand_text(picked, ctx, jokers))
    if view.exposed:
        grid.add_row(f"{SEAT_NAMES[view.declarer]} (open)", hand_text(view.exposed, ctx, jokers))
    hands = dict(shown or {})
    if view.seat == person:
        hands.setdefault(person, view.hand)
    for seat in sorted(hands, key=lambda s: (s != person, s)):
        grid.add_row(seat_label(seat, person), hand_text(hands[seat], ctx, jokers))
    dealer = f"dealer {SEAT_NAMES[view.dealer]}"
    return Panel(grid, title=f"Hand {hand_no} · {dealer}", title_align="left", expand=False)


def reveal_panel(state: State, person: int) -> Panel:
    """Every hand as dealt, the kitty and each exchange: shown after a hand."""
    jokers = state.rules.jokers
    ctx = state.context if state.contract is not None else NT_STANDARD
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    hands, kitty = state.dealt
    for seat in range(4):
        grid.add_row(seat_label(seat, person), hand_text(hands[seat], ctx, jokers))
    grid.add_row("Kitty", hand_text(kitty, ctx, jokers))
    for seat, picked, discarded in state.exchanges:
        grid.add_row(f"{SEAT_NAMES[seat]} discarded", hand_text(discarded, ctx, jokers))
    return Panel(grid, title="All hands as dealt", title_align="left", expand=False)


def result_text(state: State, person: int) -> Text:
    r = state.result
    jokers = state.rules.jokers
    if r is None:
        return Text("")
    if r.contract is None:
        reason = {"all_pass": "everybody passed", "inkle": "the auction ended on an inkle",
                  "misdeal": "a misdeal was called"}.get(r.thrown_in or "", r.thrown_in or "")
        return Text(f"The hand is thrown in: {reason}; no score.")
    if r.contract == NO_CONTRACT:
        text = Text("No-contract play: ")
    else:
        team = r.declarer % 2  # type: ignore[operator]
        verdict = "made it" if r.made else "were set"
        text = Text(f"{seat_label(r.declarer, person)}'s {action_label(r.contract, jokers)}: "  # type: ignore[arg-type]
                    f"{TEAM_NAMES[team]} took {r.tricks[team]} tricks and {verdict}. ",
                    style="bold green" if (team == person % 2) == bool(r.made) else "bold red")
    text.append(f"Points {TEAM_NAMES[0]} {r.hand_points[0]:+d}, {TEAM_NAMES[1]} "
                f"{r.hand_points[1]:+d}; scores {TEAM_NAMES[0]} {r.game_points[0]}, "
                f"{TEAM_NAMES[1]} {r.game_points[1]}.")
    return text


# ---------------------------------------------------------------------- the aids, shown


def _pm(mean: float, se: float, signed: bool = True) -> str:
    value = f"{mean:+.0f}" if signed else f"{mean:.0f}"
    return value + (f" ± {se:.0f}" if se == se else "")  # nan: a single world


def estimates_table(estimates: Sequence["Estimate"], jokers: int = 1) -> Group:
    """Expected hand points (own side minus the other) of every legal action, best first."""
    n = estimates[0].n if estimates else 0
    items = []
    for i, e in enumerate(estimates):
        item = choice_text(e.action, jokers)
        item.append(f" {_pm(e.mean, e.se)}", style="bold" if i == 0 else "")
        items.append(item)
    title = Text(f"Expected hand points, your side minus theirs (mc, {n} deals each):",
                 style="cyan")
    return Group(title, Columns(items, padding=(0, 3)))


def counter_table(view: SeatView, person: int) -> Table:
    """The card counter: cards played by suit, your own, how many are still out, voids."""
    from .aids import card_count

    jokers = view.rules.jokers
    ctx = view.context if view.contract is not None else NT_STANDARD
    table = Table(title="Card counter", title_justify="left", box=None, padding=(0, 2, 0, 0))
    for name in ("suit", "played", "yours", "out", "shown void"):
        table.add_column(name)
    for row in card_count(view):
        label = "jokers" if row.suit == NO_SUIT else SUIT_SYMBOLS[row.suit] + (
            " trumps" if row.suit == ctx else "")
        played = Text(" ").join(card_text(c, jokers) for c in row.played)
        table.add_row(Text(label, style=SUIT_STYLES[row.suit]), played,
                      hand_text(row.held, ctx, jokers, False) if row.held else Text("-"),
                      str(row.out), " ".join(SEAT_NAMES[s] for s in row.void) or "-")
    return table


def analysis_text(result: "BidAnalysis", person: int, jokers: int = 1) -> Text:
    team = TEAM_NAMES[person % 2]
    return Text(f"{action_label(result.bid, jokers)} as your contract, in {result.n} simulated "
                f"deals: made {result.made} times ({result.p_make:.0%} ± {result.se_p:.0%}); "
                f"expected points for {team} {_pm(result.points, result.se)} "
                f"(your side minus theirs {result.net:+.0f}).", style="cyan")


# ---------------------------------------------------------------------- why an entry is illegal


def _suit_word(suit: int, plural: bool = True) -> str:
    return SUIT_NAMES[suit] if plural else SUIT_NAMES[suit][:-1]


def _bower_notes(cards: Iterable[int], context: int, jokers: int) -> list[str]:
    """``J♦ is a heart this hand`` for each card whose suit the contract changes."""
    notes = []
    for c in cards:
        suit = effective_suit(c, context)
        if c < JOKER and suit != suit_of(c):
            notes.append(f"{card_label(c, jokers)} is a {_suit_word(suit, False)} this hand")
        elif c >= JOKER and suit < 4:
            notes.append(f"{card_label(c, jokers)} is a {_suit_word(suit, False)} (a trump) "
                         "this hand")
    return notes


def explain_illegal(state: State, action: int) -> str:
    """Why ``action`` is not legal for the seat on turn, in words (the engine decides legality;
    this only explains it from the rules)."""
    jokers = state.rules.jokers
    if state.is_legal(action):
        return f"{action_label(action, jokers)} is legal"
    if state.is_terminal:
        return "the hand is over"
    if state.phase == Phase.AUCTION:
        if action >= A.DISCARD_BASE:
            return "this is the auction: bid or pass (for example 7H, 6NT or pass)"
        return _explain_call(state, action)
    if state.phase == Phase.EXCHANGE:
        if not A.DISCARD_BASE <= action < A.PLAY_BASE:
            return (f"you are exchanging with the kitty: discard {state.discards_left} more "
                    f"card{'s' if state.discards_left > 1 else ''} (type a card, such as 4S)")
        return f"you do not hold {card_label(action - A.DISCARD_BASE, jokers)}"
    if action < A.PLAY_BASE:
        return "this is the play: play a card (type one, such as QS)"
    return _explain_play(state, action)


def _explain_call(state: State, action: int) -> str:
    r, seat, jokers = state.rules, state.turn, state.rules.jokers
    name = action_label(action, jokers)
    high = state.high_bid
    if action == A.PASS:
        return "the dealer may not pass when the other three have passed (stick_the_dealer)"
    if action == A.MISDEAL:
        if not r.misdeal:
            return "a misdeal may not be called under these rules (misdeal is off)"
        if state.position >= 4:
            return "a misdeal may only be called in the first round of the auction"
        return "a misdeal needs a hand with no ace, no J, Q or K and no joker"
    if high >= 0 and state.high_bidder == seat:
        return f"you hold the high bid ({action_label(high, jokers)}) and may not change it"
    if A.is_ordinary_bid(action):
        level, strain = A.bid_level(action), A.bid_strain(action)
        if strain == A.NT and r.notrump_ranking == "off":
            return "notrump bids are not allowed under these rules (notrump_ranking=off)"
        if level < r.min_bid_level:
            if r.inkle and level == 6:
                return ("only the first two callers of the auction may bid at level 6 "
                        "(an inkle)")
            return f"bids start at level {r.min_bid_level} under these rules"
        if action == A.bid_action(6, A.NT) and r.six_nt_shows_joker \
                and not state.hands[seat] & JOKER_BITS:
            return "a 6NT bid shows a joker (six_nt_shows_joker), and you hold none"
    else:
        option = {A.NULLO: r.nullo, A.OPEN_NULLO: r.open_nullo,
                  A.DOUBLE_NULLO: r.double_nullo}[action]
        kind = {A.NULLO: "nullo", A.OPEN_NULLO: "open_nullo", A.DOUBLE_NULLO: "double_nullo"}
        if option == "off":
            return f"{name} is not allowed under these rules ({kind[action]}=off)"
        if option.startswith("after") and option[-1].isdigit() \
                and state.max_level < int(option[-1]):
            return (f"{name} is only allowed once a bid of level {option[-1]} or higher has "
                    f"been made ({kind[action]}={option})")
        if option == "after_partner_nullo" and not state.nullo_bidders >> ((seat + 2) % 4) & 1:
            return ("double nullo is only allowed once your partner has bid nullo or open "
                    "nullo in this auction")
    if high >= 0 and not rule_tables(r).bidding.outranks(action, high):
        return f"{name} does not outrank the current bid, {action_label(high, jokers)}"
    return f"{name} is not a legal call now; legal: {_legal_list(state)}"


def _explain_play(state: State, action: int) -> str:
    r, seat, jokers = state.rules, state.turn, state.rules.jokers
    hand, ctx = state.hands[seat], state.context
    c = A.played_card(action)
    label = card_label(c, jokers)
    if not hand >> c & 1:
        return f"you do not hold {label}"
    naming = action >= A.JOKER_LEAD_BASE
    if state.trick:
        if naming:
            return f"only a joker that leads names a suit: play it as plain {card_name(c, jokers)}"
        led = state.led
        follow = hand & TABLES.suit_mask[ctx][led]
        if follow and not follow >> c & 1:
            if c >= JOKER and ctx >= NT_STANDARD:
                when = ("when you cannot follow the suit led" if r.joker_follow == "void_only"
                        else "when you cannot follow, or in the first trick of the suit led")
                return (f"you can follow {_suit_word(led)}, and the joker may be played only "
                        f"{when} (joker_follow={r.joker_follow})")
            notes = _bower_notes([c] + list(cards_of(follow)), ctx, jokers)
            held = " ".join(card_label(x, jokers) for x in cards_of(follow))
            text = f"you must follow {_suit_word(led)} (you hold {held})"
            return text + ("; " + "; ".join(notes) if notes else "")
        if not follow and hand & JOKER_BITS and r.nullo_must_play_joker \
                and state.contract in A.NULLO_TYPES:
            return (f"you cannot follow {_suit_word(led)} and hold a joker: in a nullo "
                    "contract you must play it (nullo_must_play_joker)")
    else:
        if naming and ctx < NT_STANDARD:
            return (f"with {_suit_word(ctx)} trumps the joker is a trump: lead it as plain "
                    f"{card_name(c, jokers)} without naming a suit")
        if naming or (c >= JOKER and ctx >= NT_STANDARD):
            allowed = [s for s in range(4) if state.is_legal(A.joker_lead_action(c, s))]
            if not allowed:
                if r.joker_lead == "last_card":
                    return ("a joker may be led only when you hold nothing but jokers "
                            "(joker_lead=last_card)")
                return ("no suit may be named for a joker lead now "
                        f"(joker_lead={r.joker_lead}), so a joker may be led only when you "
                        "hold nothing but jokers")
            if not naming:
                return (f"a joker led without trumps names a suit: type {card_name(c, jokers)} "
                        f"followed by one of {' '.join(SUITS[s] for s in allowed)}")
            named = (action - A.JOKER_LEAD_BASE) % 4
            why = {"not_led": f"{_suit_word(named)} has already been led this hand",
                   "not_shown_void": f"you have shown void in {_suit_word(named)}"}
            return (f"the joker may not name {_suit_word(named)}: "
                    f"{why.get(r.joker_lead, 'not allowed')} (joker_lead={r.joker_lead}); "
                    f"it may name {', '.join(_suit_word(s) for s in allowed)}")
    return f"{label} is not a legal play now; legal: {_legal_list(state)}"


def _legal_list(state: State) -> str:
    return ", ".join(action_label(a, state.rules.jokers) for a in state.legal_actions())


# ---------------------------------------------------------------------- reading an entry


class EntryError(ValueError):
    """An entry that is not a card, call or command at all."""


@dataclass(frozen=True)
class Command:
    name: str
    arg: str = ""


@dataclass(frozen=True)
class NeedSuit:
    """A joker led without trumps, typed without the suit it names."""

    card: int


COMMANDS = {
    "help": "help", "?": "help", "h": "help",
    "hint": "hint", "estimate": "estimate", "est": "estimate", "e": "estimate",
    "counter": "counter", "count": "counter", "c": "counter",
    "analyse": "analyse", "analyze": "analyse", "a": "analyse",
    "aid": "aid", "aids": "aid", "table": "table", "t": "table",
    "quit": "quit", "q": "quit", "exit": "quit",
}

HELP = """\
Type a call (pass, 7H, 6NT, nullo, open nullo), a card (QS, 10H, JD, JK; JK H leads the joker
naming hearts), several cards at once when discarding (4S 5C 6D), or a number from the menu.
Commands: hint, estimate (e), counter (c), analyse BID (a 7H), aid NAME on|off, aids,
table (t), help (?), quit (q)."""


def menu(state: State) -> list[tuple[str, list[int]]]:
    """The person's choices: (label, actions); a joker lead naming suits is one entry."""
    jokers = state.rules.jokers
    out: list[tuple[str, list[int]]] = []
    leads: dict[int, list[int]] = {}
    legal = state.legal_actions()
    if state.phase != Phase.AUCTION:  # cards in the order the hand shows them
        ctx = state.context if state.contract is not None else NT_STANDARD
        shown = [c for _, cards in suit_groups(state.hands[state.turn], ctx) for c in cards]
        legal.sort(key=lambda a: shown.index(A.played_card(a) if a >= A.PLAY_BASE
                                             else a - A.DISCARD_BASE))
    for a in legal:
        if a >= A.JOKER_LEAD_BASE:
            c = A.played_card(a)
            if c not in leads:
                leads[c] = []
                out.append((card_label(c, jokers), leads[c]))
            leads[c].append(a)
        else:
            out.append((action_label(a, jokers), [a]))
    return out


_SUIT_WORDS = {w: s for s in range(4) for w in (SUITS[s].lower(), SUIT_NAMES[s],
                                                   SUIT_NAMES[s][:-1], SUIT_SYMBOLS[s])}
_SUIT_WORDS.update({"♤": 0, "♧": 1, "♢": 2, "♡": 3})


def parse_suit(text: str) -> int:
    """A suit typed as a letter, a name or a symbol: ``h``, ``hearts``, ``♥``."""
    suit = _SUIT_WORDS.get(text.strip().lower())
    if suit is None:
        raise EntryError(f"{text.strip()!r} is not a suit: type S, C, D or H")
    return suit


def parse_entry(text: str, state: State) -> list[int] | Command | NeedSuit:
    """What the person typed: actions to apply, a command, or a joker lead needing its suit.

    Legality is not checked here (the engine does that); only whether the text names anything.
    """
    words = text.replace(":", " ").split()
    if not words:
        raise EntryError("type a call or card, a number from the menu, or help")
    head = words[0].lower()
    if head in COMMANDS:
        return Command(COMMANDS[head], " ".join(words[1:]))
    if text.strip().isdigit():
        items = menu(state)
        n = int(text)
        if not 1 <= n <= len(items):
            raise EntryError(f"choose a number from 1 to {len(items)}")
        actions = items[n - 1][1]
        if len(actions) > 1:
            return NeedSuit(A.played_card(actions[0]))
        return actions
    if state.phase == Phase.AUCTION:
        try:
            return [_parse_call(text)]
        except EntryError:
            if len(words) != 1 or _card_or_none(words[0]) is None:
                raise
            return [A.PLAY_BASE + _parse_card(words[0])]  # refused: "this is the auction"
    try:
        return _parse_card_entry(words, head, state)
    except EntryError:
        try:
            return [_parse_call(text)]  # a call after the auction: refused with the reason
        except EntryError:
            pass
        raise


def _parse_card_entry(words: list[str], head: str,
                      state: State) -> list[int] | NeedSuit:
    if head in ("play", "discard", "p", "d"):
        words = words[1:]
    if not words:
        raise EntryError("name a card after it, such as QS")
    if state.phase == Phase.EXCHANGE:
        return [A.DISCARD_BASE + _parse_card(w) for w in words]
    c = _parse_card(words[0])
    if len(words) > 2:
        raise EntryError("play one card at a time (a joker lead may add a suit: JK H)")
    if len(words) == 2:
        if c < JOKER:
            raise EntryError(f"only a joker names a suit; play {words[0]} alone")
        return [A.joker_lead_action(c, parse_suit(words[1]))]
    if c >= JOKER and not state.trick and state.context >= NT_STANDARD:
        return NeedSuit(c)
    return [A.PLAY_BASE + c]


def _card_or_none(word: str) -> int | None:
    try:
        return parse_card(word)
    except ValueError:
        return None


def _parse_card(word: str) -> int:
    try:
        return parse_card(word)
    except ValueError:
        raise EntryError(f"{word!r} is not a card: type a rank and a suit, such as QS, 10H, "
                         "JD, or JK for the joker") from None


def _parse_call(text: str) -> int:
    words = text.lower().split()
    if words in (["p"], ["pass"]):
        return A.PASS
    for s, sym in enumerate(SUIT_SYMBOLS):
        text = text.replace(sym, SUITS[s])
    try:
        return A.str_to_action(text)
    except ValueError:
        raise EntryError(f"{text.strip()!r} is not a call: type pass, a bid such as 7H or "
                         "6NT, nullo, open nullo, or a number from the menu") from None


# ---------------------------------------------------------------------- the terminal


class Quit(Exception):
    """The person asked to stop (quit, end of input, Ctrl-C)."""


class Terminal:
    """Where the game talks to the person: a rich console and a ``read(prompt)`` callable.

    ``read`` raises EOFError when input ends.  :meth:`interactive` builds the real one, with
    tab completion of the names offered at each prompt when readline is available.
    """

    def __init__(self, console: Console, read: Callable[[str], str]) -> None:
        self.console = console
        self.read = read
        self.completions: list[str] = []

    @classmethod
    def interactive(cls, no_color: bool = False) -> "Terminal":
        console = Console(highlight=False, no_color=no_color or None)
        term = cls(console, input)
        try:
            import readline
        except ImportError:  # pragma: no cover - platform without readline
            return term

        def complete(text: str, index: int) -> str | None:
            hits = [c for c in term.completions if c.lower().startswith(text.lower())]
            return hits[index] if index < len(hits) else None

        readline.set_completer(complete)
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
        return term

    def show(self, *things: RenderableType) -> None:
        for thing in things:
            self.console.print(thing)

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str:
        self.completions = list(completions)
        try:
            return self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Quit() from None


def scripted(console: Console, lines: Iterable[str]) -> Callable[[str], str]:
    """A ``read`` that answers prompts from ``lines`` and echoes both to ``console``."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            line = next(it)
        except StopIteration:
            raise EOFError from None
        console.print(Text(prompt + line))
        return line

    return read


# ---------------------------------------------------------------------- the game


@dataclass
class Seat:
    """Who sits in a seat: a bot (with its own seeded generator) or, when ``bot`` is None,
    the person."""

    name: str
    bot: Bot | None = None
    rng: random.Random | None = None


class Game:
    """One game between the person (seat ``person``) and three bots, shown on ``term``."""

    def __init__(self, rules: Rules, person: int, bots: Mapping[int, Bot], term: Terminal,
                 seed: int = 0, aids: Iterable[str] = (), save: str | Path | None = None,
                 hands: int | None = None, helper: "Helper | None" = None,
                 state: State | None = None) -> None:
        """``state`` starts the game from a given deal (``State.from_deal``) instead of the
        seed's first deal."""
        if set(bots) != {0, 1, 2, 3} - {person}:
            raise ValueError(f"bots must fill every seat but the person's ({person})")
        self.rules, self.person, self.term, self.seed = rules, person, term, seed
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
                                 players=[self.seats[s].name for s in range(4)])
        self.hand_no = 1

    @property
    def state(self) -> State:
        return self.recorder.state

    # ------------------------------------------------------------------ running
    def run(self) -> State:
        """Play until the game ends, ``hands`` hands are over, or the person quits."""
        rules, me = self.rules, self.person
        names = {s: f"{SEAT_NAMES[s]} ({self.seats[s].name})" for s in range(4)}
        goal = (f"to {rules.target}" if rules.game_over == "points"
                else f"{rules.hands_to_play} hands")
        self.term.show(
            Text(f"Five Hundred: you are {SEAT_NAMES[me]}, partner {names[(me + 2) % 4]}; "
                 f"opponents {names[(me + 1) % 4]} and {names[(me + 3) % 4]}.", style="bold"),
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
                self.recorder.next_hand()
                self.hand_no += 1
        except Quit:
            self.term.show(Text("Goodbye."))
        self.save(final=True)
        return self.state

    def save(self, final: bool = False) -> None:
        if self.save_path is not None:
            self.recorder.save(self.save_path)
            if final:
                self.term.show(Text(f"Game record saved to {self.save_path}"))

    def play_hand(self) -> None:
        state = self.state
        self.term.show(Text(f"\nHand {self.hand_no}: {SEAT_NAMES[state.dealer]} deals.",
                            style="bold"))
        while not state.is_terminal:
            seat = state.turn
            tricks_before = len(state.tricks)
            phase = state.phase
            if seat == self.person:
                self.person_turn()
            else:
                self.bot_turn(seat)
            if phase == Phase.EXCHANGE and state.phase != Phase.EXCHANGE and state.turn >= 0:
                self.term.show(Text(f"{SEAT_NAMES[state.turn]} leads."))
            if len(state.tricks) > tricks_before:
                self.show_trick_won()
        self.term.show(result_text(state, self.person))
        if "reveal" in self.aids:
            self.term.show(reveal_panel(state, self.person))

    def show_trick_won(self) -> None:
        self.term.show(trick_line(seat_view(self.state, self.person), self.person))

    def apply(self, seat: int, action: int) -> None:
        state = self.state
        self.recorder.apply(action)
        if A.DISCARD_BASE <= action < A.PLAY_BASE and seat != self.person:
            if state.phase != Phase.EXCHANGE or state.turn != seat:  # the others' are hidden
                self.term.show(Text(f"{SEAT_NAMES[seat]} takes the kitty and discards "
                                    f"{state.rules.kitty_size} cards."))
            return
        self.term.show(action_line(seat_label(seat, self.person), action, self.rules.jokers))
        if action < A.DISCARD_BASE and state.phase != Phase.AUCTION \
                and state.contract is not None:
            self.term.show(contract_line(seat_view(state, self.person), self.person))

    def bot_turn(self, seat: int) -> None:
        info = self.seats[seat]
        view = seat_view(self.state, seat)
        action = info.bot.act(view, info.rng)  # type: ignore[union-attr]
        self.apply(seat, action)

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
            line.append_text(choice_text(actions[0], self.rules.jokers) if len(actions) == 1
                             else card_text(A.played_card(actions[0]), self.rules.jokers))
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
        allowed = [s for s in range(4) if state.is_legal(A.joker_lead_action(c, s))]
        if not allowed:
            self.term.show(Text(f"Not allowed: {explain_illegal(state, A.PLAY_BASE + c)}.",
                                style="bold yellow"))
            return None
        names = ", ".join(f"{SUITS[s]} ({SUIT_NAMES[s]})" for s in allowed)
        while True:
            text = self.term.ask(f"The {card_name(c, self.rules.jokers)} names which suit? "
                                 f"{names}> ", [SUITS[s] for s in allowed])
            try:
                return [A.joker_lead_action(c, parse_suit(text))]
            except EntryError as err:
                self.term.show(Text(str(err), style="yellow"))

    def completions(self) -> list[str]:
        jokers = self.rules.jokers
        names = []
        for a in self.state.legal_actions():
            name = A.action_to_str(a, jokers)
            names.append(name.split(" ", 1)[1] if " " in name and name[0] in "pd"
                         and not name.startswith("pass") else name)
        return names + ["hint", "estimate", "counter", "analyse", "aid", "help", "quit"]

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
        elif cmd.name in AIDS:
            if cmd.name not in self.aids:
                self.term.show(Text(f"The {cmd.name} aid is off; turn it on with "
                                    f"'aid {cmd.name} on'.", style="yellow"))
            else:
                self.show_aid(cmd.name, cmd.arg, asked=True)

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
        if name == "hint":
            text = Text(f"Hint ({self.helper.hint_bot.name}): ", style="cyan")
            text.append_text(action_text(self.helper.hint(state, view), jokers))
            self.term.show(text)
        elif name == "estimate":
            self.term.show(estimates_table(self.helper.estimates(state, view), jokers))
        elif name == "analyse":
            self.analyse(arg)

    def analyse(self, arg: str) -> None:
        state = self.state
        if state.phase != Phase.AUCTION:
            self.term.show(Text("Bids are analysed during the auction.", style="yellow"))
            return
        try:
            bid = _parse_call(arg) if arg.strip() else None
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
        self.term.show(analysis_text(result, self.person, self.rules.jokers))

    def announce_winner(self) -> None:
        state = self.state
        s = state.scores
        if state.winner == DRAW:
            text = f"The game is drawn, {s[0]} to {s[1]}."
        else:
            w = state.winner
            you = "You win" if w == self.person % 2 else "You lose"
            text = f"Game over: {TEAM_NAMES[w]} win, {s[w]} to {s[1 - w]}. {you}."  # type: ignore[index]
        self.term.show(Panel(Text(text, style="bold")))


# ---------------------------------------------------------------------- command lines


def parse_seat(text: str) -> int:
    word = text.strip().lower()
    for seat, name in enumerate(SEAT_NAMES):
        if word in (str(seat), name.lower(), name[0].lower()):
            return seat
    raise argparse.ArgumentTypeError(f"{text!r} is not a seat: 0-3 or north, east, south, west")


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
        prog="fh-play", description="Play Five Hundred in the terminal against bots.")
    p.add_argument("--rules", default="australian-no-nullo",
                   help="a preset (%(default)s by default) or a rules TOML file")
    p.add_argument("--seat", type=parse_seat, default=2,
                   help="your seat: north, east, south (default) or west, or 0-3")
    p.add_argument("--opponents", default="mc",
                   help="bot for both opponents, or two names 'LEFT,RIGHT' (default: mc)")
    p.add_argument("--partner", default="mc", help="bot for your partner (default: mc)")
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
    return p


def build_bots(args: argparse.Namespace, person: int) -> dict[int, Bot]:
    from agents.registry import make_bot

    opponents = [w.strip() for w in args.opponents.split(",") if w.strip()]
    if len(opponents) == 1:
        opponents *= 2
    if len(opponents) != 2:
        raise ValueError("--opponents takes one bot name or two, 'LEFT,RIGHT'")
    names = {(person + 1) % 4: opponents[0], (person + 3) % 4: opponents[1],
             (person + 2) % 4: args.partner}
    return {seat: make_bot(name) for seat, name in names.items()}


def main(argv: Sequence[str] | None = None, term: Terminal | None = None) -> int:
    args = play_parser().parse_args(argv)
    try:
        rules, _ = load_rules(args.rules)
        bots = build_bots(args, args.seat)
    except (ValueError, FileNotFoundError) as err:
        print(f"fh-play: {err}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    term = term or Terminal.interactive(args.no_color)
    from .aids import Helper  # aids may be switched on during the game, so always ready

    helper = Helper(rules, hint_bot=args.hint_bot, samples=args.samples, seed=seed)
    game = Game(rules, args.seat, bots, term, seed=seed, aids=args.aids, save=args.save,
                hands=args.hands, helper=helper)
    game.run()
    return 0


# ---------------------------------------------------------------------- fh-replay


def replay_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fh-replay",
                                description="Step through a Five Hundred game record.")
    p.add_argument("file", help="a record written by fh-play --save or fh-eval --save")
    p.add_argument("--hand", type=int, default=None, help="show only this hand (1, 2, ...)")
    p.add_argument("--seat", type=parse_seat, default=None,
                   help="show the game as this seat saw it (default: every hand open)")
    p.add_argument("--no-pause", action="store_true",
                   help="print every step without waiting for Enter")
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")
    return p


def replay_main(argv: Sequence[str] | None = None, term: Terminal | None = None) -> int:
    args = replay_parser().parse_args(argv)
    try:
        record = load_record(args.file)
    except (ValueError, FileNotFoundError) as err:
        print(f"fh-replay: {err}", file=sys.stderr)
        return 2
    term = term or Terminal.interactive(args.no_color)
    pause = not args.no_pause and (term.read is not input or sys.stdin.isatty())
    players = record.get("players") or ["?"] * 4
    term.show(Text(f"{len(record['hands'])} hands. Enter steps, n skips to the next hand, "
                   "q quits.", style="bold"))
    person = args.seat if args.seat is not None else -1
    skip_to, tricks = -1, 0
    try:
        for step in replay(record):
            hand_no = step.hand + 1
            if args.hand is not None and hand_no != args.hand:
                continue
            state = step.state
            if step.action is None:
                seats = record["hands"][step.hand].get("players", players)
                term.show(Text(f"\nHand {hand_no}: {SEAT_NAMES[state.dealer]} deals. "
                               + ", ".join(f"{SEAT_NAMES[s]} {seats[s]}" for s in range(4)),
                               style="bold"))
                tricks = 0
                continue
            view = seat_view(state, person if person >= 0 else step.seat)
            hidden = (person >= 0 and step.seat != person
                      and A.DISCARD_BASE <= step.action < A.PLAY_BASE)
            if not hidden:  # with --seat, the others' discards stay face down
                term.show(action_line(seat_label(step.seat, person), step.action,
                                      state.rules.jokers))
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
        term.show(Text(f"Final scores: {TEAM_NAMES[0]} {final[0]}, {TEAM_NAMES[1]} {final[1]}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
