"""``rule``, compiled: the rule bot of :mod:`agents.rule` as numba kernels over the game records
of the fast core (:class:`fh_env.compiled.games.FastGames`), at every table size (3, 4 or 6
players, §9).

The same decision as ``agents.rule.RuleBot().act(seat_view(state, seat), rng)`` on every
position (``tests/test_rule_compiled.py`` and ``python -m bench.rule`` hold the two to it): bids,
discards, plays and joker leads naming a suit.  ``RuleBot`` holds no state between decisions and
draws nothing from its generator, so neither does this twin.

Each kernel mirrors the function of :mod:`agents.rule` of the same name (``_lead`` ->
:func:`lead`, ...) line by line.  What it reads of a game record is what the seat on turn may
know, as ``fh_env.view.seat_view`` gives it: its own hand, the public auction and play (the call
log, the trick log, the current trick, voids), the discards of its own exchange, and the
declarer's hand only while it is exposed (open nullo); never another hand.

The table size comes from the records, as in :mod:`fh_env.compiled.engine`: a kernel reads the
number of seats from the game record (``g.hands.shape[0]``; numba compiles each kernel once per
record type), and whatever else differs by size from the bot record (:func:`bot_dtype`): the
tables of the size's :class:`agents.rule.Kit` (its pack, its action ids) and the pack that
``hand_tricks`` counts honours in.  So the same kernels play the rules of :mod:`agents.rule`
that depend on the size: :func:`friends_of` is ``rule.friends_of`` (a team of two or three in
seat parity; with three players the two defenders against a declarer, who cooperate loosely:
:func:`follow`), the opponents are the seats that play the hand and are not friends
(six-handed nullo: both partners sit out), ``trick_order`` is the engine's
(:func:`fh_env.compiled.engine.next_player`, ``active_seats``), and the partner allowance of
the bidding (:func:`partner_allowance`) is ``kitty_alone`` with three players, one allowance per
partner scaled by ``partner_scale_six`` with six.

Every table comes from :mod:`agents.rule` itself, as data in a bot record (:func:`bot_dtype`,
built by :func:`encode_bot` for one rule set and one :class:`agents.rule.BidParams`): ``POWER``
and the ``Kit``'s ``above``, ``below``, ``beaters``, ``SUIT_MASK``, ``STRENGTH``, the effective
suits of ``TABLES``, the plain order of ``PLAIN_ORDER``, the suit orders of ``_suit_orders``
that ``hand_tricks`` counts honours along, the values of ``contract_value``, and the fields of
``BidParams``.  Nothing of them is compiled in (numba's on-disk cache would not notice a change
of another module's globals); the constants compiled in are the call and discard ids and card
ids (fixed tables by design) and the phases; the play and joker-lead ids are the size's, in the
bot record.

Entry points (``games`` a ``FastGames.games`` array, ``rules`` its rules record
``FastGames._rules`` / :func:`fh_env.compiled.rules.encode_rules`, ``bot`` a bot record of the
same rule set):

* :func:`choose` ``(g, r, b)``: the action of the seat on turn of one unfinished game;
* :func:`act` ``(games, rules, bot, rows, out)``: ``out[k]`` the action in game ``rows[k]`` (-1
  where its hand is over);
* :func:`play_seats` ``(games, rules, bot, rows, seats)``: in each game of ``rows``, play while
  the seat on turn is one of ``seats[row]`` (a bit per seat) and the hand goes on; returns the
  number of decisions (the hook of ``VectorEnv.step(..., bots=...)``);
* :func:`rollouts` ``(games, rules, bot, first)``: a first action, then the bot on every seat to
  the end of the hand.

:class:`RuleSeats` wraps them for one rule set: ``RuleSeats(rules).act(fast_games, rows)`` and the
``bots`` callable of :meth:`fh_env.envs.vector.VectorEnv.step`.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
from numba import njit

from fh_env import actions as A
from fh_env.actions import action_table
from fh_env.cards import NT_STANDARD, NUM_CONTEXTS, PLAIN_ORDER, is_joker, mask_of, rank_of
from fh_env.compiled.cards import JOKER_BITS, U0, U1, bit, lowest_bit, popcount
from fh_env.compiled.engine import (AUCTION, EXCHANGE, HAND_OVER, active_seats, apply, legal,
                                    next_player, side_of, sits_out, trick_best)
from fh_env.rules import Rules

from .. import rule as R

PASS, NULLO, OPEN_NULLO, DOUBLE_NULLO, MISDEAL = (A.PASS, A.NULLO, A.OPEN_NULLO, A.DOUBLE_NULLO,
                                                  A.MISDEAL)
BID_BASE, DISCARD_BASE = A.BID_BASE, A.DISCARD_BASE
NT = A.NT
_PARAMS = tuple(f.name for f in fields(R.BidParams))


def _max_order(players: int) -> int:
    """Room for the cards of one effective suit in a bot record's suit orders: at most 14 in a
    4-player deck (11 plain cards, two jokers, the left bower), 18 in the six-handed pack (16
    hearts or diamonds, the joker, the left bower)."""
    return 20 if players == 6 else 16


def bot_dtype(players: int = 4) -> np.dtype:
    """The bot record of a table size: the tables of its :class:`agents.rule.Kit` cover the
    card ids of its action table (46, or 64 with six players)."""
    num = action_table(players).num_cards
    return np.dtype([
        # per trump context: rule.POWER and the Kit's above, below, beaters; SUIT_MASK,
        # STRENGTH, TABLES.suit
        ("power", np.int16, (NUM_CONTEXTS, num)),
        ("above", np.uint64, (NUM_CONTEXTS, num)),
        ("below", np.uint64, (NUM_CONTEXTS, num)),
        ("beaters", np.uint64, (NUM_CONTEXTS, 5, num)),
        ("suit_mask", np.uint64, (NUM_CONTEXTS, 5)),
        ("strength", np.int16, (NUM_CONTEXTS, 5, num)),
        ("suit", np.int8, (NUM_CONTEXTS, num)),
        ("plain_order", np.int8, (num,)),  # cards.PLAIN_ORDER[rank_of(c)] of the plain cards
        # rule._suit_orders(pack, ctx): each effective suit's cards of the pack, highest first
        ("order", np.int8, (NUM_CONTEXTS, 5, _max_order(players))),
        ("order_len", np.int8, (NUM_CONTEXTS, 5)),
        # the rule set, as the bot reads it
        ("deck_mask", np.uint64),  # mask_of(rules.cards): SeatView.unseen's pack
        ("nt_context", np.int8),  # hand_tricks' context of notrump
        ("nullo_context", np.int8),  # nullo_danger's context
        ("kitty_size", np.int8),
        ("exchanges", np.int8, (3,)),  # rule._exchanges_in(rules, bid) for NULLO, OPEN, DOUBLE
        ("limited", np.bool_),  # bidding_rounds != "unlimited"
        ("value", np.int64, (5, 11)),  # contract_value(rules, bid_action(level, strain))
        ("kitty_allowance", np.float64),  # p.kitty * rules.kitty_size / 3
        ("play_base", np.int64), ("joker_lead_base", np.int64),  # the Kit's action ids
    ] + [(name, np.float64) for name in _PARAMS])  # the fields of BidParams


#: One bot record: the tables of :mod:`agents.rule` for one rule set and one ``BidParams``
#: (four players; :data:`BOT_DTYPES` holds each table size's, :func:`bot_dtype`).
BOT_DTYPE = bot_dtype(4)
BOT_DTYPES = {n: bot_dtype(n) for n in (3, 4, 6)}


def encode_bot(rules: Rules, params: R.BidParams = R.DEFAULT_PARAMS) -> np.ndarray:
    """The bot record (a 1-element array) of ``RuleBot(params)`` playing under ``rules`` (any
    table size)."""
    players = rules.players
    k = R.kit(players)
    rec = np.zeros(1, BOT_DTYPES[players])
    b = rec[0]
    num = b["power"].shape[1]
    b["power"] = [row[:num] for row in R.POWER]
    b["above"] = [row[:num] for row in k.above]
    b["below"] = [row[:num] for row in k.below]
    b["beaters"] = [[row[:num] for row in ctx] for ctx in k.beaters]
    b["suit_mask"] = R.SUIT_MASK
    b["strength"] = [[row[:num] for row in ctx] for ctx in R.STRENGTH]
    b["suit"] = [row[:num] for row in R.TABLES.suit]
    b["plain_order"] = [-1 if is_joker(c) else PLAIN_ORDER[rank_of(c)] for c in range(num)]
    for ctx in range(NUM_CONTEXTS):
        for s, order in enumerate(R._suit_orders(R._pack_key(rules), ctx)):
            b["order"][ctx, s, :len(order)] = order
            b["order_len"][ctx, s] = len(order)
    b["deck_mask"] = mask_of(rules.cards)
    b["nt_context"] = 5 if rules.notrump_ranking == "j5" else NT_STANDARD
    b["nullo_context"] = R.NT_JOKERS_LOW if rules.jokers_low_in_nullo else NT_STANDARD
    b["kitty_size"] = rules.kitty_size
    b["exchanges"] = [R._exchanges_in(rules, bid) for bid in (NULLO, OPEN_NULLO, DOUBLE_NULLO)]
    b["limited"] = rules.bidding_rounds != "unlimited"
    for strain in range(5):
        for level in range(6, 11):
            b["value"][strain, level] = R.contract_value(rules, A.bid_action(level, strain))
    b["kitty_allowance"] = params.kitty * rules.kitty_size / 3
    b["play_base"], b["joker_lead_base"] = k.play_base, k.joker_lead_base
    for name in _PARAMS:
        b[name] = getattr(params, name)
    return rec


# ----------------------------------------------------------------------------- helpers
@njit(cache=True)
def _lowest(mask, pw):
    """rule._lowest: the first card of ``mask`` (id order) with the least ``pw``."""
    best, best_p = -1, 1_000_000_000
    m = mask
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if pw[c] < best_p:
            best, best_p = c, np.int64(pw[c])
    return best


@njit(cache=True)
def _highest(mask, pw):
    best, best_p = -1, -1_000_000_000
    m = mask
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if pw[c] > best_p:
            best, best_p = c, np.int64(pw[c])
    return best


@njit(cache=True)
def _has(x, i):
    """Bit ``i`` of a small integer (voids, suit masks)."""
    return (np.int64(x) >> np.int64(i)) & 1 != 0


@njit(cache=True)
def _below(cards, strength, best):
    out = U0
    m = cards
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if strength[c] < best:
            out |= bit(c)
    return out


@njit(cache=True)
def friends_of(g, seat):
    """rule.friends_of: the seats (a bit mask, ``seat`` included) that ``seat`` plays with in
    this hand: its team with four or six players (seat parity); with three, both defenders
    against a declarer, nobody else otherwise."""
    n = g.hands.shape[0]
    if n != 3:
        m = 0
        for s in range(seat % 2, n, 2):
            m |= 1 << s
        return m
    if g.contract < 0 or g.declarer < 0 or seat == g.declarer:
        return 1 << seat
    return 7 & ~(1 << np.int64(g.declarer))


@njit(cache=True)
def _opp_void_all(g, friends, suit):
    """all(voids[o] >> suit & 1 for o in rule._opponents): the seats that play this hand and
    are not ``friends``."""
    for o in range(g.hands.shape[0]):
        if not _has(friends, o) and not sits_out(g, o) and not _has(g.voids[o], suit):
            return False
    return True


@njit(cache=True)
def _opp_void_any(g, friends, suit):
    for o in range(g.hands.shape[0]):
        if not _has(friends, o) and not sits_out(g, o) and _has(g.voids[o], suit):
            return True
    return False


@njit(cache=True)
def unseen_cards(g, b, seat):
    """``SeatView.unseen`` of ``seat``: the pack less its hand, the cards played, the exposed hand
    and the discards of its own last exchange."""
    known = g.hands[seat] | exposed_hand(g, seat)
    for k in range(g.ntricks):
        for i in range(g.trick_cards.shape[1]):
            c = g.trick_cards[k, i]
            if c >= 0:
                known |= bit(c)
    for i in range(g.ntrick):
        known |= bit(g.trick[i])
    n = g.nexchanges
    if n > 0 and g.exch_seat[n - 1] == seat:
        known |= g.exch_discards[n - 1]
    return b.deck_mask & ~known


@njit(cache=True)
def exposed_hand(g, seat):
    """``SeatView.exposed``: the declarer's hand when exposed to ``seat``, else 0."""
    if g.exposed and seat != g.declarer:
        return g.hands[g.declarer]
    return U0


