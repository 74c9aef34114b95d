"""Drawing the game with rich: cards, hands, tricks, the auction, the whole table, results.

Every function here builds a rich renderable (or a plain label) from a :class:`fh_env.SeatView`
or a finished :class:`fh_env.State`, so the screen shows only what the person's seat may know;
nothing here reads input or decides anything.  The game loop (:mod:`play.game`), the replay
(:mod:`play.cli`) and the other front-end modules take their names and colours from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from fh_env import actions as A
from fh_env.cards import (NO_SUIT, is_joker, NT_STANDARD, SUIT_SYMBOLS, card_name, card_strength,
                          cards_of, effective_suit, suit_of)
from fh_env.engine import NO_CONTRACT, Phase, State, side_of, sitting_out_seats, trick_order
from fh_env.view import SeatView

if TYPE_CHECKING:
    from .aids import BidAnalysis, Estimate

SEAT_NAMES = ("North", "East", "South", "West")  # four players
TEAM_NAMES = ("N/S", "E/W")
#: The seats of every table size, clockwise from seat 0, and their short names.
SEATS = {3: ("North", "East", "West"), 4: SEAT_NAMES,
         6: ("North", "North-east", "South-east", "South", "South-west", "North-west")}
SHORT = {3: ("N", "E", "W"), 4: ("N", "E", "S", "W"), 6: ("N", "NE", "SE", "S", "SW", "NW")}
#: The seat the person takes when no --seat is given: South, or West at three.
DEFAULT_SEAT = {3: 2, 4: 2, 6: 3}


def seat_names(players: int = 4) -> tuple[str, ...]:
    return SEATS[players]


def side_names(players: int = 4) -> tuple[str, ...]:
    """What each side that scores is called: ``N/S`` ``E/W`` (four), ``N/SE/SW`` ``NE/S/NW``
    (six, the teams of seats 0 2 4 and 1 3 5), or each of three players by name."""
    if players == 3:
        return SEATS[3]
    return tuple("/".join(SHORT[players][s] for s in range(side, players, 2)) for side in (0, 1))
SUIT_STYLES = ("bold", "green", "dark_orange", "red", "bold magenta")  # S C D H, jokers


# ---------------------------------------------------------------------- naming and colour


def card_label(c: int, jokers: int = 1) -> str:
    """``10♥``, ``J♦``, ``JK``: a card name with its suit symbol."""
    if is_joker(c):
        return card_name(c, jokers)
    name = card_name(c, jokers)
    return name[:-1] + SUIT_SYMBOLS[suit_of(c)]


def card_text(c: int, jokers: int = 1) -> Text:
    return Text(card_label(c, jokers), style=SUIT_STYLES[min(suit_of(c), NO_SUIT)])


def decode(action: int, players: int = 4) -> tuple[str, int, int]:
    """What an action of the table size's action table (:func:`fh_env.actions.action_table`)
    does: ``("call", -1, -1)``, ``("discard", card, -1)`` or ``("play", card, named suit or
    -1)``.  The one place here that reads action ids past the calls."""
    t = A.action_table(players)
    if action < A.DISCARD_BASE:
        return "call", -1, -1
    if action < t.play_base:
        return "discard", action - A.DISCARD_BASE, -1
    if action >= t.joker_lead_base:
        return "play", t.played_card(action), (action - t.joker_lead_base) % 4
    return "play", action - t.play_base, -1


def is_discard(action: int, players: int = 4) -> bool:
    return decode(action, players)[0] == "discard"


def is_play(action: int, players: int = 4) -> bool:
    return decode(action, players)[0] == "play"


def action_label(action: int, jokers: int = 1, players: int = 4) -> str:
    """A readable action name: ``7♥``, ``6NT``, ``pass``, ``Q♠``, ``JK (names ♥)``."""
    if A.is_ordinary_bid(action):
        strain = A.bid_strain(action)
        return f"{A.bid_level(action)}{'NT' if strain == A.NT else SUIT_SYMBOLS[strain]}"
    kind, c, named = decode(action, players)
    if kind == "discard":
        return "discard " + card_label(c, jokers)
    if kind == "play":
        return card_label(c, jokers) + (f" (names {SUIT_SYMBOLS[named]})" if named >= 0 else "")
    return A.action_to_str(action, jokers)


def action_text(action: int, jokers: int = 1, players: int = 4) -> Text:
    kind, c, named = decode(action, players)
    if kind == "play":
        text = card_text(c, jokers)
        if named >= 0:
            text.append(f" (names {SUIT_SYMBOLS[named]})", style=SUIT_STYLES[named])
        return text
    if A.is_ordinary_bid(action) and A.bid_strain(action) != A.NT:
        return Text(action_label(action, jokers), style=SUIT_STYLES[A.bid_strain(action)])
    return Text(action_label(action, jokers, players))


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


def seat_label(seat: int, person: int, players: int = 4) -> str:
    return SEATS[players][seat] + (" (you)" if seat == person else "")


def team_label(team: int, person: int, players: int = 4) -> str:
    """A side's name, ``(you)`` added to the person's."""
    mine = person >= 0 and side_of(players, person) == team
    return side_names(players)[team] + (" (you)" if mine else "")


# ---------------------------------------------------------------------- the table


def trick_text(view: SeatView, leader: int, cards: Sequence[int], led: int,
               person: int) -> Text:
    jokers, players = view.rules.jokers, view.rules.players
    text = Text()
    for i, (seat, c) in enumerate(zip(trick_order(leader, view.sitting_out, players), cards)):
        if i:
            text.append("  ")
        text.append(SEATS[players][seat] + " ", style="bold" if seat == person else "")
        text.append_text(card_text(c, jokers))
        if i == 0 and is_joker(c) and view.context >= NT_STANDARD and 0 <= led < 4:
            text.append(f" (names {SUIT_SYMBOLS[led]})", style=SUIT_STYLES[led])
    return text


def auction_table(view: SeatView, person: int) -> Table:
    """The calls so far, one column per seat from the dealer's left."""
    jokers, n = view.rules.jokers, view.rules.players
    order = [(view.dealer + k) % n for k in range(1, n + 1)]
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2, 0, 0))
    for seat in order:
        table.add_column(seat_label(seat, person, n), style="bold" if seat == person else "")
    rows: list[list[Text]] = []
    column = n
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


