"""The exact sampler of :mod:`agents.sampler`, compiled: many worlds drawn straight into records.

:class:`CompiledSampler` draws the same distribution as :class:`agents.sampler.Determinizer`
(uniform over the worlds consistent with one seat's view: voids, exchanges, an exposed hand,
the joker shown by 6NT, double nullo's second exchange) but draws ``n`` worlds in one numba call
and writes them into fast-core game records (:data:`fh_env.compiled.engine.GAME_DTYPE`) instead
of building an ``fh_env.engine.State`` per world.  The public history is the same in every
world, so one world is replayed with the reference engine (:func:`agents.sampler.replay`) and
loaded into one record (:meth:`fh_env.compiled.games.FastGames.set_state`); the batch is copies
of that record whose hidden fields (``hands``, ``kitty``, ``dealt_hands``, ``dealt_kitty``,
``exch_picked``, ``exch_discards``) are each world's.  Four players only (the fast core's table).

How a world is drawn (the same world as the reference sampler's, drawn differently):

* **Locations.**  Each unseen card may lie in a set of *slots* (the hands the seat cannot see
  and the kitty): the open slots minus the hands shown void in its effective suit, minus all but
  the later exchanger and the kitty for the seat's own discards that a later exchange picked up
  (double nullo), and, for the joker, the necessary conditions of the dealt-joker rules.  With
  the unseen cards in a fixed order, the number of ways to place cards ``j..`` into the room
  left (``caps``, one count a slot) depends on ``caps`` only, since ``j`` is the number of
  cards not yet placed subtracted from the total: a table ``f[caps]`` (at most
  ``11 * 11 * 11 * 7`` entries) filled once per view by ``f[caps] = sum f[caps - e_s]`` over
  the slots ``s`` card ``j`` may take.  A world then places the cards one at a time, each in
  slot ``s`` with probability ``f[caps - e_s] / f[caps]``: exactly uniform over the placements
  (up to float64 rounding of the counts, relative 1e-16; the counts reach 1e19, past int64).
* **Exchanges**, walked back from the last: an exchanger other than the seat picked up a
  uniform ``k``-subset of the cards that went through its hand (as many choices in every
  world, so the draw stays uniform); the seat's own pickups and discards are known.
* **Dealt jokers** (``six_nt_shows_joker``, ``highest_joker_in_kitty``): a world whose deal
  breaks them is drawn again (rejection keeps the draw uniform).

Random numbers come from a splitmix64 stream seeded by the caller (``mcfast`` takes the seed
from its ``random.Random``), so a draw is reproducible but not the reference sampler's stream.
``tests/test_sampler_compiled.py`` holds the draw to the exhaustive enumeration of
``tests/test_sampler.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fh_env.cards import JOKER, JOKER_BITS, cards_of
from fh_env.compiled.cards import U0, U1, bit, lowest_bit, popcount
from fh_env.compiled.engine import GAME_DTYPE
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, State
from fh_env.view import SeatView

from .sampler import InconsistentView, played_by_seat, replay, void_mask

__all__ = ["CompiledSampler", "Worlds"]

SEATS = 4
SLOTS = SEATS + 1  # the hands, then the kitty
KITTY_SLOT = SEATS
MAX_TRIES = 100_000  # draws of one world before the dealt-joker rules are declared unsatisfiable

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


# ------------------------------------------------------------------------------- kernels
@njit(cache=True)
def _next(state):
    """The next 64 random bits of the splitmix64 stream ``state[0]``."""
    x = state[0] + _GOLDEN
    state[0] = x
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def _uniform(state):
    """A float in [0, 1)."""
    return np.float64(_next(state) >> np.uint64(11)) * _TO_UNIT


@njit(cache=True)
def _below(state, n):
    """An integer in ``range(n)`` (53 random bits: the bias is at most ``n / 2**53``)."""
    k = np.int64(_uniform(state) * n)
    return k if k < n else n - 1


@njit(cache=True)
def count_table(allowed, caps):
    """``f[index(caps')]``: the placements of the last ``sum(caps')`` unseen cards into room
    ``caps'`` (every ``caps' <= caps``), and the mixed-radix strides of the index."""
    strides = np.empty(SLOTS, np.int64)
    size = 1
    for s in range(SLOTS):
        strides[s] = size
        size *= caps[s] + 1
    n = allowed.shape[0]
    f = np.zeros(size, np.float64)
    f[0] = 1.0
    room = np.zeros(SLOTS, np.int64)
    for idx in range(1, size):
        # room: the decoded index, stepped like an odometer
        s = 0
        while room[s] == caps[s]:
            room[s] = 0
            s += 1
        room[s] += 1
        left = 0
        for t in range(SLOTS):
            left += room[t]
        j = n - left  # the card to place next
        if j < 0:
            continue
        a = allowed[j]
        total = 0.0
        for t in range(SLOTS):
            if room[t] > 0 and (a >> t) & 1:
                total += f[idx - strides[t]]
        f[idx] = total
    return f, strides


@njit(cache=True)
def _draw_one(rng, cards, allowed, caps, strides, f, known, hidden, known_kitty, kitty_known,
              played, exch_seat, pick_fixed, fixed_pick, k, joker_seats, joker_in_kitty,
              w, out_hands, out_kitty, out_dealt, out_dkitty, out_picked, out_discards, scratch):
    """Draw world ``w`` into the output arrays; False if it breaks the dealt-joker rules."""
    loc = np.zeros(SLOTS, np.uint64)
    idx = 0
    for s in range(SLOTS):
        idx += caps[s] * strides[s]
    n = cards.shape[0]
    for j in range(n):
        a = allowed[j]
        u = _uniform(rng) * f[idx]
        chosen = -1
        for t in range(SLOTS):
            if (a >> t) & 1 and f[idx] > 0.0:
                child = idx - strides[t]
                # room in slot t: the digit of idx
                if (idx // strides[t]) % (caps[t] + 1) == 0:
                    continue
                weight = f[child]
                if weight <= 0.0:
                    continue
                chosen = t  # the last possible slot absorbs rounding at the top end
                if u < weight:
                    break
                u -= weight
        loc[chosen] |= bit(cards[j])
        idx -= strides[chosen]
    hands = np.empty(SEATS, np.uint64)
    for s in range(SEATS):
        hands[s] = loc[s] if hidden[s] else known[s]
    kitty = known_kitty if kitty_known else loc[KITTY_SLOT]
    dealt = np.empty(SEATS, np.uint64)
    for s in range(SEATS):
        dealt[s] = hands[s] | played[s]
    n_ex = exch_seat.shape[0]
    picked = np.zeros(2, np.uint64)
    discards = np.zeros(2, np.uint64)
    if n_ex:
        discards[n_ex - 1] = kitty
    for i in range(n_ex - 1, -1, -1):
        seat = exch_seat[i]
        union = hands[seat] | played[seat] | discards[i]
        if pick_fixed[i]:
            picked[i] = fixed_pick[i]
        else:  # a uniform k-subset of the cards that went through the hand
            m = 0
            rest = union
            while rest != U0:
                scratch[m] = lowest_bit(rest)
                rest &= rest - U1
                m += 1
            pick = U0
            for x in range(k):
                y = x + _below(rng, m - x)
                scratch[x], scratch[y] = scratch[y], scratch[x]
                pick |= bit(scratch[x])
            picked[i] = pick
        dealt[seat] = union & ~picked[i]
        if i > 0:
            discards[i - 1] = picked[i]
    kitty0 = picked[0] if n_ex else kitty
    if joker_in_kitty and (kitty0 >> np.uint64(JOKER)) & U1 == U0:
        return False
    for s in range(SEATS):
        if (joker_seats >> s) & 1 and dealt[s] & np.uint64(JOKER_BITS) == U0:
            return False
    for s in range(SEATS):
        out_hands[w, s] = hands[s]
        out_dealt[w, s] = dealt[s]
    out_kitty[w] = kitty
    out_dkitty[w] = kitty0
    for i in range(2):
        out_picked[w, i] = picked[i]
        out_discards[w, i] = discards[i]
    return True


@njit(cache=True)
def draw_worlds(n, seed, cards, allowed, caps, strides, f, known, hidden, known_kitty,
                kitty_known, played, exch_seat, pick_fixed, fixed_pick, k, joker_seats,
                joker_in_kitty, max_tries, out_hands, out_kitty, out_dealt, out_dkitty,
                out_picked, out_discards):
    """Draw ``n`` worlds into the output arrays; returns the worlds drawn (< n: a world broke
    the dealt-joker rules ``max_tries`` times in a row)."""
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    scratch = np.empty(64, np.int64)
    for w in range(n):
        ok = False
        for _ in range(max_tries):
            if _draw_one(rng, cards, allowed, caps, strides, f, known, hidden, known_kitty,
                         kitty_known, played, exch_seat, pick_fixed, fixed_pick, k, joker_seats,
                         joker_in_kitty, w, out_hands, out_kitty, out_dealt, out_dkitty,
                         out_picked, out_discards, scratch):
                ok = True
                break
        if not ok:
            return w
    return n


@njit(cache=True)
def write_worlds(games, repeat, hands, kitty, dealt, dkitty, picked, discards):
    """World ``w``'s hidden fields into the records ``w * repeat .. w * repeat + repeat - 1``."""
    for w in range(hands.shape[0]):
        for c in range(repeat):
            g = games[w * repeat + c]
            for s in range(SEATS):
                g.hands[s] = hands[w, s]
                g.dealt_hands[s] = dealt[w, s]
            g.kitty = kitty[w]
            g.dealt_kitty = dkitty[w]
            for i in range(2):
                g.exch_picked[i] = picked[w, i]
                g.exch_discards[i] = discards[w, i]


