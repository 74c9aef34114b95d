"""``rule``: a rule-based player for every phase and every preset.

The bot reads only a :class:`fh_env.SeatView`.  Its three policies are plain functions of what a
seat may know (its own hand, public history, voids, an exposed hand) so that Monte Carlo rollouts
can call the very same rules straight from a determinized :class:`~fh_env.engine.State`
(:func:`state_play` and :func:`state_discard` read only the seat-on-turn's own hand and public
fields, exactly what :func:`fh_env.view.seat_view` would give it):

* bidding (:func:`choose_call`): count likely tricks in each strain (jokers, bowers, trump
  length, side aces and kings, short suits for ruffing), add an allowance for the kitty and for
  the partner (more when the partner bid that strain, less when it passed), and bid the cheapest
  legal bid up to that count (the full count at once when the auction has a round limit); nullo,
  open nullo and double nullo on hands of low cards where the rules allow them;
* the kitty exchange (:func:`choose_discard`): keep trumps, jokers and aces, discard short
  side suits to make voids; in nullo, discard the most dangerous cards;
* the play (:func:`choose_play`): as the declaring side draw trumps with the top trump, cash
  winners; second hand low; third hand high, but never trump the partner's winning card; last,
  win as cheaply as possible when an opponent is winning and play low when the partner has it;
  in nullo duck as high as possible; against nullo, lead low, and keep low cards to play under
  the declarer; lead the joker naming the longest suit.

Every table size plays (§9).  Four and six players play as teams (seat parity: one partner, or
two).  Three players have no partner: the declarer plays alone against both others, and the two
defenders cooperate loosely: each treats the other as a partner (it does not trump or overtake
the other defender's winning card) once the declarer has played to the trick, and as a rival
while the declarer is still to play.  The per-size data (action ids, the pack, which cards rank
above a card) are a :class:`Kit` (:func:`kit`); the bidding counts tricks in the size's pack
(33 cards, or 63 with 13 to 15 cards a suit), with no partner allowance for three players (a
``kitty_alone`` allowance instead) and one per partner, scaled by ``partner_scale_six``, for six.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from fh_env import actions as A
from fh_env.actions import action_table
from fh_env.cards import (ALL_CARDS, DECKS, JOKER, JOKER_BITS, NT_JOKERS_LOW, NT_STANDARD,
                          PLAIN_ORDER, TABLE_DECKS, TABLES, cards_of, mask_of, rank_of)
from fh_env.contracts import contract_value
from fh_env.engine import NO_CONTRACT, Phase, State, side_of, trick_order
from fh_env.rules import Rules
from fh_env.view import SeatView


NULLO_TYPES = frozenset(A.NULLO_TYPES)


# ----------------------------------------------------------------------------- tables
def _build_tables(num: int = 46):
    power, above, below = [], [], []
    card_bits = (1 << num) - 1
    for ctx in range(7):
        pw = []
        for c in range(num):
            suit = TABLES.suit[ctx][c]
            if suit == 4:  # a joker without trumps: wins every trick unless jokers are low
                pw.append(-1 if ctx == NT_JOKERS_LOW else (300 if c == JOKER else 299))
            else:
                pw.append(TABLES.strength[ctx][suit][c])
        power.append(pw)
        ab, be = [], []
        for c in range(num):
            same = TABLES.suit_mask[ctx][TABLES.suit[ctx][c]] & card_bits
            ab.append(mask_of(u for u in cards_of(same) if pw[u] > pw[c]))
            be.append(mask_of(u for u in cards_of(same) if pw[u] < pw[c]))
        above.append(ab)
        below.append(be)
    return power, above, below


def _build_beaters(num: int = 46):
    return [[[mask_of(u for u in range(num) if strength[u] > strength[c]) for c in range(num)]
             for strength in TABLES.strength[ctx]] for ctx in range(7)]


_, ABOVE, BELOW = _build_tables()
POWER = _build_tables(ALL_CARDS)[0]
"""Per trump context: a card's rank inside its effective suit (jokers top, or -1 when low, for
every id), the cards of its effective suit that rank above it, and those below it (the
4-player ids)."""
BEATERS = _build_beaters()
"""BEATERS[ctx][led][c]: the cards that beat ``c`` in a trick whose led suit is ``led``."""
SUIT_MASK = TABLES.suit_mask
STRENGTH = TABLES.strength


@dataclass(frozen=True)
class Kit:
    """What the rule bot needs to know about one table size: its action ids, its card ids and
    pack, and the tables above restricted to that pack (with four players the tables are those
    above whatever the deck, as they have always been)."""

    players: int
    play_base: int
    joker_lead_base: int
    card_bits: int  # the card ids a play action may name
    pack: int  # the pack (4 players: every 4-player id)
    power: list
    above: list
    below: list
    beaters: list


def _masked(table, pack: int):
    if isinstance(table, int):
        return table & pack
    return [_masked(t, pack) for t in table]


@lru_cache(maxsize=None)
def kit(players: int) -> Kit:
    """The :class:`Kit` of a table size (3, 4 or 6)."""
    table = action_table(players)
    if players == 4:
        return Kit(4, table.play_base, table.joker_lead_base, (1 << 46) - 1, (1 << 46) - 1,
                   POWER, ABOVE, BELOW, BEATERS)
    num = table.num_cards
    pack = mask_of(TABLE_DECKS[players])
    _, above, below = _build_tables(num) if num != 46 else (POWER, ABOVE, BELOW)
    beaters = _build_beaters(num) if num != 46 else BEATERS
    return Kit(players, table.play_base, table.joker_lead_base, (1 << num) - 1, pack, POWER,
               _masked(above, pack), _masked(below, pack), _masked(beaters, pack))


K4 = kit(4)


def _lowest(mask: int, pw: list[int]) -> int:
    best, best_p = -1, 10**9
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        mask ^= low
        if pw[c] < best_p:
            best, best_p = c, pw[c]
    return best


def _highest(mask: int, pw: list[int]) -> int:
    best, best_p = -1, -10**9
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        mask ^= low
        if pw[c] > best_p:
            best, best_p = c, pw[c]
    return best


def _first_joker_lead(legal: int, k: Kit = K4) -> int:
    leads = legal >> k.joker_lead_base
    return k.joker_lead_base + (leads & -leads).bit_length() - 1


def friends_of(seat: int, players: int, contract: int | None, declarer: int) -> int:
    """The seats (a mask, ``seat`` included) that ``seat`` plays with in this hand: its team
    with four or six players; with three, the other defender against a declarer (the
    cooperation is loose: see :func:`_follow`), nobody else otherwise."""
    if players != 3:
        return sum(1 << s for s in range(seat % 2, players, 2))
    if contract is None or contract == NO_CONTRACT or declarer < 0 or seat == declarer:
        return 1 << seat
    return 0b111 & ~(1 << declarer)


# ----------------------------------------------------------------------------- play
def choose_play(seat: int, hand: int, legal: int, unseen: int, trick: tuple[int, ...] | list[int],
                leader: int, led: int, ctx: int, contract: int | None, declarer: int,
                sitting_out: int, voids: tuple[int, ...] | list[int], exposed: int,
                players: int = 4) -> int:
    """The rule bot's play, from what seat ``seat`` knows (``unseen``: cards it cannot place)."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    k = K4 if players == 4 else kit(players)
    friends = friends_of(seat, players, contract, declarer)
    if contract in NULLO_TYPES:
        if friends >> declarer & 1:
            return _nullo_declarer(seat, hand, legal, unseen, trick, leader, led, ctx,
                                   sitting_out, voids, k, friends)
        return _nullo_defender(seat, hand, legal, unseen, trick, leader, led, ctx, contract,
                               declarer, sitting_out, voids, exposed, k)
    declaring = contract is None or contract == NO_CONTRACT or bool(friends >> declarer & 1)
    if not trick:
        return _lead(seat, hand, legal, unseen, ctx, declarer, declaring, sitting_out, voids, k,
                     friends)
    return _follow(seat, hand, legal, unseen, trick, leader, led, ctx, sitting_out, voids, k,
                   friends, declarer)