# ----------------------------------------------------------------------------- play
@njit(cache=True)
def choose_play(g, r, b):
    """rule.choose_play for the seat on turn."""
    _, cards, leads = legal(g, r)
    if popcount(cards) + popcount(leads) == 1:
        if cards != U0:
            return b.play_base + lowest_bit(cards)
        return b.joker_lead_base + lowest_bit(leads)
    seat = g.turn
    unseen = unseen_cards(g, b, seat)
    friends = friends_of(g, seat)
    if g.contract >= NULLO:
        if _has(friends, g.declarer):
            return nullo_declarer(g, r, b, seat, cards, leads, unseen, friends)
        return nullo_defender(g, r, b, seat, cards, leads, unseen)
    declaring = g.contract < 0 or _has(friends, g.declarer)
    if g.ntrick == 0:
        return lead(g, b, seat, cards, leads, unseen, declaring, friends)
    return follow(g, r, b, seat, cards, unseen, friends)


@njit(cache=True)
def joker_lead(b, leads, hand, ctx):
    """rule._joker_lead: the joker lead naming our longest suit."""
    best, best_len = -1, -1
    for i in range(8):
        if (leads >> np.uint64(i)) & U1:
            length = popcount(hand & b.suit_mask[ctx, i % 4])
            if length > best_len:
                best, best_len = i, length
    return b.joker_lead_base + best


