"""Five Hundred as an OpenSpiel game: ``import fh_env.envs.openspiel`` registers
``python_five_hundred``, so that ``pyspiel.load_game("python_five_hundred")`` and every
OpenSpiel algorithm (IS-MCTS, CFR-family solvers on small variants, NFSP, exploitability tools)
can play it.  pyspiel is imported here only (the optional extra ``openspiel``); nothing else in
``fh_env`` imports this module.

One OpenSpiel episode is one hand (the deal, the auction, the kitty exchange, the play), played
by the reference engine (:class:`fh_env.engine.State`) under any rule set and table size.

Parameters (``pyspiel.load_game("python_five_hundred(rules=three-handed)")``):

* ``rules``: a preset name of :data:`fh_env.rules.PRESETS` (default ``australian-no-nullo``);
* ``players``: 3, 4 or 6, or 0 (the default) for the preset's table size;
* ``dealer``: the dealer's seat (default 0);
* every option of :class:`fh_env.rules.Rules` by its name; two are written as integers, since
  a game string reads ``43`` as one: ``bidding_rounds`` (0 means ``unlimited``) and ``deck``
  (41 … 46, and -44 for ``44-nojoker``).  OpenSpiel hands a game every parameter with its default filled in, so an
  option changes the preset only where it differs from the option's default: to put an option
  a preset sets back to its default, start from the defaults (``rules=australian-no-nullo``)
  and give the options.

The deal is a chance node per card (uniform over the cards not yet dealt; the ids of
:mod:`fh_env.cards` are the outcomes): the first ten cards go to seat 0, the next ten to seat 1,
and so on, the rest to the kitty (with ``highest_joker_in_kitty`` the highest joker is in the
kitty before the deal, §1.3).  Actions are the ids of :func:`fh_env.actions.action_table` of the
table size.  Returns are the hand's points (§6, before the game-level caps of §7), each player
scoring its side's; a hand thrown in scores 0.

Information: ``information_state_tensor`` and ``observation_tensor`` are both our observation
(:func:`fh_env.observe.encode` of the player's :class:`~fh_env.view.SeatView`), which already has
perfect recall (the whole auction, every trick, the player's own exchange); during the deal it
holds the cards dealt to the player so far and no phase.  ``information_state_string`` is the
player's whole history in words (its hand as dealt, every call, its own discards in order,
others' exchanges as counts, an exposed hand, every card played); ``observation_string`` is
the present situation.  Two histories that differ only in the order of the player's own
discards are one information state for the tensor but two for the string.

``resample_from_infostate(player, sampler)`` draws a state uniformly among those consistent with
``player``'s information state, by the exact sampler of :mod:`fh_env.sampler` (during the deal
no sampler is needed).  Serialization is OpenSpiel's own (``pyspiel.serialize_game_and_state``): the state
pickles as its deal and moves and is rebuilt by replaying them.
"""

from __future__ import annotations

import dataclasses
import random
from collections import OrderedDict
from typing import Any, Callable, Sequence

import numpy as np
import pyspiel

from .. import actions as A
from ..actions import action_table
from ..cards import JOKER, NT_STANDARD, card_name, cards_of, is_joker, mask_of
from ..contracts import contract_value
from ..engine import NO_CONTRACT, Phase, State, side_of, trick_order
from ..observe import layout, max_calls
from ..rules import PRESETS, Rules
from ..sampler import Determinizer
from ..view import SeatView, seat_view

GAME_NAME = "python_five_hundred"
DEFAULT_PRESET = "australian-no-nullo"
HAND_SIZE = 10

