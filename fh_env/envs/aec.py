"""Five Hundred as a PettingZoo AEC environment: ``five_hundred_v0``.

==================  ==============================================================
Import              ``import fh_env; env = fh_env.env("australian")`` (``fh_env.raw_env``
                    unwrapped); ``import fh_env`` also registers ``five_hundred_v0`` for
                    ``pettingzoo.make("aec", "five_hundred_v0", rules=...)``
Agents              ``player_0`` … ``player_3``: the seats 0..3 of docs/rules.md (N, E, S, W);
                    teams are player_0 + player_2 and player_1 + player_3.  Other table
                    sizes (§9): ``player_0`` … ``player_2`` (each plays alone) or
                    ``player_0`` … ``player_5`` (teams 0/2/4 and 1/3/5)
Actions             ``Discrete(130)``: the fixed table of :mod:`fh_env.actions`
                    (``Discrete(166)`` with six players, ``action_table(6)``); any integer
                    type (NumPy's too), not ``bool``; ``legal_action_names()`` names the legal
                    actions of the agent on turn
Observations        ``{"observation": float32[OBS_SIZE], "action_mask": int8[130]}`` (with
                    3 or 6 players the sizes of ``fh_env.observe.layout(players)``)
Observation values  seat-relative, perfect recall: the index table of :mod:`fh_env.observe`;
                    ``fh_env.observe.decode(obs)`` reads one back into named fields; the Box
                    has finite bounds per entry (``observation_bounds``); written by the
                    compiled core when numba's cache is warm (:mod:`fh_env.compiled.table`),
                    else kept up to date per seat from the game's events
                    (:mod:`fh_env.observe_incremental`), new arrays at every call
State               ``state()``: float32[STATE_SIZE], the full deal (``encode_state``)
==================  ==============================================================

With numba's cache warm (``make venv`` fills it) each episode is stepped in one record of the
compiled core, byte for byte the reference engine's game (``tests/test_env_compiled.py``), and
the engine's ``State`` is rebuilt only when read; reading ``game`` moves the episode onto the
engine so that the State held stays live; ``raw_env.compiled_core = False`` keeps to the engine.

Turns follow the engine: the agent on turn is the seat on turn, so the same agent acts several
times in a row for the single-card discards of a kitty exchange (then, in double nullo, the
partner's exchange), and a joker led without trumps is one action that names the suit.  The
action mask is all zero for every agent but the one on turn, and ``observe`` works for any
agent at any time.

Arguments of :func:`env` and :class:`raw_env`:

* ``rules``: a :class:`~fh_env.rules.Rules`, a preset name of docs/rules.md §8, or the path of a
  TOML rules file; default the ``australian-no-nullo`` defaults.
* ``episode``: ``"hand"`` (default: one hand an episode) or ``"game"`` (hands until the game
  is over, §7; the score is in the observation).
* ``reward``: ``"diff"`` (default: at the end of each hand, the agent's team's hand points
  minus the other team's), ``"points"`` (its own team's hand points) or ``"win"`` (game
  episodes only: +1 / -1 / 0 to the winners / losers / both on a draw when the game ends).
  Rewards are per side: with six players every seat of a team gets the team's; with three
  each player is a side: ``"points"`` its own hand points, ``"diff"`` its hand points minus
  the mean of the other two players', ``"win"`` +1 to the winner and -1 to the others (0 to
  all on a draw).
  Hand points are those of §6 before the game-level caps of §7.2.  Rewards are raw points unless
  ``reward_scale`` (default 1.0) multiplies them.
* ``render_mode``: ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (prints it
  after every step); ``render_seat``: whose cards the table shows (default: the agent on turn).
* :func:`env` only, ``illegal_reward``: the reward of an agent that takes an illegal action
  and of its partners (a reward is a side's: its team, or the player alone with three players;
  the other sides get 0); it ends the episode
  (``terminated`` for every agent, not ``truncated``), as PettingZoo's
  ``TerminateIllegalWrapper`` does; default -1 for ``reward="win"``, else -1000 x
  ``reward_scale``, a loss larger than any hand brings under the presets.  An action outside
  ``Discrete(130)`` (or not an integer) raises ``AssertionError``.
  :class:`raw_env` instead raises :class:`~fh_env.engine.IllegalActionError` naming the action,
  the phase and the legal actions.

``reset(seed=None, options=None)``: the deal of hand ``k`` is a function of ``(seed, k)``
(the same seed gives the same episode; the deal of ``reset(seed=s)`` is the deal of
``State(rules, seed=s)``); a reset without a seed takes the next seed from a generator seeded by
the last seed given (from the OS at the first reset if none was).  ``options`` (for this episode
only): ``rules`` (as above, of the env's table size), ``dealer`` (a seat) and ``deal``:
``{"hands": [[10 card names] x players], "kitty": [card names]}`` for the first hand; any other key
is refused (``ValueError`` naming the accepted keys), as is a dealer that is not a seat or a
deal that is not exactly the deck (the error names the cards).  Nothing here draws from
Python's or NumPy's global random generators.

Rewards and infos: at the end of every hand each agent's ``infos`` entry is set to ``contract``
(the bid action id, -1 for no-contract play, None for a hand thrown in), ``contract_name``
(its name: ``"10S"``, ``"nullo"``, ``"no contract"``, None for a hand thrown in), ``declarer`` (seat
0..3 or None), ``tricks``, ``hand_points`` and ``game_points`` (per side: team 0, team 1; with
three players one entry per player: ``HandResult.hand_points``) and
``hands_done`` (hands finished in this episode, thrown-in hands included); they keep these values
until the next hand ends, and hold the same keys with neutral values (None, zeros) from
``reset()`` on.  A hand thrown in (all passed under ``all_pass=redeal``, an inkle-only auction,
a misdeal) scores nothing: it ends a ``hand`` episode with zero rewards; in a ``game`` episode
the next deal follows.

Version history: v0 (observation version 1): the first release.
"""