@njit(cache=True)
def lead(g, b, seat, cards, leads, unseen, declaring, friends):
    """rule._lead."""
    ctx = g.context
    pw = b.power[ctx]
    hand = g.hands[seat]
    trump = ctx if ctx < NT_STANDARD else -1
    trump_mask = b.suit_mask[ctx, trump] if trump >= 0 else U0
    opp_trumps = (unseen & trump_mask) != U0 and not _opp_void_all(g, friends, trump)
    my_trumps = cards & trump_mask
    if declaring and my_trumps != U0 and opp_trumps:
        top = _highest(my_trumps, pw)
        if unseen & b.above[ctx, top] == U0:
            return b.play_base + top
        if seat == g.declarer and popcount(my_trumps) >= popcount(unseen & trump_mask):
            return b.play_base + _lowest(my_trumps, pw)
    side = cards & ~trump_mask & ~JOKER_BITS
    best, best_p = -1, -1
    rest = side
    while rest != U0:
        c = lowest_bit(rest)
        rest &= rest - U1
        if unseen & b.above[ctx, c] != U0:
            continue
        if opp_trumps and _opp_void_any(g, friends, b.suit[ctx, c]):
            continue
        if pw[c] > best_p:
            best, best_p = c, np.int64(pw[c])
    if best >= 0:
        return b.play_base + best
    if declaring and leads != U0:
        return joker_lead(b, leads, hand, ctx)
    if side == U0:
        if cards != U0:
            return b.play_base + (_highest(cards, pw) if declaring else _lowest(cards, pw))
        return joker_lead(b, leads, hand, ctx)
    best_suit, best_len = -1, -1
    for suit in range(4):
        if suit == trump:
            continue
        length = popcount(side & b.suit_mask[ctx, suit])
        if length > best_len:
            best_suit, best_len = suit, length
    return b.play_base + _lowest(side & b.suit_mask[ctx, best_suit], pw)


