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
                 num_actions: int = NUM_ACTIONS, features: bool = False) -> None:
        super().__init__()
        self.policy = PolicyNet(obs_size, hidden_sizes, generator, trump_first, num_actions,
                                features)
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


def widen(net: PolicyNet, hidden_sizes: Sequence[int],
          generator: torch.Generator | None = None) -> PolicyNet:
    """A network with wider (and possibly more) hidden layers that computes exactly what
    ``net`` computes, so that a fit can start from a trained agent with more capacity.

    Why: the shipped agents are 256 x 256; a search's card play may need more.  Each old unit
    keeps its weights and reads nothing from the new units; new units get fresh random inputs
    and feed the next layer (and the heads) with zero weights, so they change nothing until
    training moves those weights.  Extra layers start as the identity on the old units (the
    input of a layer is a ReLU's output, so ``relu(x) = x`` there)."""
    if net.nullo_branch:
        raise ValueError("a network with a nullo branch cannot be widened: widen it first")
    old = net.hidden_sizes
    sizes = [int(h) for h in hidden_sizes]
    if len(sizes) < len(old) or any(h < o for h, o in zip(sizes, old)) \
            or any(h < old[-1] for h in sizes[len(old):]):
        raise ValueError(f"cannot widen hidden layers {old} to {sizes}: each layer must keep "
                         "at least its width, an added layer must be as wide as the last, and "
                         "no layer may be removed")
    wide = PolicyNet(net.obs_size, sizes, generator, net.trump_first, net.num_actions,
                     features=net.features)
    old_linear = [m for m in net.trunk if isinstance(m, nn.Linear)]
    new_linear = [m for m in wide.trunk if isinstance(m, nn.Linear)]
    width = old[-1]  # the old units carried through the extra layers
    with torch.no_grad():
        for i, layer in enumerate(new_linear):
            if i < len(old_linear):
                src = old_linear[i]
                n_out, n_in = src.weight.shape
                layer.weight[:n_out, :n_in] = src.weight
                layer.weight[:n_out, n_in:] = 0.0
                layer.bias[:n_out] = src.bias
            else:
                layer.weight[:width] = 0.0
                layer.weight[:width, :width] = torch.eye(width)
                layer.bias[:width] = 0.0
        for head, src in ((wide.policy_head, net.policy_head), (wide.value_head, net.value_head)):
            head.weight.zero_()
            head.weight[:, :width] = src.weight
            head.bias.copy_(src.bias)
    return wide
