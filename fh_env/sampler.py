"""Sampling the cards a seat cannot see: a full game state consistent with a seat's view.

:func:`determinize` deals the cards a seat cannot see to the other hands and the kitty, and
fills in the hidden part of the history (the original kitty, the discards of an exchange made by
someone else), **uniformly among all worlds consistent with what the seat knows**, and returns an
:class:`fh_env.engine.State` with the same public history, from which play can continue with
``State.apply``.

What the seat knows and how it constrains the world:

* its own hand, every card played, an exposed open-nullo hand, the hand sizes;
* the kitty when it was the last to exchange (its discards), and what it picked up;
* voids shown in play (``view.voids``: a seat that failed to follow holds no card whose
  effective suit, under the contract's trump context, is that suit; bit 4: holds no joker), so
  left bowers and jokers are handled by :data:`fh_env.cards.TABLES`;
* the declarer's discards in double nullo went to the partner (§4.3): they are in the
  partner's hand or the kitty, unless played;
* a 6NT bid under ``six_nt_shows_joker`` (§3.8): that seat was dealt a joker;
  ``highest_joker_in_kitty`` (§1.3): the original kitty holds the highest joker.

Every table size (§9) is sampled the same way: the two (three players) or five (six players)
hands the seat cannot see and the kitty are the slots, the pack is ``rules.cards`` and the
trick order skips every seat that sits out (both partners of a six-handed nullo declarer).

A world is the present location of every unseen card plus, for each exchange made by another
seat, which cards it picked up (its discards are then the next kitty).  Cards fall into a few
classes by the set of places ("slots": the other hands and the kitty) that may hold them; the
sampler counts completions exactly with a small dynamic programme over the classes (products of
multinomials), draws how many cards of each class go to each slot from those exact counts, and
shuffles within a class: an exact uniform draw over locations.  Given the locations, every
exchange by another seat had ``C(10 + k, k)`` equally possible pickups (any ``k`` of the cards
that went through its hand), the same number in every world, so a uniform pickup keeps the draw
uniform.  The last two facts of the list above (a dealt joker) are global constraints: a world
that breaks them is rejected and drawn again, which keeps the draw exactly uniform over the
worlds that satisfy them.

The first sample is built by replaying the public history from the reconstructed deal with
``State.apply`` (so an inconsistent world raises); later samples patch the hidden fields of
that template (hands, kitty, deal, exchanges), which gives the same state much faster
(``tests/test_sampler.py`` checks both against each other and against exhaustive enumeration).
"""

from __future__ import annotations

import random
from math import factorial
from typing import Iterator

from . import actions as A
from .actions import action_table
from .cards import JOKER, JOKER_BITS, NT_STANDARD, TABLES, cards_of, is_joker, mask_of
from .engine import Phase, State, trick_order
from .view import SeatView

KITTY = 4  # slot index of the kitty with four players: slots 0..n-1 are the seats' hands, n the kitty
_FACT = [factorial(n) for n in range(64)]
_MAX_TRIES = 100_000


class InconsistentView(ValueError):
    """No world is consistent with the view (a bug upstream, or a hand-made view)."""


def played_by_seat(view: SeatView) -> list[int]:
    """The cards each seat has played to tricks so far (the trick in progress included)."""
    n = view.rules.players
    played = [0] * n
    for leader, cards, _, _ in view.tricks:
        for seat, c in zip(trick_order(leader, view.sitting_out, n), cards):
            played[seat] |= 1 << c
    if view.trick:
        for seat, c in zip(trick_order(view.leader, view.sitting_out, n), view.trick):
            played[seat] |= 1 << c
    return played


def void_mask(view: SeatView, seat: int) -> int:
    """The cards ``seat`` has shown it cannot hold (``view.voids``, under the contract context)."""
    bits = view.voids[seat]
    forbidden = JOKER_BITS if bits >> 4 & 1 else 0
    suit_mask = TABLES.suit_mask[view.context]
    for suit in range(4):
        if bits >> suit & 1:
            forbidden |= suit_mask[suit]
    return forbidden


def history_actions(view: SeatView, discards: list[int]) -> list[int]:
    """The public history as actions: calls, each exchange's discards, then the plays (ids of
    the action table of the view's table size)."""
    table = action_table(view.rules.players)
    out = [a for _, a in view.calls]
    for d in discards:
        out.extend(table.discard_base + c for c in cards_of(d))
    tricks = [(leader, cards, led) for leader, cards, _, led in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick, view.led))
    for _, cards, led in tricks:
        for i, c in enumerate(cards):
            if i == 0 and is_joker(c) and view.context >= NT_STANDARD:
                out.append(table.joker_lead_action(c, led))
            else:
                out.append(table.play_base + c)
    return out


