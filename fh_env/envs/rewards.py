"""What an episode is and what it pays: the one definition the three environments share.

A reward is a side's: every seat of a partnership (two teams of four or six players) gets the
same number, so that a learner is never paid for its partner's loss; with three players each
player is a side of their own (§9.1).  Raw hand points are used (times ``scale``); a hand
thrown in pays nothing.
"""

from __future__ import annotations

from typing import Any

EPISODES = ("hand", "game")
"""``"hand"``: one hand; ``"game"``: hands until the game is over (§7)."""

REWARDS = ("diff", "points", "win")
"""``"diff"``: the side's hand points minus the other team's (three players: minus the mean of
the other two players'), at the end of each hand; ``"points"``: the side's hand points;
``"win"``: +1 to the winner, -1 to every other side (0 to all on a draw) when the game ends."""


def check_episode(episode: str, reward: str = "diff") -> None:
    """Refuse an unknown episode or reward kind, naming the accepted ones."""
    if episode not in EPISODES:
        raise ValueError(f"episode={episode!r}: choose one of {', '.join(EPISODES)}")
    if reward not in REWARDS:
        raise ValueError(f"reward={reward!r}: choose one of {', '.join(REWARDS)}")


def illegal_reward(reward: str, scale: float) -> float:
    """The default penalty of an illegal action: -1000 points (a whole game's worth of hands),
    or -1 for ``"win"``, a lost game."""
    return -1.0 if reward == "win" else -1000.0 * float(scale)


def team_rewards(reward: str, hand_points: tuple[Any, ...], winner: int | None = None,
                 scale: float = 1.0) -> tuple[Any, ...]:
    """The sides' rewards at the end of a hand, one per side (two teams, or three players).
    ``hand_points`` may be numbers or numpy arrays (a batch of games); ``winner`` is the
    winning side once the game is over (``"win"`` only; None while it goes on or for a draw)."""
    if len(hand_points) != 2:
        return side_rewards(reward, hand_points, winner, scale)
    p0, p1 = hand_points
    if reward == "diff":
        return (p0 - p1) * scale, (p1 - p0) * scale
    if reward == "points":
        return p0 * scale, p1 * scale
    if winner in (0, 1):
        return (scale if winner == 0 else -scale), (scale if winner == 1 else -scale)
    return 0.0, 0.0


def side_rewards(reward: str, hand_points: tuple[Any, ...], winner: int | None = None,
                 scale: float = 1.0) -> tuple[Any, ...]:
    """:func:`team_rewards` for any number of sides: ``"diff"`` is a side's points minus the
    mean of the others' (for two sides, minus the other's)."""
    sides = len(hand_points)
    if reward == "diff":
        total = sum(hand_points)
        return tuple((p - (total - p) / (sides - 1)) * scale for p in hand_points)
    if reward == "points":
        return tuple(p * scale for p in hand_points)
    if winner is not None and 0 <= winner < sides:
        return tuple(scale if s == winner else -scale for s in range(sides))
    return (0.0,) * sides