def choice_text(action: int, jokers: int = 1, players: int = 4) -> Text:
    """An action as the menu and the estimates show it: a discard by its card alone."""
    kind, c, _ = decode(action, players)
    if kind == "discard":
        return card_text(c, jokers)
    return action_text(action, jokers, players)


def action_line(who: str, action: int, jokers: int = 1, players: int = 4) -> Text:
    """``West calls 7♥``, ``North passes``, ``East plays K♣``, ``South discards 4♦``."""
    if action == A.PASS:
        return Text(f"{who} passes")
    verb = {"discard": "discards", "play": "plays", "call": "calls"}[decode(action, players)[0]]
    text = Text(f"{who} {verb} ")
    text.append_text(choice_text(action, jokers, players))
    return text


def trick_line(view: SeatView, person: int, index: int = -1) -> Text:
    """A trick played (by default the last) and who won it."""
    index = index % len(view.tricks)
    leader, cards, winner, led = view.tricks[index]
    text = Text(f"Trick {index + 1}: ")
    text.append_text(trick_text(view, leader, cards, led, person))
    text.append(f"  → {seat_label(winner, person, view.rules.players)} wins it", style="bold")
    return text


def contract_line(view: SeatView, person: int) -> Text:
    jokers, n = view.rules.jokers, view.rules.players
    if view.contract is None:
        if view.high_bid >= 0:
            return Text(f"High bid {action_label(view.high_bid, jokers)} by "
                        f"{seat_label(view.high_bidder, person, n)}")
        return Text("No bid yet")
    if view.contract == NO_CONTRACT:
        return Text(f"No contract: every {'player' if n == 3 else 'team'} scores 10 a trick")
    text = Text(f"Contract {action_label(view.contract, jokers)} by "
                f"{seat_label(view.declarer, person, n)}")
    out = sitting_out_seats(n, view.sitting_out)
    if out:
        names = " and ".join(seat_label(s, person, n) for s in sorted(out))
        text.append(f"; {names} sit{'s' if len(out) == 1 else ''} out")
    return text


def table_view(view: SeatView, person: int, hand_no: int,
               shown: Mapping[int, int] | None = None) -> Panel:
    """The whole table as seat ``view.seat`` sees it; ``shown`` adds hands to show (a replay,
    or the person's own cards when ``view`` is another seat's)."""
    jokers, n = view.rules.jokers, view.rules.players
    names = SEATS[n]
    ctx = view.context if view.contract is not None else NT_STANDARD
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    score = Text()
    for team in range(view.rules.sides):
        if team:
            score.append("   ")
        score.append(f"{team_label(team, person, n)} {view.scores[team]}")
    grid.add_row("Scores", score)
    grid.add_row("Auction", auction_table(view, person))
    grid.add_row("", contract_line(view, person))
    if view.phase >= Phase.PLAY or view.tricks:
        won = view.tricks_won
        tricks = Text("   ".join(f"{name} {sum(won[s] for s in range(n) if side_of(n, s) == i)}"
                                 for i, name in enumerate(side_names(n))))
        if n == 6:  # a team's tricks, then each seat's
            tricks.append("   (" + " ".join(f"{SHORT[n][s]} {won[s]}" for s in range(n)) + ")",
                          style="dim")
        tricks.append(f"   ({len(view.tricks)} of 10 played)")
        grid.add_row("Tricks", tricks)
        if view.tricks:
            leader, cards, winner, led = view.tricks[-1]
            last = trick_text(view, leader, cards, led, person)
            last.append(f"  → {names[winner]}", style="dim")
            grid.add_row("Last trick", last)
        if view.phase == Phase.PLAY:
            current = trick_text(view, view.leader, view.trick, view.led, person)
            grid.add_row(f"Trick {len(view.tricks) + 1}",
                         current if view.trick else Text("(nothing led yet)", style="dim"))
    for seat, picked, _ in view.exchanges:
        if view.phase == Phase.EXCHANGE and seat == view.seat == view.turn:
            grid.add_row("Kitty", hand_text(picked, ctx, jokers))
    if view.exposed:
        grid.add_row(f"{names[view.declarer]} (open)", hand_text(view.exposed, ctx, jokers))
    hands = dict(shown or {})
    if view.seat == person:
        hands.setdefault(person, view.hand)
    for seat in sorted(hands, key=lambda s: (s != person, s)):
        grid.add_row(seat_label(seat, person, n), hand_text(hands[seat], ctx, jokers))
    dealer = f"dealer {names[view.dealer]}"
    return Panel(grid, title=f"Hand {hand_no} · {dealer}", title_align="left", expand=False)


