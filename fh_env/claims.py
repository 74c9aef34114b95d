"""Claims (docs/rules.md §5.11): judging a claim with every hand in view, and finishing the hand.

A player may claim every remaining trick for their side.  The claim stands when the claiming
side can take every remaining trick *whatever the other side holds and plays*, the claiming side
choosing its own cards as well as possible.  Under ``nullo_claims`` a claim by the declarer of
nullo or open nullo means the opposite, taking none of the remaining tricks (not for double
nullo); it is read the same way.

Who is who, at every table size (§9): the claiming side ("ours") is the claimer's side as the
engine counts sides (:func:`fh_env.engine.side_of`: a team of two or three, or the claimer alone
with three players), less any seat that sits the hand out; a nullo claim's side is the declarer
alone.  The other side is every other seat that plays.  Its *hidden* seats are those whose hand
is not exposed (an open nullo hand, once shown, is known).

"Whatever the other side holds" is read as: for EVERY distribution of the other side's remaining
cards among its hidden seats (each seat keeping its number of cards, none holding a suit it has
shown void in, nor a joker it has shown it lacks: the engine's ``voids``), the claiming side,
knowing that distribution, takes every remaining trick against every defence.  Three steps:

1. **As dealt.**  The exact AND-OR search on the real cards (below).  If the claim fails there,
   the actual distribution refutes it: refused.  With fewer than two hidden seats there is no
   other distribution: this answer is final.  Then a few random distributions are searched the
   same way, since a claim that fails usually fails for many (a cheap refusal).
2. **Pool game (quick acceptance).**  The hidden seats' cards go into one pool; a hidden seat on
   turn may play any pool card it might hold: one of a suit it has not shown void in, such that
   after the play (and the facts the engine then notes, e.g. a void in the suit led) the rest of
   the pool can still be shared out among the hidden seats (Hall's condition over the few seats:
   :meth:`ClaimSolver._feasible`).  Legality is the engine's own: the card is played from a hand
   made of what the seat is known to hold plus that card.  In every real distribution each
   legal play of a hidden seat is such a pool play (the real rest of the hands is the sharing
   out), so every real line of play is a line of the pool game; and the claiming side's choices
   in the pool game depend only on what it can see there, so a pool-game win is a strategy that
   wins in every distribution at once.  Hence a pool-game win proves the claim.
3. **Refinement.**  Otherwise the pool is split class by class (see below): each way of sharing
   out one class among the hidden seats is a branch in which those cards become known; a branch
   is proved by the pool game with that knowledge, or split further; a fully known branch is one
   distribution, searched exactly.  The branches partition the distributions, so the claim stands
   exactly when every branch is proved; the first refuted distribution refuses it.

**Classes** (ordinary claims): cards of one suit (as the contract makes suits) with no card of the
claiming side, in a hand or in the trick, ranking between them.  Whether the claiming side wins a
trick depends only on how the other side's cards compare with its own (which of two defenders'
cards is higher never matters: either way the trick is lost), and following rules and voids
depend only on the suit, so renaming the cards of a class changes nothing: only how many of each
class each seat holds matters.  For a nullo claim, which defender wins a trick decides who leads
next, so there every card is its own class and pool cards are never merged.

For a nullo claim the pool game is played *relaxed*: after each trick the other side takes, it
chooses which of its seats leads next.  Every real line is still a line of it (so a win still
proves the claim), and now only the claimer's cards matter, so pool cards merge by the classes
above; a fully known branch that the relaxed game does not prove is searched card by card.

The search is an exact AND-OR search over legal plays (each node a :meth:`State.clone` moved on
with :meth:`State.apply`, so legality, trick winners and the end of the hand are the engine's
own), with iterative deepening on the tricks (the pool game searches to the end at once),
memoised positions (hands, pool, voids, trick in progress and the history facts an option makes
legality depend on), equivalent cards merged and the likeliest moves first.  At the start of a
trick a few sound shortcuts end a branch: a sure loss (the other side holds the master trump or
joker, or one of its seats more trumps than the whole claiming side), a sure win (the leader's
cards, or the side's, are all masters once the leader has drawn trumps: :meth:`_masters`; in the
pool game also a budgeted search of the claiming side's own plays against every card the other
side might still hold: :meth:`_solo`), and for a nullo claim a declarer who can only duck.

:func:`claim_stands` answers; :func:`apply_claim` finishes the hand on the actual cards by playing
the solver's line through :meth:`State.apply`, so the score (and a record kept by applying the
same actions) is exactly as if the tricks had been played.
"""

