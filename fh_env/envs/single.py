"""Five Hundred for one learner: a single-seat Gymnasium env, ``fh_env/FiveHundred-v0``.

The learner plays one seat, or both seats of a team; bots play the other seats.  Single-agent
libraries (Stable-Baselines3 with sb3-contrib's ``MaskablePPO``, Tianshou, TorchRL's
``GymWrapper``) train on it unchanged.  It drives the PettingZoo AEC env (:class:`fh_env.envs.aec.
raw_env`), so observations, rewards, seeding and ``reset`` options are exactly those of
``five_hundred_v0``::

    import gymnasium as gym
    import fh_env  # registers fh_env/FiveHundred-v0

    env = gym.make("fh_env/FiveHundred-v0", seats=(0, 2), opponents="rule", partner="mc")

==================  ==============================================================
Observations        ``{"observation": float32[OBS_SIZE], "action_mask": int8[130]}`` of the
                    learner seat on turn (seat-relative, as in the AEC env; with 3 or 6
                    players the sizes of the AEC env's)
Actions             ``Discrete(130)`` (``Discrete(166)`` with six players; any integer type,
                    not ``bool``); ``action_masks()`` gives the legal ones (``bool[130]``),
                    ``legal_action_names()`` their names
Rewards             the learner's team reward of the AEC env (``reward``: diff/points/win),
                    summed over the bot moves that follow the learner's action
Episode end         ``terminated`` when the hand (``episode="hand"``) or game is over, or after
                    an illegal action (reward ``illegal_reward``); never truncated
Info                ``seat``: the learner seat on turn (-1 at the end), ``illegal``: bool, and
                    the AEC env's hand infos (``contract``, ``declarer``, ``tricks``, …), all
                    numbers: ``contract`` is ``NO_HAND`` (-2) and ``declarer`` -1 where the AEC
                    env has None (before the first hand ends, or a hand thrown in); and
                    ``contract_name`` (``"10S"``, ``"nullo"``, ``"no contract"``), ``""``
                    where the AEC env has None
==================  ==============================================================

Arguments: ``seats`` — one seat ``(s,)`` or a team ``(s, s + 2)``; with six players one seat or a
team ``(0, 2, 4)`` / ``(1, 3, 5)``; with three players one seat (everyone plays alone);
``opponents`` and ``partner`` — the bots of the other sides' seats and of the learner's partner
seats (ignored when the learner plays its whole team; nobody's with three players): any object
with ``act(view, rng) -> action`` (an :mod:`agents` bot), or a bot name as ``fh-eval`` takes it
(``"rule"``, ``"mc:samples=50"``, ``"neural:best"``), built by ``agents.registry.make_bot`` with
the env's rules.  ``agents`` is looked up only when a name is given (``import fh_env`` imports
nothing of it); ``bot_factory`` (``name -> bot``) builds names another way instead.
``opponents=None`` plays uniformly random legal actions; ``partner=None`` plays the partner with
the opponents' bot.  ``rules``, ``episode``, ``reward``, ``reward_scale``: as for
:func:`fh_env.env`.  ``illegal_reward``: default -1000 x ``reward_scale`` (-1 for ``"win"``), as
in the AEC env.  ``render_mode``: ``"ansi"`` (``render()`` returns the table as text) or
``"human"`` (the table is printed after ``reset`` and every ``step``; ``render()`` prints it and
returns None).

Seeding: ``reset(seed=s)`` deals the episode of ``fh_env.env``'s ``reset(seed=s)`` and seeds each
bot's generator from ``s``; without a seed the episode seed is drawn from the env's
``np_random`` (Gymnasium's), so a seeded first reset makes every later episode reproducible too.
A hand that ends before the learner's first move (a misdeal called before its turn: no score)
is dealt again from the next seed.  ``reset`` options are those of the AEC env (``rules``,
``dealer``, ``deal``); others are refused with a ``ValueError`` naming them.  An illegal
action (an integer outside the action space or masked out) does not change the game (Gymnasium's
``check_env`` steps actions without looking at the mask): it ends the episode with
``illegal_reward`` and ``info["illegal"] = True``; an action that is no integer at all (a
float, a bool, None) raises ``ValueError``.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

import gymnasium as gym
import numpy as np

from ..actions import action_id, random_action
from ..engine import side_of
from ..rules import RulesSpec
from ..view import SeatView, seat_view
from .aec import agents_of, check_options, raw_env
from .rewards import illegal_reward as default_illegal_reward

ENV_ID = "fh_env/FiveHundred-v0"
#: ``info["contract"]`` where the AEC env has None: no hand ended yet, or it was thrown in.
NO_HAND = -2


class UniformRandom:
    """The default bot of the other seats: a uniformly random legal action."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> int:
        return random_action(view.legal, rng)