def reveal_panel(state: State, person: int) -> Panel:
    """Every hand as dealt, the kitty and each exchange: shown after a hand."""
    jokers, n = state.rules.jokers, state.rules.players
    ctx = state.context if state.contract is not None else NT_STANDARD
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    hands, kitty = state.dealt
    for seat in range(n):
        grid.add_row(seat_label(seat, person, n), hand_text(hands[seat], ctx, jokers))
    grid.add_row("Kitty", hand_text(kitty, ctx, jokers))
    for seat, picked, discarded in state.exchanges:
        grid.add_row(f"{SEATS[n][seat]} discarded", hand_text(discarded, ctx, jokers))
    return Panel(grid, title="All hands as dealt", title_align="left", expand=False)


def result_text(state: State, person: int) -> Text:
    r = state.result
    jokers, n = state.rules.jokers, state.rules.players
    sides = side_names(n)
    if r is None:
        return Text("")
    if r.contract is None:
        reason = {"all_pass": "everybody passed", "inkle": "the auction ended on an inkle",
                  "misdeal": "a misdeal was called"}.get(r.thrown_in or "", r.thrown_in or "")
        return Text(f"The hand is thrown in: {reason}; no score.")
    if r.contract == NO_CONTRACT:
        text = Text("No-contract play: ")
    else:
        team = side_of(n, r.declarer)  # type: ignore[arg-type]
        verdict = ("made it" if r.made else "was set") if n == 3 else (
            "made it" if r.made else "were set")
        mine = person >= 0 and side_of(n, person) == team
        text = Text(f"{seat_label(r.declarer, person, n)}'s {action_label(r.contract, jokers)}: "  # type: ignore[arg-type]
                    f"{sides[team]} took {r.tricks[team]} tricks and {verdict}. ",
                    style="bold green" if mine == bool(r.made) else "bold red")
    text.append("Points " + ", ".join(f"{sides[i]} {p:+d}" for i, p in enumerate(r.hand_points))
                + "; scores " + ", ".join(f"{sides[i]} {p}" for i, p in enumerate(r.game_points))
                + ".")
    return text


# ---------------------------------------------------------------------- the aids, shown


def _pm(mean: float, se: float, signed: bool = True) -> str:
    value = f"{mean:+.0f}" if signed else f"{mean:.0f}"
    return value + (f" ± {se:.0f}" if se == se else "")  # nan: a single world


def estimates_table(estimates: Sequence["Estimate"], jokers: int = 1, players: int = 4) -> Group:
    """Expected hand points (own side minus the other) of every legal action, best first."""
    n = estimates[0].n if estimates else 0
    items = []
    for i, e in enumerate(estimates):
        item = choice_text(e.action, jokers, players)
        item.append(f" {_pm(e.mean, e.se)}", style="bold" if i == 0 else "")
        items.append(item)
    theirs = "the others' mean" if players == 3 else "theirs"
    title = Text(f"Expected hand points, your side minus {theirs} (mc, {n} deals each):",
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
                      str(row.out),
                      " ".join(SEATS[view.rules.players][s] for s in row.void) or "-")
    return table


def analysis_text(result: "BidAnalysis", person: int, jokers: int = 1, players: int = 4) -> Text:
    team = side_names(players)[side_of(players, person)]
    return Text(f"{action_label(result.bid, jokers)} as your contract, in {result.n} simulated "
                f"deals: made {result.made} times ({result.p_make:.0%} ± {result.se_p:.0%}); "
                f"expected points for {team} {_pm(result.points, result.se)} "
                f"(your side minus theirs {result.net:+.0f}).", style="cyan")