from __future__ import annotations

import itertools
import random
from typing import Callable, Iterator

from . import actions as A
from .actions import action_table
from .cards import NO_SUIT, NT_JOKERS_LOW, NT_STANDARD, TABLES, cards_of, is_joker
from .contracts import NUM_TRICKS
from .engine import Phase, State, side_of, sitting_out_seats, trick_order


class ClaimError(ValueError):
    """A claim that cannot be made now (not during the play, or by a seat that sits out)."""


def claim_kind(state: State, seat: int) -> str:
    """``"all"`` (every remaining trick for the side) or ``"none"`` (a nullo declarer's claim
    to take no more tricks, under ``nullo_claims``)."""
    if (state.rules.nullo_claims and seat == state.declarer
            and state.contract in (A.NULLO, A.OPEN_NULLO)):
        return "none"
    return "all"


_RANDOM_TRIES = 6  # random distributions searched before the refinement
_SOLO_BUDGET = 200  # positions one call of ClaimSolver._solo may visit


class ClaimSolver:
    """The judge of one seat's claim, from any state of the play of the same hand.

    The memo holds across calls (:meth:`stands`, :meth:`wins_as_dealt`, :meth:`line_action`), so
    finishing a hand after judging the claim searches nothing twice.
    """

    def __init__(self, state: State, seat: int) -> None:
        if state.phase != Phase.PLAY:
            raise ClaimError("claims are made during the play of the cards")
        players = state.rules.players
        if not isinstance(seat, int) or seat not in range(players):
            raise ClaimError(f"seat must be 0..{players - 1}, not {seat!r}")
        out = sitting_out_seats(players, state.sitting_out)
        if seat in out:
            raise ClaimError("a player who sits the hand out cannot claim")
        self.seat = seat
        self.players = players
        self.playing = tuple(s for s in range(players) if s not in out)
        self.kind = claim_kind(state, seat)
        if self.kind == "none":
            self.ours = frozenset({seat})
        else:
            side = side_of(players, seat)
            self.ours = frozenset(s for s in self.playing if side_of(players, s) == side)
        self.others = tuple(s for s in self.playing if s not in self.ours)
        ours, nullo = self.ours, self.kind == "none"
        self.good: Callable[[int], bool] = lambda winner: (winner in ours) != nullo
        table = action_table(players)
        self.table = table
        self.play_base, self.joker_lead_base = table.play_base, table.joker_lead_base
        rules = state.rules
        # History that legality reads under some options (§5.5, §5.6): part of a position.
        self._extras: list[str] = []
        if rules.joker_lead == "not_led":
            self._extras.append("suits_led")
        if rules.joker_lead == "not_shown_void":
            self._extras.append("voids")
        if rules.joker_follow == "first_or_last":
            self._extras.append("first_led")
        self.hidden: tuple[int, ...] = self.others
        # The relaxed game of a nullo claim (see the module): the other side chooses which of
        # its seats leads after each trick it takes, so that only the claimer's cards matter.
        self.relaxed = False
        self.memo: dict[tuple, int] = {}
        self.solo_memo: dict[tuple, bool] = {}
        self.nodes = 0

    # ------------------------------------------------------------------ the judgement
    def stands(self, state: State) -> bool:
        """Whether the claim stands from ``state`` (§5.11): for every distribution of the other
        side's cards consistent with what is known, the claiming side takes every remaining
        trick (or, for a nullo claim, none) whatever the others play."""
        if not self.wins_as_dealt(state):
            return False
        exposed = state.declarer if state.exposed and state.contract == A.OPEN_NULLO else -1
        self.hidden = tuple(s for s in self.others if s != exposed)
        if len(self.hidden) < 2:
            return True  # the other side's cards can lie in one way only
        base = state.clone()
        pool = 0
        for s in self.hidden:
            pool |= base.hands[s]
            base.hands[s] = 0
        base._legal = -1
        if self._random_refutation(base, pool):
            return False
        if self._search(base, pool, self.kind == "none"):
            return True
        return self._refine(base, pool, self._classes(base, pool), 0)

    def wins_as_dealt(self, state: State) -> bool:
        """Whether the claiming side can make the claim good on the actual cards, every hand in
        view, whatever the others play (the double-dummy half of the judgement)."""
        return self._search(state, 0, False)

    def line_action(self, state: State) -> int:
        """The claiming side's next action on a winning line with the actual cards (its seat
        must be on turn)."""
        self.relaxed = False
        for action, hand in self._moves(state, 0):
            if self._after(state, 0, action, hand, NUM_TRICKS):
                return action
        raise ClaimError("the claim does not stand from here")

    # ------------------------------------------------------------------ distributions
    def _counts(self, st: State) -> dict[int, int]:
        """How many cards each hidden seat holds now."""
        remaining = NUM_TRICKS - len(st.tricks)
        played = trick_order(st.leader, st.sitting_out, self.players)[:len(st.trick)]
        return {s: remaining - (s in played) for s in self.hidden}

    def _allowed(self, st: State, seat: int) -> int:
        """The cards ``seat`` may still hold: none of a suit it has shown void in (void bit 4:
        no joker)."""
        voids, masks = st.voids[seat], TABLES.suit_mask[st.context]
        banned = 0
        for group in range(5):
            if voids >> group & 1:
                banned |= masks[group]
        return ~banned

    def _feasible(self, st: State, pool: int) -> bool:
        """Whether the pool can be shared out among the hidden seats, each getting exactly the
        cards it lacks and none it may not hold (Hall's condition: every set of seats has room
        for the cards that no other seat may take)."""
        counts = self._counts(st)
        seats = self.hidden
        room = [counts[s] - st.hands[s].bit_count() for s in seats]
        if min(room) < 0 or sum(room) != pool.bit_count():
            return False
        allowed = [self._allowed(st, s) for s in seats]
        n = len(seats)
        for subset in range(1 << n):
            outside = 0
            space = 0
            for i in range(n):
                if subset >> i & 1:
                    space += room[i]
                else:
                    outside |= allowed[i]
            if (pool & ~outside).bit_count() > space:
                return False
        return True

    def _classes(self, st: State, pool: int) -> list[int]:
        """The pool's cards in classes of equivalent cards (one card each for a nullo claim),
        the classes that can beat a card of the claiming side first (highest first), then the
        others."""
        ctx = st.context
        ours = self._our_cards(st)
        classes: list[tuple[int, int, int]] = []
        for group in range(5):
            strength = TABLES.strength[ctx][group]
            gmask = TABLES.suit_mask[ctx][group]
            mine = sorted(strength[c] for c in cards_of(ours & gmask))
            runs: dict[int, int] = {}
            for c in cards_of(pool & gmask):
                between = sum(1 for m in mine if m < strength[c])  # our cards below it
                runs[between] = runs.get(between, 0) | 1 << c
            for between, mask in runs.items():
                top = max(strength[c] for c in cards_of(mask))
                classes.append((0 if between < len(mine) else 1, -top, mask))
        classes.sort()
        return [mask for _, _, mask in classes]

    def _our_cards(self, st: State) -> int:
        """The claiming side's cards, in its hands and in the trick in progress."""
        mask = 0
        for s in self.ours:
            mask |= st.hands[s]
        order = trick_order(st.leader, st.sitting_out, self.players)
        for i, c in enumerate(st.trick):
            if order[i] in self.ours:
                mask |= 1 << c
        return mask

    def _splits(self, st: State, pool: int, cls: int) -> Iterator[State]:
        """Every way of giving the cards of ``cls`` to the hidden seats (how many each; which
        ones does not matter within a class), as states with those cards in the hands."""
        counts = self._counts(st)
        seats = [s for s in self.hidden]
        room = [counts[s] - st.hands[s].bit_count() for s in seats]
        cards = list(cards_of(cls))
        group = TABLES.suit[st.context][cards[0]]
        able = [not (st.voids[s] >> group & 1) for s in seats]

        def share(i: int, left: int) -> Iterator[list[int]]:
            if i == len(seats) - 1:
                if left <= room[i] and (able[i] or left == 0):
                    yield [left]
                return
            most = min(left, room[i]) if able[i] else 0
            for k in range(most, -1, -1):
                for rest in share(i + 1, left - k):
                    yield [k] + rest

        for ks in share(0, len(cards)):
            child = st.clone()
            at = 0
            for s, k in zip(seats, ks):
                for c in cards[at:at + k]:
                    child.hands[s] |= 1 << c
                at += k
            child._legal = -1
            if self._feasible(child, pool & ~cls):
                yield child

    def _refine(self, st: State, pool: int, classes: list[int], i: int) -> bool:
        """Whether the claim holds for every distribution that agrees with the hands of ``st``
        (the hidden seats' known cards) and shares out the pool."""
        nullo = self.kind == "none"
        if not pool:
            if not nullo:
                return self._search(st, 0, False)  # stands for one, stands for all alike
            if self._search(st, 0, True):
                return True
            return all(self._search(deal, 0, False) for deal in self._deals(st, classes))
        if i > 0 and self._search(st, pool, nullo):
            return True
        while not classes[i] & pool:
            i += 1
        cls = classes[i]
        for child in self._splits(st, pool, cls):
            if not self._refine(child, pool & ~cls, classes, i + 1):
                return False
        return True

    def _deals(self, st: State, classes: list[int]) -> Iterator[State]:
        """Every distribution with as many cards of each class in each hidden seat as in
        ``st`` (which cards of a class lie where matters to a nullo claim)."""
        seats = self.hidden
        plan = [(cls, [(st.hands[s] & cls).bit_count() for s in seats]) for cls in classes]

        def share(k: int) -> Iterator[list[int]]:
            if k == len(plan):
                yield [0] * len(seats)
                return
            cls, counts = plan[k]
            for split in _ways(list(cards_of(cls)), counts):
                for rest in share(k + 1):
                    yield [a | b for a, b in zip(split, rest)]

        for hands in share(0):
            deal = st.clone()
            for s, hand in zip(seats, hands):
                deal.hands[s] = hand
            deal._legal = -1
            yield deal

    def _random_refutation(self, st: State, pool: int) -> bool:
        """Search a few random distributions; True when one of them refutes the claim."""
        rng = random.Random(pool ^ (len(st.tricks) << 64))
        cards = list(cards_of(pool))
        for _ in range(_RANDOM_TRIES):
            rng.shuffle(cards)
            deal = st.clone()
            left = pool
            for c in cards:
                bit = 1 << c
                left &= ~bit
                seats = list(self.hidden)
                rng.shuffle(seats)
                for s in seats:
                    if not self._allowed(deal, s) & bit:
                        continue
                    deal.hands[s] |= bit
                    if self._feasible(deal, left):
                        break
                    deal.hands[s] &= ~bit
                else:  # cannot happen from a feasible pool
                    break
            else:
                deal._legal = -1
                if not self._search(deal, 0, False):
                    return True
        return False

    # ------------------------------------------------------------------ the search
    def _search(self, state: State, pool: int, relaxed: bool) -> bool:
        """Whether the claim holds from ``state`` with the hidden seats' unknown cards in
        ``pool`` (0: every card known).  Iterative deepening on the tricks: a search that lets
        the claim stand after ``depth`` more tricks is optimistic, so a refusal found within a
        few tricks (the usual case) is final at once; only a claim that holds is searched to the
        end."""
        self.relaxed = relaxed
        remaining = NUM_TRICKS - len(state.tricks)
        for depth in (range(1, remaining + 1) if not pool else (remaining,)):
            if not self._wins(state, pool, depth):
                return False
        return True

    def _key(self, st: State, pool: int) -> tuple:
        extras = tuple(getattr(st, name) for name in self._extras)
        voids = tuple(st.voids[s] for s in self.hidden) if pool else ()
        return (self.relaxed, tuple(st.hands), pool, voids, tuple(st.trick), st.leader, st.led,
                tuple(tuple(x) if isinstance(x, list) else x for x in extras))

    def _wins(self, st: State, pool: int, depth: int) -> bool:
        """The claim holds for the next ``depth`` tricks to end (the whole hand when ``depth``
        covers it).  The memo keeps a refusal for good and a success with its depth."""
        if st.is_terminal or depth <= 0:
            return True  # every trick since the claim went the claimed way (checked below)
        key = self._key(st, pool)
        known = self.memo.get(key)
        if known is not None and (known < 0 or known >= depth):
            return known >= 0
        self.nodes += 1
        if not st.trick and self._sure_loss(st, pool):
            result = False
        elif not st.trick and (self._masters(st, pool) or self._ducks(st, pool)
                               or (pool and self._solo(st, pool))):
            result = True
        else:
            ours = st.turn in self.ours
            result = not ours  # no move at all (cannot happen): nothing refutes the claim
            for action, hand in self._moves(st, pool):
                outcome = self._after(st, pool, action, hand, depth)
                if outcome is None:
                    continue  # not a play the seat can make in any distribution
                if outcome == ours:
                    result = ours
                    break
        self.memo[key] = depth if result else -1
        return result

    def _after(self, st: State, pool: int, action: int, hand: int | None,
               depth: int) -> bool | None:
        """Whether the claim still holds after ``action`` in ``st``; for a pool play (``hand``
        given: what the seat is known to hold plus the card) None when no distribution allows
        it."""
        child = st.clone()
        done = len(st.tricks)
        if hand is not None:
            child.hands[st.turn] = hand
            child._legal = -1
            if not child.is_legal(action):
                return None
            child.apply(action)
            pool &= ~(1 << self.table.played_card(action))
            if not self._feasible(child, pool):
                return None
        else:
            child.apply(action)
        if len(child.tricks) > done:
            if not self.good(child.tricks[-1][2]):
                return False
            depth -= 1
            if self.relaxed and not child.is_terminal:  # the other side picks its leader
                for leader in self.others:
                    if leader != child.leader:
                        other = child.clone()
                        other.leader = other.turn = leader
                        other._legal = -1
                        if not self._wins(other, pool, depth):
                            return False
        return self._wins(child, pool, depth)

    def _sure_loss(self, st: State, pool: int) -> bool:
        """A card that wins every trick it is played to, in the wrong hand: the highest trump
        left (or, without trumps, the highest joker left, unless jokers are low) held by the
        other side of an ordinary claim (a pool card is the other side's), or by a nullo
        claimer.  Every card is played by the end of the hand, so the claim fails (unless
        ``finish_early`` may end the hand first)."""
        if st.rules.finish_early:
            return False
        ctx = st.context
        group = ctx if ctx < NT_STANDARD else (NO_SUIT if ctx != NT_JOKERS_LOW else -1)
        if group < 0:
            return False
        strength = TABLES.strength[ctx][group]
        gmask = TABLES.suit_mask[ctx][group]
        best, ours = -1, False
        for seat in self.playing:
            for c in cards_of(st.hands[seat] & gmask):
                if strength[c] > best:
                    best, ours = strength[c], seat in self.ours
        for c in cards_of(pool & gmask):
            if strength[c] > best:
                best, ours = strength[c], False
        if best < 0:
            return False
        if ours == (self.kind == "none"):
            return True
        if self.kind == "all" and ctx < NT_STANDARD:
            # A seat of the other side with more trumps than the whole claiming side: each
            # trick in which it plays one needs a higher trump of the side, a different one
            # each time.
            side = sum((st.hands[s] & gmask).bit_count() for s in self.ours)
            return any((st.hands[s] & gmask).bit_count() > side for s in self.others)
        return False

    def _masters(self, st: State, pool: int) -> bool:
        """An ordinary claim made good at once, whoever holds the other cards: a seat L of the
        claiming side is on lead and either

        * every card of L wins any trick it leads it to (no higher card of its suit anywhere
          else, no joker elsewhere without trumps), once L has drawn every trump held
          elsewhere with trumps higher than all of them (as many rounds as the most trumps one
          seat can hold), so L keeps the lead to the end (a joker that wins any trick is led
          last, alone, so that it can always be led); or
        * every card of the claiming side beats every card of its suit the other side holds,
          and the other side holds no joker (without trumps) or no trump once L has drawn them
          as above: then whichever seat of the side leads, the side takes the trick.
        """
        seat = st.turn
        if self.kind != "all" or seat not in self.ours:
            return False
        ctx = st.context
        masks, strength = TABLES.suit_mask[ctx], TABLES.strength[ctx]
        hand = st.hands[seat]
        partners = 0
        for s in self.ours:
            if s != seat:
                partners |= st.hands[s]
        theirs = pool
        for s in self.others:
            theirs |= st.hands[s]
        outside = theirs | partners
        jokers = masks[NO_SUIT]
        if ctx < NT_STANDARD:
            trumps = masks[ctx]
            rank = strength[ctx]
            high = max((rank[c] for c in cards_of(outside & trumps)), default=-1)
            drawing = sum(1 for c in cards_of(hand & trumps) if rank[c] > high)
            hidden = pool
            for s in self.hidden:
                hidden |= st.hands[s]
            known = [st.hands[s] & trumps for s in self.others if s not in self.hidden or not pool]
            rounds_theirs = max([(hidden & trumps).bit_count() if pool else 0]
                                + [m.bit_count() for m in known])
            rounds_all = max([rounds_theirs] + [(st.hands[s] & trumps).bit_count()
                                                for s in self.ours if s != seat])
            if drawing >= rounds_all and _beats(hand & ~trumps, outside, ctx):
                return True
            return (drawing >= rounds_theirs
                    and _beats((hand | partners) & ~trumps, theirs, ctx))
        if ctx == NT_JOKERS_LOW:
            if hand & jokers:
                return False
            if _beats(hand, outside, ctx):
                return True
            return not partners & jokers and _beats(hand | partners, theirs, ctx)
        if theirs & jokers:
            return False  # a joker wins any trick it is played to
        if not (hand & ~jokers and partners & jokers) and _beats(hand, outside, ctx):
            return True
        return _beats(hand | partners, theirs, ctx)

    def _solo(self, st: State, pool: int) -> bool:
        """An ordinary claim made good whoever holds the other cards, found by a search of the
        claiming side's own plays alone (a seat of it on lead, no trick in progress): each trick
        must be won by a card of the side that no card the other side still holds could beat
        in that trick.  The other side's cards are kept as threats for good (a conservative
        picture: they can only leave), except that a trump lead draws at least one of its
        trumps (every seat of it that holds one must follow), counted as its lowest.  The side
        leads no joker without trumps and follows as the engine requires."""
        if self.kind != "all" or st.turn not in self.ours:
            return False
        threats = pool
        for s in self.others:
            threats |= st.hands[s]
        ours = tuple(sorted(self.ours))
        hands = tuple(st.hands[s] for s in ours)
        must_joker = (st.rules.nullo_must_play_joker and st.contract in A.NULLO_TYPES
                      and st.context >= NT_STANDARD)
        self._solo_budget = _SOLO_BUDGET
        return self._solo_wins(st, ours, hands, st.turn, threats, must_joker)

    def _solo_wins(self, st: State, ours: tuple[int, ...], hands: tuple[int, ...], leader: int,
                   threats: int, must_joker: bool) -> bool:
        if not any(hands):
            return True
        key = (hands, leader, threats)
        known = self.solo_memo.get(key)
        if known is not None:
            return known
        self._solo_budget -= 1
        if self._solo_budget < 0:
            return False  # not proved (a sufficient test only: nothing is stored)
        ctx = st.context
        masks, strength = TABLES.suit_mask[ctx], TABLES.strength[ctx]
        order = [s for s in trick_order(leader, st.sitting_out, self.players) if s in ours]
        index = {s: i for i, s in enumerate(ours)}
        everything = threats
        for h in hands:
            everything |= h

        def options(hand: int, led: int) -> list[int]:
            """The cards to try from ``hand`` (``led`` -1: a lead), equivalent ones merged."""
            if led < 0:
                cards = hand if ctx < NT_STANDARD else hand & ~masks[NO_SUIT]
            else:
                cards = hand & masks[led]
                if not cards:
                    cards = hand & masks[NO_SUIT] if must_joker and hand & masks[NO_SUIT] else hand
                    if not cards:
                        cards = hand
            kept: list[int] = []
            rivals_mask = everything & ~hand
            for group in range(5):
                mine = sorted((strength[group][c], c) for c in cards_of(cards & masks[group]))
                if mine:
                    rivals = [strength[group][c] for c in cards_of(rivals_mask & masks[group])]
                    kept.extend(c for _, c in _merge(mine, rivals))
            kept.sort(key=lambda c: -strength[TABLES.suit[ctx][c]][c])
            return kept

        def play(i: int, hs: list[int], led: int, best: int, winner: int) -> bool:
            if i == len(order):
                if any(strength[led][o] > best for o in cards_of(threats)):
                    return False
                left = threats
                if ctx < NT_STANDARD and led == ctx and threats & masks[ctx]:
                    low = min(cards_of(threats & masks[ctx]), key=lambda c: strength[ctx][c])
                    left &= ~(1 << low)
                return self._solo_wins(st, ours, tuple(hs), winner, left, must_joker)
            seat = order[i]
            hand = hs[index[seat]]
            for c in options(hand, led):
                group = led if led >= 0 else TABLES.suit[ctx][c]
                value = strength[group][c]
                hs[index[seat]] = hand & ~(1 << c)
                ok = play(i + 1, hs, group, max(best, value), seat if value > best else winner)
                hs[index[seat]] = hand
                if ok:
                    return True
            return False

        result = play(0, list(hands), -1, -2, leader)
        self.solo_memo[key] = result
        return result

    def _ducks(self, st: State, pool: int) -> bool:
        """A nullo claim made good at once: another seat is on lead, the declarer holds no
        joker, and each of its cards is below every card of its suit that the other side holds
        (and, with jokers low, the other side holds no joker to lead below it).  Whatever is led,
        the declarer follows below the card led or discards, so it never wins a trick and never
        leads again."""
        if self.kind != "none" or st.turn in self.ours:
            return False
        ctx = st.context
        masks, strength = TABLES.suit_mask[ctx], TABLES.strength[ctx]
        hand = st.hands[self.seat]
        outside = pool | self._everyone_else(st, self.seat)
        if hand & masks[NO_SUIT] or (ctx == NT_JOKERS_LOW and outside & masks[NO_SUIT]):
            return False
        for group in range(4):
            mine = hand & masks[group]
            if mine:
                highest = max(strength[group][c] for c in cards_of(mine))
                if any(strength[group][c] < highest for c in cards_of(outside & masks[group])):
                    return False
        return True

    def _floor(self, st: State) -> int | None:
        """Below which strength a card of the other side cannot change the trick in progress:
        0 (only cards that cannot win it), or the strength of the claiming side's card that
        is winning it; None before the lead."""
        if not st.trick:
            return None
        strength = TABLES.strength[st.context][st.led]
        order = trick_order(st.leader, st.sitting_out, self.players)
        best, best_seat = max((strength[c], order[i]) for i, c in enumerate(st.trick))
        return best if best_seat in self.ours else 0

    def _moves(self, st: State, pool: int) -> list[tuple[int, int | None]]:
        """The moves to search, equivalent cards merged, likeliest first: the claiming side
        tries its strongest cards first (its weakest in a nullo claim), the others theirs.
        Each is ``(action, None)``, or for a hidden seat while cards are unknown ``(action,
        hand)``, the hand to play it from (checked in :meth:`_after`)."""
        seat = st.turn
        if pool and seat in self.hidden:
            return self._pool_moves(st, pool)
        ctx = st.context
        suit_of, strength = TABLES.suit[ctx], TABLES.strength[ctx]
        play_base, joker_lead_base = self.play_base, self.joker_lead_base
        others = pool
        for s in self.playing:
            if s != seat:
                others |= st.hands[s]
        for c in st.trick:
            others |= 1 << c
        keyed: list[tuple[int, int]] = []
        plain: dict[int, list[tuple[int, int]]] = {}
        for action in st.legal_actions():
            if action >= joker_lead_base or action < play_base:
                keyed.append((strength[NO_SUIT][self.table.played_card(action)], action))
                continue
            c = action - play_base
            suit = suit_of[c]
            plain.setdefault(suit, []).append((strength[suit][c], action))
        # The other side of an ordinary claim is never worse off keeping a higher card of a
        # suit (anything the lower card does, the higher does as well or better, and any trick
        # it wins refutes the claim).  So where none of its cards of a suit can count in this
        # trick (they cannot win it: a plain card of a suit neither led nor trumps, or below a
        # card of the claiming side already in it) only the lowest is tried.  And for it two
        # cards with no card of the claiming side between them are alike (see the module).
        theirs = seat not in self.ours and (self.kind == "all" or self.relaxed)
        floor = self._floor(st) if theirs and self.kind == "all" else None
        if theirs:
            others = self._our_cards(st)
        for suit, group in plain.items():
            group.sort()
            if floor is not None and strength[st.led][group[-1][1] - play_base] < floor:
                keyed.append(group[0])
                continue
            rivals = [strength[suit][c] for c in cards_of(others & TABLES.suit_mask[ctx][suit])]
            keyed.extend(_merge(group, rivals))
        low_first = self.kind == "none" and seat in self.ours
        keyed.sort(reverse=not low_first)
        return [(action, None) for _, action in keyed]

    def _pool_moves(self, st: State, pool: int) -> list[tuple[int, int | None]]:
        """A hidden seat's candidate plays: its known cards and the pool cards it may hold,
        each with the hand to play it from (known cards plus the card).  Cards of one class are
        alike (an ordinary claim, or the relaxed game of a nullo claim: the pool game is never
        played otherwise), and for an ordinary claim, where no card can count in this trick,
        only the lowest of a suit is tried (from the known cards and from the pool apart)."""
        seat, ctx = st.turn, st.context
        known = st.hands[seat]
        room = self._counts(st)[seat] - known.bit_count()
        avail = pool & self._allowed(st, seat) if room > 0 else 0
        suit_of, strength = TABLES.suit[ctx], TABLES.strength[ctx]
        ordinary = self.kind == "all"
        floor = self._floor(st) if ordinary else None
        ours = self._our_cards(st)
        keyed: list[tuple[int, int, int]] = []
        for source in (known, avail):
            groups: dict[int, list[tuple[int, int]]] = {}
            for c in cards_of(source):
                suit = suit_of[c]
                groups.setdefault(suit, []).append((strength[suit][c], c))
            for suit, group in groups.items():
                group.sort()
                if floor is not None and strength[st.led][group[-1][1]] < floor:
                    kept = group[:1]
                else:
                    rivals = [strength[suit][c]
                              for c in cards_of(ours & TABLES.suit_mask[ctx][suit])]
                    kept = _merge(group, rivals)
                for value, c in kept:
                    keyed.append((value, c, known | 1 << c))
        moves: list[tuple[int, int, int | None]] = []
        lead_joker = not st.trick and ctx >= NT_STANDARD
        for value, c, hand in keyed:
            if lead_joker and is_joker(c):
                for named in range(4):
                    moves.append((value, self.table.joker_lead_action(c, named), hand))
            else:
                moves.append((value, self.play_base + c, hand))
        moves.sort(key=lambda m: (m[0], m[1]), reverse=True)
        return [(action, hand) for _, action, hand in moves]

    def _everyone_else(self, st: State, seat: int) -> int:
        mask = 0
        for s in self.playing:
            if s != seat:
                mask |= st.hands[s]
        for c in st.trick:
            mask |= 1 << c
        return mask


