"""The exact sampler of :mod:`fh_env.sampler`, compiled: many worlds drawn straight into records.

:class:`CompiledSampler` draws the same distribution as :class:`fh_env.sampler.Determinizer`
(uniform over the worlds consistent with one seat's view: voids, exchanges, an exposed hand,
the joker shown by 6NT, double nullo's second exchange) but draws ``n`` worlds in one numba call
and writes them into fast-core game records (:func:`fh_env.compiled.engine.game_dtype`) instead
of building an ``fh_env.engine.State`` per world.  The public history is the same in every
world, so one world is replayed with the reference engine (:func:`fh_env.sampler.replay`) and
loaded into one record (:meth:`fh_env.compiled.games.FastGames.set_state`); the batch is copies
of that record whose hidden fields (``hands``, ``kitty``, ``dealt_hands``, ``dealt_kitty``,
``exch_picked``, ``exch_discards``) are each world's.  Every table size of §9: the two (three
players), three (four) or five (six players) hands the seat cannot see and the kitty are the
slots, the pack is ``rules.cards``, and the partners who sit out a six-handed nullo are hidden
hands that never play (:func:`fh_env.sampler.played_by_seat` follows the trick order).

How a world is drawn (the same world as the reference sampler's, drawn differently):

* **Locations.**  Each unseen card may lie in a set of *slots* (the hands the seat cannot see
  and the kitty): the open slots minus the hands shown void in its effective suit, minus all but
  the later exchanger and the kitty for the seat's own discards that a later exchange picked up
  (double nullo), and, for the joker, the necessary conditions of the dealt-joker rules.  With
  the unseen cards in a fixed order, the number of ways to place cards ``j..`` into the room
  left (``caps``, one count a slot) depends on ``caps`` only, since ``j`` is the number of
  cards not yet placed subtracted from the total: a table ``f[caps]`` (``prod(caps + 1)``
  entries) filled once per view by ``f[caps] = sum f[caps - e_s]`` over the slots ``s`` card
  ``j`` may take.  A world then places the cards one at a time, each in slot ``s`` with
  probability ``f[caps - e_s] / f[caps]``: exactly uniform over the placements (up to float64
  rounding of the counts, relative 1e-16; the counts reach 1e36, past int64).
* **Slot groups** (``merge``, the default with three and six players).  Slots that take exactly
  the same unseen cards (no void tells them apart: early in a hand, most of them; both partners
  who sit out a six-handed nullo) are interchangeable, so the table runs over the groups, each
  with the room of its slots together, and a group's cards are then split among its slots, each
  card in turn to a slot with probability its room left over the group's: every placement of
  the groups extends to the same number of placements of the slots (the multinomial of each
  group's rooms), so the draw stays uniform.  With four players the table has at most
  ``11 * 11 * 11 * 7`` entries and the draw goes one slot at a time, as it always has (the same
  seed gives the same worlds); with six players, five hidden hands of up to ten cards and a
  kitty of three, one slot at a time would take up to ``11**5 * 4`` entries (5 MB and
  milliseconds to fill at each decision) where the groups need under a hundred in a typical
  position and a few thousand at most.
* **Exchanges**, walked back from the last: an exchanger other than the seat picked up a
  uniform ``k``-subset of the cards that went through its hand (as many choices in every
  world, so the draw stays uniform); the seat's own pickups and discards are known.
* **Dealt jokers** (``six_nt_shows_joker``, ``highest_joker_in_kitty``): a world whose deal
  breaks them is drawn again (rejection keeps the draw uniform).

Random numbers come from a splitmix64 stream seeded by the caller (``mcfast`` takes the seed
from its ``random.Random``), so a draw is reproducible but not the reference sampler's stream.
``tests/test_sampler_compiled.py`` holds the draw to the exhaustive enumeration of
``tests/test_sampler.py`` (both ways of placing, at every table size).
"""

from __future__ import annotations

from math import factorial, prod

import numpy as np
from numba import njit

from fh_env.cards import JOKER, JOKER_BITS, cards_of
from fh_env.compiled.cards import U0, U1, bit, lowest_bit, popcount
from fh_env.compiled.engine import GAME_DTYPES
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, State
from fh_env.view import SeatView

from ..sampler import InconsistentView, played_by_seat, replay, void_mask

