"""OpenSpiel: IS-MCTS against uniform random on ``python_five_hundred``, all OpenSpiel's own parts.

    pip install -e '.[openspiel]'
    python examples/openspiel_ismcts.py --hands 4 --sims 50 --seed 1

Team 0 (seats 0 and 2; seats 0, 2, 4 with six players; seat 0 alone with three) is played by
OpenSpiel's ``ISMCTSBot`` with its ``RandomRolloutEvaluator``, the others by its
``UniformRandomBot``; the deal is the game's chance nodes, sampled from their outcomes.
Every generator is seeded from ``--seed``, so a run replays exactly; the defaults take a few
seconds.  The only thing of ours is the game (``import fh_env.envs.openspiel`` registers it,
with the exact sampler behind ``resample_from_infostate``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.bots import uniform_random

import fh_env.envs.openspiel  # noqa: F401  (registers python_five_hundred)


def play_hand(game: pyspiel.Game, bots: list, rng: np.random.RandomState) -> list[float]:
    """One hand: chance deals, each bot steps on its turn (OpenSpiel's ``evaluate_bots``
    without ``restart_at``, which IS-MCTS does not implement: it searches from scratch)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return state.returns()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="australian-no-nullo", help="a preset (rules=PRESET)")
    p.add_argument("--hands", type=int, default=4, help="hands to play")
    p.add_argument("--sims", type=int, default=50, help="IS-MCTS simulations per decision")
    p.add_argument("--uct-c", type=float, default=150.0,
                   help="UCT exploration (returns are hand points)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    game = pyspiel.load_game("python_five_hundred", {"rules": args.rules})
    n = game.num_players()
    team = [s for s in range(n) if (s == 0 if n == 3 else s % 2 == 0)]
    np_rng = np.random.RandomState(args.seed)
    world_rng = random.Random(args.seed)
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng), args.uct_c,
                                args.sims, random_state=np_rng)
    # OpenSpiel's default resampler seeds itself from the clock; ours replays.
    searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, world_rng))
    bots = [searcher if s in team else uniform_random.UniformRandomBot(s, np_rng)
            for s in range(n)]
    start = time.perf_counter()
    totals = np.zeros(n)
    for hand in range(args.hands):
        returns = play_hand(game, bots, np_rng)
        totals += returns
        print(f"hand {hand + 1}: points {[int(r) for r in returns]}")
    mean = totals / args.hands
    others = [s for s in range(n) if s not in team]
    print(f"{game.get_type().short_name} ({args.rules}, {n} players), {args.hands} hands, "
          f"{args.sims} simulations: IS-MCTS {mean[team[0]]:+.1f} points a hand, "
          f"random {mean[others[0]]:+.1f} ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