def _splits(n: int, slots: tuple[int, ...], caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to put ``n`` cards into ``slots`` without exceeding ``caps`` (one count a slot)."""
    if len(slots) == 1:
        if n <= caps[slots[0]]:
            yield (n,)
        return
    rest_cap = sum(caps[s] for s in slots[1:])
    for x in range(max(0, n - rest_cap), min(n, caps[slots[0]]) + 1):
        for tail in _splits(n - x, slots[1:], caps):
            yield (x,) + tail


class Determinizer:
    """Exact uniform sampler of the worlds consistent with one view; build once, sample often."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        rules = view.rules
        me = view.seat
        n = self.players = rules.players
        kitty_slot = self.kitty_slot = n  # slots 0..n-1: the hands; n: the kitty
        self.k = view.kitty_size
        self.played = played_by_seat(view)
        all_played = 0
        for m in self.played:
            all_played |= m
        exchanging = view.exchanging
        self.my_exchange = {i for i, s in enumerate(exchanging) if s == me}
        self.mine = {i: view.exchanges[j] for j, i in enumerate(sorted(self.my_exchange))}
        known_kitty = None
        if exchanging and exchanging[-1] == me:
            known_kitty = view.exchanges[-1][2]
        self.known_kitty = known_kitty
        self.known = [-1] * n  # the present hands this seat can see (-1: hidden)
        self.known[me] = view.hand
        if view.exposed:
            self.known[view.declarer] = view.exposed
        caps = [0] * (n + 1)
        for s in range(n):
            if self.known[s] < 0:
                caps[s] = view.hand_sizes[s]
        kitty_now = len(rules.cards) - sum(view.hand_sizes) - all_played.bit_count()
        if kitty_now != self.k - (view.discards_left if view.phase == Phase.EXCHANGE else 0):
            raise InconsistentView(f"hand sizes {view.hand_sizes} leave {kitty_now} cards for "
                                   f"the kitty")
        if known_kitty is None:
            caps[kitty_slot] = kitty_now
        unseen = view.unseen
        if unseen.bit_count() != sum(caps):
            raise InconsistentView(f"{unseen.bit_count()} unseen cards for {sum(caps)} places")
        self.caps = tuple(caps)
        # Global constraints, checked on each draw (rejection keeps the draw uniform).
        self.joker_seats = [s for s in range(n) if view.shows_joker >> s & 1 and s != me]
        self.joker_in_kitty = rules.highest_joker_in_kitty
        # Which slots may hold each unseen card.
        open_slots = sum(1 << s for s in range(n + 1) if caps[s])
        forbidden = [void_mask(view, s) for s in range(n)]
        to_partner = 0  # my discards that a later exchanger picked up (double nullo, §4.3)
        if self.my_exchange and max(self.my_exchange) < len(exchanging) - 1:
            to_partner = self.mine[max(self.my_exchange)][2]
            later = (1 << exchanging[-1]) | (1 << kitty_slot)
        single_joker = rules.jokers == 1
        classes: dict[int, list[int]] = {}
        for c in cards_of(unseen):
            allowed = open_slots
            for s in range(n):
                if forbidden[s] >> c & 1:
                    allowed &= ~(1 << s)
            if to_partner >> c & 1:
                allowed &= later
            if c == JOKER:  # necessary conditions only: they speed up the rejection step
                if self.joker_in_kitty and not exchanging:
                    allowed &= 1 << kitty_slot
                for s in self.joker_seats:
                    if single_joker and s not in exchanging:
                        allowed &= 1 << s
            if not allowed:
                raise InconsistentView(f"card {c} has no place it may be")
            classes.setdefault(allowed, []).append(c)
        order = sorted(classes, key=lambda m: (m.bit_count(), len(classes[m])))
        self.classes = [(tuple(s for s in range(n + 1) if m >> s & 1), classes[m])
                        for m in order]
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        if self._count(0, self.caps) == 0:
            raise InconsistentView("no deal of the unseen cards fits the view")
        self._template: State | None = None

    # ------------------------------------------------------------------ counting
    def _count(self, i: int, caps: tuple[int, ...]) -> int:
        """How many assignments of classes ``i..`` fill ``caps`` exactly."""
        n_classes = len(self.classes)
        if i == n_classes:
            return 0 if any(caps) else 1
        key = (i, caps)
        got = self._memo.get(key)
        if got is not None:
            return got
        slots, cards = self.classes[i]
        n = len(cards)
        if i == n_classes - 1:  # the last class must fill what is left
            if sum(caps) != n or any(caps[s] for s in range(len(caps)) if s not in slots):
                total = 0
            else:
                total = _FACT[n]
                for s in slots:
                    total //= _FACT[caps[s]]
        else:
            total = 0
            for x in _splits(n, slots, caps):
                rest = list(caps)
                ways = _FACT[n]
                for s, xs in zip(slots, x):
                    rest[s] -= xs
                    ways //= _FACT[xs]
                total += ways * self._count(i + 1, tuple(rest))
        self._memo[key] = total
        return total

    @property
    def n_locations(self) -> int:
        """How many placements of the unseen cards fit the voids, sizes and slot rules."""
        return self._count(0, self.caps)

    # ------------------------------------------------------------------ sampling
    def _locations(self, rng: random.Random) -> list[int]:
        """Uniformly random present contents of the slots (hands 0..n-1, then the kitty)."""
        caps = self.caps
        out = [0] * len(caps)
        last = len(self.classes) - 1
        for i, (slots, cards) in enumerate(self.classes):
            n = len(cards)
            if i == last:
                x = tuple(caps[s] for s in slots)
            else:
                r = rng.randrange(self._count(i, caps))
                for x in _splits(n, slots, caps):
                    ways = _FACT[n]
                    rest = list(caps)
                    for s, xs in zip(slots, x):
                        rest[s] -= xs
                        ways //= _FACT[xs]
                    r -= ways * self._count(i + 1, tuple(rest))
                    if r < 0:
                        break
            shuffled = cards[:]
            rng.shuffle(shuffled)
            pos = 0
            new_caps = list(caps)
            for s, xs in zip(slots, x):
                out[s] |= mask_of(shuffled[pos:pos + xs])
                pos += xs
                new_caps[s] -= xs
            caps = tuple(new_caps)
        return out

    def _world(self, rng: random.Random):
        """One uniform world: present hands, kitty, original deal and every exchange."""
        view = self.view
        for _ in range(_MAX_TRIES):
            loc = self._locations(rng)
            hands = [self.known[s] if self.known[s] >= 0 else loc[s] for s in range(self.players)]
            kitty = self.known_kitty if self.known_kitty is not None else loc[self.kitty_slot]
            exchanging = view.exchanging
            n_ex = len(exchanging)
            picked = [0] * n_ex
            discards = [0] * n_ex
            dealt = [hands[s] | self.played[s] for s in range(self.players)]
            if n_ex:
                discards[-1] = kitty
            for i in range(n_ex - 1, -1, -1):
                seat = exchanging[i]
                union = hands[seat] | self.played[seat] | discards[i]
                if i in self.mine:
                    picked[i] = self.mine[i][1]
                elif i > 0 and i - 1 in self.mine:
                    picked[i] = self.mine[i - 1][2]
                else:
                    picked[i] = mask_of(rng.sample(list(cards_of(union)), self.k))
                dealt[seat] = union & ~picked[i]
                if i > 0:
                    discards[i - 1] = picked[i]
            kitty0 = picked[0] if n_ex else kitty
            if self.joker_in_kitty and not kitty0 >> JOKER & 1:
                continue
            if any(not dealt[s] & JOKER_BITS for s in self.joker_seats):
                continue
            return hands, kitty, dealt, kitty0, picked, discards
        raise InconsistentView("no world satisfies the dealt-joker constraints")

    def sample(self, rng: random.Random) -> State:
        """A full state drawn uniformly from the worlds consistent with the view."""
        hands, kitty, dealt, kitty0, picked, discards = self._world(rng)
        if self._template is None:
            self._template = replay(self.view, dealt, kitty0, discards)
        state = self._template.clone()
        state.replace_hidden(hands, kitty, (tuple(dealt), kitty0),
                             [[s, p, d] for s, p, d in zip(self.view.exchanging, picked, discards)])
        return state


def replay(view: SeatView, dealt: list[int], kitty0: int, discards: list[int]) -> State:
    """The state reached by replaying the view's public history from a reconstructed deal.

    Raises ``IllegalActionError`` when the deal cannot have produced that history.
    """
    state = State(view.rules, dealer=view.dealer, deal=(list(dealt), kitty0))
    state.scores = list(view.scores)
    state.hands_played = view.hands_played
    for action in history_actions(view, discards):
        state.apply(action)
    return state


def determinize(view: SeatView, rng: random.Random) -> State:
    """One state drawn uniformly among those consistent with ``view`` (see the module doc)."""
    return Determinizer(view).sample(rng)
