"""Compiled per-game logic of the fast core: the twin of :mod:`fh_env.engine`.

Holds the game record (:data:`GAME_DTYPE`, the fields of ``fh_env.engine.State``) and one
kernel per phase method of ``State``: every kernel takes ``g``, one game record, and ``r``, the
rules record (:data:`fh_env.compiled.rules.RULES_DTYPE`), and mirrors the method of the same name
(without the leading underscore, or as :data:`TWINS` says) line by line, so that the
differential test (``tests/test_compiled.py``) can hold the two to identical results and
``tests/test_twins.py`` can find a twin for every rule method.  Dealing and the games' random
generator (:func:`fh_env.engine.deal_cards`'s place) are here too, and the batch kernels at the
end loop over games; all of them are ``numba.njit(cache=True)``.

Legal actions are returned as ``(base, cards, leads)``: the actions ``base + i`` for each bit
``i`` of ``cards``, plus the joker leads ``JOKER_LEAD_BASE + j`` for each bit ``j`` of ``leads``;
that covers the 130 action ids (166 with six players) without a 130-bit integer; the bases
come from the rules record (``play_base``, ``joker_lead_base``: the table size's action table).

Every table size of §9 runs on these kernels: the game record of a size
(:func:`game_dtype`) has one entry per seat (hands, the trick, tricks won, voids) and one per
side (scores, points: two teams, or three players), and a kernel reads the number of seats and
sides from the shapes of those fields (``g.hands.shape[0]``, ``g.scores.shape[0]``); numba
compiles each kernel once per record type.

Everything a kernel reads about cards and rules comes in the rules record, as data: numba's
cache does not notice a change to a global of another module, so no table from ``fh_env.cards``
or the engine is compiled in as a constant.  The constants that are compiled in are the action
ids and card ids (fixed tables by design), the phases, and the option codes of
:mod:`fh_env.compiled.rules` (checked by ``tests/test_twins.py``, see :func:`compiled_codes`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import actions as A
from ..cards import JOKER, NT_STANDARD
from ..contracts import NUM_TRICKS
from ..engine import NO_CONTRACT, Phase
from .cards import (HIGH_JOKER_BIT, JOKER_BITS, RED_JOKER_BIT, U0, U1, bit, lowest_bit, nth_bit,
                    popcount)
from .contracts import (GAME_GOES_ON, contract_made, end_of_hand, end_of_hand_sides, hand_points,
                        side_points)
from .rules import (DN_AFTER_PARTNER, DN_ANYTIME, FL_DECLARER, JF_ANYTIME, JF_FIRST_OR_LAST,
                    JF_VOID_ONLY, JL_ANY, JL_NOT_LED, JL_NOT_SHOWN_VOID, NK_ALWAYS, NK_NULLO_ONLY,
                    RE_AFTER_CHANGE, RE_ALWAYS, RE_NEVER)

# ------------------------------------------------------------------------------- the game record
AUCTION, EXCHANGE, PLAY, HAND_OVER, GAME_OVER = (
    int(p) for p in (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY, Phase.HAND_OVER, Phase.GAME_OVER))
NO_CONTRACT_YET = -2  # the engine's ``contract is None`` (auction not over, or thrown in)
THROWN_IN_NAMES = (None, "all_pass", "inkle", "misdeal")  # HandResult.thrown_in, by code
NOT_THROWN, ALL_PASS, INKLE, MISDEAL = range(len(THROWN_IN_NAMES))
# Calls kept in the log.  An auction has at most 28 bids (each outranks every earlier bid, so no
# bid is made twice; see engine._RuleTables), each after at most 3 passes or an extra call, so it
# fits; to_state() still refuses a game whose log overflowed.  Six players: up to 5 passes
# before each bid, so their log is longer (MAX_CALLS_BY_SIZE; the kernels read its length).
MAX_CALLS = 128
MAX_CALLS_BY_SIZE = {3: MAX_CALLS, 4: MAX_CALLS, 6: 192}


def game_dtype(players: int = 4) -> np.dtype:
    """The game record of a table size (§9): one array entry per seat (``hands``, ``trick``,
    ``tricks_won``, ``voids``, a trick's cards) and one per side (``scores``, ``hand_points``,
    ``result_tricks``: two teams, or three players).  numba compiles each kernel once per
    record type, so every table size gets kernels of its own from the same code."""
    n, sides = players, (3 if players == 3 else 2)
    return np.dtype(_fields(n, sides))


def _fields(n: int, sides: int) -> list:
    return [
    # What every step reads or writes comes first, so that it shares a cache line or two; the
    # logs (calls, tricks, the deal as dealt), read back only by to_state(), come last.
    ("rng", np.uint64),  # this game's random state (xorshift64*)
    ("hands", np.uint64, (n,)), ("kitty", np.uint64),
    ("ncalls", np.int32), ("hands_played", np.int32), ("deal_index", np.int32),
    ("position", np.int16),
    ("phase", np.int8), ("turn", np.int8), ("dealer", np.int8),
    ("winner", np.int8),  # GAME_GOES_ON (-1), else a team or contracts.DRAW
    # the auction
    ("open_bids", np.uint64),  # the bids that outrank every bid so far (engine.State.open_bids)
    ("high_bid", np.int8), ("high_bidder", np.int8), ("passed", np.uint8),
    ("passed_since", np.uint8), ("max_level", np.int8), ("nullo_bidders", np.uint8),
    ("reopened", np.bool_), ("shows_joker", np.uint8),
    # the contract and the kitty exchange
    ("contract", np.int8), ("declarer", np.int8), ("context", np.int8), ("sitting_out", np.int8),
    ("discards_left", np.int8), ("nexchanges", np.int8), ("exch_seat", np.int8, (2,)),
    # the play
    ("leader", np.int8), ("led", np.int8), ("ntrick", np.int8), ("trick", np.int8, (n,)),
    ("ntricks", np.int8), ("tricks_won", np.int8, (n,)), ("suits_led", np.uint8),
    ("first_led", np.int8, (5,)), ("voids", np.uint8, (n,)), ("exposed", np.bool_),
    # the result of the hand (valid when has_result) and the game score
    ("has_result", np.bool_), ("thrown_in", np.int8), ("made", np.int8),  # made: -1 = None
    ("result_tricks", np.int8, (sides,)), ("hand_points", np.int64, (sides,)),
    ("scores", np.int64, (sides,)),
    # logs
    ("exch_picked", np.uint64, (2,)), ("exch_discards", np.uint64, (2,)),
    ("trick_leader", np.int8, (NUM_TRICKS,)), ("trick_cards", np.int8, (NUM_TRICKS, n)),
    ("trick_winner", np.int8, (NUM_TRICKS,)), ("trick_led", np.int8, (NUM_TRICKS,)),
    ("dealt_hands", np.uint64, (n,)), ("dealt_kitty", np.uint64),
    ("calls", np.int8, (MAX_CALLS_BY_SIZE[n], 2)),  # (seat, action)
    ]


#: One game, one record: a batch is a numpy structured array of these, so a kernel takes a
#: single argument and finds one game's fields side by side in memory (``games["hands"]`` is
#: still the ``[N, 4]`` array of every game's hands, a view).  A field named as a field of
#: ``State`` holds that field (:mod:`fh_env.compiled.games` converts them by name).  This is
#: the 4-player record; :func:`game_dtype` gives each table size's (:data:`GAME_DTYPES`).
GAME_DTYPE = game_dtype(4)
GAME_DTYPES = {n: game_dtype(n) for n in (3, 4, 6)}

SIX_NT = A.bid_action(6, A.NT)
SIX_NT_BIT = np.uint64(1 << SIX_NT)
NULLO_BIT = np.uint64(1 << A.NULLO)
OPEN_NULLO_BIT = np.uint64(1 << A.OPEN_NULLO)
DOUBLE_NULLO_BIT = np.uint64(1 << A.DOUBLE_NULLO)
ALL_BIDS = np.uint64(sum(1 << b for b in range(A.BID_BASE, A.DOUBLE_NULLO + 1)))
MISDEAL_BIT = np.uint64(1 << A.MISDEAL)
PASS, NULLO, OPEN_NULLO, DOUBLE_NULLO = A.PASS, A.NULLO, A.OPEN_NULLO, A.DOUBLE_NULLO
MISDEAL_CALL, DISCARD_BASE, PLAY_BASE = A.MISDEAL, A.DISCARD_BASE, A.PLAY_BASE
JOKER_LEAD_BASE, NUM_ACTIONS = A.JOKER_LEAD_BASE, A.NUM_ACTIONS
_XS_MUL = np.uint64(0x2545F4914F6CDD1D)


# ------------------------------------------------------------------------------- RNG
@njit(cache=True)
def splitmix64(x):
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def seed_game(g, seed, index):
    """Seed a game's generator from the batch seed and its index (never the zero state)."""
    x = splitmix64(splitmix64(seed) ^ np.uint64(index))
    g.rng = x if x != U0 else _XS_MUL


