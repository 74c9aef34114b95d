import random, time, pickle, sys
import numpy as np
import torch
torch.set_num_threads(1)
sys.path.insert(0, "/work/main")
from fh_env.engine import State, Phase
from fh_env.view import seat_view
from fh_env.rules import load_rules
from fh_env import observe
import fh_env.actions as A
from agents.mc_fast import FastMCBot
from agents.neural import NeuralBot

import os
RULES = load_rules(os.environ.get("NULLO_RULES", "australian"))
BASE = os.environ.get("NULLO_BASE", "distill-australian-2")  # the network fitted and anchored
NULLOS = set(A.NULLO_TYPES)
N = RULES.players

def role_of(st, s):
    """0: the declarer; 1: its opponents (every other seat with three players); 2: a partner."""
    if s == st.declarer:
        return 0
    return 1 if N == 3 or (s % 2) != (st.declarer % 2) else 2

def encode(bot, view):
    """obs, mask and greedy action exactly as NeuralBot encodes them."""
    logits, mask = bot._logits(view)
    return bot._obs.copy(), mask.astype(np.uint8), int(torch.argmax(logits))

def auction(seed, caller, rngs):
    """Play calls and exchange with `caller` at every seat; return the state at start of play (or None)."""
    st = State(RULES, seed=seed)
    while not st.is_terminal and st.phase != Phase.PLAY:
        s = st.turn
        st.apply(caller.act(seat_view(st, s), rngs[s]))
    if st.is_terminal:
        return None
    return st

def play_out(st, bots, rngs, record=None, net=None):
    """Play cards to the end; bots per seat. record: list to append (obs, mask, label, role)."""
    while not st.is_terminal:
        s = st.turn
        v = seat_view(st, s)
        a = bots[s].act(v, rngs[s])
        if record is not None:
            obs, mask, g = encode(net, v)
            role = role_of(st, s)
            record.append((obs, mask, a, role, g))
        st.apply(a)
    return st

def made(st):
    return bool(st.result.made) if hasattr(st.result, "made") else None