def _joker_lead(legal: int, hand: int, ctx: int, k: Kit = K4) -> int:
    """A joker lead naming our longest suit (exhausting the others' cards in it)."""
    leads = legal >> k.joker_lead_base
    best, best_len = -1, -1
    for i in range(8):
        if leads >> i & 1:
            length = (hand & SUIT_MASK[ctx][i % 4]).bit_count()
            if length > best_len:
                best, best_len = i, length
    return k.joker_lead_base + best


def _opponents(seat: int, friends: int, sitting_out: int, k: Kit) -> list[int]:
    """The seats playing this hand against ``seat`` (4 players: its left, then its right)."""
    if k.players == 4:
        return [s for s in ((seat + 1) % 4, (seat + 3) % 4) if s != sitting_out]
    return [s for s in trick_order(seat, sitting_out, k.players) if not friends >> s & 1]


def _lead(seat: int, hand: int, legal: int, unseen: int, ctx: int, declarer: int,
          declaring: bool, sitting_out: int, voids, k: Kit = K4, friends: int = 0) -> int:
    pw = POWER[ctx]
    ABOVE = k.above
    _play = k.play_base.__add__
    cards = (legal >> k.play_base) & k.card_bits
    trump = ctx if ctx < NT_STANDARD else -1
    trump_mask = SUIT_MASK[ctx][trump] if trump >= 0 else 0
    opponents = _opponents(seat, friends, sitting_out, k)
    opp_trumps = bool(unseen & trump_mask) and not all(voids[o] >> trump & 1 for o in opponents)
    my_trumps = cards & trump_mask
    if declaring and my_trumps and opp_trumps:
        top = _highest(my_trumps, pw)
        if not unseen & ABOVE[ctx][top]:
            return _play(top)  # draw trumps with the top trump
        if seat == declarer and my_trumps.bit_count() >= (unseen & trump_mask).bit_count():
            return _play(_lowest(my_trumps, pw))
    side = cards & ~trump_mask & ~JOKER_BITS if trump >= 0 else cards & ~JOKER_BITS
    # cash a sure winner that cannot be ruffed
    best, best_p = -1, -1
    rest = side
    while rest:
        low = rest & -rest
        c = low.bit_length() - 1
        rest ^= low
        if unseen & ABOVE[ctx][c]:
            continue
        suit = TABLES.suit[ctx][c]
        if opp_trumps and any(voids[o] >> suit & 1 for o in opponents):
            continue
        if pw[c] > best_p:
            best, best_p = c, pw[c]
    if best >= 0:
        return _play(best)
    if declaring and legal >> k.joker_lead_base:
        return _joker_lead(legal, hand, ctx, k)
    if not side:
        if cards:
            return _play(_highest(cards, pw) if declaring else _lowest(cards, pw))
        return _joker_lead(legal, hand, ctx, k)
    # lead low from the longest side suit
    best_suit, best_len = -1, -1
    for suit in range(4):
        if suit == trump:
            continue
        length = (side & SUIT_MASK[ctx][suit]).bit_count()
        if length > best_len:
            best_suit, best_len = suit, length
    return _play(_lowest(side & SUIT_MASK[ctx][best_suit], pw))