@njit(cache=True)
def discard_card(b, cards, unseen, ctx):
    """rule._discard: not a trump, not a sure winner, the lowest otherwise."""
    pw = b.power[ctx]
    trump_mask = b.suit_mask[ctx, ctx] if ctx < NT_STANDARD else JOKER_BITS
    best, best_k = -1, np.int64(0)
    m = cards
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        k = ((np.int64((trump_mask >> np.uint64(c)) & U1) * 2
              + np.int64(unseen & b.above[ctx, c] == U0)) * 1024 + np.int64(pw[c]) + 1)
        if best < 0 or k < best_k:
            best, best_k = c, k
    return best


@njit(cache=True)
def follow(g, r, b, seat, cards, unseen, friends):
    """rule._follow."""
    ctx, led = g.context, g.led
    pw = b.power[ctx]
    strength = b.strength[ctx, led]
    best, winner = trick_best(g, r)
    ntrick = g.ntrick
    after = active_seats(g) - 1 - ntrick  # the seats to play after us in this trick
    last = after == 0
    led_mask = b.suit_mask[ctx, led]
    following = cards & led_mask
    if g.hands.shape[0] == 3 and g.declarer >= 0:
        s = seat
        for _ in range(after):
            s = next_player(g, s)
            if s == g.declarer:  # three players: the declarer is still to play
                friends &= ~(1 << np.int64(winner)) | (1 << np.int64(seat))
    if _has(friends, winner):
        if following != U0:
            return b.play_base + _lowest(following, pw)
        return b.play_base + discard_card(b, cards, unseen, ctx)
    winners = cards & ~_below(cards, strength, best + 1)
    if winners == U0:
        if following != U0:
            return b.play_base + _lowest(following, pw)
        return b.play_base + discard_card(b, cards, unseen, ctx)
    if last:
        return b.play_base + _lowest(winners, strength)
    # the opponents to play after us in this trick, and whether one has shown void in the led
    opp_after = False
    shown_void = False
    s = seat
    for _ in range(after):
        s = next_player(g, s)
        if not _has(friends, s):
            opp_after = True
            if _has(g.voids[s], led):
                shown_void = True
    safe = U0
    rest = winners
    while rest != U0:
        c = lowest_bit(rest)
        rest &= rest - U1
        threats = unseen & b.beaters[ctx, led, c]
        if not opp_after or not ((threats & led_mask) != U0 or (threats != U0 and shown_void)):
            safe |= bit(c)
    if safe != U0:
        return b.play_base + _lowest(safe, strength)
    if following == U0:
        return b.play_base + _lowest(winners, strength)
    if ntrick >= 2:
        return b.play_base + _highest(winners, strength)
    return b.play_base + _lowest(following, pw)


