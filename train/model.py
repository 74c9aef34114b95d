"""The actor-critic trained by PPO: the policy network of :mod:`agents.neural`, plus optionally
a centralised critic.

The policy (and by default the value) reads only the acting seat's observation.  With
``central_critic`` the value comes from a separate MLP fed :func:`fh_env.observe.encode_state`
(the whole deal seen from the side of the seat whose value is asked): it may see every hand
because it is used only to compute advantages in training, never to choose an action.
"""

from __future__ import annotations

import math
from typing import Sequence

import torch
from torch import nn

from agents.neural import PolicyNet, init_layer, masked_logits
from fh_env import NUM_ACTIONS


class CentralCritic(nn.Module):
    """V(state, seat): an MLP over ``encode_state(state, seat)``."""

    def __init__(self, state_size: int, hidden_sizes: Sequence[int],
                 generator: torch.Generator | None = None) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = state_size
        for h in hidden_sizes:
            layers += [init_layer(width, h, math.sqrt(2), generator), nn.ReLU()]
            width = h
        layers.append(init_layer(width, 1, 1.0, generator))
        self.net = nn.Sequential(*layers)

    def forward(self, state_obs: torch.Tensor) -> torch.Tensor:
        """``state_obs``: [B, state_size]."""
        return self.net(state_obs).squeeze(-1)


class ActorCritic(nn.Module):
    """Policy logits (masked) and values for a batch of decisions."""

    def __init__(self, obs_size: int, hidden_sizes: Sequence[int], state_size: int = 0,
                 generator: torch.Generator | None = None, trump_first: bool = False,
                 num_actions: int = NUM_ACTIONS) -> None:
        super().__init__()
        self.policy = PolicyNet(obs_size, hidden_sizes, generator, trump_first, num_actions)
        self.critic = CentralCritic(state_size, hidden_sizes, generator) if state_size else None

    def forward(self, obs: torch.Tensor, mask: torch.Tensor,
                state_obs: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits [B, num_actions] and values [B]."""
        logits, value = self.policy(obs)
        if self.critic is not None:
            if state_obs is None:
                raise ValueError("a centralised critic needs state_obs")
            value = self.critic(state_obs)
        return masked_logits(logits, mask), value


def sample(logits: torch.Tensor, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Sample one action per row from masked logits; return (actions, their log-probabilities).

    Illegal actions have probability exactly 0 after masking, so they are never drawn.
    """
    logp = torch.log_softmax(logits, dim=-1)
    actions = torch.multinomial(logp.exp(), 1, generator=generator)
    return actions.squeeze(-1), logp.gather(-1, actions).squeeze(-1)


def legal_entropy(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Entropy of the policy over legal actions only (illegal terms are dropped, not 0*log 0)."""
    logp = torch.log_softmax(logits, dim=-1)
    return -(logp.exp() * logp).masked_fill(mask == 0, 0.0).sum(-1)