def _below(cards: int, strength: list[int], best: int) -> int:
    """The cards of ``cards`` that play to the trick below strength ``best`` (cannot beat it)."""
    out, rest = 0, cards
    while rest:
        low = rest & -rest
        rest ^= low
        if strength[low.bit_length() - 1] < best:
            out |= low
    return out


def _winning(trick, leader: int, led: int, ctx: int, sitting_out: int,
             players: int = 4) -> tuple[int, int]:
    """(strength of the card winning the trick so far, the seat that played it)."""
    strength = STRENGTH[ctx][led]
    best, best_i = -2, 0
    for i, c in enumerate(trick):
        if strength[c] > best:
            best, best_i = strength[c], i
    return best, trick_order(leader, sitting_out, players)[best_i]


def _discard(cards: int, unseen: int, ctx: int, k: Kit = K4) -> int:
    """The card to throw away: not a trump, not a sure winner, the lowest otherwise."""
    pw = POWER[ctx]
    ABOVE = k.above
    trump_mask = SUIT_MASK[ctx][ctx] if ctx < NT_STANDARD else JOKER_BITS
    return min(cards_of(cards),
               key=lambda c: (trump_mask >> c & 1, not unseen & ABOVE[ctx][c], pw[c]))


def _follow(seat: int, hand: int, legal: int, unseen: int, trick, leader: int, led: int,
            ctx: int, sitting_out: int, voids, k: Kit = K4, friends: int = 0,
            declarer: int = -1) -> int:
    pw = POWER[ctx]
    _play = k.play_base.__add__
    strength = STRENGTH[ctx][led]
    cards = (legal >> k.play_base) & k.card_bits
    best, winner = _winning(trick, leader, led, ctx, sitting_out, k.players)
    order = trick_order(leader, sitting_out, k.players)
    last = len(trick) == len(order) - 1
    following = cards & SUIT_MASK[ctx][led]
    if k.players == 3 and declarer >= 0 and declarer in order[len(trick) + 1:]:
        friends &= ~(1 << winner) | (1 << seat)  # three players: the declarer is still to play
    if friends >> winner & 1:  # the partner is winning: play low, never trump it
        if following:
            return _play(_lowest(following, pw))
        return _play(_discard(cards, unseen, ctx, k))
    winners = cards & ~_below(cards, strength, best + 1)  # strengths are integers
    if not winners:
        if following:
            return _play(_lowest(following, pw))
        return _play(_discard(cards, unseen, ctx, k))
    if last:
        return _play(_lowest(winners, strength))
    # not last: a winner nobody after us can beat, else second hand low / third hand high
    after = order[len(trick) + 1:]
    opp_after = [s for s in after if not friends >> s & 1]
    shown_void = any(voids[s] >> led & 1 for s in opp_after)
    led_mask = SUIT_MASK[ctx][led]
    beaters = k.beaters[ctx][led]
    safe, rest = 0, winners
    while rest:
        low = rest & -rest
        c = low.bit_length() - 1
        rest ^= low
        threats = unseen & beaters[c]
        if not opp_after or not (threats & led_mask or (threats and shown_void)):
            safe |= low
    if safe:
        return _play(_lowest(safe, strength))
    if not following:  # ruff as cheaply as possible
        return _play(_lowest(winners, strength))
    if len(trick) >= 2:
        return _play(_highest(winners, strength))  # third hand high
    return _play(_lowest(following, pw))  # second hand low


