"""Duplicate play in batches in the compiled core: ``fh-eval`` between bots that need no engine.

:func:`arena.duplicate.duplicate` plays each deal through the reference engine, one decision
at a time, a bot reading a :class:`fh_env.view.SeatView`.  When both bots can decide straight
from compiled game records, this module plays the same deals and seatings instead as rows of
one :class:`fh_env.compiled.games.FastGames` and asks each bot for all its decisions of a step
at once: the ``rule`` bot through its compiled twin (:mod:`agents.compiled.rule`), a neural
agent with one forward pass over the observations of every row where it is on turn
(:mod:`fh_env.compiled.observe`), the ``random`` bot from the seat's own generator.

The games are the same as the engine path's, decision for decision: the deals and first
dealers are ``State(rules, seed=deal_seed(seed, index))``'s, each seat draws from the same
``seat_rngs`` generator, the compiled ``rule`` bot decides as ``agents/rule.py`` does
(``tests/test_rule_compiled.py``), and the compiled observation is byte-identical to
``fh_env.observe.encode`` (``tests/test_compiled_observe.py``).  The one allowed difference is
a neural agent's arithmetic: a batched matrix product may round the last bit of a logit
differently, so two actions tied to within float32 rounding could be ordered otherwise
(``tests/test_batched.py`` plays the engine path beside this one and finds the same games).

:func:`batch_player` says whether a bot can play here (:func:`view_player` seats any other
bot, asked row by row through its view, where speed matters less than who plays, as at a
training collection's tables); :func:`play_deals` and
:func:`play_games` return the records of :func:`arena.duplicate.play_deal` and
:func:`arena.duplicate.play_game_pair`.
"""

from __future__ import annotations

import random
import sys
from typing import Callable, Sequence

import numpy as np

from agents.base import Bot
from agents.random_bot import RandomBot
from fh_env.actions import random_action
from fh_env.compiled import observe as fastobs
from fh_env.compiled.contracts import GAME_GOES_ON
from fh_env.compiled.engine import HAND_OVER, PLAY
from fh_env.compiled.games import FastGames
from fh_env.contracts import DRAW
from fh_env.engine import deal_cards
from fh_env.rules import Rules
from fh_env.view import SeatView, seat_view

from .seating import (GAME_SEED_OFFSET, a_side, deal_seed, hand_record, seat_bots, seat_rngs,
                      seatings)

#: ``player(fast, rows, masks, rngs) -> actions``: one action for each game of ``rows`` (the
#: seat on turn there), ``masks`` the legal actions of every game, ``rngs(row)`` the generator
#: of the seat on turn in that row.
Player = Callable[[FastGames, np.ndarray, np.ndarray, Callable[[int], random.Random]],
                  np.ndarray]

def batch_player(bot: Bot, rules: Rules) -> Player | None:
    """How ``bot`` plays batched rows under ``rules``, or None if it needs the engine."""
    from agents.compiled.rule import RuleSeats, compiles
    from agents.neural import NeuralBot

    params = compiles(bot)
    if params is not None:  # every table size
        seats = RuleSeats(rules, params)
        return lambda fast, rows, masks, rngs: seats.act(fast, rows)
    if type(bot) is RandomBot:
        return _random_player
    if type(bot) is NeuralBot:
        bot.check_rules(rules)
        return _neural_player(bot, bot.encoding_rules(rules))  # as NeuralBot.act encodes
    nmc = sys.modules.get("agents.nmc")  # loaded only if a bot is one
    if nmc is not None and type(bot) is nmc.NetworkMCBot and bot.batchable():
        bot.check_rules(rules)
        return _nmc_player(bot, rules)
    return None


#: Registry names of the bots batch_player takes (``nmc`` without the options that need the
#: engine: ``time``, ``calls``, ``discards``, ``infer``).
BATCHED_KINDS = ("rule", "random", "neural", "nmc")


def may_batch(bot: Bot | str) -> bool:
    """Whether ``bot`` (an object or a registry spec) is of a kind :func:`batch_player` takes;
    cheap (no checkpoint is read), to size the work before the bots are built."""
    if isinstance(bot, str):
        from agents.registry import bot_kind

        return bot_kind(bot) in BATCHED_KINDS
    from agents.neural import NeuralBot
    from agents.rule import RuleBot

    nmc = sys.modules.get("agents.nmc")
    return type(bot) in (RuleBot, RandomBot, NeuralBot) or (
        nmc is not None and type(bot) is nmc.NetworkMCBot)