# ------------------------------------------------------------------------------- Python side
class Worlds:
    """``n`` drawn worlds as arrays: the present ``hands`` ``uint64 [n, 4]`` and ``kitty``
    ``[n]``, the deal ``dealt_hands`` ``[n, 4]`` and ``dealt_kitty`` ``[n]``, and per exchange
    (at most two) what was picked up, ``exch_picked`` ``[n, 2]``, and discarded,
    ``exch_discards`` ``[n, 2]`` (the first ``n_exchanges`` columns are meaningful)."""

    def __init__(self, n: int, n_exchanges: int) -> None:
        self.n_exchanges = n_exchanges
        self.hands = np.zeros((n, SEATS), np.uint64)
        self.kitty = np.zeros(n, np.uint64)
        self.dealt_hands = np.zeros((n, SEATS), np.uint64)
        self.dealt_kitty = np.zeros(n, np.uint64)
        self.exch_picked = np.zeros((n, 2), np.uint64)
        self.exch_discards = np.zeros((n, 2), np.uint64)

    def __len__(self) -> int:
        return self.hands.shape[0]

    def key(self, w: int) -> tuple:
        """World ``w`` as ``tests/test_sampler.py`` names a world: (deal, kitty, discards)."""
        return (tuple(int(h) for h in self.dealt_hands[w]), int(self.dealt_kitty[w]),
                tuple(int(d) for d in self.exch_discards[w, :self.n_exchanges]))