@njit(cache=True)
def nullo_declarer(g, r, b, seat, cards, leads, unseen, friends):
    """rule._nullo_declarer: lose every trick."""
    ctx = g.context
    pw = b.power[ctx]
    if g.ntrick == 0:
        plain = cards & ~JOKER_BITS
        if plain == U0:
            if cards != U0:
                return b.play_base + _lowest(cards, pw)
            return b.joker_lead_base + lowest_bit(leads)
        # min of (not covered, unseen cards below, pw)
        best, best_k = -1, np.int64(0)
        m = plain
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            covered = (unseen & b.above[ctx, c]) != U0 and not _opp_void_all(
                g, friends, b.suit[ctx, c])
            k = ((np.int64(not covered) * 64 + popcount(unseen & b.below[ctx, c])) * 1024
                 + np.int64(pw[c]) + 1)
            if best < 0 or k < best_k:
                best, best_k = c, k
        return b.play_base + best
    led = g.led
    strength = b.strength[ctx, led]
    best, _ = trick_best(g, r)
    losers = _below(cards, strength, best)
    if losers != U0:
        if cards & b.suit_mask[ctx, led] != U0:
            return b.play_base + _highest(losers, pw)
        return b.play_base + most_dangerous(b, losers, unseen, ctx)
    if g.ntrick == active_seats(g) - 1:
        return b.play_base + _highest(cards, pw)
    return b.play_base + _lowest(cards, pw)


@njit(cache=True)
def most_dangerous(b, cards, unseen, ctx):
    """rule._most_dangerous: the first card with the greatest (joker, -cards below, pw)."""
    pw = b.power[ctx]
    best, best_k = -1, np.int64(0)
    m = cards
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        k = ((np.int64(pw[c] >= 299) * 64 + 63 - popcount(unseen & b.below[ctx, c])) * 1024
             + np.int64(pw[c]) + 1)
        if best < 0 or k > best_k:
            best, best_k = c, k
    return best


@njit(cache=True)
def _declares(g, s):
    """Whether seat ``s`` is one of the nullo declarers (both partners in double nullo, which
    only four players bid)."""
    return s == g.declarer or (g.contract == DOUBLE_NULLO and s == (g.declarer + 2) % 4)


@njit(cache=True)
def nullo_defender(g, r, b, seat, cards, leads, unseen):
    """rule._nullo_defender: make the declarer take a trick."""
    ctx = g.context
    pw = b.power[ctx]
    if g.ntrick == 0:
        plain = cards & ~JOKER_BITS
        if plain == U0:
            if cards != U0:
                return b.play_base + _lowest(cards, pw)
            return b.joker_lead_base + lowest_bit(leads)
        exposed = exposed_hand(g, seat)
        if exposed != U0:
            for suit in range(4):
                theirs = exposed & b.suit_mask[ctx, suit]
                mine = plain & b.suit_mask[ctx, suit]
                if theirs != U0 and mine != U0:
                    c = _lowest(mine, pw)
                    if pw[c] < pw[_lowest(theirs, pw)]:
                        return b.play_base + c
        best, best_k = -1, np.int64(0)
        m = plain
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            suit = b.suit[ctx, c]
            all_void = _has(g.voids[g.declarer], suit) and (
                g.contract != DOUBLE_NULLO or _has(g.voids[(g.declarer + 2) % 4], suit))
            k = ((np.int64(all_void) * 64 + popcount(unseen & b.below[ctx, c])) * 1024
                 + np.int64(pw[c]) + 1)
            if best < 0 or k < best_k:
                best, best_k = c, k
        return b.play_base + best
    led = g.led
    strength = b.strength[ctx, led]
    best, winner = trick_best(g, r)
    following = cards & b.suit_mask[ctx, led]
    not_jokers = cards & ~JOKER_BITS
    if not_jokers == U0:
        not_jokers = cards
    declarer_played = False
    s = g.leader
    for _ in range(g.ntrick):
        if _declares(g, s):
            declarer_played = True
        s = next_player(g, s)
    if declarer_played:
        if _declares(g, winner):
            under = _below(cards, strength, best)
            if under != U0:
                plain_under = under & ~JOKER_BITS
                return b.play_base + _highest(plain_under if plain_under != U0 else under, pw)
        return b.play_base + _highest(not_jokers if following != U0 else cards, pw)
    if following != U0:
        return b.play_base + _lowest(following, pw)
    return b.play_base + _highest(not_jokers, pw)