def view_player(bot: Bot) -> Player:
    """Any bot asked row by row, from the seat on turn's view of each row's game, as the
    engine path asks it.  Why: a bot without a compiled or batched player (``mcfast``) can
    still sit at batched tables where nothing else plays through the engine, such as the
    opponent at a training collection's tables (:func:`train.distill.collect`); it is as
    slow there as in the engine, and its choices are the engine path's on the same view."""

    def play(fast: FastGames, rows: np.ndarray, masks: np.ndarray,
             rngs: Callable[[int], random.Random]) -> np.ndarray:
        return np.array([bot.act(_turn_view(fast, i), rngs(i)) for i in rows.tolist()],
                        dtype=np.int64)

    return play


def _turn_view(fast: FastGames, row: int) -> SeatView:
    """The view of the seat on turn in ``row``, as the engine path would give it that seat."""
    return seat_view(fast.to_state(row), int(fast.games["turn"][row]))


def _legal_bits(mask_row: np.ndarray) -> int:
    bits = 0
    for a in np.flatnonzero(mask_row).tolist():
        bits |= 1 << a
    return bits


def _random_player(fast: FastGames, rows: np.ndarray, masks: np.ndarray,
                   rngs: Callable[[int], random.Random]) -> np.ndarray:
    return np.array([random_action(_legal_bits(masks[i]), rngs(i)) for i in rows.tolist()],
                    dtype=np.int64)


def _neural_player(bot, encode_rules: Rules | None) -> Player:
    import torch

    from agents.neural import masked_logits

    buffers: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # per batch size: obs, seat

    def play(fast: FastGames, rows: np.ndarray, masks: np.ndarray,
             rngs: Callable[[int], random.Random]) -> np.ndarray:
        if fast.num_games not in buffers:  # once per batch, not at every step
            buffers[fast.num_games] = (
                np.zeros((fast.num_games, bot.net.obs_size), dtype=np.float32),
                np.zeros(fast.num_games, dtype=np.int64))
        obs, seat = buffers[fast.num_games]
        fastobs.observe_turn(fast, rows, obs, seat, encode_rules)
        with torch.no_grad():
            logits, _ = bot.net(torch.from_numpy(obs[rows]))
            logits = masked_logits(logits, torch.from_numpy(masks[rows]))
        if bot.greedy:
            return torch.argmax(logits, dim=1).numpy().astype(np.int64)
        probs = torch.softmax(logits.double(), 1).numpy()
        out = np.empty(len(rows), dtype=np.int64)
        for k, i in enumerate(rows.tolist()):  # NeuralBot.act's inverse-CDF draw
            cdf = np.cumsum(probs[k])
            action = int(np.searchsorted(cdf, rngs(i).random() * cdf[-1], side="right"))
            legal = masks[i]
            out[k] = action if action < len(legal) and legal[action] else \
                int(np.flatnonzero(legal)[-1])
        return out

    return play


def _nmc_player(bot, rules: Rules) -> Player:
    """``nmc``: the network's calls and discards in one forward pass (as a neural agent's),
    and the card searches of every row on turn scored together
    (:meth:`agents.nmc.NetworkMCBot.decide_cards`), each from its seat's view."""
    calls = _neural_player(bot.network, bot.network.encoding_rules(rules))

    def play(fast: FastGames, rows: np.ndarray, masks: np.ndarray,
             rngs: Callable[[int], random.Random]) -> np.ndarray:
        out = np.empty(len(rows), dtype=np.int64)
        cards = fast.games["phase"][rows] == PLAY
        if (~cards).any():
            out[~cards] = calls(fast, rows[~cards], masks, rngs)
        if cards.any():
            playing = rows[cards].tolist()
            views = [_turn_view(fast, i) for i in playing]
            out[cards] = bot.decide_cards(views, [rngs(i) for i in playing])
        return out

    return play


