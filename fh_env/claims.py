"""Claims (docs/rules.md §5.11): judging a claim with every hand in view, and finishing the hand.

A player may claim every remaining trick for their side.  The claim stands when the claiming
side can take every remaining trick whatever the other side plays, the claiming side choosing
its own cards as well as possible.  Under ``nullo_claims`` a claim by the declarer of nullo or
open nullo means the opposite, taking none of the remaining tricks (not for double nullo).

The judge is an exact AND-OR search over the legal plays of the real game (each node is a
:meth:`State.clone` moved on with :meth:`State.apply`, so legality, trick winners and the end of
the hand are the engine's own, never restated here).  Two things keep it fast from any point of
play, the first lead with 10 cards each included:

* **memoisation**: a position is the cards left in each hand, the trick in progress and the
  few history facts a rule option makes legality depend on; its verdict is kept;
* **equivalent cards**: two cards of one hand in the same suit (as the contract makes suits)
  with no card of anybody else, in a hand or in the trick, ranking between them play the same;
  only one of them is searched.  The search stops at the first refutation (an AND node) or the
  first success (an OR node), trying the likeliest moves first.

:func:`claim_stands` answers; :func:`apply_claim` finishes the hand by playing the solver's line
through :meth:`State.apply`, so the score (and a record kept by applying the same actions) is
exactly as if the tricks had been played.
"""

from __future__ import annotations

from typing import Callable

from . import actions as A
from .cards import NO_SUIT, NT_JOKERS_LOW, NT_STANDARD, TABLES, cards_of
from .contracts import NUM_TRICKS
from .engine import Phase, State, trick_order


class ClaimError(ValueError):
    """A claim that cannot be made now (not during the play, or by a seat that sits out)."""


def claim_kind(state: State, seat: int) -> str:
    """``"all"`` (every remaining trick for the side) or ``"none"`` (a nullo declarer's claim
    to take no more tricks, under ``nullo_claims``)."""
    if (state.rules.nullo_claims and seat == state.declarer
            and state.contract in (A.NULLO, A.OPEN_NULLO)):
        return "none"
    return "all"