# ----------------------------------------------------------------------------- exchange
@njit(cache=True)
def _danger(b, hand, ctx, c):
    """The danger rule._nullo_danger_cards gives card ``c`` of ``hand`` (a plain card of an
    effective suit 0..3): its cards below in the deck, less twice the hand's cards below it."""
    pw = b.power[ctx]
    mine = hand & b.suit_mask[ctx, b.suit[ctx, c]]
    i = 0
    m = mine
    while m != U0:
        u = lowest_bit(m)
        m &= m - U1
        if pw[u] < pw[c] or (pw[u] == pw[c] and u < c):  # its place in sorted(mine, key=pw)
            i += 1
    pos = popcount(b.below[ctx, c])
    return max(0.0, pos - 2.0 * i - 1.0)


@njit(cache=True)
def _joker_danger(b, ctx, c):
    return 0.0 if b.power[ctx, c] < 0 else 20.0


@njit(cache=True)
def nullo_worst(b, hand, ctx):
    """rule._nullo_worst: the card of max((danger, card)) over rule._nullo_danger_cards."""
    best, best_d = -1, 0.0
    for suit in range(4):
        m = hand & b.suit_mask[ctx, suit]
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            d = _danger(b, hand, ctx, c)
            if best < 0 or d > best_d or (d == best_d and c > best):
                best, best_d = c, d
    m = hand & JOKER_BITS
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        d = _joker_danger(b, ctx, c)
        if best < 0 or d > best_d or (d == best_d and c > best):
            best, best_d = c, d
    return best


@njit(cache=True)
def choose_discard(g, b):
    """rule.choose_discard for the seat on turn (its own hand only)."""
    hand = g.hands[g.turn]
    ctx = g.context
    if g.contract >= NULLO:
        return DISCARD_BASE + nullo_worst(b, hand, ctx)
    pw = b.power[ctx]
    trump = ctx if ctx < NT_STANDARD else -1
    trump_mask = b.suit_mask[ctx, trump] if trump >= 0 else JOKER_BITS
    lengths = np.zeros(4, np.int64)
    for s in range(4):
        lengths[s] = popcount(hand & b.suit_mask[ctx, s])
    discards_left = g.discards_left
    best, best_k = -1, np.int64(0)
    m = hand
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if (trump_mask >> np.uint64(c)) & U1:
            k = np.int64(4 * 64) << 40  # (2, pw): above every (0|1, 0|1, length, pw)
        else:
            suit = b.suit[ctx, c]
            top = b.above[ctx, c] & ~hand == U0
            if trump >= 0:
                voidable = lengths[suit] <= discards_left
                if voidable:
                    mine = hand & b.suit_mask[ctx, suit]
                    while mine != U0:
                        u = lowest_bit(mine)
                        mine &= mine - U1
                        if b.above[ctx, u] & ~hand == U0:
                            voidable = False
                            break
                k = (np.int64(top) * 2 + np.int64(not voidable)) * 64 + lengths[suit]
            else:
                order = b.plain_order[c]  # guarded honours: Q, K, A
                guarded = order >= 13 and lengths[suit] >= 16 - order
                k = np.int64(top or guarded) * 2 * 64 + lengths[suit]
            k = k << 40
        k += np.int64(pw[c]) + 1
        if best < 0 or k < best_k:
            best, best_k = c, k
    return DISCARD_BASE + best


# ----------------------------------------------------------------------------- bidding
@njit(cache=True)
def nullo_danger(b, hand, exchange):
    """rule.nullo_danger."""
    ctx = b.nullo_context
    if exchange and b.kitty_size > 0:
        # drop the kitty_size greatest (danger, card) of the hand as it is
        danger = np.full(64, -1.0)
        m = hand
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            if c < b.suit.shape[1] and b.suit[ctx, c] < 4:
                danger[c] = _danger(b, hand, ctx, c)
        dropped = U0
        for _ in range(b.kitty_size):
            best, best_d = -1, -1.0
            m = hand & ~dropped
            while m != U0:
                c = lowest_bit(m)
                m &= m - U1
                d = danger[c] if b.suit[ctx, c] < 4 else _joker_danger(b, ctx, c)
                if best < 0 or d > best_d or (d == best_d and c > best):
                    best, best_d = c, d
            if best < 0:
                break
            dropped |= bit(best)
        hand = hand & ~dropped
    total = 0.0
    voids = 0
    for suit in range(4):
        m = hand & b.suit_mask[ctx, suit]
        if m == U0:
            voids += 1
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            total += _danger(b, hand, ctx, c)
    m = hand & JOKER_BITS
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        total += _joker_danger(b, ctx, c)
    return total - b.nullo_void * voids + (b.nullo_kitty * b.kitty_size if exchange else 0.0)