__all__ = ["CompiledSampler", "Worlds"]

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
    slots = caps.shape[0]
    strides = np.empty(slots, np.int64)
    size = 1
    for s in range(slots):
        strides[s] = size
        size *= caps[s] + 1
    n = allowed.shape[0]
    f = np.zeros(size, np.float64)
    f[0] = 1.0
    room = np.zeros(slots, np.int64)
    left = 0  # the cards the room holds
    nonzero = 0  # the slots with room, as bits
    for idx in range(1, size):
        # room: the decoded index, stepped like an odometer
        s = 0
        while room[s] == caps[s]:
            left -= room[s]
            room[s] = 0
            nonzero &= ~(1 << s)
            s += 1
        room[s] += 1
        left += 1
        nonzero |= 1 << s
        j = n - left  # the card to place next
        if j < 0:
            continue
        a = allowed[j] & nonzero
        total = 0.0
        t = 0
        while a:
            if a & 1:
                total += f[idx - strides[t]]
            a >>= 1
            t += 1
        f[idx] = total
    return f, strides


@njit(cache=True)
def _split(rng, loc, n_groups, members, n_members, member_caps, room):
    """Each slot group's cards (``loc[g]``, ``g < n_groups``) split among its slots, in place
    (then ``loc[s]`` holds the cards of slot ``s``): each card in turn goes to a slot of its
    group with chance the room left there over the room left in the group (a uniform split).
    A group's slots are at least its index (groups are in order of their first slot), so the
    groups are split from the last: a slot is written only once its group's cards are read."""
    for s in range(member_caps.shape[0]):
        room[s] = member_caps[s]
    for g in range(n_groups - 1, -1, -1):
        rest = loc[g]
        loc[g] = U0
        left = 0
        for m in range(n_members[g]):
            left += room[members[g, m]]
        while rest != U0:
            s = members[g, 0]
            if n_members[g] > 1:
                r = _below(rng, left)
                for m in range(n_members[g]):
                    s = members[g, m]
                    if r < room[s]:
                        break
                    r -= room[s]
                room[s] -= 1
                left -= 1
            loc[s] |= rest & (~rest + U1)  # the lowest card left
            rest &= rest - U1


@njit(cache=True)
def _draw_one(rng, cards, allowed, caps, strides, f, members, n_members, member_caps,
              known, hidden, known_kitty, kitty_known, played, exch_seat, pick_fixed,
              fixed_pick, k, joker_seats, joker_in_kitty, w, out_hands, out_kitty, out_dealt,
              out_dkitty, out_picked, out_discards, scratch, room):
    """Draw world ``w`` into the output arrays; False if it breaks the dealt-joker rules.

    ``caps``, ``strides``, ``f`` and the bits of ``allowed`` are over the slot groups; group
    ``g`` is the real slots ``members[g, :n_members[g]]`` (hands ``0..players-1``, then the
    kitty), whose room is ``member_caps``."""
    players = known.shape[0]
    n_slots = caps.shape[0]
    loc = np.zeros(players + 1, np.uint64)
    idx = 0
    for g in range(n_slots):
        idx += caps[g] * strides[g]
    n = cards.shape[0]
    for j in range(n):
        a = allowed[j]
        u = _uniform(rng) * f[idx]
        chosen = -1
        for t in range(n_slots):
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
    if members is not None:  # pruned when compiled for None: slot groups of one slot
        _split(rng, loc, n_slots, members, n_members, member_caps, room)
    hands = np.empty(players, np.uint64)
    for s in range(players):
        hands[s] = loc[s] if hidden[s] else known[s]
    kitty = known_kitty if kitty_known else loc[players]
    dealt = np.empty(players, np.uint64)
    for s in range(players):
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
    for s in range(players):
        if (joker_seats >> s) & 1 and dealt[s] & np.uint64(JOKER_BITS) == U0:
            return False
    for s in range(players):
        out_hands[w, s] = hands[s]
        out_dealt[w, s] = dealt[s]
    out_kitty[w] = kitty
    out_dkitty[w] = kitty0
    for i in range(2):
        out_picked[w, i] = picked[i]
        out_discards[w, i] = discards[i]
    return True


