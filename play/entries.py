"""Reading what the person types: a call, a card (or several discards), a menu number or a
command, turned into action ids, a :class:`Command` or a :class:`NeedSuit`.

Parsing only finds what the text names; whether that action is legal is the engine's question
(:mod:`play.explain` words the answer).  The menu of numbered choices lives here too, since a
number typed is read against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fh_env import actions as A
from fh_env.cards import NT_STANDARD, SUIT_NAMES, SUIT_SYMBOLS, SUITS, is_joker, parse_card
from fh_env.engine import Phase, State

from .render import action_label, card_label, decode, suit_groups


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
    "aid": "aid", "aids": "aid", "table": "table", "t": "table", "claim": "claim",
    "quit": "quit", "q": "quit", "exit": "quit",
}

HELP = """\
Type a call (pass, 7H, 6NT, nullo, open nullo), a card (QS, 10H, JD, JK; JK H leads the joker
naming hearts; six-handed also 2S 3C 11H 12D 13H), several cards at once when discarding
(4S 5C 6D), or a number from the menu.
Commands: hint, estimate (e), counter (c), analyse BID (a 7H), aid NAME on|off, aids,
claim (the remaining tricks), table (t), help (?), quit (q)."""


def menu(state: State) -> list[tuple[str, list[int]]]:
    """The person's choices: (label, actions); a joker lead naming suits is one entry."""
    jokers, n = state.rules.jokers, state.rules.players
    out: list[tuple[str, list[int]]] = []
    leads: dict[int, list[int]] = {}
    legal = state.legal_actions()
    if state.phase != Phase.AUCTION:  # cards in the order the hand shows them
        ctx = state.context if state.contract is not None else NT_STANDARD
        shown = [c for _, cards in suit_groups(state.hands[state.turn], ctx) for c in cards]
        legal.sort(key=lambda a: shown.index(decode(a, n)[1]))
    for a in legal:
        _, c, named = decode(a, n)
        if named >= 0:
            if c not in leads:
                leads[c] = []
                out.append((card_label(c, jokers), leads[c]))
            leads[c].append(a)
        else:
            out.append((action_label(a, jokers, n), [a]))
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
            return NeedSuit(decode(actions[0], state.rules.players)[1])
        return actions
    if state.phase == Phase.AUCTION:
        try:
            return [parse_call(text)]
        except EntryError:
            if len(words) != 1 or _card_or_none(words[0]) is None:
                _refuse_a_level_without_bids(text, state)  # 5NT, 1H: say which levels exist
                raise
            table = _table(state)  # a card in the auction: refused with the reason
            return [table.play_base + _parse_card(words[0], table.num_cards)]
    try:
        return _parse_card_entry(words, head, state)
    except EntryError:
        try:
            return [parse_call(text)]  # a call after the auction: refused with the reason
        except EntryError:
            pass
        raise


def _parse_card_entry(words: list[str], head: str,
                      state: State) -> list[int] | NeedSuit:
    if head in ("play", "discard", "p", "d"):
        words = words[1:]
    if not words:
        raise EntryError("name a card after it, such as QS")
    table = _table(state)
    if state.phase == Phase.EXCHANGE:
        return [A.DISCARD_BASE + _parse_card(w, table.num_cards) for w in words]
    c = _parse_card(words[0], table.num_cards)
    if len(words) > 2:
        raise EntryError("play one card at a time (a joker lead may add a suit: JK H)")
    if len(words) == 2:
        if not is_joker(c):
            raise EntryError(f"only a joker names a suit; play {words[0]} alone")
        return [table.joker_lead_action(c, parse_suit(words[1]))]
    if is_joker(c) and not state.trick and state.context >= NT_STANDARD:
        return NeedSuit(c)
    return [table.play_base + c]


def _table(state: State) -> A.ActionTable:
    """The action table of the state's table size (six players have their own)."""
    return A.action_table(state.rules.players)


def _card_or_none(word: str) -> int | None:
    try:
        return parse_card(word)
    except ValueError:
        return None


def _parse_card(word: str, num_cards: int = A.NUM_CARDS) -> int:
    """A card named in ``word``; only the cards the action table has (the six-handed pack's
    2, 3, 11, 12 and 13 exist only at a table of six)."""
    try:
        c = parse_card(word)
    except ValueError:
        raise EntryError(f"{word!r} is not a card: type a rank and a suit, such as QS, 10H, "
                         "JD, or JK for the joker") from None
    if c >= num_cards:
        raise EntryError(f"{word!r} is a card of the six-handed pack only")
    return c


_BID_SHAPE = re.compile(r"(\d+)\s*(s|c|d|h|nt|no trumps?|[♠♣♦♥])", re.IGNORECASE)


def _refuse_a_level_without_bids(text: str, state: State) -> None:
    """``5NT`` or ``1 H`` in the auction: a bid's shape at a level no bid has, refused saying
    which levels there are (``5H``, a card, is read as one and refused by
    :func:`play.explain.explain_illegal` with the same words)."""
    m = _BID_SHAPE.fullmatch(text.strip())
    if m is not None and not 6 <= int(m.group(1)) <= 10:
        raise EntryError(f"{text.strip()!r} is not a bid: {bid_levels(state)}; or type pass, "
                         "or a number from the menu")


def bid_levels(state: State) -> str:
    """``the lowest bid is 6 and the highest 10, as in 6S or 10NT`` for the state's rules."""
    rules = state.rules
    lowest = 6 if rules.inkle else rules.min_bid_level
    inkle = (f" (6 only as an inkle, by the first two callers; else {rules.min_bid_level})"
             if rules.inkle else "")
    return f"the lowest bid is {lowest}{inkle} and the highest 10, as in {lowest}S or 10NT"


def parse_call(text: str) -> int:
    """A call typed by name (``pass``, ``p``, ``7H``, ``7♥``, ``open nullo``) as its action id."""
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