class _Table:
    """The rows of a batch: row ``r`` is play ``r % plays`` (the seating) of item ``r // plays``."""

    def __init__(self, a: Player, b: Player, rules: Rules, seed: int, indices: Sequence[int],
                 seed_offset: int) -> None:
        self.rules, self.players = rules, rules.players
        self.plays = len(seatings(self.players))
        self.indices = list(indices)
        n = len(self.indices) * self.plays
        self.fast = FastGames(n, rules)
        self.game_seeds = [deal_seed(seed + seed_offset, i) for i in self.indices
                           for _ in range(self.plays)]
        self.swaps = [r % self.plays for r in range(n)]
        # who sits where in each row: the same seating as the engine path (seat_bots)
        self.owner = np.array([[0 if p is a else 1 for p in seat_bots(a, b, swap, self.players)]
                               for swap in self.swaps], dtype=np.int64)
        self.players_ab = (a, b)
        self._rngs: dict[int, list[random.Random]] = {}
        self._seat_rngs = lambda r: seat_rngs(seed + seed_offset, self.indices[r // self.plays],
                                              self.swaps[r], self.players)
        hands = np.empty((n, self.players), dtype=np.uint64)
        kitty = np.empty(n, dtype=np.uint64)
        dealers = np.empty(n, dtype=np.int8)
        for r, game_seed in enumerate(self.game_seeds):
            dealers[r] = random.Random(f"{game_seed}/dealer").randrange(self.players)
            hands[r], kitty[r] = deal_cards(rules, game_seed, 0)
        self.fast.set_deals(hands, kitty, dealers, check=False)
        self.masks = np.zeros((n, self.fast.num_actions), dtype=np.int8)

    def rng(self, row: int) -> random.Random:
        """The generator of the seat on turn in ``row`` (created on first use)."""
        rngs = self._rngs.get(row)
        if rngs is None:
            rngs = self._rngs[row] = self._seat_rngs(row)
        return rngs[int(self.fast.games["turn"][row])]

    def play_hands(self, rows: np.ndarray) -> None:
        """Play the current hand of the games ``rows`` to its end."""
        games = self.fast.games
        while True:
            live = rows[games["phase"][rows] < HAND_OVER]
            if not len(live):
                return
            fastobs.action_masks(self.fast, out=self.masks)
            owner = self.owner[live, games["turn"][live].astype(np.int64)]
            actions = np.full(self.fast.num_games, -1, dtype=np.int64)
            for who, player in enumerate(self.players_ab):
                mine = live[owner == who]
                if len(mine):
                    actions[mine] = player(self.fast, mine, self.masks, self.rng)
            self.fast.step(actions, skip_negative=True)


def play_deals(a: Player, b: Player, rules: Rules, seed: int, indices: Sequence[int]
               ) -> list[list[tuple]]:
    """:func:`arena.duplicate.play_deal` of each deal of ``indices``, batched."""
    table = _Table(a, b, rules, seed, indices, 0)
    rows = np.arange(table.fast.num_games, dtype=np.int64)
    table.play_hands(rows)
    records = [hand_record(table.fast.result(r), rules.players, table.swaps[r])
               for r in rows.tolist()]
    return [records[k:k + table.plays] for k in range(0, len(records), table.plays)]


def play_games(a: Player, b: Player, rules: Rules, seed: int, indices: Sequence[int],
               max_hands: int = 200) -> list[list[tuple[int | None, int]]]:
    """:func:`arena.duplicate.play_game_pair` of each game of ``indices``, batched."""
    table = _Table(a, b, rules, seed, indices, GAME_SEED_OFFSET)
    fast, games = table.fast, table.fast.games
    going = np.arange(fast.num_games, dtype=np.int64)
    dealt = np.zeros(fast.num_games, dtype=np.int64)  # hands dealt, thrown-in ones included
    while len(going):
        table.play_hands(going)
        dealt[going] += 1  # as play_game's loop counts them
        going = going[(games["phase"][going] == HAND_OVER) & (dealt[going] < max_hands)]
        if len(going):
            hands = np.empty((len(going), table.players), dtype=np.uint64)
            kitty = np.empty(len(going), dtype=np.uint64)
            for k, r in enumerate(going.tolist()):  # State.next_hand's deal
                hands[k], kitty[k] = deal_cards(rules, table.game_seeds[r],
                                                int(games["deal_index"][r]))
            fast.next_hands(hands, kitty, index=going, check=False)
    out = []
    for r in range(fast.num_games):
        winner = int(games["winner"][r])  # GAME_GOES_ON (-1) until the game is over
        if winner == GAME_GOES_ON:
            result = None
        elif winner == DRAW:
            result = DRAW
        else:
            result = 1 if winner == a_side(table.swaps[r], table.players) else 0
        out.append((result, int(games["hands_played"][r])))
    return [out[k:k + table.plays] for k in range(0, len(out), table.plays)]