def resolve_bot(spec: Any, bot_factory: Callable[[str], Any] | None = None,
                rules: Any = None) -> Any:
    """A bot from a bot object, a name or None (uniformly random).

    A name goes to ``bot_factory`` when one is given, else to ``agents.registry.make_bot``
    (with ``rules``, so that a trained bot checks the rules it was made for)."""
    if spec is None:
        return UniformRandom()
    if isinstance(spec, str):
        if bot_factory is not None:
            return bot_factory(spec)
        return _registry_make_bot()(spec, rules)
    if not callable(getattr(spec, "act", None)):
        raise TypeError(f"{spec!r} is neither a bot name nor an object with act(view, rng) "
                        "(give a bot name such as 'rule', a bot object, or None for random)")
    return spec


#: The entry-point group in which an installed package offers ``make_bot(name, rules)``: the
#: agents' registry does (pyproject.toml), so bot names work with no import of it here.
BOT_ENTRY_POINTS = "fivehundred_rl.bots"


def _registry_make_bot() -> Callable[..., Any]:
    """The ``make_bot`` an installed package offers under :data:`BOT_ENTRY_POINTS`.

    Why an entry point: the environments stand below the players (tests/test_layers.py), and
    bot names are the one place they need them, only when a user gives a name.  The package
    metadata ties the two (``agents.registry:make_bot``), so ``fh_env`` names no module above
    it and ``import fh_env`` loads nothing of ``agents``; ``bot_factory`` remains the explicit
    alternative."""
    from importlib.metadata import entry_points

    found = sorted(entry_points(group=BOT_ENTRY_POINTS, name="make_bot"), key=lambda e: e.value)
    if not found:
        raise ValueError(f"bot names need a package that offers make_bot in the entry-point "
                         f"group {BOT_ENTRY_POINTS!r} (fivehundred-rl's agents, installed with "
                         "pip install -e .); pass a bot object, or bot_factory=NAME -> bot")
    return found[0].load()


def numeric_info(info: dict[str, Any]) -> dict[str, Any]:
    """A copy of an AEC env info with numbers for its Nones (``contract`` ``NO_HAND``,
    ``declarer`` -1) and without ``contract_name`` (a string): libraries that stack infos into
    arrays (Tianshou, TorchRL) cannot take None (Tianshou stores NaN and then refuses its
    buffer; TorchRL cannot build a spec)."""
    info = dict(info)
    info.pop("contract_name", None)
    if info.get("contract", 0) is None:
        info["contract"] = NO_HAND
    if info.get("declarer", 0) is None:
        info["declarer"] = -1
    return info


def _check_seats(seats: Sequence[int], players: int = 4) -> tuple[int, ...]:
    """One seat, or every seat of a team (four or six players; three players play alone)."""
    seats = tuple(sorted(int(s) for s in seats))
    teams = {4: ((0, 2), (1, 3)), 6: ((0, 2, 4), (1, 3, 5)), 3: ()}[players]
    if not (len(seats) == 1 and 0 <= seats[0] < players) and seats not in teams:
        allowed = f"one seat (s,), s in 0..{players - 1}"
        if teams:
            allowed += " or every seat of a team " + " or ".join(map(str, teams))
        else:
            allowed += " (with three players everyone plays alone)"
        raise ValueError(f"seats={seats!r}: give {allowed}")
    return seats