from __future__ import annotations

import os
import random
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from gymnasium.logger import warn
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from .. import actions as A
from ..cards import (JOKER_BITS, PLAIN_ORDER, SUIT_NAMES, card_name, cards_of, mask_of,
                     parse_card, rank_of, suit_of)
from ..contracts import DRAW
from ..engine import (IllegalActionError, Phase, State, check_deal, side_of, sitting_out_seats,
                      trick_order)
from ..observe import encode_state, layout, observation, observation_bounds, state_bounds
from ..observe_incremental import IncrementalObserver
from ..rules import Rules, RulesSpec, resolve_rules, rules_name
from ..view import SeatView, seat_view
from .rewards import check_episode, side_rewards, team_rewards
from .rewards import illegal_reward as default_illegal_reward

if TYPE_CHECKING:
    from ..compiled.table import CompiledTable

ENV_NAME = "five_hundred_v0"
_HAND_OVER = Phase.HAND_OVER
#: The agents of a 4-player table; :func:`agents_of` gives those of any table size.
AGENTS = tuple(f"player_{seat}" for seat in range(4))
_ALL_AGENTS = tuple(f"player_{seat}" for seat in range(6))
_SEAT = {agent: seat for seat, agent in enumerate(_ALL_AGENTS)}


def agents_of(players: int) -> tuple[str, ...]:
    """``("player_0", …)``: one agent per seat of a table of ``players`` (3, 4 or 6)."""
    return _ALL_AGENTS[:players]