class ClaimSolver:
    """The exact judge of one seat's claim, from any state of the play of the same hand.

    The memo holds across calls (:meth:`stands`, :meth:`line_action`), so finishing a hand after
    judging the claim searches nothing twice.
    """

    def __init__(self, state: State, seat: int) -> None:
        if state.phase != Phase.PLAY:
            raise ClaimError("claims are made during the play of the cards")
        if seat not in (0, 1, 2, 3):
            raise ClaimError(f"seat must be 0..3, not {seat!r}")
        if seat == state.sitting_out:
            raise ClaimError("a player who sits the hand out cannot claim")
        self.seat = seat
        self.kind = claim_kind(state, seat)
        if self.kind == "none":
            self.ours = frozenset({seat})
            declarer = seat
            self.good: Callable[[int], bool] = lambda winner: winner != declarer
        else:
            team = seat % 2
            self.ours = frozenset(s for s in range(4) if s % 2 == team)
            self.good = lambda winner: winner % 2 == team
        rules = state.rules
        # History that legality reads under some options (§5.5, §5.6): part of a position.
        self._extras: list[str] = []
        if rules.joker_lead == "not_led":
            self._extras.append("suits_led")
        if rules.joker_lead == "not_shown_void":
            self._extras.append("voids")
        if rules.joker_follow == "first_or_last":
            self._extras.append("first_led")
        self.memo: dict[tuple, bool] = {}
        self.nodes = 0

    # ------------------------------------------------------------------ the search
    def stands(self, state: State) -> bool:
        """Whether the claiming side can make the claim good from ``state`` whatever the
        others play.  Iterative deepening on the tricks: a search that lets the claim stand
        after ``depth`` more tricks is optimistic, so a refusal found within a few tricks (the
        usual case) is final at once; only a claim that holds is searched to the end."""
        remaining = NUM_TRICKS - len(state.tricks)
        for depth in range(1, remaining + 1):
            if not self._wins(state, depth):
                return False
        return True

    def line_action(self, state: State) -> int:
        """The claiming side's next action on the winning line (its seat must be on turn)."""
        full = NUM_TRICKS
        for action in self._moves(state):
            if self._after(state, action, full):
                return action
        raise ClaimError("the claim does not stand from here")

    def _key(self, st: State) -> tuple:
        extras = tuple(getattr(st, name) for name in self._extras)
        return (tuple(st.hands), tuple(st.trick), st.leader, st.led,
                tuple(tuple(x) if isinstance(x, list) else x for x in extras))

    def _wins(self, st: State, depth: int) -> bool:
        """The claim holds for the next ``depth`` tricks to end (the whole hand when ``depth``
        covers it).  The memo keeps a refusal for good and a success with its depth."""
        if st.is_terminal or depth <= 0:
            return True  # every trick since the claim went the claimed way (checked below)
        key = self._key(st)
        known = self.memo.get(key)
        if known is not None and (known < 0 or known >= depth):
            return known >= 0
        self.nodes += 1
        if not st.trick and self._sure_loss(st):
            result = False
        else:
            ours = st.turn in self.ours
            result = not ours
            for action in self._moves(st):
                if self._after(st, action, depth) == ours:
                    result = ours
                    break
        self.memo[key] = depth if result else -1
        return result

    def _after(self, st: State, action: int, depth: int) -> bool:
        """Whether the claim still holds after ``action`` in ``st``."""
        child = st.clone()
        done = len(st.tricks)
        child.apply(action)
        if len(child.tricks) > done:
            if not self.good(child.tricks[-1][2]):
                return False
            depth -= 1
        return self._wins(child, depth)

    def _sure_loss(self, st: State) -> bool:
        """A card that wins every trick it is played to, in the wrong hand: the highest trump
        left (or, without trumps, the highest joker left, unless jokers are low) held by the
        other side of an ordinary claim, or by a nullo claimer.  Every card is played by the end
        of the hand, so the claim fails (unless ``finish_early`` may end the hand first)."""
        if st.rules.finish_early:
            return False
        ctx = st.context
        group = ctx if ctx < NT_STANDARD else (NO_SUIT if ctx != NT_JOKERS_LOW else -1)
        if group < 0:
            return False
        strength = TABLES.strength[ctx][group]
        best, holder = -1, -1
        for seat in range(4):
            if seat == st.sitting_out:
                continue
            for c in cards_of(st.hands[seat] & TABLES.suit_mask[ctx][group]):
                if strength[c] > best:
                    best, holder = strength[c], seat
        if holder < 0:
            return False
        return (holder in self.ours) == (self.kind == "none")

    def _floor(self, st: State) -> int | None:
        """Below which strength a card of the other side cannot change the trick in progress:
        0 (only cards that cannot win it), or the strength of the claiming side's card that
        is winning it; None before the lead."""
        if not st.trick:
            return None
        strength = TABLES.strength[st.context][st.led]
        order = trick_order(st.leader, st.sitting_out)
        best, best_seat = max((strength[c], order[i]) for i, c in enumerate(st.trick))
        return best if best_seat in self.ours else 0

    def _moves(self, st: State) -> list[int]:
        """The legal actions with equivalent cards merged, likeliest first: the claiming side
        tries its strongest cards first (its weakest in a nullo claim), the others theirs."""
        ctx = st.context
        seat = st.turn
        suit_of, strength = TABLES.suit[ctx], TABLES.strength[ctx]
        others = 0
        for s in range(4):
            if s != seat and s != st.sitting_out:
                others |= st.hands[s]
        for c in st.trick:
            others |= 1 << c
        keyed: list[tuple[int, int]] = []
        plain: dict[int, list[tuple[int, int]]] = {}
        for action in st.legal_actions():
            if action >= A.JOKER_LEAD_BASE or action < A.PLAY_BASE:
                keyed.append((strength[NO_SUIT][A.played_card(action)], action))
                continue
            c = action - A.PLAY_BASE
            suit = suit_of[c]
            plain.setdefault(suit, []).append((strength[suit][c], action))
        # The other side of an ordinary claim is never worse off keeping a higher card of a
        # suit (anything the lower card does, the higher does as well or better, and any trick
        # it wins refutes the claim).  So where none of its cards of a suit can count in this
        # trick (they cannot win it: a plain card of a suit neither led nor trumps, or below a
        # card of the claiming side already in it) only the lowest is tried.
        floor = self._floor(st) if self.kind == "all" and seat not in self.ours else None
        for suit, group in plain.items():
            group.sort()
            if floor is not None and strength[st.led][group[-1][1] - A.PLAY_BASE] < floor:
                keyed.append(group[0])
                continue
            rivals = [strength[suit][c] for c in cards_of(others & TABLES.suit_mask[ctx][suit])]
            kept = group[:1]
            for value, action in group[1:]:
                low = kept[-1][0]
                if any(low < r < value for r in rivals):
                    kept.append((value, action))
                else:
                    kept[-1] = (value, action)  # equivalent: keep the higher one
            keyed.extend(kept)
        low_first = self.kind == "none" and seat in self.ours
        keyed.sort(reverse=not low_first)
        return [action for _, action in keyed]


def claim_stands(state: State, seat: int) -> bool:
    """Whether ``seat``'s claim stands now (§5.11), judged with every hand in view.

    Raises :class:`ClaimError` outside the play or for a seat that sits the hand out.
    """
    return ClaimSolver(state, seat).stands(state)


def apply_claim(state: State, seat: int,
                apply: Callable[[int], None] | None = None) -> bool:
    """Judge ``seat``'s claim and, when it stands, play the hand out: the solver's winning line
    for the claiming side, the first legal action for the others, each through ``apply``
    (``state.apply`` by default; a :class:`fh_env.records.Recorder`'s ``apply`` keeps the record).
    Returns whether the claim stood; a refused claim changes nothing.
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