def _nullo_declarer(seat: int, hand: int, legal: int, unseen: int, trick, leader: int,
                    led: int, ctx: int, sitting_out: int, voids, k: Kit = K4,
                    friends: int = 0) -> int:
    """Lose every trick: lead the card most surely beaten, duck as high as possible."""
    pw = POWER[ctx]
    ABOVE, BELOW = k.above, k.below
    _play = k.play_base.__add__
    cards = (legal >> k.play_base) & k.card_bits
    if not trick:
        plain = cards & ~JOKER_BITS
        if not plain:
            if cards:
                return _play(_lowest(cards, pw))
            return _first_joker_lead(legal, k)
        opponents = _opponents(seat, friends, sitting_out, k)
        def lead_key(c: int) -> tuple:
            covered = bool(unseen & ABOVE[ctx][c]) and not all(
                voids[o] >> TABLES.suit[ctx][c] & 1 for o in opponents)
            return (not covered, (unseen & BELOW[ctx][c]).bit_count(), pw[c])

        return _play(min(cards_of(plain), key=lead_key))
    strength = STRENGTH[ctx][led]
    best, _ = _winning(trick, leader, led, ctx, sitting_out, k.players)
    losers = _below(cards, strength, best)
    if losers:
        if cards & SUIT_MASK[ctx][led]:
            return _play(_highest(losers, pw))  # duck as high as possible
        return _play(_most_dangerous(losers, unseen, ctx, k))
    if len(trick) == len(trick_order(leader, sitting_out, k.players)) - 1:
        return _play(_highest(cards, pw))  # the trick is lost anyway: shed the highest
    return _play(_lowest(cards, pw))


def _most_dangerous(cards: int, unseen: int, ctx: int, k: Kit = K4) -> int:
    """For a nullo declarer's discard: jokers, then high cards with few cards below them."""
    pw = POWER[ctx]
    BELOW = k.below
    return max(cards_of(cards),
               key=lambda c: (pw[c] >= 299, -(unseen & BELOW[ctx][c]).bit_count(), pw[c]))


