"""Playing bots seat by seat: on the engine directly (fast), or through the PettingZoo env.

:class:`BotSeats` seats bots in a user's own AEC loop (``fh_env.env()``), so that a learner
plays against ``rule`` or ``mc`` in a few lines::

    import fh_env
    from arena.match import BotSeats

    env = fh_env.env("australian")
    bots = BotSeats({"player_1": "rule", "player_3": "rule"})  # names, or bot objects
    env.reset(seed=0)
    bots.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        elif agent in bots:
            action = bots.act(env)  # the bot of the agent on turn
        else:
            action = my_policy(obs)  # the learner's seats
        env.step(action)

or, stepping the bots in one call: ``bots.play(env)`` steps the env for the bot seats until a
seat that is not a bot is on turn or the episode is over.

Every table size plays (§9): the seats are 0..players-1 (``player_0`` … ``player_5`` with six
players); :func:`play_hand` and :func:`play_game` take one bot and one generator per seat.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from fh_env.engine import State
from fh_env.view import seat_view

from agents.base import Bot


def play_hand(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> State:
    """Play the hand in progress to its end: seat ``s`` is ``bots[s]`` drawing from ``rngs[s]``.

    Each bot sees only :func:`fh_env.view.seat_view` of its own seat.  Returns ``state``.
    """
    while not state.is_terminal:
        seat = state.turn
        state.apply(bots[seat].act(seat_view(state, seat), rngs[seat]))
    return state


def play_game(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random],
              max_hands: int = 1000) -> State:
    """Play whole hands until the game is over (or ``max_hands`` hands were dealt)."""
    for _ in range(max_hands):
        play_hand(state, bots, rngs)
        if state.game_over:
            break
        state.next_hand()
    return state


class BotSeats:
    """Bots for some seats of an AEC env (``fh_env.env()`` or ``fh_env.raw_env()``).

    ``bots`` maps agents (``"player_1"``) or seats (1) to a bot object (``act(view, rng)``) or
    a bot name of :func:`agents.registry.make_bot` (``"rule"``, ``"mc"``,
    ``"neural:ppo-selfplay"``); ``rules`` is passed to ``make_bot`` (a neural bot checks them) and,
    when given, bounds the seats (0..players-1; without it any seat 0..5 is accepted).
    Each bot sees only the :class:`fh_env.view.SeatView` of its own seat, and draws from its
    own generator, seeded by :meth:`reset` (``random.Random(f"{seed}/bot/{seat}")``, as the
    single-seat env seeds its bots).
    """

    def __init__(self, bots: Mapping[str | int, Any], rules: Any = None,
                 seed: int | None = None) -> None:
        from fh_env.rules import resolve_rules

        from agents.registry import make_bot

        resolved = resolve_rules(rules) if rules is not None else None
        players = resolved.players if resolved is not None else 6
        self.bots: dict[int, Bot] = {}
        for key, bot in bots.items():
            seat = _seat_of(key, players)
            if seat in self.bots:
                raise ValueError(f"seat {seat} is given twice in {dict(bots)!r}")
            if isinstance(bot, str):
                bot = make_bot(bot, resolved)
            elif not callable(getattr(bot, "act", None)):
                raise TypeError(f"{key!r}: {bot!r} is neither a bot name nor an object with "
                                "act(view, rng)")
            self.bots[seat] = bot
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Seed each bot's generator (from the OS when ``seed`` is None)."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(62)
        self.rngs = {seat: random.Random(f"{seed}/bot/{seat}") for seat in self.bots}

    @property
    def agents(self) -> list[str]:
        """The agents the bots play, e.g. ``["player_1", "player_3"]``."""
        return [f"player_{seat}" for seat in sorted(self.bots)]

    def __contains__(self, agent: object) -> bool:
        try:
            return _seat_of(agent) in self.bots  # type: ignore[arg-type]
        except (ValueError, TypeError):
            return False

    def act(self, env: Any) -> int:
        """The action of the bot of the agent on turn (``env.agent_selection``)."""
        seat = _seat_of(env.agent_selection)
        bot = self.bots.get(seat)
        if bot is None:
            raise ValueError(f"{env.agent_selection} is not a bot seat (bots: "
                             f"{', '.join(self.agents)})")
        game = env.unwrapped.game
        return bot.act(seat_view(game, seat), self.rngs[seat])

    def play(self, env: Any) -> bool:
        """Step ``env`` for the bots while a bot's agent is on turn; returns True when a seat
        that is not a bot is on turn now, False when the episode is over (every agent
        terminated or truncated: the loop then steps None for each, as PettingZoo asks)."""
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                return False
            if agent not in self:
                return True
            env.step(self.act(env))


def _seat_of(key: str | int, players: int = 6) -> int:
    """The seat of an agent name ``player_s`` or a seat number 0..players-1."""
    if (isinstance(key, str) and key.startswith("player_") and len(key) == 8
            and key[7:].isdigit() and int(key[7:]) < players):
        return int(key[7:])
    if type(key) is int and 0 <= key < players:
        return key
    raise ValueError(f"{key!r} is not an agent player_0 .. player_{players - 1} or a seat "
                     f"0..{players - 1}")


def play_env(bots: Sequence[Bot], rngs: Sequence[random.Random], seed: int | None = None,
             **env_kwargs: Any) -> tuple[dict[str, float], State]:
    """Play one episode of ``fh_env.env(**env_kwargs)``, seat by seat, with these bots.

    The agent ``player_s`` is ``bots[s]``; it is given the view of its own seat of the env's
    engine state (the env's observation encodes that same view).  Returns each agent's total
    reward and the final engine state.  PettingZoo is imported only here.
    """
    import fh_env

    env = fh_env.env(**env_kwargs)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        game = env.unwrapped.game
        env.step(bots[seat].act(seat_view(game, seat), rngs[seat]))
    return totals, env.unwrapped.game
