"""The fast batched core: N games of Five Hundred stepped together, every rule option included.

The reference engine (:mod:`fh_env.engine`) is the specification; this module runs the same
game logic compiled with numba over a batch of games, for self-play, benchmarks and Monte Carlo
rollouts.  Per-game logic is compiled rather than written as numpy lock-step operations because
the branches of Five Hundred (auction, exchange, joker rules) leave too little to vectorise
(see docs/benchmarks.md).  The first use compiles the kernels (``cache=True`` keeps
them on disk for later processes).

Usage::

    games = FastGames(1024, Rules.preset("australian"), seed=7)
    while not games.done.all():
        masks = games.legal_masks()              # bool [N, 130] (166 with six players)
        games.step(choose(masks))                # one action per game, for the seat on turn
    games.hand_points, games.scores              # int64 [N, sides]

    games.next_hands()                           # deal on (random deals from the seed)
    games.random_playout()                       # finish every hand with random legal actions

Every table size of §9 plays (``Rules.players`` 3, 4 or 6): the records are the size's
(:data:`fh_env.compiled.engine.GAME_DTYPES`: one entry per seat and per side), the masks have
its action table's length (``num_actions``).

State lives in ``games.games``, one record per game (:data:`fh_env.compiled.engine.GAME_DTYPE`);
the properties below are views of its fields (``games.turn`` is ``int8 [N]`` and so on).
:meth:`FastGames.to_state` turns one game into an ``fh_env.engine.State`` and
:meth:`FastGames.set_state` loads one, so either side can continue what the other started.

Random deals come from each game's own generator, seeded from ``seed`` and the game's index:
they are deterministic but are not the engine's ``deal_cards(seed, k)`` deals; give explicit
deals (:meth:`FastGames.set_deals`) to play the same hands as the engine.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from .. import actions as A
from . import engine as K
from ..engine import HandResult, IllegalActionError, Phase, State, check_deal
from .contracts import GAME_GOES_ON
from .engine import (GAME_DTYPE, GAME_DTYPES, GAME_OVER, HAND_OVER, NO_CONTRACT_YET,
                     THROWN_IN_NAMES)
from .rules import encode_rules
from ..rules import Rules

__all__ = ["FastGames"]

_MASK64 = (1 << 64) - 1

#: The fields of ``State`` that are not one record field of the same name, and where they are.
#: Every other name of ``State.FIELDS`` is a field of ``GAME_DTYPE`` (tests/test_twins.py checks).
SPECIAL_FIELDS = {
    "rules": "the batch's rules (FastGames.rules)",
    "seed": "the batch's seed (FastGames.seed)",
    "dealt": "dealt_hands, dealt_kitty",
    "calls": "calls[:ncalls]",
    "exchanges": "exch_seat, exch_picked, exch_discards [:nexchanges]",
    "trick": "trick[:ntrick]",
    "tricks": "trick_leader, trick_cards, trick_winner, trick_led [:ntricks]",
    "result": "has_result, thrown_in, made, result_tricks, hand_points, scores",
    "contract": "contract, NO_CONTRACT_YET for None",
    "winner": "winner, -1 for None",
}
#: Converters of the plain fields whose values in a State are not ints.
_CONVERT = {"phase": Phase}
_PLAIN = tuple(n for n in State.FIELDS if n not in SPECIAL_FIELDS)
#: The State fields held as one scalar of the record, and their types in a State.
_SCALARS = {n: _CONVERT.get(n, bool if GAME_DTYPE[n].kind == "b" else int)
            for n in _PLAIN if n in GAME_DTYPE.names and GAME_DTYPE[n].shape == ()}
#: The State fields held as an array of the record (lists of ints in a State).
_ARRAYS = tuple(n for n in _PLAIN if n in GAME_DTYPE.names and GAME_DTYPE[n].shape != ())


class FastGames:
    """A batch of ``num_games`` games under one rule set, each with its own random generator.

    ``auto_reset``: when true, :meth:`step` deals the next hand to a game whose hand is over
    (a new game after ``GAME_OVER``) instead of applying its action, so a training loop can step
    forever; when false such games are left unchanged and their actions ignored.
    """

    def __init__(self, num_games: int, rules: Rules | None = None, seed: int = 0,
                 auto_reset: bool = False) -> None:
        if num_games < 1:
            raise ValueError(f"num_games must be at least 1, not {num_games}")
        self.rules = rules if rules is not None else Rules()
        self.num_games = int(num_games)
        self.auto_reset = bool(auto_reset)
        self._rules = encode_rules(self.rules)
        #: the table size (§9): seats, sides, the action table's length
        self.players = self.rules.players
        self.sides = self.rules.sides
        self.num_actions = int(self._rules[0]["num_actions"])
        self.games = np.zeros(self.num_games, GAME_DTYPES[self.players])
        self.seed = int(seed)
        self.reset(seed)

    # ------------------------------------------------------------------ starting games
    def reset(self, seed: int | None = None) -> None:
        """New games: generators seeded from ``seed``, random first dealers and deals."""
        if seed is not None:
            self.seed = int(seed)
        K.seed_all(self.games, np.uint64(self.seed & _MASK64))
        K.new_games(self.games, self._rules)

    def set_deals(self, hands: np.ndarray | Sequence[Sequence[int]],
                  kitty: np.ndarray | Sequence[int], dealer: np.ndarray | Sequence[int] | int,
                  index: np.ndarray | Sequence[int] | None = None, check: bool = True) -> None:
        """Start new games (scores 0) from explicit deals, as ``State.from_deal`` does.

        ``hands`` is ``[M, players]`` card bitmasks, ``kitty`` ``[M]``, ``dealer`` ``[M]`` (or one
        seat for all) for the games ``index`` (default: all).  ``check`` validates every deal
        against the rules' deck (``fh_env.engine.check_deal``).
        """
        self._begin(hands, kitty, dealer, index, check, new=True)

    def new_games(self, index: np.ndarray | Sequence[int] | None = None) -> None:
        """New games in the games ``index`` (default: all): scores 0, a random first dealer and
        deal from each game's own generator (as :meth:`reset` does for all, without reseeding)."""
        K.new_random_games(self.games, self._rules, self._index(index))

    def next_hands(self, hands: np.ndarray | None = None, kitty: np.ndarray | None = None,
                   index: np.ndarray | Sequence[int] | None = None, check: bool = True) -> None:
        """Deal the next hand of the games ``index`` (default: all), as ``State.next_hand``.

        Every one of them must be in ``HAND_OVER``.  The deal passes left except after a
        misdeal; the cards are ``hands``/``kitty`` when given, else random from each game's
        generator.
        """
        idx = self._index(index)
        phases = self.games["phase"][idx]
        if (phases != HAND_OVER).any():
            bad = int(idx[np.flatnonzero(phases != HAND_OVER)[0]])
            raise IllegalActionError(
                f"next_hands() needs every game's hand to be over; game {bad} is in phase "
                f"{Phase(int(self.games['phase'][bad])).name}")
        if hands is None:
            K.next_random_hands(self.games, self._rules, idx)
        else:
            self._begin(hands, kitty, K.next_dealers(self.games, idx), idx, check, new=False)

    def _begin(self, hands, kitty, dealer, index, check: bool, new: bool) -> None:
        idx = self._index(index)
        n = self.players
        hands = np.asarray(hands, dtype=np.uint64).reshape(len(idx), n)
        kitty = np.asarray(kitty, dtype=np.uint64).reshape(len(idx))
        dealers = np.broadcast_to(np.asarray(dealer, dtype=np.int8), (len(idx),))
        if ((dealers < 0) | (dealers >= n)).any():
            raise ValueError(f"dealers must be seats 0..{n - 1}, got {dealers.tolist()}")
        if check:
            for k in range(len(idx)):
                check_deal(self.rules, [int(h) for h in hands[k]], int(kitty[k]))
        self.games["hands"][idx] = hands
        self.games["kitty"][idx] = kitty
        K.begin_hands(self.games, idx, np.ascontiguousarray(dealers), new)

    def _index(self, index) -> np.ndarray:
        if index is None:
            return np.arange(self.num_games, dtype=np.int64)
        idx = np.asarray(index, dtype=np.int64).reshape(-1)
        if ((idx < 0) | (idx >= self.num_games)).any():
            raise IndexError(f"game indices must be in 0..{self.num_games - 1}")
        return idx

    # ------------------------------------------------------------------ stepping
    def legal_masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """``bool [N, num_actions]`` (130, or 166 with six players): the legal actions of the
        seat on turn in each game (none when the hand is over).  Pass ``out`` to reuse an
        array."""
        if out is None:
            out = np.empty((self.num_games, self.num_actions), dtype=np.bool_)
        elif out.shape != (self.num_games, self.num_actions):
            raise ValueError(f"out must be [{self.num_games}, {self.num_actions}], not "
                             f"{list(out.shape)}")
        K.legal_masks(self.games, self._rules, out)
        return out

    def legal_actions(self, i: int) -> list[int]:
        """The legal actions of game ``i``, in increasing id order."""
        row = np.empty((1, self.num_actions), dtype=np.bool_)
        K.legal_masks(self.games[i: i + 1], self._rules, row)
        return np.flatnonzero(row[0]).tolist()

    def step(self, actions: np.ndarray | Sequence[int], skip_negative: bool = False) -> None:
        """Apply one action per game for the seat on turn (see ``auto_reset`` for games whose
        hand is over).  Raises IllegalActionError, changing nothing, if any action is illegal.
        With ``skip_negative`` a negative action leaves its game as it is (not even reset)."""
        acts = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape[0] != self.num_games:
            raise ValueError(f"step() needs {self.num_games} actions, got {acts.shape[0]}")
        bad = K.step_all(self.games, self._rules, acts, self.auto_reset, bool(skip_negative))
        if bad >= 0:
            state = self.to_state(bad)
            raise IllegalActionError(f"game {bad}: " + state.illegal_message(int(acts[bad])))

    def random_playout(self) -> int:
        """Finish every game's current hand with uniformly random legal actions drawn from each
        game's own generator; returns the number of actions taken."""
        return int(K.random_playouts(self.games, self._rules))

    def random_hands(self, hands_per_game: int) -> int:
        """Play ``hands_per_game`` whole random hands in each game (dealing the next hand, or a
        new game after the last, before each); returns the number of hands played."""
        return int(K.random_hands(self.games, self._rules, int(hands_per_game)))

    # ------------------------------------------------------------------ views of the state
    @property
    def phase(self) -> np.ndarray:
        return self.games["phase"]

    @property
    def turn(self) -> np.ndarray:
        """The seat on turn, -1 once the hand is over."""
        return self.games["turn"]

    @property
    def done(self) -> np.ndarray:
        """True where the hand is over (``HAND_OVER`` or ``GAME_OVER``)."""
        return self.games["phase"] >= HAND_OVER

    @property
    def game_over(self) -> np.ndarray:
        return self.games["phase"] == GAME_OVER

    @property
    def hand_points(self) -> np.ndarray:
        """The points each side scored in the hand just finished (0 for a hand thrown in):
        ``int64 [N, sides]``, two teams or three players."""
        return self.games["hand_points"]

    @property
    def scores(self) -> np.ndarray:
        return self.games["scores"]

    @property
    def winner(self) -> np.ndarray:
        """The winning side (``contracts.DRAW``, -2: a draw) where the game is over, else -1."""
        return self.games["winner"]

    @property
    def hands(self) -> np.ndarray:
        return self.games["hands"]

    @property
    def voids(self) -> np.ndarray:
        """Per seat, the suits it has shown void in (bit 4: shown to hold no joker)."""
        return self.games["voids"]

    # ------------------------------------------------------------------ engine states
    def to_state(self, i: int) -> State:
        """Game ``i`` as a reference ``State`` (its ``seed`` is this batch's seed)."""
        g = self.games[i]
        n = int(g["ncalls"])
        if n > self.games.dtype["calls"].shape[0]:
            raise ValueError(f"game {i}: its auction of {n} calls overflowed the call log")
        f: dict = {name: convert(g[name]) for name, convert in _SCALARS.items()}
        f.update({name: [int(x) for x in g[name]] for name in _ARRAYS})
        f["rules"], f["seed"] = self.rules, self.seed
        f["dealt"] = (tuple(int(h) for h in g["dealt_hands"]), int(g["dealt_kitty"]))
        f["calls"] = [(int(s), int(a)) for s, a in g["calls"][:n]]
        contract = int(g["contract"])
        f["contract"] = None if contract == NO_CONTRACT_YET else contract
        f["exchanges"] = [[int(g["exch_seat"][k]), int(g["exch_picked"][k]),
                           int(g["exch_discards"][k])] for k in range(int(g["nexchanges"]))]
        f["trick"] = [int(c) for c in g["trick"][: int(g["ntrick"])]]
        n = self.players
        active = n if f["sitting_out"] < 0 else (n - 2 if n == 6 else n - 1)
        f["tricks"] = [(int(g["trick_leader"][k]),
                        tuple(int(c) for c in g["trick_cards"][k][:active]),
                        int(g["trick_winner"][k]), int(g["trick_led"][k]))
                       for k in range(int(g["ntricks"]))]
        f["winner"] = None if int(g["winner"]) == GAME_GOES_ON else int(g["winner"])
        f["result"] = self._result(g) if g["has_result"] else None
        return State.from_fields(f)

    def to_states(self, index: Iterable[int] | None = None) -> list[State]:
        return [self.to_state(int(i)) for i in self._index(index)]

    def result(self, i: int) -> HandResult | None:
        """``to_state(i).result`` without the rest of the state: the result of game ``i``'s
        hand once it is over, else None."""
        g = self.games[i]
        return self._result(g) if g["has_result"] else None

    @staticmethod
    def _result(g: np.void) -> HandResult:
        scores = tuple(int(x) for x in g["scores"])
        thrown = THROWN_IN_NAMES[int(g["thrown_in"])]
        if thrown is not None:
            zeros = (0,) * len(scores)
            return HandResult(None, None, zeros, zeros, scores, None, thrown)
        made = int(g["made"])
        contract, declarer = int(g["contract"]), int(g["declarer"])
        return HandResult(None if contract == NO_CONTRACT_YET else contract,
                          declarer if declarer >= 0 else None,
                          tuple(int(x) for x in g["result_tricks"]),
                          tuple(int(x) for x in g["hand_points"]), scores,
                          None if made < 0 else bool(made), None)

    def set_state(self, i: int, state: State) -> None:
        """Load a reference ``State`` (of the same rules) into game ``i``; its generator stays."""
        if state.rules != self.rules:
            raise ValueError("set_state() needs a state of this batch's rules")
        if len(state.calls) > self.games.dtype["calls"].shape[0]:
            raise ValueError(f"an auction of {len(state.calls)} calls does not fit the call log")
        rng = self.games["rng"][i]
        self.games[i] = np.zeros((), self.games.dtype)
        g = self.games[i]
        g["rng"] = rng
        for name in _SCALARS:
            g[name] = int(getattr(state, name))
        for name in _ARRAYS:
            g[name] = getattr(state, name)
        g["contract"] = NO_CONTRACT_YET if state.contract is None else state.contract
        g["dealt_hands"], g["dealt_kitty"] = state.dealt
        g["ncalls"] = len(state.calls)
        for k, (seat, action) in enumerate(state.calls):
            g["calls"][k] = (seat, action)
        g["nexchanges"] = len(state.exchanges)
        for k, (seat, picked, discards) in enumerate(state.exchanges):
            g["exch_seat"][k], g["exch_picked"][k], g["exch_discards"][k] = seat, picked, discards
        g["ntrick"] = len(state.trick)
        g["trick"][: len(state.trick)] = state.trick
        g["ntricks"] = len(state.tricks)
        g["trick_cards"][:] = -1
        for k, (leader, cards, winner, led) in enumerate(state.tricks):
            g["trick_leader"][k], g["trick_winner"][k], g["trick_led"][k] = leader, winner, led
            g["trick_cards"][k][: len(cards)] = cards
        g["winner"] = GAME_GOES_ON if state.winner is None else state.winner
        res = state.result
        g["has_result"] = res is not None
        if res is not None:
            g["thrown_in"] = THROWN_IN_NAMES.index(res.thrown_in)
            g["made"] = -1 if res.made is None else int(res.made)
            g["result_tricks"] = res.tricks
            g["hand_points"] = res.hand_points

    def __repr__(self) -> str:
        phases = np.bincount(self.games["phase"], minlength=5)
        return (f"<FastGames n={self.num_games} " +
                " ".join(f"{p.name}={int(phases[p])}" for p in Phase) + ">")

