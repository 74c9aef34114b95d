"""What an episode is and what it pays: the one definition the three environments share.

A reward is a team's: both seats of a partnership get the same number, so that a learner is
never paid for its partner's loss.  Raw hand points are used (times ``scale``); a hand thrown
in pays nothing.
"""

from __future__ import annotations

from typing import Any

EPISODES = ("hand", "game")
"""``"hand"``: one hand; ``"game"``: hands until the game is over (§7)."""

REWARDS = ("diff", "points", "win")
"""``"diff"``: the team's hand points minus the other team's, at the end of each hand;
``"points"``: the team's hand points; ``"win"``: +1 / -1 (0 for a draw) when the game ends."""


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


def team_rewards(reward: str, hand_points: tuple[Any, Any], winner: int | None = None,
                 scale: float = 1.0) -> tuple[Any, Any]:
    """The two teams' rewards at the end of a hand.  ``hand_points`` may be numbers or numpy
    arrays (a batch of games); ``winner`` is the winning team once the game is over (``"win"``
    only; None while it goes on or for a draw)."""
    p0, p1 = hand_points
    if reward == "diff":
        return (p0 - p1) * scale, (p1 - p0) * scale
    if reward == "points":
        return p0 * scale, p1 * scale
    if winner in (0, 1):
        return (scale if winner == 0 else -scale), (scale if winner == 1 else -scale)
    return 0.0, 0.0
