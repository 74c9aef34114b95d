"""A cheap rollout policy for the fast core: classic card-play heuristics, compiled.

Monte Carlo bots (:mod:`agents.mc_fast`) play every candidate action out in many sampled worlds;
the rollouts run here, over :mod:`fh_env.compiled.games` game records, with no Python per step.  A
rollout world is a determinized full state, so the policy reads every hand: it is a perfect-
information policy, deterministic (it draws nothing), and it only ever picks from the legal
actions of :func:`fh_env.compiled.engine.legal`.

* Auction: pass, unless a trick estimate (trumps plus side aces) reaches 7 with a strain: then
  the cheapest legal bid of that strain up to ``estimate - 1`` tricks; when passing is illegal
  (stick the dealer) the cheapest legal call.
* Exchange: discard the lowest card (trumps rank above every plain card, so the lowest non-trump
  goes first); in a nullo-type contract the highest.
* Play, ordinary contracts: partner winning the trick: play lowest; else win if possible, the
  last player with the cheapest winning card, the second or third with the highest; else
  play lowest.  Lead: the declaring side with trumps leads its highest trump, anyone else its
  highest plain card; a joker lead (no-trump) only with nothing else, naming the first suit
  allowed.
* Play, nullo-type contracts: the declaring side plays the highest card that still loses the
  trick (the highest card when every card wins) and leads its lowest; defenders play lowest.

"Lowest" and "highest" compare a card's strength in its own suit under the hand's trump context
(``fh_env.compiled.rules.RULES_DTYPE.strength``), which puts trumps above plain cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fh_env import actions as A
from fh_env.compiled.cards import U0, U1, lowest_bit, popcount
from fh_env.compiled.engine import (DISCARD_BASE, EXCHANGE, HAND_OVER, JOKER_LEAD_BASE, NULLO,
                                    PLAY, PLAY_BASE, apply, legal, legal_calls, trick_best)

_NO_CARD = -1
_ACE = 10  # rank index of the ace


@njit(cache=True)
def own_value(r, ctx, c):
    """A card's strength led in its own suit: plain 10..20, trumps 200.., jokers 299/300."""
    return r.strength[ctx, r.suit[ctx, c], c]


@njit(cache=True)
def extreme(r, ctx, cards, highest):
    """The highest (or lowest) card of a non-empty mask by :func:`own_value`."""
    best, best_v = _NO_CARD, 0
    m = cards
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        v = own_value(r, ctx, c)
        if best < 0 or (v > best_v if highest else v < best_v):
            best, best_v = c, v
    return best


@njit(cache=True)
def bid_choice(g, r):
    """Pass unless trumps + side aces reach 7 tricks in a suit; see the module docstring."""
    legal_mask = legal_calls(g, r)
    hand = g.hands[g.turn]
    best_bid = -1
    for strain in range(4):
        trumps = popcount(hand & r.suit_mask[strain, strain])
        aces = 0
        for s in range(4):
            if s != strain:
                ace = s * 11 + _ACE
                if (hand >> np.uint64(ace)) & U1:
                    aces += 1
        tricks = trumps + aces
        for level in range(6, min(10, tricks - 1) + 1):
            bid = A.BID_BASE + (level - 6) * 5 + strain
            if (legal_mask >> np.uint64(bid)) & U1:
                if best_bid < 0 or bid < best_bid:
                    best_bid = bid
                break
    if best_bid >= 0:
        return best_bid
    if legal_mask & U1:
        return 0  # pass
    return lowest_bit(legal_mask)


@njit(cache=True)
def play_choice(g, r):
    """The card to play (an action id); see the module docstring."""
    _, cards, leads = legal(g, r)
    if cards == U0:
        return JOKER_LEAD_BASE + lowest_bit(leads)  # only joker leads: name the first suit
    me, ctx = g.turn, g.context
    nullo = g.contract >= NULLO
    declaring = g.declarer >= 0 and me % 2 == g.declarer % 2
    if g.ntrick == 0:
        if nullo:
            return PLAY_BASE + extreme(r, ctx, cards, False)
        if declaring and ctx < 4:
            trumps = cards & r.suit_mask[ctx, ctx]
            if trumps != U0:
                return PLAY_BASE + extreme(r, ctx, trumps, True)
        plain = cards
        if ctx < 4:
            plain = cards & ~r.suit_mask[ctx, ctx]
            if plain == U0:
                plain = cards
        return PLAY_BASE + extreme(r, ctx, plain, True)
    best, winner = trick_best(g, r)
    led = g.led
    winning, losing = U0, U0
    m = cards
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if r.strength[ctx, led, c] > best:
            winning |= U1 << np.uint64(c)
        else:
            losing |= U1 << np.uint64(c)
    if nullo:
        if not declaring:
            return PLAY_BASE + extreme(r, ctx, cards, False)
        if losing != U0:
            # the highest card that still loses: by strength in this trick, then own value
            pick, pick_s, pick_v = _NO_CARD, -3, 0
            m = losing
            while m != U0:
                c = lowest_bit(m)
                m &= m - U1
                s, v = r.strength[ctx, led, c], own_value(r, ctx, c)
                if pick < 0 or s > pick_s or (s == pick_s and v > pick_v):
                    pick, pick_s, pick_v = c, s, v
            return PLAY_BASE + pick
        return PLAY_BASE + extreme(r, ctx, cards, True)
    if winner % 2 == me % 2 or winning == U0:
        return PLAY_BASE + extreme(r, ctx, cards, False)
    active = 3 if g.sitting_out >= 0 else 4
    if g.ntrick == active - 1:  # last to play: the cheapest winner
        pick, pick_s = _NO_CARD, 0
        m = winning
        while m != U0:
            c = lowest_bit(m)
            m &= m - U1
            s = r.strength[ctx, led, c]
            if pick < 0 or s < pick_s:
                pick, pick_s = c, s
        return PLAY_BASE + pick
    return PLAY_BASE + extreme(r, ctx, winning, True)


@njit(cache=True)
def policy_action(g, r):
    """The policy's action for the seat on turn in an unfinished hand."""
    if g.phase == PLAY:
        return play_choice(g, r)
    if g.phase == EXCHANGE:
        return DISCARD_BASE + extreme(r, g.context, g.hands[g.turn], g.contract >= NULLO)
    return bid_choice(g, r)


@njit(cache=True)
def policy_playout(g, r):
    """Play the hand to its end with the policy; returns the number of actions."""
    steps = 0
    while g.phase < HAND_OVER:
        apply(g, r, policy_action(g, r))
        steps += 1
    return steps


@njit(cache=True)
def policy_actions(games, rules, out):
    """``out[i]``: the policy's action in game ``i`` (-1 where the hand is over)."""
    r = rules[0]
    for i in range(games.shape[0]):
        g = games[i]
        out[i] = policy_action(g, r) if g.phase < HAND_OVER else -1


@njit(cache=True)
def policy_rollouts(games, rules, first):
    """Apply ``first[i]`` to game ``i`` (skipped when negative; it must be legal), then play
    every hand out with the policy.  Returns the number of actions taken."""
    r = rules[0]
    steps = 0
    for i in range(games.shape[0]):
        g = games[i]
        if first[i] >= 0 and g.phase < HAND_OVER:
            apply(g, r, first[i])
            steps += 1
        steps += policy_playout(g, r)
    return steps


__all__ = ["policy_action", "policy_actions", "policy_playout", "policy_rollouts"]