def _nullo_defender(seat: int, hand: int, legal: int, unseen: int, trick, leader: int,
                    led: int, ctx: int, contract: int, declarer: int, sitting_out: int, voids,
                    exposed: int, k: Kit = K4) -> int:
    """Make the declarer take a trick: lead low, and keep low cards to play under it."""
    pw = POWER[ctx]
    BELOW = k.below
    _play = k.play_base.__add__
    cards = (legal >> k.play_base) & k.card_bits
    declarers = (declarer, (declarer + 2) % 4) if contract == A.DOUBLE_NULLO else (declarer,)
    if not trick:
        plain = cards & ~JOKER_BITS
        if not plain:
            if cards:
                return _play(_lowest(cards, pw))
            return _first_joker_lead(legal, k)
        if exposed:  # a suit where our lowest card is below all of the declarer's
            for suit in range(4):
                theirs = exposed & SUIT_MASK[ctx][suit]
                mine = plain & SUIT_MASK[ctx][suit]
                if theirs and mine:
                    c = _lowest(mine, pw)
                    if pw[c] < pw[_lowest(theirs, pw)]:
                        return _play(c)
        best = min(cards_of(plain), key=lambda c: (
            all(voids[d] >> TABLES.suit[ctx][c] & 1 for d in declarers),
            (unseen & BELOW[ctx][c]).bit_count(), pw[c]))
        return _play(best)
    strength = STRENGTH[ctx][led]
    players = trick_order(leader, sitting_out, k.players)
    played_by = players[:len(trick)]
    best, winner = _winning(trick, leader, led, ctx, sitting_out, k.players)
    following = cards & SUIT_MASK[ctx][led]
    not_jokers = cards & ~JOKER_BITS or cards
    if any(d in played_by for d in declarers):
        if winner in declarers:  # stay under the declarer's card, keeping the lowest cards
            under = _below(cards, strength, best)
            if under:
                return _play(_highest(under & ~JOKER_BITS or under, pw))
        return _play(_highest(not_jokers if following else cards, pw))
    if following:
        return _play(_lowest(following, pw))  # leave the declarer a low card to beat
    return _play(_highest(not_jokers, pw))


def state_play(state: State) -> int:
    """:func:`choose_play` for the seat on turn of a (determinized) state, no view built.

    It reads only what :func:`fh_env.view.seat_view` would show that seat: its own hand, the
    public play, and which cards it cannot place (the same set as ``SeatView.unseen``).
    """
    seat = state.turn
    hands = state.hands
    hand = hands[seat]
    rules = state.rules
    players = rules.players
    if players == 4:
        deck = DECK_MASKS[rules.deck]
        held = hands[0] | hands[1] | hands[2] | hands[3] | state.kitty
    else:
        deck = PACK_MASKS[players]
        held = state.kitty
        for h in hands:
            held |= h
    played = deck & ~held
    known = hand | played
    exposed = 0
    if state.exposed and seat != state.declarer:
        exposed = hands[state.declarer]
        known |= exposed
    if state.exchanges and state.exchanges[-1][0] == seat:
        known |= state.kitty
    unseen = deck & ~known
    return choose_play(seat, hand, state.legal_mask(), unseen, state.trick, state.leader,
                       state.led, state.context, state.contract, state.declarer,
                       state.sitting_out, state.voids, exposed, players)


DECK_MASKS = {name: mask_of(deck) for name, deck in DECKS.items()}
PACK_MASKS = {n: mask_of(deck) for n, deck in TABLE_DECKS.items()}