class CompiledSampler:
    """Exact uniform sampler of the worlds consistent with one view, drawing in compiled code;
    build once per decision (a few tens of microseconds), draw many."""

    def __init__(self, view: SeatView) -> None:
        rules = view.rules
        if rules.players != SEATS:
            raise ValueError(f"the compiled sampler deals {SEATS} hands, not {rules.players} "
                             f"(use agents.sampler.Determinizer)")
        self.view = view
        me = view.seat
        k = self.k = view.kitty_size
        played = played_by_seat(view)
        all_played = 0
        for m in played:
            all_played |= m
        exchanging = view.exchanging
        n_ex = len(exchanging)
        my_exchange = [i for i, s in enumerate(exchanging) if s == me]
        mine = {i: view.exchanges[j] for j, i in enumerate(my_exchange)}
        kitty_known = bool(exchanging) and exchanging[-1] == me
        known = [0] * SEATS
        hidden = [True] * SEATS
        known[me], hidden[me] = view.hand, False
        if view.exposed:
            known[view.declarer], hidden[view.declarer] = view.exposed, False
        caps = [0] * SLOTS
        for s in range(SEATS):
            if hidden[s]:
                caps[s] = view.hand_sizes[s]
        kitty_now = len(rules.cards) - sum(view.hand_sizes) - all_played.bit_count()
        if kitty_now != k - (view.discards_left if view.phase == Phase.EXCHANGE else 0):
            raise InconsistentView(f"hand sizes {view.hand_sizes} leave {kitty_now} cards for "
                                   f"the kitty")
        if not kitty_known:
            caps[KITTY_SLOT] = kitty_now
        unseen = view.unseen
        if unseen.bit_count() != sum(caps):
            raise InconsistentView(f"{unseen.bit_count()} unseen cards for {sum(caps)} places")
        joker_seats = [s for s in range(SEATS) if view.shows_joker >> s & 1 and s != me]
        joker_in_kitty = rules.highest_joker_in_kitty
        # which slots may hold each unseen card (as agents.sampler.Determinizer)
        open_slots = sum(1 << s for s in range(SLOTS) if caps[s])
        forbidden = [void_mask(view, s) for s in range(SEATS)]
        to_partner = 0
        later = 0
        if my_exchange and max(my_exchange) < n_ex - 1:
            to_partner = mine[max(my_exchange)][2]
            later = (1 << exchanging[-1]) | (1 << KITTY_SLOT)
        single_joker = rules.jokers == 1
        cards = list(cards_of(unseen))
        allowed = []
        for c in cards:
            a = open_slots
            for s in range(SEATS):
                if forbidden[s] >> c & 1:
                    a &= ~(1 << s)
            if to_partner >> c & 1:
                a &= later
            if c == JOKER:  # necessary conditions only: they speed up the rejection step
                if joker_in_kitty and not exchanging:
                    a &= 1 << KITTY_SLOT
                for s in joker_seats:
                    if single_joker and s not in exchanging:
                        a &= 1 << s
            if not a:
                raise InconsistentView(f"card {c} has no place it may be")
            allowed.append(a)
        # the exchanges' pickups that the seat knows: its own, and what the next exchanger
        # picked up after it (its discards)
        pick_fixed = np.zeros(n_ex, np.bool_)
        fixed_pick = np.zeros(n_ex, np.uint64)
        for i in range(n_ex):
            if i in mine:
                pick_fixed[i], fixed_pick[i] = True, mine[i][1]
            elif i > 0 and i - 1 in mine:
                pick_fixed[i], fixed_pick[i] = True, mine[i - 1][2]
        self.n_exchanges = n_ex
        self._cards = np.array(cards, np.int64)
        self._allowed = np.array(allowed, np.int64)
        self._caps = np.array(caps, np.int64)
        self._f, self._strides = count_table(self._allowed, self._caps)
        if self._f[-1] <= 0.0:
            raise InconsistentView("no deal of the unseen cards fits the view")
        self._args = (
            self._cards, self._allowed, self._caps, self._strides, self._f,
            np.array(known, np.uint64), np.array(hidden, np.bool_),
            np.uint64(mine[n_ex - 1][2] if kitty_known else 0), kitty_known,
            np.array(played, np.uint64), np.array(exchanging, np.int64), pick_fixed, fixed_pick,
            k, sum(1 << s for s in joker_seats), bool(joker_in_kitty))
        self._template: State | None = None
        self._loader: FastGames | None = None

    @property
    def n_locations(self) -> int:
        """How many placements of the unseen cards fit the voids, sizes and slot rules (exact
        below 2**53)."""
        return int(round(self._f[-1]))

    def draw(self, n: int, seed: int) -> Worlds:
        """``n`` worlds drawn independently and uniformly, from the random stream ``seed``."""
        out = Worlds(n, self.n_exchanges)
        got = draw_worlds(n, np.uint64(seed & (1 << 64) - 1), *self._args, MAX_TRIES,
                          out.hands, out.kitty, out.dealt_hands, out.dealt_kitty,
                          out.exch_picked, out.exch_discards)
        if got < n:
            raise InconsistentView("no world satisfies the dealt-joker constraints")
        return out

    def template(self, worlds: Worlds) -> State:
        """The reference state of the first world (the public history replayed on its deal);
        every world shares its public fields.  Built once per sampler."""
        if self._template is None:
            self._template = replay(self.view, [int(h) for h in worlds.dealt_hands[0]],
                                    int(worlds.dealt_kitty[0]),
                                    [int(d) for d in worlds.exch_discards[0, :self.n_exchanges]])
        return self._template

    def games(self, worlds: Worlds, repeat: int = 1, loader: FastGames | None = None
              ) -> np.ndarray:
        """Fast-core records of ``worlds``, each ``repeat`` times in a row (world ``w`` at
        ``w * repeat ..``): the template's record with each world's hidden fields.  ``loader``
        is a 1-game FastGames of the view's rules to load the template with (made if None)."""
        template = self.template(worlds)
        if loader is None:
            if self._loader is None:
                self._loader = FastGames(1, self.view.rules)
            loader = self._loader
        loader.set_state(0, template)
        games = np.repeat(loader.games[:1], len(worlds) * repeat)
        write_worlds(games, repeat, worlds.hands, worlds.kitty, worlds.dealt_hands,
                     worlds.dealt_kitty, worlds.exch_picked, worlds.exch_discards)
        return games

    def sample_games(self, n: int, seed: int, repeat: int = 1,
                     loader: FastGames | None = None) -> np.ndarray:
        """``n`` uniform worlds as fast-core records (:meth:`draw`, then :meth:`games`)."""
        return self.games(self.draw(n, seed), repeat, loader)


assert GAME_DTYPE["hands"].shape == (SEATS,) and GAME_DTYPE["exch_picked"].shape == (2,)
