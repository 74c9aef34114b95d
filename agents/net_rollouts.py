"""The network as a rollout policy: greedy play of a batch of fast-core games, cheaply.

``nmc`` with ``rollout="net"`` (:mod:`agents.nmc`) plays each sampled world to the end of the
hand with the network at every seat, so every rollout step is a forward pass over the batch.
:meth:`agents.neural.PolicyNet.forward` spends most of that time in the first layer, a dense
product with a 2,509-wide observation of which about 3% is non-zero, and in relabelling the
suits (``trump_first``).  :class:`RolloutNet` computes the same greedy actions faster:

* the suit relabelling is folded into copies of the first layer's columns and the policy
  head's rows, one per trump row of :func:`fh_env.observe.trump_first_indices` (a permutation,
  so the products are the same sums in another order);
* the first layer reads only the non-zero entries of each observation (compiled);
* the value head, which the search does not use, is skipped.

A network that also reads :mod:`agents.features`'s derived inputs (``best``) has them computed
by their compiled twin (:mod:`agents.compiled.features`) from the observation as it is, not
relabelled: the derived blocks of a relabelled
observation are those of the observation with their cards and suits relabelled the same way
(the relabelling keeps each bower's pair of suits together), so that relabelling folds into the
first layer's columns for them too, and no observation is copied to be relabelled (which took
a third of a lead search's time).

The logits agree with the network's to float32 rounding (``tests/test_nmc.py`` compares both,
and the rollouts with the network playing on the reference engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch
from numba import njit

from fh_env import observe

from .neural import PolicyNet

if TYPE_CHECKING:
    from .compiled.features import CompiledFeatures
    from fh_env.compiled.games import FastGames
    from fh_env.rules import Rules

#: The rows of one pass of :meth:`RolloutNet.logits`: its temporaries stay a few MB.
CHUNK = 1024


@njit(cache=True, fastmath=True)
def _add_sparse(h: np.ndarray, x: np.ndarray, w: np.ndarray) -> None:
    """``h += x @ w`` over the non-zero entries of ``x``."""
    for j in range(x.shape[0]):
        v = x[j]
        if v != 0.0:
            for c in range(h.shape[0]):
                h[c] += v * w[j, c]


@njit(cache=True, fastmath=True)
def _sparse_layer(obs: np.ndarray, rows: np.ndarray, which: np.ndarray, weights: np.ndarray,
                  extra: np.ndarray, extra_weights: np.ndarray, bias: np.ndarray,
                  out: np.ndarray) -> None:
    """``out[k] = relu(bias + obs[rows[k]] @ weights[which[k]]
    + extra[k] @ extra_weights[which[k]])`` over the non-zero inputs (``weights``:
    ``[variants, obs_size, width]``; ``extra``: the derived inputs, zero wide without them)."""
    for k in range(rows.shape[0]):
        h = out[k]
        h[:] = bias
        _add_sparse(h, obs[rows[k]], weights[which[k]])
        _add_sparse(h, extra[k], extra_weights[which[k]])
        for c in range(h.shape[0]):
            if h[c] < 0.0:
                h[c] = 0.0


def derived_index(net: PolicyNet) -> np.ndarray:
    """int64 ``[5, derived inputs]``: the derived inputs of an observation relabelled by trump
    row t (:func:`fh_env.observe.trump_first_indices`) are ``derived[derived_index[t]]`` of the
    observation as it is: card blocks move as the cards do, the suit counts (``out``) as the
    suits do, the seats stay."""
    from fh_env.observe import TRUMP_FIRST

    from .features import feature_blocks

    features = net.card_features
    size = features.size
    index = np.tile(np.arange(size, dtype=np.int64), (5, 1))
    card_index = features.card_index.numpy()  # [5, C]: relabelled card c is card_index[t, c]
    start = 0
    for name, width in feature_blocks(features.players):
        for t, label in enumerate(TRUMP_FIRST):
            if name == "out":  # suit s is relabelled label[s]; the jokers (4) stay
                for s in range(4):
                    index[t, start + label[s]] = start + s
            elif name != "winning":
                index[t, start:start + width] = start + card_index[t]
        start += width
    return index


class RolloutNet:
    """Greedy actions of a :class:`agents.neural.PolicyNet` for rows of an observation batch."""

    def __init__(self, net: PolicyNet) -> None:
        if net.nullo_branch:
            raise ValueError("network rollouts compile one network, not a nullo branch "
                             "(PolicyNet.nullo): roll out with the agent it was joined from")
        self.net = net
        self.features = net.features
        self._features: "CompiledFeatures | None" = None  # built at the first rows
        linears = [m for m in net.trunk if isinstance(m, torch.nn.Linear)]
        with torch.no_grad():
            first = linears[0].weight.numpy().T.astype(np.float32)  # [inputs, width]
            head_w = net.policy_head.weight.numpy().astype(np.float32)
            head_b = net.policy_head.bias.numpy().astype(np.float32)
            self.bias = linears[0].bias.numpy().astype(np.float32).copy()
            self.hidden = [(m.weight.numpy().T.astype(np.float32).copy(),
                            m.bias.numpy().astype(np.float32).copy()) for m in linears[1:]]
        self.trump_first = net.trump_first
        first, first_derived = first[:net.obs_size], first[net.obs_size:]
        if self.trump_first:
            obs_index, action_index = observe.trump_first_indices()
            # The network reads obs[obs_index[t]] and answers logits[action_index[t]]: the same
            # as reading obs with the first layer's rows permuted by obs_index's inverse (and
            # the derived inputs likewise, derived_index).
            self.first = np.ascontiguousarray(first[np.argsort(obs_index, axis=1)])
            derived = (np.argsort(derived_index(net), axis=1) if self.features
                       else np.zeros((5, 0), dtype=np.int64))
            self.first_derived = np.ascontiguousarray(first_derived[derived])
            self.head = [(np.ascontiguousarray(head_w[a].T), head_b[a].copy())
                         for a in action_index]
        else:
            self.first = first[None].copy()  # [variants, obs, width]
            self.first_derived = first_derived[None].copy()
            self.head = [(np.ascontiguousarray(head_w.T), head_b.copy())]

    def logits(self, obs: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The policy logits of ``obs[rows]`` (float32 ``[len(rows), actions]``) and which
        variant (trump row) each used, ``CHUNK`` rows at a time.  Why chunks: a batch of
        ``nmc``'s searches is up to 8,192 rows, and its temporaries (80 MB and more each) were
        mapped afresh by the allocator at every step, so the system's page faults cost more
        than the arithmetic; a chunk's are reused."""
        if len(rows) <= CHUNK:
            return self._chunk_logits(obs, rows)
        parts = [self._chunk_logits(obs, rows[i:i + CHUNK]) for i in range(0, len(rows), CHUNK)]
        return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))

    def _chunk_logits(self, obs: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`logits` of up to ``CHUNK`` rows."""
        if self.trump_first:
            trump = obs[rows, observe.TRUMP_SLICE]
            which = np.where(trump.sum(1) > 0, trump.argmax(1), 4).astype(np.int64)
        else:
            which = np.zeros(len(rows), dtype=np.int64)
        derived = (self._derived(obs, rows) if self.features
                   else np.zeros((len(rows), 0), dtype=np.float32))
        x = np.empty((len(rows), self.bias.shape[0]), dtype=np.float32)
        _sparse_layer(obs, rows, which, self.first, derived, self.first_derived, self.bias, x)
        for w, b in self.hidden:
            x = np.maximum(x @ w + b, 0.0)
        out = np.empty((len(rows), self.head[0][1].shape[0]), dtype=np.float32)
        for v in np.unique(which):
            w, b = self.head[v]
            sel = which == v
            out[sel] = x[sel] @ w + b
        return out, which

    def _derived(self, obs: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The derived inputs of ``obs[rows]`` as it is (not relabelled), compiled."""
        if self._features is None:
            from .compiled.features import CompiledFeatures

            self._features = CompiledFeatures(self.net.card_features)
        return self._features(obs, rows)

    def act(self, obs: np.ndarray, rows: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The greedy legal action of each of ``obs[rows]`` (``masks``: int8, by game)."""
        logits, _ = self.logits(obs, rows)
        logits[masks[rows] == 0] = -np.inf
        return logits.argmax(1).astype(np.int64)


class GreedySteps:
    """The network, greedy, for the seat on turn at some tables of a batch of fast-core games:
    one observation, mask and forward pass a step, with the buffers kept between steps.  Why:
    ``nmc``'s auction play-out and the belief model's data both step the network this way."""

    def __init__(self, net: PolicyNet, fast: "FastGames", encode: "Rules | None") -> None:
        self.net, self.fast, self.encode = net, fast, encode
        n = fast.num_games
        self.obs = np.zeros((n, net.obs_size), dtype=np.float32)
        self.seats = np.zeros(n, dtype=np.int64)
        self.masks = np.zeros((n, fast.num_actions), dtype=np.int8)
        self.actions = np.full(n, -1, dtype=np.int64)

    def step(self, rows: np.ndarray) -> None:
        """The network's greedy legal action at each table of ``rows``; the others wait."""
        from fh_env.compiled import observe as fastobs

        from .neural import masked_logits

        fastobs.observe_turn(self.fast, rows, self.obs, self.seats, self.encode)
        fastobs.action_masks(self.fast, out=self.masks)
        with torch.no_grad():
            logits, _ = self.net(torch.from_numpy(self.obs[rows]))
            logits = masked_logits(logits, torch.from_numpy(self.masks[rows]))
        self.actions.fill(-1)
        self.actions[rows] = logits.argmax(1).numpy()
        self.fast.step(self.actions, skip_negative=True)