#: How an option's value is written as an OpenSpiel parameter, where it differs: a parameter has
#: one type, and a game string reads ``43`` as an integer, so ``bidding_rounds`` is an integer
#: (0: ``unlimited``) and ``deck`` is its number of cards (-44: ``44-nojoker``).
_TO_PARAM: dict[str, Callable[[Any], Any]] = {
    "bidding_rounds": lambda v: 0 if v == "unlimited" else v,
    "deck": lambda v: -44 if v == "44-nojoker" else int(v),
}
_FROM_PARAM: dict[str, Callable[[Any], Any]] = {
    "bidding_rounds": lambda v: "unlimited" if v == 0 else v,
    "deck": lambda v: "44-nojoker" if v == -44 else str(v),
}
#: The rule options as OpenSpiel parameters, with their defaults.
_OPTION_DEFAULTS: dict[str, Any] = {
    f.name: _TO_PARAM.get(f.name, lambda v: v)(f.default)
    for f in dataclasses.fields(Rules) if f.name != "players"}
PARAMETERS: dict[str, Any] = {"rules": DEFAULT_PRESET, "players": 0, "dealer": 0,
                              **_OPTION_DEFAULTS}



def rules_from_params(params: dict[str, Any]) -> Rules:
    """The rule set of a parameter dict (see the module docstring for how options and the
    preset combine); ValueError names a bad preset or option."""
    preset = params.get("rules", DEFAULT_PRESET)
    if preset not in PRESETS:
        raise ValueError(f"{GAME_NAME}: unknown preset rules={preset!r}; presets: "
                         + ", ".join(PRESETS))
    rules = Rules.preset(preset)
    changes: dict[str, Any] = {}
    for name, default in _OPTION_DEFAULTS.items():
        if name not in params:
            continue
        value = params[name]
        if type(value) is type(default) and value == default:
            continue
        changes[name] = _FROM_PARAM.get(name, lambda v: v)(value)
    players = params.get("players", 0)
    if players not in (0, 3, 4, 6):
        raise ValueError(f"{GAME_NAME}: players={players!r}; the table sizes are 3, 4 and 6 "
                         "(0: the preset's)")
    if players:
        changes["players"] = players
    return rules.replace(**changes) if changes else rules


def params_for(rules: Rules, dealer: int = 0) -> dict[str, Any]:
    """Parameters that load the game of ``rules`` (every option given, over the defaults)."""
    params: dict[str, Any] = {"rules": DEFAULT_PRESET, "players": rules.players,
                              "dealer": dealer}
    for name in _OPTION_DEFAULTS:
        params[name] = _TO_PARAM.get(name, lambda v: v)(getattr(rules, name))
    return params


def load_game(rules: Rules | str | None = None, dealer: int = 0) -> pyspiel.Game:
    """``pyspiel.load_game`` of the game of ``rules`` (a :class:`Rules`, a preset name or
    None for the defaults) with ``dealer`` dealing."""
    if rules is None or isinstance(rules, str):
        return pyspiel.load_game(GAME_NAME, {"rules": rules or DEFAULT_PRESET, "dealer": dealer})
    return pyspiel.load_game(GAME_NAME, params_for(rules, dealer))


# ---------------------------------------------------------------------------- the game
_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Five Hundred (fh_env)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=PARAMETERS)


