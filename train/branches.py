"""Deal branches: an action's score from playing it out on the cards actually dealt.

Why: the search's call scores (``nmc:...,calls=N``) play each call out in worlds drawn from
the seat's view with the rule bot's card play, and fitting them made the network bid worse
(docs/research-log.md, "Searching the calls and the discards").  Two things are wrong with them
for a network that now plays its cards better than the rule bot: the cards after the call
are not the network's, and the worlds ignore what the other seats' calls say about their
hands.  A branch fixes both at once: at a decision of the network (a call, a kitty discard or
a card), each of its few favourite actions is applied to a copy of the game and the hand is played to its end
on the dealt cards, by the network on its side and by the opponents' own player on theirs.
The deal is one draw from the true posterior given everything the seat has seen (the other
seats' calls included), so the mean of a candidate's branch scores over the collected
decisions is that action's value for the players as they are: Deep Monte Carlo's target, with
every candidate scored on the same deal (paired, so their differences are far less noisy than
the scores).  The seat's own decision never reads the other hands: only its training target
does, as a Monte Carlo return does.
"""

from __future__ import annotations

import random
from typing import Callable

import numpy as np
import torch

from agents.mc_fast import side_scores
from agents.neural import NeuralBot, masked_logits
from fh_env.actions import NULLO_TYPES, PASS
from fh_env.compiled import observe as fastobs
from fh_env.compiled.engine import AUCTION, HAND_OVER
from fh_env.compiled.games import FastGames
from fh_env.engine import side_of
from fh_env.rules import Rules

#: How many of the network's favourite actions a branched decision tries (pass always among
#: them in the auction when legal), as ``nmc``'s call search.
CANDIDATES = 4

#: A batched player (:data:`arena.batched.Player`).
Player = Callable[[FastGames, np.ndarray, np.ndarray, Callable[[int], random.Random]],
                  np.ndarray]


class DealBranches:
    """Scores the network's decisions by branches on the dealt cards (module doc).

    ``other``: the batched player of the seats the network does not hold (``None``: the
    network holds every seat).  The network plays greedily; a greedy ``other`` (``rule``, a
    network) makes a branch a function of the deal and the candidate, and one that draws
    (``mcfast``'s worlds) draws from ``rng``, one stream for every branch in a fixed order,
    so that a seed still gives the same scores.  Without ``rng`` ``other`` may draw nothing."""

    def __init__(self, network: NeuralBot, rules: Rules, other: Player | None = None,
                 candidates: int = CANDIDATES, nullo_calls: bool = False,
                 rng: random.Random | None = None) -> None:
        if candidates < 2 + nullo_calls:
            raise ValueError(f"a branch needs at least {2 + nullo_calls} candidates"
                             f"{' with nullo calls' if nullo_calls else ''}, not {candidates}")
        network.check_rules(rules)
        self.net = network.net
        self.rules = rules
        self.encode = network.encoding_rules(rules)  # as NeuralBot.act encodes
        self.other = other
        self.candidates = candidates
        self.nullo_calls = nullo_calls
        self.rngs: Callable[[int], random.Random] = (
            _no_rng if rng is None else lambda row: rng)

    def choose(self, logits: np.ndarray, mask: np.ndarray, phase: int) -> list[int]:
        """The candidates of one decision: the network's favourites among the legal actions
        (ties to the lower action), pass taking the last place in the auction if missing.

        With ``nullo_calls`` the favourite legal nullo-type call takes the last place left in
        the auction too.  Why: a network that never bids a nullo never branches on one, so a
        step cannot find the hands where a nullo scores more than its favourites."""
        legal = np.flatnonzero(mask)
        order = legal[np.argsort(-logits[legal], kind="stable")].tolist()
        picks = order[:self.candidates]
        if phase != AUCTION:
            return picks
        musts = [PASS] if PASS in legal else []
        if self.nullo_calls:
            musts += [a for a in order if a in NULLO_TYPES][:1]
        for must in musts:
            if must not in picks:
                last = max(j for j, a in enumerate(picks) if a not in musts)
                picks[last] = must
        return picks

    def scores(self, games: np.ndarray, ours: np.ndarray | None, logits: np.ndarray,
               masks: np.ndarray) -> np.ndarray:
        """Per decision (a game record with the network on turn), the team score of each of
        its candidates played out to the end of the hand (NaN for the other actions, all NaN
        where one action is legal).  ``ours``: per decision, the side (partnership, or seat of
        three) the network holds; ``other`` plays the rest."""
        q = np.full(masks.shape, np.nan, dtype=np.float32)
        owner, picks = [], []
        for k in range(len(games)):
            cands = self.choose(logits[k], masks[k], int(games["phase"][k]))
            if len(cands) > 1:
                owner += [k] * len(cands)
                picks += cands
        if not picks:
            return q
        owner_a = np.asarray(owner, dtype=np.int64)
        fast = FastGames(len(picks), self.rules)
        fast.games[:] = games[owner_a]
        fast.step(np.asarray(picks, dtype=np.int64))
        our_side = None if ours is None else np.asarray(ours)[owner_a]
        self.play_out(fast, our_side)
        points = fast.games["hand_points"]
        players = self.rules.players
        for j in range(len(picks)):
            side = side_of(players, int(games["turn"][owner_a[j]]))
            q[owner_a[j], picks[j]] = side_scores(points[j:j + 1], side)[0]
        return q

    def play_out(self, fast: FastGames, ours: np.ndarray | None) -> None:
        """Play every game of ``fast`` to the end of its hand: the network (greedy) where the
        seat on turn is of the side ``ours`` names, ``other`` elsewhere."""
        obs = np.zeros((fast.num_games, self.net.obs_size), dtype=np.float32)
        seats = np.zeros(fast.num_games, dtype=np.int64)
        actions = np.full(fast.num_games, -1, dtype=np.int64)
        while (live := np.flatnonzero(fast.games["phase"] < HAND_OVER)).size:
            masks = fast.legal_masks()
            actions.fill(-1)
            mine = live
            if self.other is not None and ours is not None:
                side = side_of(self.rules.players, fast.games["turn"][live])
                other = live[side != ours[live]]
                mine = live[side == ours[live]]
                if other.size:
                    actions[other] = self.other(fast, other, masks, self.rngs)
            if mine.size:
                fastobs.observe_turn(fast, mine, obs, seats, self.encode)
                with torch.no_grad():
                    logits, _ = self.net(torch.from_numpy(obs[mine]))
                    logits = masked_logits(logits, torch.from_numpy(masks[mine]))
                actions[mine] = logits.argmax(1).numpy()
            fast.step(actions, skip_negative=True)


def _no_rng(row: int) -> random.Random:
    raise RuntimeError("a branch's opponent drew from a generator it was not given "
                       "(DealBranches(rng=...))")