# ----------------------------------------------------------------------------- exchange
def choose_discard(hand: int, contract: int, ctx: int, discards_left: int,
                   jokers_low: bool = False, players: int = 4) -> int:
    """The card to discard from ``hand`` after taking the kitty (a discard action id)."""
    pw = POWER[ctx]
    k = K4 if players == 4 else kit(players)
    ABOVE = k.above
    if contract in NULLO_TYPES:
        return A.DISCARD_BASE + _nullo_worst(hand, ctx, k)
    trump = ctx if ctx < NT_STANDARD else -1
    trump_mask = SUIT_MASK[ctx][trump] if trump >= 0 else JOKER_BITS
    lengths = [(hand & SUIT_MASK[ctx][s]).bit_count() for s in range(4)]

    def discard_key(c: int) -> tuple:
        if trump_mask >> c & 1:
            return (2, pw[c])
        suit = TABLES.suit[ctx][c]
        top = not (ABOVE[ctx][c] & ~hand)  # nothing higher is out: a sure winner
        if trump >= 0:
            # make voids: a short suit without a winner goes first
            voidable = lengths[suit] <= discards_left and not any(
                not (ABOVE[ctx][u] & ~hand) for u in cards_of(hand & SUIT_MASK[ctx][suit]))
            return (1 if top else 0, 0 if voidable else 1, lengths[suit], pw[c])
        # notrump: keep winners and guarded honours (Q, K, A), throw low cards of short suits
        order = PLAIN_ORDER[rank_of(c)]
        guarded = order >= 13 and lengths[suit] >= 16 - order
        return (1 if top or guarded else 0, lengths[suit], pw[c])

    return A.DISCARD_BASE + min(cards_of(hand), key=discard_key)


def _nullo_danger_cards(hand: int, ctx: int, k: Kit = K4) -> list[tuple[float, int]]:
    """(danger, card) for each card of a nullo hand: how likely it is to win a trick."""
    pw = POWER[ctx]
    BELOW = k.below
    out = []
    for suit in range(4):
        mine = sorted(cards_of(hand & SUIT_MASK[ctx][suit]), key=lambda c: pw[c])
        for i, c in enumerate(mine):
            pos = BELOW[ctx][c].bit_count()  # cards of the deck's suit below it (any holder)
            out.append((max(0.0, pos - 2.0 * i - 1.0), c))
    for c in cards_of(hand & JOKER_BITS):
        out.append((0.0 if pw[c] < 0 else 20.0, c))
    return out


def _nullo_worst(hand: int, ctx: int, k: Kit = K4) -> int:
    return max(_nullo_danger_cards(hand, ctx, k))[1]


def state_discard(state: State) -> int:
    """:func:`choose_discard` for the seat on turn of a state (its own hand only)."""
    return choose_discard(state.hands[state.turn], state.contract, state.context,
                          state.discards_left, players=state.rules.players)


# ----------------------------------------------------------------------------- bidding
def _pack_key(rules: Rules) -> str:
    """The deck name with four players, ``"players=N"`` for the packs of §9."""
    return rules.deck if rules.players == 4 else f"players={rules.players}"


@lru_cache(maxsize=None)
def _suit_orders(deck: str, ctx: int) -> tuple[tuple[int, ...], ...]:
    """The pack's cards of each effective suit under ``ctx``, highest first (``deck``: a
    deck name, or ``players=N`` for the pack of a table size)."""
    pw = POWER[ctx]
    dm = mask_of(TABLE_DECKS[int(deck[8:])] if deck.startswith("players=") else DECKS[deck])
    return tuple(tuple(sorted(cards_of(dm & SUIT_MASK[ctx][s]), key=lambda c: -pw[c]))
                 for s in range(5))


def _honour_tricks(hand: int, order: tuple[int, ...], discount: float) -> tuple[float, int]:
    """Tricks from top cards of one suit, and how many of our cards there count for little."""
    below_mine = sum(1 for c in order if hand >> c & 1)
    missing = 0
    tricks, weak = 0.0, 0
    for c in order:
        if not below_mine:
            break
        if hand >> c & 1:
            below_mine -= 1
            if missing == 0:
                v = 1.0
            elif below_mine >= missing:
                v = max(0.0, 1.0 - discount * missing)
            else:
                v = 0.0
            tricks += v
            if v < 0.5:
                weak += 1
        else:
            missing += 1
    return tricks, weak


def hand_tricks(hand: int, strain: int, rules: Rules) -> float:
    """An estimate of the tricks ``hand`` takes alone with ``strain`` trumps (4 = notrump)."""
    ctx = strain
    if strain == A.NT:
        ctx = 5 if rules.notrump_ranking == "j5" else NT_STANDARD
    return _hand_tricks(hand, strain, ctx, _pack_key(rules))