class _Static:
    """What every state of one game shares (rules, dealer, name tables); copied and pickled by
    reference to its parameters, so that a state's clone and serialization stay small."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = dict(params)
        self.rules = rules_from_params(params)
        self.players = self.rules.players
        self.dealer = int(params.get("dealer", 0))
        if self.dealer not in range(self.players):
            raise ValueError(f"{GAME_NAME}: dealer={self.dealer!r} is not a seat "
                             f"0..{self.players - 1}")
        self.table = action_table(self.players)
        self.pack = mask_of(self.rules.cards)
        self.preset_joker = self.rules.highest_joker_in_kitty  # §1.3: in the kitty already
        self.to_deal = len(self.rules.cards) - (1 if self.preset_joker else 0)
        jokers = self.rules.jokers
        self.card_names = tuple(card_name(c, jokers) for c in range(self.table.num_cards))
        self.action_names = tuple(self.table.to_str(a, jokers)
                                  for a in range(self.table.num_actions))
        self.layout = layout(self.players)
        values = [contract_value(self.rules, b) for b in range(A.BID_BASE, A.DOUBLE_NULLO + 1)]
        self.max_value = max(values + [250])
        self.key = tuple(sorted(self.params.items()))

    def __deepcopy__(self, memo: dict) -> "_Static":
        return self

    def __reduce__(self) -> tuple:
        return (_static, (self.params,))

    def slot_of(self, position: int) -> int:
        """Who gets the card dealt at ``position``: seat ``position // 10``, or the kitty
        (``players``)."""
        return min(position // HAND_SIZE, self.players)


_STATICS: dict[tuple, _Static] = {}


def _static(params: dict[str, Any]) -> _Static:
    key = tuple(sorted(params.items()))
    found = _STATICS.get(key)
    if found is None:
        found = _STATICS[key] = _Static(params)
    return found


class FiveHundredGame(pyspiel.Game):
    """One hand of Five Hundred under a rule set, a table size and a dealer."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(PARAMETERS, **(params or {}))
        static = _static(params)
        rules = static.rules
        info = pyspiel.GameInfo(
            num_distinct_actions=static.table.num_actions,
            max_chance_outcomes=static.table.num_cards,
            num_players=rules.players,
            min_utility=-float(static.max_value),
            max_utility=float(static.max_value + 10 * HAND_SIZE),
            utility_sum=None,
            max_game_length=max_calls(rules.players) + 2 * rules.kitty_size
            + HAND_SIZE * rules.players)
        super().__init__(_GAME_TYPE, info, params)
        self._static = static

    @property
    def rules(self) -> Rules:
        return self._static.rules

    def new_initial_state(self) -> "FiveHundredState":
        return FiveHundredState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self._static.to_deal

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> "FiveHundredObserver":
        return FiveHundredObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
            self._static)


# ---------------------------------------------------------------------------- the state
class _Core:
    """The mutable part of a state: the cards dealt so far, the moves, the engine state.

    It copies itself cheaply (OpenSpiel's ``clone`` deep-copies a Python state's attributes)
    and pickles as its deal and moves only, rebuilt by replaying them, so that a serialized
    state does not depend on the engine's internals.
    """

    __slots__ = ("g", "deal", "moves", "engine")

    def __init__(self, g: _Static) -> None:
        self.g = g
        self.deal: list[int] = []  # card ids in dealing order
        self.moves: list[tuple[int, int]] = []  # (seat, action) of every player action
        self.engine: State | None = None  # once the deal is complete

    def __deepcopy__(self, memo: dict) -> "_Core":
        new = _Core.__new__(_Core)
        new.g = self.g
        new.deal = self.deal[:]
        new.moves = self.moves[:]
        new.engine = self.engine.clone() if self.engine is not None else None
        return new

    def __reduce__(self) -> tuple:
        return (_replayed, (self.g, tuple(self.deal), tuple(a for _, a in self.moves)))

    # ------------------------------------------------------------------ the deal
    def deal_card(self, c: int) -> None:
        g = self.g
        bit = 1 << c
        if not g.pack & bit or c in self.deal or (g.preset_joker and c == JOKER):
            raise ValueError(f"card {c} cannot be dealt now")
        self.deal.append(c)
        if len(self.deal) == g.to_deal:
            hands, kitty = self.dealt_masks()
            self.engine = State(g.rules, dealer=g.dealer, deal=(hands, kitty))

    def dealt_masks(self) -> tuple[list[int], int]:
        """The hands and the kitty dealt so far, as bitmasks."""
        g = self.g
        slots = [0] * (g.players + 1)
        for i, c in enumerate(self.deal):
            slots[g.slot_of(i)] |= 1 << c
        if g.preset_joker:
            slots[g.players] |= 1 << JOKER
        return slots[:g.players], slots[g.players]

    def undealt(self) -> list[int]:
        g = self.g
        gone = mask_of(self.deal) | ((1 << JOKER) if g.preset_joker else 0)
        return list(cards_of(g.pack & ~gone))

    def apply(self, action: int) -> None:
        engine = self.engine
        if engine is None:
            self.deal_card(action)
            return
        seat = engine.turn
        engine.apply(action)
        self.moves.append((seat, action))

    # ------------------------------------------------------------------ views
    def view(self, player: int) -> SeatView:
        """The player's view; during the deal, that of the partial deal (no phase, no turn
        are encoded: see :meth:`FiveHundredObserver.set_from`)."""
        engine = self.engine
        if engine is None:
            hands, kitty = self.dealt_masks()
            engine = State(self.g.rules, dealer=self.g.dealer, deal=(hands, kitty))
        return seat_view(engine, player)

    def own_dealt(self, player: int) -> list[int]:
        return sorted(c for i, c in enumerate(self.deal) if self.g.slot_of(i) == player)