def _beats(mine: int, others: int, ctx: int) -> bool:
    """Whether every card of ``mine`` ranks above every card of its suit in ``others``."""
    masks, strength = TABLES.suit_mask[ctx], TABLES.strength[ctx]
    for group in range(5):
        ours = mine & masks[group]
        if ours:
            theirs = others & masks[group]
            if theirs:
                rank = strength[group]
                if min(rank[c] for c in cards_of(ours)) < max(rank[c] for c in cards_of(theirs)):
                    return False
    return True


def _ways(cards: list[int], counts: list[int]) -> Iterator[list[int]]:
    """Every way to deal ``cards`` into hands of the given sizes, as masks."""
    if len(counts) == 1:
        yield [sum(1 << c for c in cards)]
        return
    for chosen in itertools.combinations(cards, counts[0]):
        rest = [c for c in cards if c not in chosen]
        for more in _ways(rest, counts[1:]):
            yield [sum(1 << c for c in chosen)] + more


def _merge(group: list[tuple[int, int]], rivals: list[int]) -> list[tuple[int, int]]:
    """One card of each run of ``group`` (sorted ``(strength, x)``) with no rival strength
    between: the highest of the run."""
    kept = group[:1]
    for value, x in group[1:]:
        low = kept[-1][0]
        if any(low < r < value for r in rivals):
            kept.append((value, x))
        else:
            kept[-1] = (value, x)  # equivalent: keep the higher one
    return kept


def claim_stands(state: State, seat: int) -> bool:
    """Whether ``seat``'s claim stands now (§5.11): whatever the other side holds and plays.

    Raises :class:`ClaimError` outside the play or for a seat that sits the hand out.
    """
    return ClaimSolver(state, seat).stands(state)


def apply_claim(state: State, seat: int,
                apply: Callable[[int], None] | None = None) -> bool:
    """Judge ``seat``'s claim and, when it stands, play the hand out on the actual cards: the
    solver's winning line for the claiming side, the first legal action for the others, each
    through ``apply`` (``state.apply`` by default; a :class:`fh_env.records.Recorder`'s
    ``apply`` keeps the record).  Returns whether the claim stood; a refused claim changes
    nothing.
    """
    solver = ClaimSolver(state, seat)
    if not solver.stands(state):
        return False
    step = apply or state.apply
    while not state.is_terminal:
        if state.turn in solver.ours:
            step(solver.line_action(state))
        else:
            step(state.legal_actions()[0])
    return True
