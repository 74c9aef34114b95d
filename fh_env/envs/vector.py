"""A batch of games stepped together, for training: numpy arrays in, numpy arrays out.

``VectorEnv(num_envs, rules, seed)`` plays ``num_envs`` games on the compiled fast core
(:class:`~fh_env.compiled.games.FastGames`, which mirrors the engine exactly) and writes the outputs
with :mod:`fh_env.compiled.observe` (byte for byte :mod:`fh_env.observe`).  Every row of the outputs
belongs to one game and always describes the seat on turn in that game:

===========  ======================  =========================================================
output       shape, dtype            meaning
===========  ======================  =========================================================
``obs``      [N, OBS_SIZE] float32   :func:`fh_env.observe.encode` of the seat on turn
``mask``     [N, 130] int8           its legal actions (:func:`fh_env.observe.action_mask`)
``seat``     [N] int64               the seat on turn (0..3)
``rewards``  [N, 4] float32          per seat, at the end of a hand: the seat's team's hand
                                     points minus the other team's (AEC ``reward="diff"``);
                                     0 for a hand thrown in and on every other step
``done``     [N] bool                the episode of that row ended on this step
===========  ======================  =========================================================

Every table size (§9) plays: with ``players`` 3 or 6 (``rules`` ``"three-handed"``,
``"six-handed"``, ...) ``obs`` is ``observe.layout(players).size`` wide (that size's layout,
byte for byte :func:`fh_env.observe.encode`), ``mask`` has the size's action count (130, or
166 with six players), ``seat`` is 0..players - 1 and ``rewards`` has one column per seat: the
seat's side's reward as :mod:`fh_env.envs.rewards` defines ``"diff"`` (three players: the
player's hand points minus the mean of the other two players').

``step`` returns ``(obs, mask, rewards, seat, done, infos)`` where ``infos`` is a dict with
``"hand_over"`` (bool[N]: a hand ended on this step) and ``"results"`` (the ended hand's
:class:`~fh_env.engine.HandResult` per row, ``None`` elsewhere).

Episodes (``episode``): ``"hand"`` (one hand of a fresh game: every episode is a new game) or
``"game"`` (a whole game; rewards still come at the end of every hand).  An ended episode
restarts by itself.  After a done step the row already shows the first decision of the next
game.

Deals (``deals``): ``"compiled"`` (the default: each row's own generator in the compiled core,
seeded from ``reset``'s seed, so the whole sequence of deals is a pure function of that seed
and the batched path never goes back to the reference engine) or ``"engine"`` (game ``k`` of
row ``i`` is the engine's ``State(rules, seed=game_seed(seed, i, k))``, so that any row's game
can be replayed from its seed; those deals are drawn in Python, which costs more than the
compiled steps when bots play in compiled code).

A negative action leaves its game untouched (its rows stay as they are, with zero reward and
``done`` false): a trainer can let some games wait while others finish.  An illegal action
raises ``IllegalActionError`` and changes no game.

Bot seats in compiled code: ``step(actions, bots=policy, bot_seats=seats)`` (``seats``: uint8
[N], bit ``s`` set when seat ``s`` of that row is the bot's) applies the actions, then lets
``policy`` play every row whose seat on turn is one of its bot seats, until a seat that is
not a bot's is on turn or the hand is over, before the rewards and observations are made: the
rows then show a seat of the caller (or the first decision of the next hand, which may be a bot's again: give
that row a negative action and the next ``step`` plays it).  ``policy(games, rules, rows,
seats)`` is called with :attr:`fast`'s game records (``fast.games``), its rules record, the rows
to play and ``bot_seats``; it plays them in compiled code (``agents.compiled.rule.RuleSeats``
is one).  A hand that ends on a bot's card ends the step's episode as any other.  A row played
by the bots gets a fresh ``states[i]`` the next time it is read.  ``fast`` is the
:class:`~fh_env.compiled.games.FastGames` of the rows, for policies that read the records
(``fast.games``) to choose actions: read it, and change the games through ``step`` only.

``states[i]`` is row ``i``'s game as an engine :class:`~fh_env.engine.State`, for bots and
inspection: converted from the fast core (``FastGames.to_state``) the first time it is read in a
game, then kept in step by the engine itself (each action of the row is applied to it too, and
``next_hand`` with the same deal), so it is one object for the whole game, always up to date, as
before.  Treat it as read-only: changing it does not change the game.  The first read costs a
conversion and every tracked row an engine step, so a hot path reads the arrays, or
:meth:`VectorEnv.encode_state` for a centralised critic.

The output arrays are preallocated and overwritten in place by every call: copy what you keep.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from typing import Any, overload

import numpy as np

from .. import observe
from ..compiled import observe as fastobs
from ..engine import State, deal_cards, side_of
from ..compiled.games import FastGames
from ..compiled.engine import GAME_OVER, HAND_OVER
from ..rules import RulesSpec, resolve_rules
from .rewards import check_episode, team_rewards



#: ``bots`` of :meth:`VectorEnv.step`: ``policy(games, rules, rows, seats)`` plays, in the game
#: records ``games`` (rules record ``rules``), each row of ``rows`` while the seat on turn has its
#: bit in ``seats[row]`` and the hand goes on.
BotPolicy = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], Any]


def game_seed(seed: int, env_index: int, game_index: int) -> int:
    """The engine seed of game ``game_index`` of row ``env_index`` (a 64-bit integer)."""
    words = np.random.SeedSequence(int(seed), spawn_key=(int(env_index), int(game_index)))
    lo, hi = words.generate_state(2, np.uint32)
    return int(lo) | int(hi) << 32


class VectorEnv:
    """``num_envs`` games of Five Hundred with automatic restarts (see the module docstring)."""

    def __init__(self, num_envs: int, rules: RulesSpec = None, seed: int = 0,
                 episode: str = "hand", deals: str = "compiled") -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        check_episode(episode)
        if deals not in ("engine", "compiled"):
            raise ValueError(f"deals={deals!r}: choose 'engine' or 'compiled'")
        self.deals = deals
        self.num_envs = int(num_envs)
        self.rules = resolve_rules(rules)
        self.episode = episode
        #: the table size (§9): seats, and the length of an observation and of a mask
        self.players = players = self.rules.players
        layout = observe.layout(players)
        self.obs_size, self.num_actions = layout.size, layout.num_actions
        self.obs = np.zeros((num_envs, layout.size), dtype=np.float32)
        self.mask = np.zeros((num_envs, layout.num_actions), dtype=np.int8)
        self.seat = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, players), dtype=np.float32)
        # the side each seat scores for (rewards columns from the sides' rewards)
        self._side_of_seat = [side_of(players, s) for s in range(players)]
        self.done = np.zeros(num_envs, dtype=bool)
        self.hand_over = np.zeros(num_envs, dtype=bool)
        #: games started in each row since the last reset (game k uses game_seed(seed, i, k))
        self.games = np.zeros(num_envs, dtype=np.int64)
        # The games themselves (deals from their own generators, or set_deals/next_hands).
        self._fast = FastGames(self.num_envs, self.rules)
        self._seeds = [0] * self.num_envs  # the engine seed of each row's current game
        # The engine States handed out by `states` this game, by row, kept in step.
        self._tracked: dict[int, State] = {}
        self.states: Sequence[State] = _States(self)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start game 0 in every row (from ``seed``, or the last seed); return obs, mask, seat."""
        if seed is not None:
            if int(seed) < 0:
                raise ValueError(f"seed must be a non-negative integer, not {seed}")
            self.seed = int(seed)
        rows = np.arange(self.num_envs, dtype=np.int64)
        self._tracked.clear()
        self.games[:] = 0
        if self.deals == "compiled":
            self._fast.reset(self.seed)  # seeds each row's generator
        self._new_games(rows)
        self._observe(rows)
        return self.obs, self.mask, self.seat

    @property
    def fast(self) -> FastGames:
        """The compiled games of the rows (read them; change them through :meth:`step`)."""
        return self._fast

    def step(self, actions: Any, bots: BotPolicy | None = None, bot_seats: Any = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                        dict[str, Any]]:
        """Apply one action per row (negative: leave that game alone), then let ``bots`` play
        their ``bot_seats``; see the module docstring."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, got shape {acts.shape}")
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        if bots is not None:
            seats = np.ascontiguousarray(bot_seats, dtype=np.uint8)
            if seats.shape != (self.num_envs,):
                raise ValueError(f"expected {self.num_envs} bot_seats, got shape {seats.shape}")
        self.rewards[:] = 0.0
        self.done[:] = False
        self.hand_over[:] = False
        fast = self._fast
        fast.step(acts, skip_negative=True)  # IllegalActionError, changing nothing, if illegal
        moving = acts >= 0
        if self._tracked:
            todo = acts.tolist()
            for i, state in self._tracked.items():
                if todo[i] >= 0:
                    state.apply(todo[i])
        if bots is not None:
            games = fast.games
            turn = games["turn"].astype(np.int64)
            on = (games["phase"] < HAND_OVER) & (((seats >> np.maximum(turn, 0)) & 1) != 0)
            played = np.flatnonzero(on)
            if len(played):
                bots(games, fast._rules, played, seats)
                moving[played] = True
                for i in played.tolist():
                    self._tracked.pop(i, None)
        moved = np.flatnonzero(moving)
        results: list[Any] = [None] * self.num_envs
        phase = fast.games["phase"][moved]
        ended = moved[phase >= HAND_OVER]
        if len(ended):
            points = fast.games["hand_points"][ended]
            sides = team_rewards("diff", tuple(points[:, t] for t in range(points.shape[1])))
            self.rewards[ended] = np.stack([sides[t] for t in self._side_of_seat], axis=1)
            self.hand_over[ended] = True
            for i in ended.tolist():
                results[i] = fast.result(i)
            if self.episode == "hand":
                over, going_on = ended, ended[:0]
            else:
                last = phase[phase >= HAND_OVER] == GAME_OVER
                over, going_on = ended[last], ended[~last]
            self.done[over] = True
            if len(over):
                for i in over.tolist():
                    self._tracked.pop(i, None)
                self._new_games(over)
            if len(going_on):
                self._next_hands(going_on)
        self._observe(moved)
        infos = {"hand_over": self.hand_over, "results": results}
        return self.obs, self.mask, self.rewards, self.seat, self.done, infos

    def encode_state(self, rows: Any, seats: Any, out: np.ndarray | None = None) -> np.ndarray:
        """``float32 [M, STATE_SIZE]``: ``observe.encode_state(states[rows[k]], seats[k])`` for
        each k (centralised-critic input), computed from the fast core without ``states``."""
        return fastobs.encode_state(self._fast, seats=seats, index=rows, out=out)

    # ------------------------------------------------------------------ internals
    def _new_games(self, rows: np.ndarray) -> None:
        """Start the next game of each row in ``rows``: the engine's State(rules, seed)."""
        if self.deals == "compiled":
            self.games[rows] += 1
            self._fast.new_games(rows)
            return
        hands = np.empty((len(rows), self.players), dtype=np.uint64)
        kitty = np.empty(len(rows), dtype=np.uint64)
        dealers = np.empty(len(rows), dtype=np.int8)
        for k, i in enumerate(rows.tolist()):
            seed = self._seeds[i] = game_seed(self.seed, i, int(self.games[i]))
            self.games[i] += 1
            # State(rules, seed)'s first dealer and deal (tests/test_vector.py compares them),
            # without building the rest of a State: this runs once per hand of every row.
            dealers[k] = random.Random(f"{seed}/dealer").randrange(self.players)
            hands[k], kitty[k] = deal_cards(self.rules, seed, 0)
        self._fast.set_deals(hands, kitty, dealers, index=rows, check=False)

    def _next_hands(self, rows: np.ndarray) -> None:
        """Deal the next hand of each row's game: the engine's State.next_hand()."""
        if self.deals == "compiled":
            self._fast.next_hands(index=rows, check=False)
            for i in rows.tolist():
                if i in self._tracked:
                    dealt = self._fast.games[i]
                    self._tracked[i].next_hand(([int(h) for h in dealt["hands"]],
                                                int(dealt["kitty"])))
            return
        hands = np.empty((len(rows), self.players), dtype=np.uint64)
        kitty = np.empty(len(rows), dtype=np.uint64)
        deal_index = self._fast.games["deal_index"]
        for k, i in enumerate(rows.tolist()):
            deal = deal_cards(self.rules, self._seeds[i], int(deal_index[i]))
            hands[k], kitty[k] = deal
            if i in self._tracked:
                self._tracked[i].next_hand(deal)
        self._fast.next_hands(hands, kitty, index=rows, check=False)

    def _observe(self, rows: np.ndarray) -> None:
        fastobs.observe_turn(self._fast, rows, self.obs, self.seat)
        fastobs.action_masks(self._fast, out=self.mask)

    def _state(self, i: int) -> State:
        """Row ``i``'s game as an engine State, tracked from now until the game ends."""
        state = self._tracked.get(i)
        if state is None:
            state = self._tracked[i] = self._fast.to_state(i)
            state.seed = self._seeds[i]
        return state


class _States(Sequence[State]):
    """``VectorEnv.states``: each row's game as an engine State (see the module docstring)."""

    def __init__(self, venv: VectorEnv) -> None:
        self._venv = venv

    def __len__(self) -> int:
        return self._venv.num_envs

    @overload
    def __getitem__(self, i: int) -> State: ...

    @overload
    def __getitem__(self, i: slice) -> list[State]: ...

    def __getitem__(self, i: int | slice) -> State | list[State]:
        n = self._venv.num_envs
        if isinstance(i, slice):
            return [self._venv._state(k) for k in range(*i.indices(n))]
        k = operator.index(i)
        if not -n <= k < n:
            raise IndexError(f"row {k} out of range for {n} games")
        return self._venv._state(k % n)

    def __repr__(self) -> str:
        return f"<states of {self._venv.num_envs} games>"