def _replayed(g: _Static, deal: Sequence[int], actions: Sequence[int]) -> _Core:
    """A core rebuilt from its deal and its player actions (the pickled form)."""
    core = _Core(g)
    for c in deal:
        core.deal_card(c)
    for a in actions:
        core.apply(a)
    return core


class FiveHundredState(pyspiel.State):
    """A state of one hand: dealing (chance), then the engine's decisions."""

    def __init__(self, game: FiveHundredGame) -> None:
        super().__init__(game)
        self._core = _Core(game._static)

    # ------------------------------------------------------------------ the OpenSpiel API
    def current_player(self) -> int:
        engine = self._core.engine
        if engine is None:
            return pyspiel.PlayerId.CHANCE
        if engine.phase >= Phase.HAND_OVER:
            return pyspiel.PlayerId.TERMINAL
        return engine.turn

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._core.engine
        assert engine is not None and player == engine.turn
        return engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self._core.undealt()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        g = self._core.g
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {g.card_names[action]}"
        return g.action_names[action]

    def is_terminal(self) -> bool:
        engine = self._core.engine
        return engine is not None and engine.phase >= Phase.HAND_OVER

    def returns(self) -> list[float]:
        """The hand's points (§6) of each player's side; 0 before the end and for a hand
        thrown in."""
        core = self._core
        n = core.g.players
        engine = core.engine
        if engine is None or engine.result is None:
            return [0.0] * n
        points = engine.result.hand_points
        return [float(points[side_of(n, p)]) for p in range(n)]

    def information_state_string(self, player: int | None = None) -> str:
        """The player's history in words (a direct path to what OpenSpiel's observer gives)."""
        return info_state_string(self._core, self.current_player() if player is None
                                 else player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> "FiveHundredState":
        """A state drawn uniformly among those ``player_id`` cannot tell from this one (same
        information state string), the hidden cards by the exact sampler
        (:class:`fh_env.sampler.Determinizer`).  ``probability_sampler`` is OpenSpiel's (a
        callable giving uniform floats), a ``random.Random`` or a ``numpy`` generator: it seeds the draw."""
        return resample(self, int(player_id), _rng_of(probability_sampler))

    def __str__(self) -> str:
        return state_string(self._core)

    # ------------------------------------------------------------------ extras
    @property
    def engine(self) -> State | None:
        """The engine state once the deal is complete (read it; do not change it)."""
        return self._core.engine

    def view(self, player: int) -> SeatView:
        """What ``player`` knows, as the bots of :mod:`agents` read it."""
        return self._core.view(player)


# ---------------------------------------------------------------------------- strings
def _cards(g: _Static, mask: int) -> str:
    return " ".join(g.card_names[c] for c in cards_of(mask)) or "-"


def info_state_string(core: _Core, player: int) -> str:
    """``player``'s information state in words: everything it has seen, in order."""
    g = core.g
    lines = [f"seat {player} of {g.players}, dealer {g.dealer}"]
    engine = core.engine
    if engine is None:
        lines.append(f"dealing ({len(core.deal)} of {g.to_deal} cards): "
                     + " ".join(g.card_names[c] for c in core.own_dealt(player)))
        return "\n".join(lines)
    names = g.action_names
    lines.append("hand dealt: " + _cards(g, engine.dealt[0][player]))
    if engine.calls:
        lines.append("calls: " + ", ".join(f"{s}:{names[a]}" for s, a in engine.calls))
    n_calls = len(engine.calls)
    discards = [(s, a) for s, a in core.moves[n_calls:] if A.DISCARD_BASE <= a < g.table.play_base]
    pos = 0
    for seat, picked, _ in engine.exchanges:
        made = [a for s, a in discards[pos:pos + g.rules.kitty_size]]
        pos += len(made)
        if seat == player:
            lines.append(f"{seat} picks up: {_cards(g, picked)}; discards: "
                         + " ".join(names[a][len("discard "):] for a in made))
        else:
            lines.append(f"{seat} exchanges, {len(made)} discarded")
    if engine.phase >= Phase.PLAY and engine.contract is not None:
        lines.extend(_play_lines(core, player))
    return "\n".join(lines)


def _exposed_at(engine: State, player: int) -> int:
    """The open-nullo hand as it was when shown to ``player`` (0: not shown to it)."""
    declarer = engine.declarer
    if not engine.exposed or player == declarer:
        return 0
    hand = engine.hands[declarer]
    first = 0 if engine.rules.open_nullo_exposed == "at_first_lead" else 1
    n = engine.rules.players
    for t, (leader, cards, _, _) in enumerate(engine.tricks):
        if t >= first:
            for s, c in zip(trick_order(leader, engine.sitting_out, n), cards):
                if s == declarer:
                    hand |= 1 << c
    if engine.trick and len(engine.tricks) >= first:
        for s, c in zip(trick_order(engine.leader, engine.sitting_out, n), engine.trick):
            if s == declarer:
                hand |= 1 << c
    return hand


def _play_lines(core: _Core, player: int) -> list[str]:
    g, engine = core.g, core.engine
    assert engine is not None
    n = g.players
    names = g.card_names
    exposed = _exposed_at(engine, player)
    first_exposed = 0 if engine.rules.open_nullo_exposed == "at_first_lead" else 1
    lines = []
    tricks = [(leader, cards, led) for leader, cards, _, led in engine.tricks]
    if engine.trick:
        tricks.append((engine.leader, tuple(engine.trick), engine.led))
    if exposed and first_exposed == 0:
        lines.append(f"{engine.declarer} exposes: {_cards(g, exposed)}")
    for t, (leader, cards, led) in enumerate(tricks):
        order = trick_order(leader, engine.sitting_out, n)
        text = " ".join(f"{s}:{names[c]}" for s, c in zip(order, cards))
        if cards and is_joker(cards[0]) and engine.context >= NT_STANDARD:
            text += f" (names {'SCDH'[led]})"
        lines.append(f"trick {t + 1}: {text}")
        if exposed and first_exposed == 1 and t == 0 and len(cards) == len(order):
            lines.append(f"{engine.declarer} exposes: {_cards(g, exposed)}")
    return lines


def observation_string(core: _Core, player: int) -> str:
    """What ``player`` sees now (no history beyond the current trick), in words."""
    g = core.g
    engine = core.engine
    if engine is None:
        return (f"seat {player}, dealing ({len(core.deal)} of {g.to_deal}): "
                + " ".join(g.card_names[c] for c in core.own_dealt(player)))
    view = seat_view(engine, player)
    parts = [f"seat {player}", f"phase {view.phase.name.lower()}", f"hand {_cards(g, view.hand)}"]
    if view.phase == Phase.AUCTION:
        parts.append("high bid " + (f"{g.action_names[view.high_bid]} by {view.high_bidder}"
                                    if view.high_bid >= 0 else "none"))
        parts.append("calls " + " ".join(g.action_names[a].replace(" ", "_")
                                          for _, a in view.calls))
    elif view.contract is not None:
        contract = "no contract" if view.contract == NO_CONTRACT else g.action_names[view.contract]
        parts.append(f"contract {contract}" + (f" by {view.declarer}" if view.declarer >= 0
                                               else ""))
    if view.exchanges:
        _, picked, discarded = view.exchanges[-1]
        parts.append(f"picked up {_cards(g, picked)} discarded {_cards(g, discarded)}")
    if view.exposed:
        parts.append(f"exposed {_cards(g, view.exposed)}")
    if view.phase >= Phase.PLAY:
        parts.append("tricks won " + " ".join(str(t) for t in view.tricks_won))
        if view.trick:
            order = trick_order(view.leader, view.sitting_out, g.players)
            parts.append("trick " + " ".join(f"{s}:{g.card_names[c]}"
                                              for s, c in zip(order, view.trick)))
    if view.phase >= Phase.HAND_OVER and engine.result is not None:
        parts.append("points " + " ".join(str(p) for p in engine.result.hand_points))
    return ", ".join(parts)


def state_string(core: _Core) -> str:
    """The whole state (every hidden card too), for debugging and for OpenSpiel's checks."""
    g = core.g
    hands, kitty = core.dealt_masks()
    lines = [f"{GAME_NAME}: {g.players} players, dealer {g.dealer}"]
    if core.engine is None:
        lines.append(f"dealing: {len(core.deal)} of {g.to_deal} cards")
    lines += [f"dealt {s}: {_cards(g, h)}" for s, h in enumerate(hands)]
    lines.append(f"kitty dealt: {_cards(g, kitty)}")
    if core.moves:
        lines.append("moves: " + ", ".join(f"{s}:{g.action_names[a]}" for s, a in core.moves))
    engine = core.engine
    if engine is not None and engine.result is not None:
        r = engine.result
        lines.append(f"result: {r.contract_name or r.thrown_in}, tricks {list(r.tricks)}, "
                     f"points {list(r.hand_points)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- observer
class FiveHundredObserver:
    """OpenSpiel's observer of the game (the PyObserver interface): the tensor is our
    observation (:func:`fh_env.observe.encode`) for both the information state and the
    observation, the strings differ (history for the information state, the present for the
    observation).  Only a single player's private information is offered."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, g: _Static) -> None:
        if params:
            raise ValueError(f"{GAME_NAME}: observation parameters are not supported, got "
                             f"{params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
                iig_obs_type.public_info):
            raise ValueError(f"{GAME_NAME}: only observations of one player's private and the "
                             "public information are offered")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.g = g
        self.tensor = np.zeros(g.layout.size, np.float32)
        self.dict = {"observation": self.tensor}
        slices = g.layout.slices
        self._no_phase = (slices["phase"], slices["turn"])

    def set_from(self, state: FiveHundredState, player: int) -> None:
        core = state._core
        self.g.layout.encode(core.view(player), self.tensor)
        if core.engine is None:  # the deal: nothing is on turn yet
            for part in self._no_phase:
                self.tensor[part] = 0.0

    def string_from(self, state: FiveHundredState, player: int) -> str:
        if self.perfect_recall:
            return info_state_string(state._core, player)
        return observation_string(state._core, player)


# ---------------------------------------------------------------------------- resampling
_SAMPLERS: OrderedDict[tuple, Callable[[random.Random], State]] = OrderedDict()
_SAMPLER_CACHE = 16


def _rng_of(source: Any) -> random.Random:
    """A ``random.Random`` seeded from OpenSpiel's probability sampler (or a generator)."""
    if isinstance(source, random.Random):
        return source
    if isinstance(source, np.random.RandomState):
        return random.Random(int(source.randint(0, 2**31 - 1)))
    if isinstance(source, np.random.Generator):
        return random.Random(int(source.integers(2**63)))
    if callable(source):  # pyspiel.UniformProbabilitySampler: floats in [0, 1)
        return random.Random(int(source() * 2**52) ^ (int(source() * 2**52) << 52))
    raise TypeError(f"cannot draw random numbers from {source!r}")


def _sampler_for(core: _Core, player: int) -> Callable[[random.Random], State]:
    key = (core.g.key, player, info_state_string(core, player))
    sample = _SAMPLERS.get(key)
    if sample is None:
        sample = _SAMPLERS[key] = Determinizer(core.view(player)).sample
        if len(_SAMPLERS) > _SAMPLER_CACHE:
            _SAMPLERS.popitem(last=False)
    else:
        _SAMPLERS.move_to_end(key)
    return sample


def resample(state: FiveHundredState, player: int, rng: random.Random) -> FiveHundredState:
    """A state consistent with ``player``'s information state in ``state`` (see
    :meth:`FiveHundredState.resample_from_infostate`); rebuilt by applying its actions."""
    core = state._core
    g = core.g
    game = state.get_game()
    if not 0 <= player < g.players:
        raise ValueError(f"player {player} is not a seat 0..{g.players - 1}")
    if core.engine is None:  # the deal: others' cards so far from what the player lacks
        own = [c for i, c in enumerate(core.deal) if g.slot_of(i) == player]
        others = [c for c in core.undealt() + core.deal if c not in own]
        rng.shuffle(others)
        deal = [c if g.slot_of(i) == player else others.pop() for i, c in enumerate(core.deal)]
        actions: list[int] = []
    else:
        world = _sampler_for(core, player)(rng)
        deal = world_deal(core, player, world)
        actions = _world_actions(core, player, world)
    new = game.new_initial_state()
    for a in deal:
        new.apply_action(a)
    for a in actions:
        new.apply_action(a)
    return new


def world_deal(core: _Core, player: int, world: State) -> list[int]:
    """The chance outcomes of a sampled world's deal: ``player``'s positions as in ``core``
    (so that its information state is the same), the others' cards in increasing order."""
    g = core.g
    hands, kitty = world.dealt
    pools = [list(cards_of(h)) for h in hands]
    pools.append([c for c in cards_of(kitty) if not (g.preset_joker and c == JOKER)])
    for pool in pools:
        pool.reverse()
    out = []
    for i, c in enumerate(core.deal):
        slot = g.slot_of(i)
        out.append(c if slot == player else pools[slot].pop())
    return out


def _world_actions(core: _Core, player: int, world: State) -> list[int]:
    """``core``'s player actions with every exchange of another seat replaced by the world's."""
    hidden = iter([list(cards_of(d)) for s, _, d in world.exchanges if s != player])
    out: list[int] = []
    current: list[int] = []
    table_play = core.g.table.play_base
    for seat, a in core.moves:
        if A.DISCARD_BASE <= a < table_play and seat != player:
            if not current:
                current = next(hidden)
            out.append(A.DISCARD_BASE + current.pop(0))
        else:
            out.append(a)
    return out


# ---------------------------------------------------------------------------- from the engine
def engine_actions(state: State) -> list[int]:
    """The player actions that lead from the deal of ``state``'s hand to ``state``: calls,
    each exchange's discards (in increasing order: the engine keeps no order), plays."""
    table = action_table(state.rules.players)
    out = [a for _, a in state.calls]
    for _, _, discards in state.exchanges:
        out.extend(table.discard_base + c for c in cards_of(discards))
    tricks = [(cards, led) for _, cards, _, led in state.tricks]
    if state.trick:
        tricks.append((tuple(state.trick), state.led))
    for cards, led in tricks:
        for i, c in enumerate(cards):
            if i == 0 and is_joker(c) and state.context >= NT_STANDARD:
                out.append(table.joker_lead_action(c, led))
            else:
                out.append(table.play_base + c)
    return out


def deal_outcomes(rules: Rules, hands: Sequence[int], kitty: int) -> list[int]:
    """The chance outcomes that deal ``hands`` and ``kitty`` (each slot in increasing order)."""
    out: list[int] = []
    for h in hands:
        out.extend(cards_of(h))
    out.extend(c for c in cards_of(kitty) if not (rules.highest_joker_in_kitty and c == JOKER))
    return out


def from_engine(game: pyspiel.Game, state: State) -> FiveHundredState:
    """The OpenSpiel state of the hand in progress in an engine ``state`` (same deal, same
    history; the game must have its rules and dealer).  Game scores are not carried over:
    returns are the hand's points."""
    g = game._static if isinstance(game, FiveHundredGame) else None
    if g is not None and (g.rules != state.rules or g.dealer != state.dealer):
        raise ValueError("the game's rules or dealer differ from the engine state's")
    new = game.new_initial_state()
    hands, kitty = state.dealt
    for a in deal_outcomes(state.rules, hands, kitty) + engine_actions(state):
        new.apply_action(a)
    return new


pyspiel.register_game(_GAME_TYPE, FiveHundredGame)