@lru_cache(maxsize=1 << 16)
def _hand_tricks(hand: int, strain: int, ctx: int, deck: str) -> float:
    orders = _suit_orders(deck, ctx)
    tricks = 0.0
    if strain < A.NT:
        trumps = (hand & SUIT_MASK[ctx][strain]).bit_count()
        t, weak = _honour_tricks(hand, orders[strain], 0.3)
        tricks += t + min(weak, max(0, trumps - 3)) * 0.7
        ruff = 0.0
        for s in range(4):
            if s == strain:
                continue
            length = (hand & SUIT_MASK[ctx][s]).bit_count()
            t, _ = _honour_tricks(hand, orders[s], 0.55)
            tricks += t
            ruff += (0.8, 0.45, 0.15)[length] if length < 3 else 0.0
        tricks += min(ruff, max(0, trumps - 2) * 0.6)
    else:
        tricks += (hand & JOKER_BITS).bit_count()
        for s in range(4):
            length = (hand & SUIT_MASK[ctx][s]).bit_count()
            t, _ = _honour_tricks(hand, orders[s], 0.5)
            tricks += t
            if length >= 5 and t >= 1.5:
                tricks += (length - 4) * 0.7
            if not t and not hand & JOKER_BITS:
                tricks -= 0.5  # an unstopped suit
    return tricks


@dataclass(frozen=True)
class BidParams:
    """The rule bot's bidding constants (tricks; ``make_bot("rule:nt_risk=0.5")`` sets one)."""

    partner_unknown: float = 1.5  # the partner has not called yet
    partner_passed: float = 1.5
    partner_raise: float = 3.0  # partner bid this strain at level L: it counts L - 3
    partner_other: float = 1.5  # partner bid another strain
    partner_nullo: float = 0.5
    kitty: float = 0.0  # what a 3-card kitty adds (scaled by the kitty size)
    nt_risk: float = 0.3  # notrump has no trumps to stop a long suit
    opponents_strain: float = 0.5  # an opponent bid this strain: its trumps sit over ours
    strain_margin: float = 0.5  # strains this close to the best estimate compete on value
    nullo_limit: float = 1.0  # the most nullo danger bid as nullo / double nullo
    open_nullo_limit: float = -0.5
    nullo_kitty: float = 0.4  # nullo danger of each unknown kitty card taken
    nullo_void: float = 0.3  # a void lets a nullo declarer shed its dangerous cards
    kitty_alone: float = 0.5  # three players: no partner, what the kitty adds instead
    partner_scale_six: float = 0.75  # six players: each partner's allowance is scaled by this


DEFAULT_PARAMS = BidParams()


def nullo_danger(hand: int, rules: Rules, exchange: bool,
                 p: BidParams = DEFAULT_PARAMS) -> float:
    """How likely a nullo declarer with ``hand`` is to take a trick (0 = very safe).

    With an exchange the ``kitty_size`` most dangerous cards are counted as discarded, and each
    kitty card taken in their place adds a little danger.
    """
    ctx = NT_JOKERS_LOW if rules.jokers_low_in_nullo else NT_STANDARD
    k = K4 if rules.players == 4 else kit(rules.players)
    if exchange and rules.kitty_size:
        worst = sorted(_nullo_danger_cards(hand, ctx, k), reverse=True)[:rules.kitty_size]
        for _, c in worst:
            hand &= ~(1 << c)
    danger = sum(d for d, _ in _nullo_danger_cards(hand, ctx, k))
    voids = sum(1 for s in range(4) if not hand & SUIT_MASK[ctx][s])
    return danger - p.nullo_void * voids + (p.nullo_kitty * rules.kitty_size if exchange else 0.0)


def _partner_allowance(view: SeatView, strain: int, p: BidParams) -> float:
    players = view.rules.players
    if players == 3:
        return p.kitty_alone
    if players == 6:
        return p.partner_scale_six * sum(
            _one_partner(view, (view.seat + d) % 6, strain, p) for d in (2, 4))
    return _one_partner(view, (view.seat + 2) % 4, strain, p)


