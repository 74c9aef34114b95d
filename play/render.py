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
from fh_env.cards import (JOKER, NO_SUIT, NT_STANDARD, SUIT_SYMBOLS, card_name, card_strength,
                          cards_of, effective_suit, suit_of)
from fh_env.engine import NO_CONTRACT, Phase, State, trick_order
from fh_env.view import SeatView

if TYPE_CHECKING:
    from .aids import BidAnalysis, Estimate

SEAT_NAMES = ("North", "East", "South", "West")
TEAM_NAMES = ("N/S", "E/W")
SUIT_STYLES = ("bold", "green", "dark_orange", "red", "bold magenta")  # S C D H, jokers


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