@njit(cache=True)
def randint(g, n):
    """A number in ``range(n)`` from the game's xorshift64* generator."""
    x = g.rng
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    g.rng = x
    return np.int64((((x * _XS_MUL) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


# ------------------------------------------------------------------------------- dealing
@njit(cache=True)
def deal_random(g, r, scratch):
    """Deal the rules' deck uniformly at random into ``g.hands`` and ``g.kitty`` (§1.3, §1.4)."""
    n = r.deck_size
    for k in range(n):
        scratch[k] = r.deck[k]
    for k in range(n - 1, 0, -1):
        j = randint(g, k + 1)
        scratch[k], scratch[j] = scratch[j], scratch[k]
    players = r.players
    for s in range(players):
        m = U0
        for k in range(10 * s, 10 * s + 10):
            m |= bit(scratch[k])
        g.hands[s] = m
    kitty = r.fixed_kitty
    for k in range(10 * players, n):
        kitty |= bit(scratch[k])
    g.kitty = kitty


@njit(cache=True)
def new_game_fields(g):
    for t in range(g.scores.shape[0]):
        g.scores[t] = 0
    g.hands_played = 0
    g.deal_index = 0
    g.winner = GAME_GOES_ON


@njit(cache=True)
def begin_hand(g, dealer):
    """``State._start_hand`` for the deal already in ``g.hands`` and ``g.kitty``."""
    n = g.hands.shape[0]
    g.deal_index += 1
    g.dealer = dealer
    for s in range(n):
        g.dealt_hands[s] = g.hands[s]
        g.tricks_won[s] = 0
        g.voids[s] = 0
    g.dealt_kitty = g.kitty
    g.phase = AUCTION
    g.turn = (dealer + 1) % n
    g.ncalls = 0
    g.open_bids = ALL_BIDS
    g.high_bid = -1
    g.high_bidder = -1
    g.passed = 0
    g.passed_since = 0
    g.position = 0
    g.max_level = 0
    g.nullo_bidders = 0
    g.reopened = False
    g.shows_joker = 0
    g.contract = NO_CONTRACT_YET
    g.declarer = -1
    g.context = NT_STANDARD
    g.sitting_out = -1
    g.discards_left = 0
    g.nexchanges = 0
    g.leader = -1
    g.ntrick = 0
    g.led = -1
    g.ntricks = 0
    g.suits_led = 0
    for s in range(5):
        g.first_led[s] = -1
    g.exposed = False
    g.has_result = False
    g.thrown_in = NOT_THROWN
    g.made = -1
    for t in range(g.scores.shape[0]):
        g.result_tricks[t] = 0
        g.hand_points[t] = 0


@njit(cache=True)
def new_game(g, r, scratch):
    """``State(rules, seed)``: a random first dealer, then a random deal."""
    new_game_fields(g)
    dealer = randint(g, r.players)
    deal_random(g, r, scratch)
    begin_hand(g, dealer)


@njit(cache=True)
def next_dealer(g):
    """``State.next_hand``: the deal passes left except after a misdeal (§3.9)."""
    return g.dealer if g.thrown_in == MISDEAL else (g.dealer + 1) % g.hands.shape[0]


@njit(cache=True)
def reset_done(g, r, scratch):
    """Auto-reset: the next hand after HAND_OVER, a new game after GAME_OVER."""
    if g.phase == GAME_OVER:
        new_game(g, r, scratch)
    elif g.phase == HAND_OVER:
        dealer = next_dealer(g)
        deal_random(g, r, scratch)
        begin_hand(g, dealer)


# ------------------------------------------------------------------------------- auction (§3)
@njit(cache=True)
def legal_calls(g, r):
    seat = g.turn
    legal = U1  # pass
    if (r.stick_the_dealer and seat == g.dealer and g.ncalls == r.players - 1
            and g.high_bid < 0):
        legal = U0
    open_bids = g.open_bids
    legal |= open_bids & r.ordinary_mask
    if r.inkle and g.ncalls < 2:
        legal |= open_bids & r.inkle_mask
    hand = g.hands[seat]
    if r.six_nt_shows_joker and (hand & JOKER_BITS) == U0:
        legal &= ~SIX_NT_BIT
    if g.max_level >= r.nullo_after:
        legal |= open_bids & NULLO_BIT
    if g.max_level >= r.open_nullo_after:
        legal |= open_bids & OPEN_NULLO_BIT
    dn = r.double_nullo
    if dn == DN_ANYTIME or (dn == DN_AFTER_PARTNER and (g.nullo_bidders >> ((seat + 2) % 4)) & 1):
        legal |= open_bids & DOUBLE_NULLO_BIT
    if r.misdeal and g.position < r.players and (hand & r.honours) == U0:
        legal |= MISDEAL_BIT
    return legal


@njit(cache=True)
def is_ordinary(bid):
    return A.BID_BASE <= bid < NULLO


@njit(cache=True)
def call(g, r, action):
    seat = g.turn
    n = g.ncalls
    if n < g.calls.shape[0]:
        g.calls[n, 0] = seat
        g.calls[n, 1] = action
    g.ncalls = n + 1
    if action == MISDEAL_CALL:
        throw_in(g, MISDEAL)
        return
    extra_call = seat == g.high_bidder
    sbit = 1 << seat
    if action == PASS:
        g.passed |= sbit
        g.passed_since |= sbit
        if extra_call:
            end_auction(g, r)
            return
    else:
        high = g.high_bid
        if extra_call and (is_ordinary(action) != is_ordinary(high)
                           or (action - 1) % 5 != (high - 1) % 5):
            g.reopened = True  # §3.6 after_change: a change of strain reopens
        if is_ordinary(action):
            level = 6 + (action - 1) // 5
            if level > g.max_level:
                g.max_level = level
            if action == SIX_NT and r.six_nt_shows_joker:
                g.shows_joker |= sbit
        elif action == NULLO or action == OPEN_NULLO:
            g.nullo_bidders |= sbit
        g.high_bid = action
        g.high_bidder = seat
        g.open_bids &= r.outranking[action]
        g.passed &= r.all_seats ^ sbit
        g.passed_since = 0
        if extra_call and r.reenter == RE_NEVER:
            end_auction(g, r)
            return
    next_caller(g, r, seat)


@njit(cache=True)
def may_call(g, r, seat):
    sbit = 1 << seat
    if g.passed_since & sbit:
        return False
    if g.passed & sbit:
        return r.reenter == RE_ALWAYS or (r.reenter == RE_AFTER_CHANGE and g.reopened)
    return True


@njit(cache=True)
def next_caller(g, r, seat):
    """Pass the turn clockwise to the next seat that may call, or end the auction."""
    rounds, high, n = r.rounds, g.high_bidder, g.hands.shape[0]
    for distance in range(1, n + 1):
        nxt = (seat + distance) % n
        if nxt == high:
            others_done = True
            for s in range(n):
                if s != high and may_call(g, r, s):
                    others_done = False
                    break
            if not (others_done and r.raise_own_bid and nxt != seat):
                continue
        elif not may_call(g, r, nxt):
            continue
        if rounds != 0 and g.position + distance >= n * rounds:
            break
        g.position += distance
        g.turn = nxt
        return
    end_auction(g, r)


@njit(cache=True)
def end_auction(g, r):
    high = g.high_bid
    if high < 0:
        if not r.all_pass_play:
            throw_in(g, ALL_PASS)
            return
        g.contract = NO_CONTRACT
        g.context = r.no_trump_context
        start_play(g, r, (g.dealer + 1) % g.hands.shape[0])
        return
    if is_ordinary(high) and 6 + (high - 1) // 5 < r.min_level:
        throw_in(g, INKLE)
        return
    g.contract = high
    g.declarer = g.high_bidder
    if high >= NULLO:
        g.context = r.nullo_context
        n = g.hands.shape[0]
        if high != DOUBLE_NULLO and n != 3:  # §2.2, §9.1, §9.2
            g.sitting_out = (g.declarer + 2) % n
        exchange = r.nullo_kitty == NK_ALWAYS or (r.nullo_kitty == NK_NULLO_ONLY
                                                  and high != OPEN_NULLO)
    else:
        strain = (high - 1) % 5
        g.context = r.no_trump_context if strain == A.NT else strain
        exchange = True
    if exchange:
        start_exchange(g, r, g.declarer)
    else:
        start_play(g, r, first_leader(g, r))


@njit(cache=True)
def throw_in(g, reason):
    g.has_result = True
    g.thrown_in = reason
    g.made = -1
    for t in range(g.scores.shape[0]):
        g.result_tricks[t] = 0
        g.hand_points[t] = 0
    g.phase = HAND_OVER
    g.turn = -1


# ------------------------------------------------------------------------------- exchange (§4)
@njit(cache=True)
def start_exchange(g, r, seat):
    k = g.nexchanges
    g.exch_seat[k] = seat
    g.exch_picked[k] = g.kitty
    g.exch_discards[k] = U0
    g.nexchanges = k + 1
    g.hands[seat] |= g.kitty
    g.kitty = U0
    g.discards_left = r.kitty_size
    g.phase = EXCHANGE
    g.turn = seat


@njit(cache=True)
def discard(g, r, c):
    b = bit(c)
    g.hands[g.turn] ^= b
    g.kitty |= b
    g.exch_discards[g.nexchanges - 1] |= b
    g.discards_left -= 1
    if g.discards_left > 0:
        return
    if g.contract == DOUBLE_NULLO and g.nexchanges == 1:
        start_exchange(g, r, (g.declarer + 2) % 4)  # §4.3: the partner exchanges next
    else:
        start_play(g, r, first_leader(g, r))


# ------------------------------------------------------------------------------- play (§5)
@njit(cache=True)
def sits_out(g, seat):
    """Whether ``seat`` sits this hand out: the declarer's partner in nullo and open nullo, both
    partners with six players (§9.2; ``engine.sitting_out_seats``)."""
    out = g.sitting_out
    if out < 0:
        return False
    n = g.hands.shape[0]
    return seat == out or (n == 6 and seat == (out + 2) % n)


@njit(cache=True)
def active_seats(g):
    """How many seats play to each trick this hand (``State.active_seats``)."""
    n = g.hands.shape[0]
    if g.sitting_out < 0:
        return n
    return n - 2 if n == 6 else n - 1


@njit(cache=True)
def first_leader(g, r):
    n = g.hands.shape[0]
    leader = g.declarer if r.first_leader == FL_DECLARER else (g.dealer + 1) % n
    while sits_out(g, leader):
        leader = (leader + 1) % n
    return leader


@njit(cache=True)
def start_play(g, r, leader):
    g.phase = PLAY
    g.leader = leader
    g.turn = leader
    g.exposed = g.contract == OPEN_NULLO and r.exposed_at_first_lead


@njit(cache=True)
def nameable_suits(g, r):
    """The suits a joker lead may name under ``joker_lead`` (§5.5), as a 4-bit mask."""
    rule = r.joker_lead
    if rule == JL_ANY:
        return 15
    if rule == JL_NOT_LED:
        return 15 & ~np.int64(g.suits_led)
    if rule == JL_NOT_SHOWN_VOID:
        return 15 & ~np.int64(g.voids[g.turn])
    return 0  # last_card


@njit(cache=True)
def legal_plays(g, r):
    """The legal plays as (card mask, joker-lead mask)."""
    hand = g.hands[g.turn]
    ctx = g.context
    jokers = hand & JOKER_BITS
    if g.ntrick == 0:
        if ctx < NT_STANDARD or jokers == U0:
            return hand, U0
        plain = hand & ~JOKER_BITS
        suits = nameable_suits(g, r)
        if suits == 0 and plain == U0:
            suits = 15
        leads = U0
        if jokers & HIGH_JOKER_BIT:
            leads |= np.uint64(suits)
        if jokers & RED_JOKER_BIT:
            leads |= np.uint64(suits) << np.uint64(4)
        return plain, leads
    led = g.led
    follow = hand & r.suit_mask[ctx, led]
    if ctx < NT_STANDARD:
        return (follow if follow != U0 else hand), U0
    if follow != U0:
        if jokers != U0:
            rule = r.joker_follow
            if rule == JF_ANYTIME or (rule == JF_FIRST_OR_LAST
                                      and g.first_led[led] == g.ntricks):
                follow |= jokers
        return follow, U0
    if jokers != U0 and r.nullo_must_play_joker and g.contract >= NULLO:
        return jokers, U0
    return hand, U0


@njit(cache=True)
def next_player(g, seat):
    n = g.hands.shape[0]
    nxt = (seat + 1) % n
    while sits_out(g, nxt):
        nxt = (nxt + 1) % n
    return nxt


@njit(cache=True)
def play(g, r, action):
    seat = g.turn
    ctx = g.context
    lead_base = r.joker_lead_base
    if action >= lead_base:
        c = JOKER + (action - lead_base) // 4
        named = (action - lead_base) % 4
        if nameable_suits(g, r) == 0:
            g.voids[seat] |= 15  # only legal because it held nothing but jokers
    else:
        c = action - r.play_base
        named = -1
    b = bit(c)
    if g.ntrick == 0:
        led = named if named >= 0 else r.suit[ctx, c]
        g.led = led
        g.suits_led |= 1 << led
        if g.first_led[led] < 0:
            g.first_led[led] = g.ntricks
    elif (b & r.suit_mask[ctx, g.led]) == U0:
        note_void(g, r, seat, c)
    g.hands[seat] ^= b
    g.trick[g.ntrick] = c
    g.ntrick += 1
    if g.ntrick < active_seats(g):
        g.turn = next_player(g, seat)
        return
    finish_trick(g, r)


@njit(cache=True)
def note_void(g, r, seat, c):
    """Record what a card that does not follow the led suit shows about the hand."""
    led, ctx = g.led, g.context
    if (bit(c) & JOKER_BITS) == U0 or ctx < NT_STANDARD:  # not a joker (ids 46.. are plain)
        g.voids[seat] |= 1 << led
        if ctx >= NT_STANDARD and r.nullo_must_play_joker and g.contract >= NULLO:
            g.voids[seat] |= 16  # void and no joker played: it holds none
        return
    rule = r.joker_follow
    if rule == JF_VOID_ONLY or (rule == JF_FIRST_OR_LAST and g.first_led[led] != g.ntricks):
        g.voids[seat] |= 1 << led


@njit(cache=True)
def trick_best(g, r):
    """(strength of the card winning the trick so far, the seat that played it)."""
    ctx, led = g.context, g.led
    best, best_i = -2, 0
    for i in range(g.ntrick):
        s = r.strength[ctx, led, g.trick[i]]
        if s > best:
            best, best_i = s, i
    seat = g.leader
    for _ in range(best_i):
        seat = next_player(g, seat)
    return best, seat


@njit(cache=True)
def finish_trick(g, r):
    led = g.led
    winner = trick_best(g, r)[1]
    k = g.ntricks
    g.trick_leader[k] = g.leader
    for i in range(g.hands.shape[0]):
        g.trick_cards[k, i] = g.trick[i] if i < g.ntrick else -1
    g.trick_winner[k] = winner
    g.trick_led[k] = led
    g.ntricks = k + 1
    g.tricks_won[winner] += 1
    g.ntrick = 0
    g.led = -1
    g.leader = winner
    g.turn = winner
    if g.contract == OPEN_NULLO:
        g.exposed = True
    if g.ntricks == NUM_TRICKS or (r.finish_early and determined(g, r)):
        score_hand(g, r)


@njit(cache=True)
def side_of(g, seat):
    """``engine.side_of``: the seat's team (seat parity) or, with three players, itself."""
    return seat if g.scores.shape[0] == 3 else seat % 2


@njit(cache=True)
def side_tricks(g, side):
    """The tricks taken so far by one side (``State.team_tricks``)."""
    n = g.hands.shape[0]
    if g.scores.shape[0] == 3:
        return np.int64(g.tricks_won[side])
    taken = np.int64(0)
    for s in range(side, n, 2):
        taken += g.tricks_won[s]
    return taken


@njit(cache=True)
def determined(g, r):
    """§5.10: the hand's points no longer depend on who takes the remaining tricks."""
    remaining = NUM_TRICKS - g.ntricks
    c = g.contract
    if c < 0:
        return remaining == 0  # no-contract play: every trick is worth 10
    side = side_of(g, g.declarer)
    taken = side_tricks(g, side)
    if g.scores.shape[0] == 2:
        for extra in range(1, remaining + 1):
            for t in range(2):
                if r.points[c, taken + extra, t] != r.points[c, taken, t]:
                    return False
        return True
    # three players: every split of the remaining tricks among the three (engine._splits)
    tricks = np.empty(3, np.int64)
    first = np.empty(3, np.int64)
    now = np.empty(3, np.int64)
    for s in range(3):
        first[s] = side_tricks(g, s)
    side_points(r, c, side, first, now)
    for s in range(3):
        first[s] = now[s]
    for e0 in range(remaining + 1):
        for e1 in range(remaining - e0 + 1):
            tricks[0] = side_tricks(g, 0) + e0
            tricks[1] = side_tricks(g, 1) + e1
            tricks[2] = side_tricks(g, 2) + remaining - e0 - e1
            side_points(r, c, side, tricks, now)
            for s in range(3):
                if now[s] != first[s]:
                    return False
    return True


# ------------------------------------------------------------------------------- scoring (§6, §7)
@njit(cache=True)
def score_hand(g, r):
    if g.scores.shape[0] == 3:
        score_hand_sides(g, r)
        return
    score_hand_teams(g, r)


@njit(cache=True)
def finish_scoring(g, winner):
    """What ``State._score_hand`` does after the points: the result's flags, the phase."""
    g.has_result = True
    g.thrown_in = NOT_THROWN
    g.turn = -1
    if winner == GAME_GOES_ON:
        g.phase = HAND_OVER
    else:
        g.winner = winner
        g.phase = GAME_OVER


@njit(cache=True)
def score_hand_teams(g, r):
    """``score_hand`` for two teams (four players, or six: three seats a team)."""
    t0, t1 = side_tricks(g, 0), side_tricks(g, 1)
    c = g.contract
    team = g.declarer % 2 if g.declarer >= 0 else -1
    p0, p1 = hand_points(r, c, team, t0, t1)
    made = False
    if team >= 0:
        made = contract_made(r, c, t0 if team == 0 else t1)
        g.made = 1 if made else 0
    else:
        g.made = -1
    g.hands_played += 1
    n0, n1, winner = end_of_hand(r, g.scores[0], g.scores[1], p0, p1, team, made,
                                 g.hands_played)
    g.scores[0] = n0
    g.scores[1] = n1
    g.result_tricks[0] = t0
    g.result_tricks[1] = t1
    g.hand_points[0] = p0
    g.hand_points[1] = p1
    finish_scoring(g, winner)


@njit(cache=True)
def score_hand_sides(g, r):
    """``score_hand`` for three players, each a side (§9.1), who reached the target first
    decided by the tricks that scored for their takers."""
    c = g.contract
    side = g.declarer if g.declarer >= 0 else -1
    tricks = np.empty(3, np.int64)
    points = np.empty(3, np.int64)
    old = np.empty(3, np.int64)
    new = np.empty(3, np.int64)
    for s in range(3):
        tricks[s] = g.tricks_won[s]
        old[s] = g.scores[s]
    side_points(r, c, max(side, 0), tricks, points)
    made = False
    if side >= 0:
        made = contract_made(r, c, tricks[side])
        g.made = 1 if made else 0
    else:
        g.made = -1
    g.hands_played += 1
    takers = np.empty(NUM_TRICKS, np.int64)
    ntakers = 0
    if c == NO_CONTRACT or (c < NULLO and r.defence_tricks_score):
        ntakers = g.ntricks
        for k in range(ntakers):
            takers[k] = g.trick_winner[k]
    winner = end_of_hand_sides(r, old, points, side, made, g.hands_played, takers, ntakers,
                               new)
    for s in range(3):
        g.scores[s] = new[s]
        g.result_tricks[s] = tricks[s]
        g.hand_points[s] = points[s]
    finish_scoring(g, winner)


# ------------------------------------------------------------------------------- one game
@njit(cache=True)
def legal(g, r):
    """The legal actions of the seat on turn as ``(base, cards, leads)`` (module docstring)."""
    if g.phase == PLAY:
        cards, leads = legal_plays(g, r)
        return r.play_base, cards, leads
    if g.phase == AUCTION:
        return 0, legal_calls(g, r), U0
    if g.phase == EXCHANGE:
        return DISCARD_BASE, g.hands[g.turn], U0
    return 0, U0, U0


@njit(cache=True)
def is_legal(g, r, action):
    base, cards, leads = legal(g, r)
    if base <= action < base + 64 and (cards >> np.uint64(action - base)) & U1:
        return True
    lead_base = r.joker_lead_base
    return lead_base <= action < r.num_actions and (
        (leads >> np.uint64(action - lead_base)) & U1) != U0


@njit(cache=True)
def apply(g, r, action):
    """``State.apply`` for an action known to be legal."""
    if g.phase == PLAY:
        play(g, r, action)
    elif g.phase == AUCTION:
        call(g, r, action)
    else:
        discard(g, r, action - DISCARD_BASE)


@njit(cache=True)
def random_action(g, r):
    """A legal action drawn uniformly with the game's own generator."""
    base, cards, leads = legal(g, r)
    n_cards = popcount(cards)
    k = randint(g, n_cards + popcount(leads))
    if k < n_cards:
        return base + nth_bit(cards, k)
    return r.joker_lead_base + nth_bit(leads, k - n_cards)


@njit(cache=True)
def playout(g, r):
    """Random legal actions until the hand is over; returns the number of actions."""
    steps = 0
    while g.phase < HAND_OVER:
        apply(g, r, random_action(g, r))
        steps += 1
    return steps


# ------------------------------------------------------------------------------- batch kernels
@njit(cache=True)
def seed_all(games, seed):
    for i in range(games.shape[0]):
        seed_game(games[i], seed, i)


@njit(cache=True)
def new_games(games, rules):
    r = rules[0]
    scratch = np.empty(64, np.int8)
    for i in range(games.shape[0]):
        new_game(games[i], r, scratch)


@njit(cache=True)
def new_random_games(games, rules, index):
    """New games (scores 0, random first dealer and deal) in the games ``index``."""
    r = rules[0]
    scratch = np.empty(64, np.int8)
    for k in range(index.shape[0]):
        new_game(games[index[k]], r, scratch)


@njit(cache=True)
def begin_hands(games, index, dealers, new):
    """Begin the hands already written into ``hands``/``kitty`` of the games ``index``."""
    for k in range(index.shape[0]):
        g = games[index[k]]
        if new:
            new_game_fields(g)
        begin_hand(g, dealers[k])


@njit(cache=True)
def next_dealers(games, index):
    out = np.empty(index.shape[0], np.int8)
    for k in range(index.shape[0]):
        out[k] = next_dealer(games[index[k]])
    return out


@njit(cache=True)
def next_random_hands(games, rules, index):
    r = rules[0]
    scratch = np.empty(64, np.int8)
    for k in range(index.shape[0]):
        g = games[index[k]]
        dealer = next_dealer(g)
        deal_random(g, r, scratch)
        begin_hand(g, dealer)


@njit(cache=True)
def legal_row(g, r, row):
    """Fill ``row[num_actions]`` with the game's legal actions (all zero once the hand is
    over)."""
    row[:] = 0
    base, cards, leads = legal(g, r)
    while cards != U0:
        row[base + lowest_bit(cards)] = 1
        cards &= cards - U1
    lead_base = r.joker_lead_base
    while leads != U0:
        row[lead_base + lowest_bit(leads)] = 1
        leads &= leads - U1


@njit(cache=True)
def legal_masks(games, rules, out):
    """Fill ``out[N, num_actions]`` with each game's legal actions (all zero once the hand is
    over)."""
    r = rules[0]
    for i in range(games.shape[0]):
        legal_row(games[i], r, out[i])


@njit(cache=True)
def step_all(games, rules, actions, auto_reset, skip_negative):
    """Apply each game's action for the seat on turn, unless one is illegal: then change
    nothing and return that game's index (else -1).  Games whose hand is over ignore their
    action, or with ``auto_reset`` are dealt their next hand (a new game after the last).
    With ``skip_negative`` a game whose action is negative is left as it is."""
    r = rules[0]
    for i in range(games.shape[0]):
        g = games[i]
        if skip_negative and actions[i] < 0:
            continue
        if g.phase < HAND_OVER and not is_legal(g, r, actions[i]):
            return i
    scratch = np.empty(64, np.int8)
    for i in range(games.shape[0]):
        g = games[i]
        if skip_negative and actions[i] < 0:
            continue
        if g.phase < HAND_OVER:
            apply(g, r, actions[i])
        elif auto_reset:
            reset_done(g, r, scratch)
    return -1


@njit(cache=True)
def random_playouts(games, rules):
    """Play every game's current hand to its end with random legal actions; total actions."""
    r = rules[0]
    steps = 0
    for i in range(games.shape[0]):
        steps += playout(games[i], r)
    return steps


@njit(cache=True)
def random_hands(games, rules, hands_per_game):
    """For each game, ``hands_per_game`` times: deal the next hand (a new game after the last),
    then play it out at random.  Returns the number of hands played."""
    r = rules[0]
    scratch = np.empty(64, np.int8)
    count = 0
    for i in range(games.shape[0]):
        g = games[i]
        for _ in range(hands_per_game):
            if g.phase >= HAND_OVER:
                reset_done(g, r, scratch)
            playout(g, r)
            count += 1
    return count


# ------------------------------------------------------------------------------- twins
# The twin of each rule method of fh_env.engine.State is the kernel of the same name without
# the leading underscore (``_legal_calls`` -> ``legal_calls``), except these, whose kernel is
# named for what it does on a game record.  tests/test_twins.py enumerates State's methods and
# holds each to a twin (by name or here) or to an entry of NOT_RULES.
TWINS = {
    "__init__": new_game,  # State(rules, seed): a random first dealer, then a random deal
    "_start_hand": begin_hand,  # for the deal already in the record (deal_random deals one)
    "next_hand": next_dealer,  # who deals next; the batch kernels then deal and begin_hand
    "legal_mask": legal,  # as (base, cards, leads); legal_masks writes the [N, actions] masks
}

#: The methods of ``State`` that are not rule logic, so have no kernel, and why.
NOT_RULES = {
    "from_deal": "creation from given cards: FastGames.set_deals (begin_hands)",
    "clone": "copying: a record is copied as numpy data",
    "to_dict": "saving",
    "from_dict": "saving",
    "from_fields": "creation from fields: FastGames.to_state builds a State with it",
    "replace_hidden": "sampling worlds: done on States, loaded with FastGames.set_state",
    "__eq__": "comparison of whole states",
    "is_terminal": "query: FastGames.done",
    "game_over": "query: FastGames.game_over",
    "team_tricks": "query: the kernels add tricks_won of partners where they need it",
    "active_seats": "query: the kernels test sitting_out",
    "legal_actions": "query: the list form of legal_mask (FastGames.legal_actions)",
    "_scored_contract": "type normalisation: the record's contract is already a plain int",
    "apply_str": "action names",
    "illegal_message": "the error text: FastGames.step calls it on to_state()",
    "card_name": "names",
    "action_name": "names",
    "__repr__": "names",
}


@njit(cache=True)
def compiled_codes():
    """The codes compiled into this module's kernels from other modules (phases, option codes
    of :mod:`.rules`): numba's cache keeps them as they were, so ``tests/test_twins.py``
    compares them with ``compiled_codes.py_func()``, the current values."""
    return (AUCTION, EXCHANGE, PLAY, HAND_OVER, GAME_OVER, NO_CONTRACT, DN_AFTER_PARTNER,
            DN_ANYTIME, FL_DECLARER, JF_ANYTIME, JF_FIRST_OR_LAST, JF_VOID_ONLY, JL_ANY,
            JL_NOT_LED, JL_NOT_SHOWN_VOID, NK_ALWAYS, NK_NULLO_ONLY, RE_AFTER_CHANGE, RE_ALWAYS,
            RE_NEVER)