def _one_partner(view: SeatView, partner: int, strain: int, p: BidParams) -> float:
    calls = [a for s, a in view.calls if s == partner]
    if not calls:
        return p.partner_unknown
    bids = [a for a in calls if a != A.PASS]
    if not bids:
        return p.partner_passed
    last = bids[-1]
    if last in NULLO_TYPES:
        return p.partner_nullo
    if not A.is_ordinary_bid(last):
        return p.partner_passed
    if A.bid_strain(last) == strain:
        return A.bid_level(last) - p.partner_raise
    return p.partner_other


def strain_estimates(view: SeatView, p: BidParams = DEFAULT_PARAMS) -> list[float]:
    """Tricks the partnership may expect in each strain S C D H NT with this seat declaring."""
    rules = view.rules
    kitty = p.kitty * rules.kitty_size / 3
    out = []
    players = rules.players
    opp_strains = {A.bid_strain(a) for s, a in view.calls
                   if side_of(players, s) != side_of(players, view.seat) and A.is_ordinary_bid(a)}
    for strain in range(5):
        est = hand_tricks(view.hand, strain, rules) + kitty + _partner_allowance(view, strain, p)
        if strain == A.NT:
            est -= p.nt_risk
        elif strain in opp_strains:
            est -= p.opponents_strain
        out.append(est)
    return out


def _exchanges_in(rules: Rules, bid: int) -> bool:
    if rules.kitty_size == 0:
        return False
    if bid == A.OPEN_NULLO:
        return rules.nullo_kitty == "always"
    return rules.nullo_kitty != "never" or bid not in NULLO_TYPES


def choose_call(view: SeatView, p: BidParams = DEFAULT_PARAMS) -> int:
    """The rule bot's call in the auction."""
    legal = view.legal
    rules = view.rules
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    hand = view.hand
    # nullo-type bids on hands of low cards
    for bid, limit in ((A.OPEN_NULLO, p.open_nullo_limit), (A.DOUBLE_NULLO, p.nullo_limit),
                       (A.NULLO, p.nullo_limit)):
        if legal >> bid & 1 and nullo_danger(hand, rules, _exchanges_in(rules, bid), p) <= limit:
            return bid
    if legal >> A.MISDEAL & 1:
        return A.MISDEAL
    est = strain_estimates(view, p)
    limited = rules.bidding_rounds != "unlimited"
    best, best_value = -1, -1
    best_est = max(est)
    for strain in range(5):
        top = min(10, int(est[strain]))
        if top < 6 or est[strain] < best_est - p.strain_margin:
            continue  # among the strains we expect most tricks in, the most valuable
        candidates = [A.bid_action(level, strain) for level in range(6, top + 1)
                      if legal >> A.bid_action(level, strain) & 1]
        if not candidates:
            continue
        bid = candidates[-1] if limited else candidates[0]
        value = contract_value(rules, A.bid_action(top, strain))
        if value > best_value:
            best, best_value = bid, value
    if best >= 0:
        return best
    if legal & 1:
        return A.PASS
    # forced to bid (stick the dealer): the cheapest bid in the best strain
    order = sorted(range(5), key=lambda s: -est[s])
    for strain in order:
        for level in range(6, 11):
            if legal >> A.bid_action(level, strain) & 1:
                return A.bid_action(level, strain)
    return (legal & -legal).bit_length() - 1


# ----------------------------------------------------------------------------- the bot
class RuleBot:
    """The rule-based player; deterministic (it does not use its generator)."""

    def __init__(self, params: BidParams = DEFAULT_PARAMS, name: str = "rule") -> None:
        self.params = params
        self.name = name

    def act(self, view: SeatView, rng: random.Random) -> int:
        if view.phase == Phase.AUCTION:
            return choose_call(view, self.params)
        players = view.rules.players
        if view.phase == Phase.EXCHANGE:
            return choose_discard(view.hand, view.contract, view.context, view.discards_left,
                                  players=players)
        return choose_play(view.seat, view.hand, view.legal, view.unseen, view.trick,
                           view.leader, view.led, view.context, view.contract, view.declarer,
                           view.sitting_out, view.voids, view.exposed, players)