@njit(cache=True)
def honour_tricks(b, hand, ctx, suit, discount):
    """rule._honour_tricks along the suit order ``b.order[ctx, suit]``."""
    n = b.order_len[ctx, suit]
    below_mine = 0
    for k in range(n):
        if (hand >> np.uint64(b.order[ctx, suit, k])) & U1:
            below_mine += 1
    missing = 0
    tricks, weak = 0.0, 0
    for k in range(n):
        if below_mine == 0:
            break
        if (hand >> np.uint64(b.order[ctx, suit, k])) & U1:
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


@njit(cache=True)
def hand_tricks(b, hand, strain):
    """rule.hand_tricks."""
    ctx = strain if strain < NT else b.nt_context
    tricks = 0.0
    if strain < NT:
        trumps = popcount(hand & b.suit_mask[ctx, strain])
        t, weak = honour_tricks(b, hand, ctx, strain, 0.3)
        tricks += t + min(weak, max(0, trumps - 3)) * 0.7
        ruff = 0.0
        for s in range(4):
            if s == strain:
                continue
            length = popcount(hand & b.suit_mask[ctx, s])
            t, _ = honour_tricks(b, hand, ctx, s, 0.55)
            tricks += t
            if length < 3:
                ruff += 0.8 if length == 0 else (0.45 if length == 1 else 0.15)
            else:
                ruff += 0.0
        tricks += min(ruff, max(0, trumps - 2) * 0.6)
    else:
        jokers = hand & JOKER_BITS
        tricks += popcount(jokers)
        for s in range(4):
            length = popcount(hand & b.suit_mask[ctx, s])
            t, _ = honour_tricks(b, hand, ctx, s, 0.5)
            tricks += t
            if length >= 5 and t >= 1.5:
                tricks += (length - 4) * 0.7
            if t == 0.0 and jokers == U0:
                tricks -= 0.5
    return tricks


@njit(cache=True)
def partner_allowance(g, b, seat, strain):
    """rule._partner_allowance: ``kitty_alone`` with three players (no partner), the allowance
    of each partner scaled by ``partner_scale_six`` with six, the partner's with four."""
    n = g.hands.shape[0]
    if n == 3:
        return b.kitty_alone
    if n == 6:
        return b.partner_scale_six * (one_partner(g, b, (seat + 2) % 6, strain)
                                      + one_partner(g, b, (seat + 4) % 6, strain))
    return one_partner(g, b, (seat + 2) % 4, strain)