class SingleSeatEnv(gym.Env):
    """The learner's seat(s) against bots (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, rules: RulesSpec = None,
                 seats: Sequence[int] = (0,), opponents: Any = None, partner: Any = None,
                 episode: str = "hand", reward: str = "diff", reward_scale: float = 1.0,
                 illegal_reward: float | None = None, render_mode: str | None = None,
                 bot_factory: Callable[[str], Any] | None = None) -> None:
        self.game_env = raw_env(rules=rules, episode=episode, reward=reward,
                                reward_scale=reward_scale,
                                render_mode="ansi" if render_mode is not None else None)
        players = self.players = self.game_env.players
        self._agents = agents_of(players)
        self.seats = _check_seats(seats, players)
        self._learner = [s in self.seats for s in range(players)]
        rules_now = self.game_env.rules
        opponent_bot = resolve_bot(opponents, bot_factory, rules_now)
        partner_bot = (opponent_bot if partner is None
                       else resolve_bot(partner, bot_factory, rules_now))
        own_side = side_of(players, self.seats[0])
        self.bots = [None if self._learner[s]
                     else opponent_bot if side_of(players, s) != own_side else partner_bot
                     for s in range(players)]
        if illegal_reward is None:
            illegal_reward = default_illegal_reward(reward, reward_scale)
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: choose one of "
                             f"{', '.join(self.metadata['render_modes'])} or None")
        self.render_mode = render_mode
        self.observation_space = self.game_env.observation_space(self._agents[self.seats[0]])
        self.action_space = self.game_env.action_space(self._agents[self.seats[0]])
        self._agent = self._agents[self.seats[0]]  # whose reward is the learner's (a team's)
        self._rngs: list[random.Random] = []
        self._obs: dict[str, np.ndarray] | None = None
        self._seat = -1

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        check_options(options, self.players)
        super().reset(seed=seed)
        episode_seed = int(seed) if seed is not None else int(self.np_random.integers(2 ** 62))
        while True:
            self._start(episode_seed, options)
            self._play_bots()
            if self._seat >= 0:
                break
            # The hand ended before the learner moved: it was thrown in and scored nothing.
            episode_seed = random.Random(episode_seed).getrandbits(62)
            options = None  # a fixed deal thrown in before the learner moved is not replayed
        if self.render_mode == "human":
            self.render()
        return self._obs, self._info(illegal=False)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        if self._seat < 0:
            raise RuntimeError("step() after the episode ended: call reset()")
        try:
            action = action_id(action)  # any integer type; not a bool
        except TypeError as err:
            raise ValueError(f"{err}; an illegal integer action ends the episode with "
                             "illegal_reward") from None
        if not (0 <= action < self.game_env.num_actions and self._obs["action_mask"][action]):
            self._seat = -1
            self._obs = {key: value.copy() for key, value in self._obs.items()}  # new data
            return self._obs, self.illegal_reward, True, False, self._info(illegal=True)
        game_env = self.game_env
        game_env.step(action)
        reward = game_env.rewards[self._agent]
        reward += self._play_bots()
        terminated = self._seat < 0
        if self.render_mode == "human":
            self.render()
        return self._obs, float(reward), terminated, False, self._info(illegal=False)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner seat on turn, as sb3-contrib's MaskablePPO asks."""
        return self._obs["action_mask"].astype(bool)

    def legal_action_names(self) -> list[str]:
        """The names of the learner's legal actions (``[]`` once the episode is over), as
        the table size's action table names them under the episode's rules
        (``State.action_name``)."""
        if self._seat < 0:
            return []
        game = self.game
        return [game.action_name(int(a)) for a in np.flatnonzero(self._obs["action_mask"])]

    def render(self) -> str | None:
        """``"ansi"``: the table as text; ``"human"``: prints it and returns None."""
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode")
            return None
        text = self.game_env.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ internals
    def _start(self, episode_seed: int, options: dict[str, Any] | None) -> None:
        self.game_env.reset(seed=episode_seed, options=options)
        self._rngs = [random.Random(f"{episode_seed}/bot/{s}") for s in range(self.players)]

    def _play_bots(self) -> float:
        """Let the bots move until a learner seat is on turn or the episode is over.

        Returns the learner's reward earned meanwhile; sets ``_seat`` (-1 at the end) and
        ``_obs`` (the learner's observation: the seat on turn, else the first learner seat).
        """
        game_env = self.game_env
        game, agent = game_env.game, self._agent
        reward = 0.0
        while not game_env.terminations[agent] and not self._learner[game.turn]:
            seat = game.turn
            game_env.step(self.bots[seat].act(seat_view(game, seat), self._rngs[seat]))
            reward += game_env.rewards[agent]
        over = game_env.terminations[agent]
        self._seat = -1 if over else game.turn
        self._obs = game_env.observe(self._agents[self.seats[0] if over else game.turn])
        return reward

    def _info(self, illegal: bool) -> dict[str, Any]:
        aec_info = self.game_env.infos[self._agent]
        info = numeric_info(aec_info)
        info["contract_name"] = aec_info["contract_name"] or ""
        info["seat"] = self._seat
        info["illegal"] = illegal
        return info

    @property
    def game(self):
        """The engine state of the episode (read it; changing it desynchronises the env)."""
        return self.game_env.game