@njit(cache=True)
def draw_worlds(n, seed, cards, allowed, caps, strides, f, members, n_members, member_caps,
                known, hidden, known_kitty, kitty_known, played, exch_seat, pick_fixed,
                fixed_pick, k, joker_seats, joker_in_kitty, max_tries, out_hands, out_kitty,
                out_dealt, out_dkitty, out_picked, out_discards):
    """Draw ``n`` worlds into the output arrays; returns the worlds drawn (< n: a world broke
    the dealt-joker rules ``max_tries`` times in a row)."""
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    scratch = np.empty(64, np.int64)
    room = np.empty(known.shape[0] + 1, np.int64)
    for w in range(n):
        ok = False
        for _ in range(max_tries):
            if _draw_one(rng, cards, allowed, caps, strides, f, members, n_members, member_caps,
                         known, hidden, known_kitty, kitty_known, played, exch_seat,
                         pick_fixed, fixed_pick, k, joker_seats, joker_in_kitty, w, out_hands,
                         out_kitty, out_dealt, out_dkitty, out_picked, out_discards, scratch, room):
                ok = True
                break
        if not ok:
            return w
    return n


@njit(cache=True)
def write_worlds(games, repeat, hands, kitty, dealt, dkitty, picked, discards):
    """World ``w``'s hidden fields into the records ``w * repeat .. w * repeat + repeat - 1``."""
    players = hands.shape[1]
    for w in range(hands.shape[0]):
        for c in range(repeat):
            g = games[w * repeat + c]
            for s in range(players):
                g.hands[s] = hands[w, s]
                g.dealt_hands[s] = dealt[w, s]
            g.kitty = kitty[w]
            g.dealt_kitty = dkitty[w]
            for i in range(2):
                g.exch_picked[i] = picked[w, i]
                g.exch_discards[i] = discards[w, i]


# ------------------------------------------------------------------------------- Python side
class Worlds:
    """``n`` drawn worlds as arrays: the present ``hands`` ``uint64 [n, players]`` and ``kitty``
    ``[n]``, the deal ``dealt_hands`` ``[n, players]`` and ``dealt_kitty`` ``[n]``, and per
    exchange (at most two) what was picked up, ``exch_picked`` ``[n, 2]``, and discarded,
    ``exch_discards`` ``[n, 2]`` (the first ``n_exchanges`` columns are meaningful)."""

    def __init__(self, n: int, n_exchanges: int, players: int = 4) -> None:
        self.n_exchanges = n_exchanges
        self.hands = np.zeros((n, players), np.uint64)
        self.kitty = np.zeros(n, np.uint64)
        self.dealt_hands = np.zeros((n, players), np.uint64)
        self.dealt_kitty = np.zeros(n, np.uint64)
        self.exch_picked = np.zeros((n, 2), np.uint64)
        self.exch_discards = np.zeros((n, 2), np.uint64)

    def __len__(self) -> int:
        return self.hands.shape[0]

    def key(self, w: int) -> tuple:
        """World ``w`` as ``tests/test_sampler.py`` names a world: (deal, kitty, discards)."""
        return (tuple(int(h) for h in self.dealt_hands[w]), int(self.dealt_kitty[w]),
                tuple(int(d) for d in self.exch_discards[w, :self.n_exchanges]))


def slot_groups(allowed: list[int], caps: list[int]) -> list[list[int]]:
    """The open slots (``caps > 0``) grouped by the unseen cards that may lie in them: slots in
    a group take exactly the same cards (in order of their first slot)."""
    classes = set(allowed)  # the distinct sets of slots a card may take
    groups: dict[int, list[int]] = {}
    for s, cap in enumerate(caps):
        if cap:
            key = sum(1 << i for i, a in enumerate(classes) if a >> s & 1)
            groups.setdefault(key, []).append(s)
    return list(groups.values())