@njit(cache=True)
def one_partner(g, b, partner, strain):
    """rule._one_partner: what the calls of ``partner`` add to our tricks in ``strain``."""
    n = min(np.int64(g.ncalls), g.calls.shape[0])
    called = False
    last = -1
    for k in range(n):
        if g.calls[k, 0] == partner:
            called = True
            if g.calls[k, 1] != PASS:
                last = np.int64(g.calls[k, 1])
    if not called:
        return b.partner_unknown
    if last < 0:
        return b.partner_passed
    if last >= NULLO and last <= DOUBLE_NULLO:
        return b.partner_nullo
    if not (BID_BASE <= last < BID_BASE + A.NUM_ORDINARY_BIDS):
        return b.partner_passed
    if (last - BID_BASE) % 5 == strain:
        return (A.MIN_LEVEL + (last - BID_BASE) // 5) - b.partner_raise
    return b.partner_other


@njit(cache=True)
def strain_estimates(g, b, seat, hand):
    """rule.strain_estimates."""
    est = np.empty(5)
    opp = 0
    n = min(np.int64(g.ncalls), g.calls.shape[0])
    side = side_of(g, seat)
    for k in range(n):
        a = np.int64(g.calls[k, 1])
        if side_of(g, g.calls[k, 0]) != side and BID_BASE <= a < BID_BASE + A.NUM_ORDINARY_BIDS:
            opp |= 1 << ((a - BID_BASE) % 5)
    for strain in range(5):
        e = hand_tricks(b, hand, strain) + b.kitty_allowance + partner_allowance(g, b, seat,
                                                                                   strain)
        if strain == NT:
            e -= b.nt_risk
        elif (opp >> strain) & 1:
            e -= b.opponents_strain
        est[strain] = e
    return est


@njit(cache=True)
def _bid(level, strain):
    return BID_BASE + (level - A.MIN_LEVEL) * 5 + strain


@njit(cache=True)
def choose_call(g, r, b):
    """rule.choose_call for the seat on turn."""
    _, lg, _ = legal(g, r)
    if lg & (lg - U1) == U0:
        return lowest_bit(lg)
    seat = g.turn
    hand = g.hands[seat]
    if (lg >> np.uint64(OPEN_NULLO)) & U1 and nullo_danger(
            b, hand, b.exchanges[1] != 0) <= b.open_nullo_limit:
        return OPEN_NULLO
    if (lg >> np.uint64(DOUBLE_NULLO)) & U1 and nullo_danger(
            b, hand, b.exchanges[2] != 0) <= b.nullo_limit:
        return DOUBLE_NULLO
    if (lg >> np.uint64(NULLO)) & U1 and nullo_danger(
            b, hand, b.exchanges[0] != 0) <= b.nullo_limit:
        return NULLO
    if (lg >> np.uint64(MISDEAL)) & U1:
        return MISDEAL
    est = strain_estimates(g, b, seat, hand)
    best, best_value = -1, np.int64(-1)
    best_est = est.max()
    for strain in range(5):
        top = min(10, int(est[strain]))
        if top < 6 or est[strain] < best_est - b.strain_margin:
            continue
        bid = -1
        for level in range(6, top + 1):
            a = _bid(level, strain)
            if (lg >> np.uint64(a)) & U1:
                bid = a
                if not b.limited:
                    break
        if bid < 0:
            continue
        value = b.value[strain, top]
        if value > best_value:
            best, best_value = bid, value
    if best >= 0:
        return best
    if lg & U1:
        return PASS
    done = 0
    for _ in range(5):  # the strains by decreasing estimate (the lower strain first on ties)
        pick = -1
        for s in range(5):
            if not (done >> s) & 1 and (pick < 0 or est[s] > est[pick]):
                pick = s
        done |= 1 << pick
        for level in range(6, 11):
            a = _bid(level, pick)
            if (lg >> np.uint64(a)) & U1:
                return a
    return lowest_bit(lg)


# ----------------------------------------------------------------------------- the bot
@njit(cache=True)
def choose(g, r, b):
    """``RuleBot().act`` for the seat on turn of one unfinished game."""
    if g.phase == AUCTION:
        return choose_call(g, r, b)
    if g.phase == EXCHANGE:
        return choose_discard(g, b)
    return choose_play(g, r, b)


@njit(cache=True)
def act(games, rules, bot, rows, out):
    """``out[k]``: the bot's action in game ``rows[k]``, -1 where the hand is over."""
    r, b = rules[0], bot[0]
    for k in range(rows.shape[0]):
        g = games[rows[k]]
        out[k] = choose(g, r, b) if g.phase < HAND_OVER else -1


@njit(cache=True)
def rollouts(games, rules, bot, first):
    """In each game ``i``, play ``first[i]``, then the rule bot at every seat to the end of the
    hand: :func:`agents.mc.rollout` (``policy="rule"``) in compiled code."""
    r, b = rules[0], bot[0]
    for i in range(games.shape[0]):
        g = games[i]
        apply(g, r, first[i])
        while g.phase < HAND_OVER:
            apply(g, r, choose(g, r, b))


@njit(cache=True)
def play_seats(games, rules, bot, rows, seats):
    """In each game ``rows[k]``, play the bot while the seat on turn has its bit in
    ``seats[rows[k]]`` and the hand goes on; returns the number of decisions made."""
    r, b = rules[0], bot[0]
    count = 0
    for k in range(rows.shape[0]):
        i = rows[k]
        g = games[i]
        mine = np.int64(seats[i])
        while g.phase < HAND_OVER and (mine >> np.int64(g.turn)) & 1:
            apply(g, r, choose(g, r, b))
            count += 1
    return count


class RuleSeats:
    """The compiled rule bot for one rule set (``RuleBot(params)`` under ``rules``).

    ``act(fast, rows)``: its actions in the games ``rows`` of a :class:`FastGames` (``int64``,
    -1 where the hand is over).  The instance is also the ``bots`` callable of
    :meth:`fh_env.envs.vector.VectorEnv.step`: ``seats(games, rules_record, rows, seats)``.
    """

    def __init__(self, rules: Rules, params: R.BidParams = R.DEFAULT_PARAMS) -> None:
        self.rules = rules
        self.params = params
        self.record = encode_bot(rules, params)

    def act(self, fast, rows) -> np.ndarray:
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        out = np.empty(len(rows), dtype=np.int64)
        act(fast.games, fast._rules, self.record, rows, out)
        return out

    def __call__(self, games: np.ndarray, rules: np.ndarray, rows: np.ndarray,
                 seats: np.ndarray) -> int:
        return int(play_seats(games, rules, self.record, rows, seats))


def compiles(bot) -> R.BidParams | None:
    """The ``BidParams`` of a bot this module twins (a plain :class:`agents.rule.RuleBot`),
    else None."""
    return bot.params if type(bot) is R.RuleBot else None


__all__ = ["BOT_DTYPE", "BOT_DTYPES", "RuleSeats", "act", "bot_dtype", "choose", "compiles",
           "encode_bot", "play_seats"]