def _observation_space(rules: Rules, episode: str) -> spaces.Dict:
    """Finite bounds for every entry (:func:`fh_env.observe.observation_bounds`): those of
    ``rules`` and of every preset of its table size, for this kind of episode."""
    low, high = observation_bounds(rules, episode)
    lay = layout(rules.players)
    return spaces.Dict({
        "observation": spaces.Box(low, high, (lay.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (lay.num_actions,), np.int8),
    })


#: The keys ``reset(options=...)`` accepts.
RESET_OPTIONS = ("rules", "dealer", "deal")


def check_options(options: Any, players: int = 4) -> dict[str, Any]:
    """``options`` of ``reset()`` as a dict, refusing what is not one or holds unknown keys
    (naming the accepted ones) and a dealer that is not a seat 0..players-1."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"reset options must be a dict with keys among "
                         f"{', '.join(RESET_OPTIONS)}, not {options!r}")
    # PettingZoo's api_test calls reset(options={"options": 1}) to check reset's signature:
    # that one probe is let through (and ignored), so that the env passes PettingZoo's tests.
    unknown = sorted(str(k) for k in options if k not in RESET_OPTIONS and k != "options")
    if unknown:
        raise ValueError(f"unknown reset option(s) {', '.join(map(repr, unknown))}; "
                         f"the accepted options are {', '.join(RESET_OPTIONS)}")
    dealer = options.get("dealer")
    if dealer is not None:
        try:
            dealer = A.action_id(dealer)  # any integer type, not a bool
        except TypeError:
            dealer = -1
        if not 0 <= dealer < players:
            raise ValueError(f"options['dealer']={options['dealer']!r}: the dealer is a seat "
                             f"0..{players - 1} (or None for the seed's dealer)")
        options = dict(options, dealer=dealer)
    return options


def _neutral_info(sides: int = 2) -> dict[str, Any]:
    zeros = (0,) * sides
    return {"contract": None, "contract_name": None, "declarer": None, "tricks": zeros,
            "hand_points": zeros, "game_points": zeros, "hands_done": 0}


class raw_env(AECEnv, EzPickle):
    """The unwrapped environment (see the module docstring); raises on illegal actions."""

    metadata = {"name": ENV_NAME, "render_modes": ["human", "ansi"], "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, rules: RulesSpec = None,
                 render_mode: str | None = None, episode: str = "hand", reward: str = "diff",
                 reward_scale: float = 1.0, render_seat: int | None = None) -> None:
        rules = resolve_rules(rules)
        EzPickle.__init__(self, rules=rules, render_mode=render_mode, episode=episode,
                          reward=reward, reward_scale=reward_scale, render_seat=render_seat)
        super().__init__()
        check_episode(episode, reward)
        if reward == "win" and episode != "game":
            raise ValueError("reward='win' is only defined for episode='game' (a hand alone "
                             "has no winner)")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: choose one of "
                             f"{', '.join(self.metadata['render_modes'])} or None")
        players = rules.players
        if render_seat is not None and render_seat not in range(players):
            raise ValueError(f"render_seat={render_seat!r} must be a seat 0..{players - 1} "
                             "or None")
        self.rules = rules
        self.episode = episode
        self.reward_mode = reward
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.players = players
        self._agents = agents = agents_of(players)
        self._sides = rules.sides
        self.possible_agents = list(agents)
        self.num_actions = layout(players).num_actions
        self._action_spaces = {a: spaces.Discrete(self.num_actions) for a in agents}
        space = _observation_space(rules, episode)
        self._observation_spaces = {a: space for a in agents}
        low, high = state_bounds(rules, episode)
        self.state_space = spaces.Box(low, high, (layout(players).state_size,), np.float32)
        self._seeds: random.Random | None = None
        self._state: State | None = None  # the episode's game, when not stale
        self._stale = False  # whether the compiled table has moved on since _state was made
        self._table: CompiledTable | None = None  # the episode's game in the compiled core
        self._tables: dict[Rules, CompiledTable] = {}
        self._compiled_ready: bool | None = None  # numba's cache holds the table's kernels
        self._rewarded = False  # whether self.rewards holds non-zero values
        self._observer = IncrementalObserver(players)

    # ------------------------------------------------------------------ the game
    #: Step the episode in the compiled core (:mod:`fh_env.compiled.table`) when numba's cache
    #: already holds its kernels for this table size; False (or a cold cache) keeps to the
    #: reference engine.  The same games and observations either way.
    compiled_core = True

    @property
    def _game(self) -> State | None:
        """The episode's reference ``State``, rebuilt from the compiled table when stale."""
        if self._stale:
            self._state = self._table.state()  # type: ignore[union-attr]
            self._stale = False
        return self._state

    @_game.setter
    def _game(self, state: State) -> None:
        self._state, self._stale = state, False
        self._table = self._table_for(state.rules)
        if self._table is not None:
            self._table.load(state)

    def _table_for(self, rules: Rules) -> CompiledTable | None:
        """The compiled table of ``rules``, or None to play on the reference engine."""
        if not self.compiled_core:
            return None
        from ..compiled import table  # numba, only once an episode starts

        if self._compiled_ready is None:
            self._compiled_ready = table.ready(self.players)
        if not self._compiled_ready:
            return None
        found = self._tables.get(rules)
        if found is None:
            if len(self._tables) >= 8:
                self._tables.clear()
            found = self._tables[rules] = table.CompiledTable(rules)
        return found

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options = check_options(options, self.players)
        rules = resolve_rules(options["rules"]) if options.get("rules") is not None else self.rules
        if rules is not self.rules:
            if rules.players != self.players:
                raise ValueError(f"options['rules'] are for {rules.players} players, but this "
                                 f"env has {self.players} agents: build a new env for another "
                                 "table size")
            self._check_bounds(rules)
        if seed is not None:
            self._seeds = random.Random(int(seed))
            game_seed = int(seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random(int.from_bytes(os.urandom(8), "little"))
            game_seed = self._seeds.getrandbits(63)
        dealer = options.get("dealer")
        deal = _parse_deal(rules, options["deal"]) if options.get("deal") is not None else None
        self._game = State(rules, seed=game_seed, dealer=dealer, deal=deal)
        agents = self._agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: _neutral_info(self._sides) for a in agents}
        self._rewarded = False
        self._hands_done = 0
        self.agent_selection = agents[self._game.turn]
        self._skip_agent_selection = None

    # ------------------------------------------------------------------ step
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            try:
                action = A.action_id(action)  # any integer type (numpy's too); not a bool
            except TypeError as err:
                raise IllegalActionError(f"{agent}: {err}") from None
        self._step_live(agent, action)

    def _step_live(self, agent: str, action: int) -> None:
        """:meth:`step` for the agent on turn, alive, with an ``int`` action."""
        table = self._table
        if table is not None:
            if not table.apply(action):  # checks legality first and changes nothing if not
                raise IllegalActionError(f"{agent}: {self._game.illegal_message(action)}")
            self._stale = True
            phase, turn = table.phase, table.turn
        else:
            game = self._state
            try:
                game.apply(action)  # checks legality first and leaves the state as it was if not
            except IllegalActionError as err:
                raise IllegalActionError(f"{agent}: {err}") from None
            phase, turn = game.phase, game.turn
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        if phase >= _HAND_OVER:
            self._end_of_hand(agent, phase)
        else:
            self.agent_selection = self._agents[turn]
        if self.render_mode == "human":
            self.render()

    def _end_of_hand(self, last_agent: str, phase: int) -> None:
        source = self._table if self._table is not None else self._state  # same result, winner
        result = source.result
        self._hands_done += 1
        info = {"contract": result.contract, "contract_name": result.contract_name,
                "declarer": result.declarer,
                "tricks": result.tricks, "hand_points": result.hand_points,
                "game_points": result.game_points, "hands_done": self._hands_done}
        agents = self._agents
        for agent in agents:
            self.infos[agent] = dict(info)
        winner = source.winner if phase == Phase.GAME_OVER and source.winner != DRAW else None
        if self._sides == 2:
            side_reward = team_rewards(self.reward_mode, result.hand_points, winner,
                                       self.reward_scale)
        else:
            side_reward = side_rewards(self.reward_mode, result.hand_points, winner,
                                       self.reward_scale)
        players = self.players
        for seat, agent in enumerate(agents):
            self.rewards[agent] = float(side_reward[side_of(players, seat)])
        self._rewarded = any(r != 0.0 for r in side_reward)
        self._accumulate_rewards()
        if self.episode == "hand" or phase == Phase.GAME_OVER:
            for agent in agents:
                self.terminations[agent] = True
            self.agent_selection = last_agent
        else:
            game = self._game
            game.next_hand()
            if self._table is not None:  # the compiled table takes the new hand
                self._table.load(game)
            self.agent_selection = agents[game.turn]

    # ------------------------------------------------------------------ observing
    #: Observations kept up to date per seat from the game's events
    #: (:class:`fh_env.observe_incremental.IncrementalObserver`, byte-identical to a full
    #: encode); False encodes every observation from the seat view again (the reference that
    #: ``python -m bench.env`` measures against).
    incremental_observations = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observe_seat(_SEAT[agent])

    def _observe_seat(self, seat: int) -> dict[str, np.ndarray]:
        if self.incremental_observations:
            table = self._table
            if table is not None:
                return table.observe(seat)
            return self._observer._observation(self._state, seat)
        return observation(seat_view(self._game, seat))

    def state(self) -> np.ndarray:
        """The full deal and history from seat 0's side (``fh_env.observe.encode_state``)."""
        return encode_state(self._game, 0)

    @property
    def game(self) -> State:
        """The engine state of the episode (read it; changing it desynchronises the env).

        It stays the live game: an episode stepped in the compiled core moves onto the
        reference engine from here on (the next reset goes back)."""
        state = self._game
        self._table = None
        return state

    def legal_actions(self) -> list[int]:
        """The legal action ids of the agent on turn (none once the episode is over)."""
        game = self._game
        if game is None:
            raise RuntimeError("legal_actions() before reset()")
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return []
        if self._table is not None:
            return self._table.legal_actions()
        return game.legal_actions()

    def legal_action_names(self) -> list[str]:
        """The legal actions of the agent on turn by name, as the table size's action table
        names them under the episode's rules (``State.action_name``; ``BJ``/``RJ`` with two
        jokers): e.g. ``["pass", "7H", ...]``, ``["play 10S", ...]``; ``[]`` once the episode
        is over."""
        legal = self.legal_actions()
        return [self._game.action_name(a) for a in legal]

    def _check_bounds(self, rules: Rules) -> None:
        """Warn when ``rules`` (from reset options) can leave the observation space."""
        low, high = observation_bounds(rules, self.episode)
        box = self._observation_spaces[self._agents[0]]["observation"]
        if (low < box.low).any() or (high > box.high).any():
            warn(f"the rules of this reset ({rules_name(rules)}) have values outside this "
                 "env's observation space, which covers its own rules and the presets: build "
                 "the env with these rules to have them inside")

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        if self.render_mode is None:
            warn("You are calling render method without specifying any render mode.")
            return None
        game = self._game
        seat = self.render_seat
        if seat is None:
            seat = game.turn if game.turn >= 0 else _SEAT[self.agent_selection]
        text = render_text(seat_view(game, seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict[str, Any]:
        """The constructor arguments (EzPickle) plus the episode in progress, if any."""
        data = EzPickle.__getstate__(self)
        if self._game is not None:
            data["episode_state"] = {
                "game": self._game.to_dict(), "seeds": self._seeds.getstate(),
                **{k: getattr(self, k) for k in (
                    "agents", "rewards", "_cumulative_rewards", "terminations", "truncations",
                    "infos", "agent_selection", "_skip_agent_selection", "_rewarded",
                    "_hands_done")}}
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        EzPickle.__setstate__(self, data)
        episode = data.get("episode_state")
        if episode is not None:
            episode = dict(episode)
            self._game = State.from_dict(episode.pop("game"))
            self._seeds = random.Random()
            self._seeds.setstate(episode.pop("seeds"))
            self.__dict__.update(episode)


def _parse_deal(rules: Rules, deal: dict[str, Any]) -> tuple[list[int], int]:
    """Masks of a ``{"hands": [...], "kitty": [...]}`` deal of card names or ids, checked."""
    try:
        hands = [mask_of(parse_card(c) if isinstance(c, str) else int(c) for c in hand)
                 for hand in deal["hands"]]
        kitty = mask_of(parse_card(c) if isinstance(c, str) else int(c) for c in deal["kitty"])
    except (KeyError, TypeError) as err:
        raise ValueError(f"options['deal'] must be {{'hands': [[10 card names] x "
                         f"{rules.players}], 'kitty': [card names]}}, got {deal!r}") from err
    check_deal(rules, hands, kitty)
    return hands, kitty


def action_table_markdown(players: int = 4) -> str:
    """The action table of a table size as the Markdown table of docs/environment.md (a test
    keeps the page equal to it), made from :func:`fh_env.actions.action_table`."""
    t = A.action_table(players)
    names = A.CALL_NAMES
    first, last = A.BID_BASE, A.BID_BASE + A.NUM_ORDINARY_BIDS - 1
    rows = [
        ("pass", f"{A.PASS}", f"`{names[A.PASS]}`"),
        ("ordinary bids", f"{first}..{last}",
         "`" + " ".join(names[first:first + 6]) + f" … {names[last]}`"),
        ("nullo-type bids", f"{A.NULLO}..{A.DOUBLE_NULLO}",
         ", ".join(f"`{names[a]}`" for a in A.NULLO_TYPES)),
        ("misdeal", f"{A.MISDEAL}", f"`{names[A.MISDEAL]}`"),
        ("discard a card", f"{t.discard_base}..{t.play_base - 1}",
         f"`discard <card>` ({t.discard_base} + card id)"),
        ("play a card", f"{t.play_base}..{t.joker_lead_base - 1}",
         f"`play <card>` ({t.play_base} + card id)"),
        ("lead a joker naming a suit", f"{t.joker_lead_base}..{t.num_actions - 1}",
         "`play JK S` … `play JK H`, `play RJ S` … `play RJ H`"),
    ]
    lines = ["| actions | ids | names |", "|---|---|---|"]
    lines += [f"| {what} | {ids} | {text} |" for what, ids, text in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------- text rendering
_SEAT_NAMES = ("N", "E", "S", "W")
_SHORT_NAMES = ("p0", "p1", "p2", "p3", "p4", "p5")  # three and six players


def render_text(view: SeatView) -> str:
    """The table as ``view.seat`` sees it: its hand, an exposed hand, the auction, the trick,
    tricks won and the score (other hands only as card counts)."""
    r = view.rules
    jokers = r.jokers
    name = rules_name(r)
    name = "custom rules" if name == "custom" else name

    def cards(mask: int) -> str:
        return " ".join(card_name(c, jokers) for c in _display_order(mask)) or "-"

    n = r.players
    short = _SEAT_NAMES if n == 4 else _SHORT_NAMES

    def who(seat: int) -> str:
        return f"{_SEAT_NAMES[seat]} (player_{seat})" if n == 4 else f"player_{seat}"

    def action(a: int) -> str:
        return A.action_to_str(a, jokers) if n == 4 else table.to_str(a, jokers)

    table = A.action_table(n)
    if n == 4:
        score = f"score N-S {view.scores[0]}, E-W {view.scores[1]}"
    elif n == 6:
        score = f"score team 0-2-4 {view.scores[0]}, team 1-3-5 {view.scores[1]}"
    else:
        score = "score " + ", ".join(f"player_{s} {view.scores[s]}" for s in range(3))

    # The hand in progress, or the hand just finished (a scored hand is counted in hands_played
    # as it ends; a hand thrown in is not counted, so it keeps its number).
    finished = view.phase >= Phase.HAND_OVER and view.contract is not None
    number = view.hands_played + (0 if finished else 1)
    lines = [f"Five Hundred, {name}; hand {number}, dealer {who(view.dealer)}; {score}"]
    calls = "  ".join(f"{short[s]}:{action(a)}" for s, a in view.calls)
    lines.append(f"Auction: {calls or '-'}")
    if view.contract is not None:
        if view.contract == -1:
            contract = "no contract (all passed), no trumps"
        else:
            trumps = (f"trumps {SUIT_NAMES[view.context]}" if view.context < 4 else "no trumps")
            contract = f"{action(view.contract)} by {who(view.declarer)}, {trumps}"
        lines.append(f"Contract: {contract}")
    out = sitting_out_seats(n, view.sitting_out)
    for seat in range(n):
        if seat == view.seat:
            shown = cards(view.hand)
        elif view.exposed and seat == view.declarer:
            shown = cards(view.exposed) + "  (exposed)"
        elif seat in out:
            shown = "sits out"
        else:
            shown = f"{view.hand_sizes[seat]} cards"
        marker = "*" if seat == view.turn else " "
        lines.append(f"{marker} {who(seat):<13} tricks {view.tricks_won[seat]:>2}  {shown}")
    for seat, picked, discarded in view.exchanges:
        lines.append(f"Kitty picked up: {cards(picked)}; discarded: {cards(discarded)}")
    if view.trick or view.tricks:
        if view.trick:
            leader, played, led = view.leader, view.trick, view.led
        else:
            leader, played, _, led = view.tricks[-1]
        order = trick_order(leader, view.sitting_out, n)
        shown = "  ".join(f"{short[s]}:{card_name(c, jokers)}"
                          for s, c in zip(order, played))
        label = "Trick" if view.trick else "Last trick"
        lines.append(f"{label} {len(view.tricks) + bool(view.trick)} "
                     f"(led {SUIT_NAMES[led]}): {shown}")
    if view.turn >= 0:
        phase = view.phase.name.lower()
        legal = ""
        if view.legal:
            legal = ": " + ", ".join(action(a) for a in cards_of(view.legal))
        lines.append(f"{phase}, {who(view.turn)} to act{legal}")
    else:
        lines.append("The hand is over." if view.phase == Phase.HAND_OVER else "The game is over.")
    return "\n".join(lines)


def _display_order(mask: int) -> list[int]:
    """Jokers first, then suits S C D H, high cards first."""
    jokers = [c for c in cards_of(mask & JOKER_BITS)][::-1]
    return jokers + sorted(cards_of(mask & ~JOKER_BITS),
                           key=lambda c: (suit_of(c), -PLAIN_ORDER[rank_of(c)]))


# ---------------------------------------------------------------------- wrapped env
class _ForwardAttributes:
    """Reads the AEC attributes straight from the raw env (``self._raw``).

    PettingZoo's ``BaseWrapper`` finds them through ``__getattr__`` at every level of the
    wrapper chain, which cost about 30 µs an agent step with three wrappers (measured: a
    do-nothing env ran at 31k steps/s wrapped against 1.2M raw).  These read-only properties
    return the very same objects, so behaviour is unchanged.
    """

    agents = property(attrgetter("_raw.agents"))
    agent_selection = property(attrgetter("_raw.agent_selection"))
    rewards = property(attrgetter("_raw.rewards"))
    _cumulative_rewards = property(attrgetter("_raw._cumulative_rewards"))
    terminations = property(attrgetter("_raw.terminations"))
    truncations = property(attrgetter("_raw.truncations"))
    infos = property(attrgetter("_raw.infos"))
    possible_agents = property(attrgetter("_raw.possible_agents"))
    metadata = property(attrgetter("_raw.metadata"))

    def observation_space(self, agent: str) -> spaces.Space:
        return self._raw.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self._raw.action_space(agent)


class _TerminateIllegal(_ForwardAttributes, wrappers.TerminateIllegalWrapper):
    """PettingZoo's TerminateIllegalWrapper, with the penalty paid by the offender's team: an
    illegal action ends the episode (``terminated``, not truncated) with ``illegal_reward`` to
    the offender and its partner and 0 to the other team (a reward is a team's)."""

    def __init__(self, env: raw_env, illegal_reward: float) -> None:
        self._raw = env.unwrapped
        super().__init__(env, illegal_reward)

    def step(self, action: Any) -> None:
        raw = self._raw
        agent = raw.agent_selection
        if self._prev_obs is None:
            self.observe(agent)
        mask = self._prev_obs["action_mask"]
        self._prev_obs = self._prev_info = None
        dead = raw.terminations[agent] or raw.truncations[agent]
        if self._terminated and dead:
            raw._was_dead_step(action)
        elif not dead and not mask[action]:
            EnvLogger.warn_on_illegal_move()
            players = raw.players
            side = side_of(players, _SEAT[agent])
            raw._cumulative_rewards[agent] = 0.0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, False)
            raw.rewards = {a: float(self._illegal_value) if side_of(players, _SEAT[a]) == side
                           else 0.0 for a in raw.agents}
            raw._rewarded = True
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            self.env.step(action)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # TerminateIllegalWrapper.observe, reading the raw env's attributes directly.
        raw = self._raw
        obs = raw.observe(agent)
        if agent == raw.agent_selection:
            self._prev_obs = obs
            self._prev_info = raw.infos.get(agent, {})
        return obs


class _AssertOutOfBounds(_ForwardAttributes, wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv) -> None:
        self._raw = env.unwrapped
        super().__init__(env)

    def step(self, action: Any) -> None:
        # Discrete(130).contains, without its numpy conversions, for integer actions of any type
        # (passed on as plain ints); a bool is not an action.
        if action is None:
            super().step(action)  # a dead agent's step
            return
        try:
            value = A.action_id(action)
        except TypeError as err:
            raise AssertionError(f"action {action!r} is not in the action space "
                                 f"Discrete({self._raw.num_actions}): {err}") from None
        size = self._raw.num_actions
        if not 0 <= value < size:
            raise AssertionError(f"action {action!r} is not in the action space "
                                 f"Discrete({size}): action ids are 0..{size - 1}")
        self.env.step(value)


def _after_reset(name: str) -> property:
    """An attribute that, before the first reset, raises as PettingZoo's wrapper makes it."""
    read = attrgetter("_raw." + name)

    def get(self: "_OrderEnforcing") -> Any:
        if not self._has_reset:
            raise AttributeError(name)  # falls back to OrderEnforcingWrapper.__getattr__
        return read(self)

    return property(get)


class _OrderEnforcing(_ForwardAttributes, wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper; once reset, ``last``, ``observe`` and ``step`` go
    straight to the wrapper that acts on them (the AssertOutOfBounds wrapper only checks the
    actions of ``step``; observing passes through it unchanged), with the same checks."""

    def __init__(self, env: AECEnv) -> None:
        self._raw = raw = env.unwrapped
        super().__init__(env)
        inner = env
        while isinstance(inner, _AssertOutOfBounds):
            inner = inner.env
        self._observing = inner  # the first wrapper down the chain whose observe does anything
        # The usual chain (env()): TerminateIllegal straight above an unchanged raw_env, whose
        # observe and step the shortcuts below may take the place of.
        usual = (type(inner) is _TerminateIllegal and inner.env is raw
                 and type(raw).observe is raw_env.observe and type(raw).step is raw_env.step)
        self._usual = inner if usual else None

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        if not self._has_reset:
            return super().observe(agent)
        return self._observing.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        term = self._usual
        if term is not None and observe and self._has_reset:
            # TerminateIllegal's observe of raw_env's observe, inlined
            raw = self._raw
            agent = raw.agent_selection
            obs = term._prev_obs = raw._observe_seat(_SEAT[agent])
            info = term._prev_info = raw.infos[agent]
            return (obs, raw._cumulative_rewards[agent], raw.terminations[agent],
                    raw.truncations[agent], info)
        if not self._has_reset:
            return super().last(observe)
        raw = self._raw
        agent = raw.agent_selection
        observing = self._observing
        if not observe:
            obs = None
        elif type(observing) is _TerminateIllegal:  # its observe, one call less
            obs = observing._prev_obs = raw.observe(agent)
            observing._prev_info = raw.infos.get(agent, {})
        else:
            obs = observing.observe(agent)
        return (obs, raw._cumulative_rewards[agent], raw.terminations[agent],
                raw.truncations[agent], raw.infos[agent])

    def step(self, action: Any) -> None:
        term = self._usual
        if term is not None and self._has_reset:
            raw = self._raw
            if raw.agents:
                agent = raw.agent_selection
                dead = raw.terminations[agent] or raw.truncations[agent]
                if type(action) is int:
                    # The usual step (a plain int, in range, legal for a live agent that was
                    # observed) goes straight to the raw env, as the chain would send it.
                    prev = term._prev_obs
                    if (not dead and prev is not None and 0 <= action < raw.num_actions
                            and prev["action_mask"][action]):
                        self._has_updated = True
                        term._prev_obs = term._prev_info = None
                        raw._step_live(agent, action)
                        return
                elif action is None and dead:
                    # A dead agent's step: the chain's checks pass, and TerminateIllegal and
                    # raw_env both hand it to PettingZoo's _was_dead_step.
                    self._has_updated = True
                    term._prev_obs = term._prev_info = None
                    raw._was_dead_step(None)
                    return
        if not (self._has_reset and self._raw.agents):
            super().step(action)
            return
        raw = self._raw
        self._has_updated = True
        term = self._observing
        if (type(term) is _TerminateIllegal and type(action) is int
                and term._prev_obs is not None and 0 <= action < raw.num_actions):
            agent = raw.agent_selection
            if (not raw.terminations[agent] and not raw.truncations[agent]
                    and term._prev_obs["action_mask"][action]):
                term._prev_obs = term._prev_info = None
                raw.step(action)
                return
        self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> "_AgentIterable":
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)


class _AgentIterable(wrappers.order_enforcing.AECOrderEnforcingIterable):
    def __iter__(self) -> "_AgentIterator":
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(wrappers.order_enforcing.AECOrderEnforcingIterator):
    """PettingZoo's AECOrderEnforcingIterator, reading the raw env's attributes directly."""

    def __next__(self) -> str:
        env = self.env
        raw = env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection

    agents = _after_reset("agents")
    agent_selection = _after_reset("agent_selection")
    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")


def env(rules: RulesSpec = None, render_mode: str | None = None,
        episode: str = "hand", reward: str = "diff", reward_scale: float = 1.0,
        illegal_reward: float | None = None, render_seat: int | None = None) -> AECEnv:
    """The wrapped environment: PettingZoo's TerminateIllegal, AssertOutOfBounds and
    OrderEnforcing wrappers around :class:`raw_env` (see the module docstring)."""
    inner = raw_env(rules=rules, render_mode=render_mode, episode=episode, reward=reward,
                    reward_scale=reward_scale, render_seat=render_seat)
    if illegal_reward is None:
        illegal_reward = default_illegal_reward(reward, reward_scale)
    wrapped = _TerminateIllegal(inner, illegal_reward=illegal_reward)
    wrapped = _AssertOutOfBounds(wrapped)
    return _OrderEnforcing(wrapped)


