# Session 35 scratch: write a fitted state_dict (defence_fit_long.py) as a best-american agent file.
# Usage: python state/session35/as_agent.py runs/s35-def/hard12.sd runs/s35-def/hard12.pt
import sys, torch
from agents.neural import resolve_checkpoint
from train.checkpoint import read_checkpoint, save_atomic
agent = read_checkpoint(resolve_checkpoint("best-american"))
sd = torch.load(sys.argv[1], weights_only=True)
agent["policy"]["state_dict"] = sd
save_atomic(agent, sys.argv[2])