class CompiledSampler:
    """Exact uniform sampler of the worlds consistent with one view, drawing in compiled code;
    build once per decision (a few tens of microseconds), draw many.

    ``merge`` places the cards into groups of interchangeable slots (:func:`slot_groups`), then
    each group's cards into its slots; by default with three and six players, not with four
    (whose draw stream, one slot at a time, stays the one its results were measured with)."""

    def __init__(self, view: SeatView, merge: bool | None = None) -> None:
        rules = view.rules
        players = rules.players
        if players not in GAME_DTYPES:
            raise ValueError(f"the compiled core has no {players}-player table")
        if merge is None:
            merge = players != 4
        self.view = view
        self.players = players
        kitty_slot = players  # slots 0..players-1: the hands; players: the kitty
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
        known = [0] * players
        hidden = [True] * players
        known[me], hidden[me] = view.hand, False
        if view.exposed:
            known[view.declarer], hidden[view.declarer] = view.exposed, False
        caps = [0] * (players + 1)
        for s in range(players):
            if hidden[s]:
                caps[s] = view.hand_sizes[s]
        kitty_now = len(rules.cards) - sum(view.hand_sizes) - all_played.bit_count()
        if kitty_now != k - (view.discards_left if view.phase == Phase.EXCHANGE else 0):
            raise InconsistentView(f"hand sizes {view.hand_sizes} leave {kitty_now} cards for "
                                   f"the kitty")
        if not kitty_known:
            caps[kitty_slot] = kitty_now
        unseen = view.unseen
        if unseen.bit_count() != sum(caps):
            raise InconsistentView(f"{unseen.bit_count()} unseen cards for {sum(caps)} places")
        joker_seats = [s for s in range(players) if view.shows_joker >> s & 1 and s != me]
        joker_in_kitty = rules.highest_joker_in_kitty
        # which slots may hold each unseen card (as fh_env.sampler.Determinizer)
        open_slots = sum(1 << s for s in range(players + 1) if caps[s])
        forbidden = [void_mask(view, s) for s in range(players)]
        to_partner = 0
        later = 0
        if my_exchange and max(my_exchange) < n_ex - 1:
            to_partner = mine[max(my_exchange)][2]
            later = (1 << exchanging[-1]) | (1 << kitty_slot)
        single_joker = rules.jokers == 1
        cards = list(cards_of(unseen))
        allowed = []
        for c in cards:
            a = open_slots
            for s in range(players):
                if forbidden[s] >> c & 1:
                    a &= ~(1 << s)
            if to_partner >> c & 1:
                a &= later
            if c == JOKER:  # necessary conditions only: they speed up the rejection step
                if joker_in_kitty and not exchanging:
                    a &= 1 << kitty_slot
                for s in joker_seats:
                    if single_joker and s not in exchanging:
                        a &= 1 << s
            if not a:
                raise InconsistentView(f"card {c} has no place it may be")
            allowed.append(a)
        # the slots the count table runs over: one a slot, or the groups of interchangeable
        # slots, whose placements then split each group's cards among its slots (as many ways
        # whatever cards the group got, so a uniform split keeps the draw uniform)
        self._split_ways = 1  # the splits of every group's cards among its slots
        split = (None, None, None)  # (members, n_members, member_caps) of the groups
        if merge:
            groups = slot_groups(allowed, caps)
            members = np.zeros((len(groups), max(map(len, groups), default=1)), np.int64)
            for g, slots in enumerate(groups):
                members[g, :len(slots)] = slots
                self._split_ways *= factorial(sum(caps[s] for s in slots)) \
                    // prod(factorial(caps[s]) for s in slots)
            split = (members, np.array([len(g) for g in groups], np.int64),
                     np.array(caps, np.int64))
            regroup = {a: sum(1 << g for g, slots in enumerate(groups) if a >> slots[0] & 1)
                       for a in set(allowed)}
            allowed = [regroup[a] for a in allowed]
            caps = [sum(caps[s] for s in slots) for slots in groups]
        else:
            groups = [[s] for s in range(players + 1)]
        self.groups = groups
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
            self._cards, self._allowed, self._caps, self._strides, self._f, *split,
            np.array(known, np.uint64), np.array(hidden, np.bool_),
            np.uint64(mine[n_ex - 1][2] if kitty_known else 0), kitty_known,
            np.array(played, np.uint64), np.array(exchanging, np.int64), pick_fixed, fixed_pick,
            k, sum(1 << s for s in joker_seats), bool(joker_in_kitty))
        self._template: State | None = None
        self._loader: FastGames | None = None

    @property
    def n_locations(self) -> int:
        """How many placements of the unseen cards fit the voids, sizes and slot rules (the
        count table's total is exact below 2**53)."""
        return int(round(self._f[-1])) * self._split_ways

    def draw(self, n: int, seed: int) -> Worlds:
        """``n`` worlds drawn independently and uniformly, from the random stream ``seed``."""
        out = Worlds(n, self.n_exchanges, self.players)
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


assert all(dtype["exch_picked"].shape == (2,) for dtype in GAME_DTYPES.values())
