"""Copy a checkpoint with the main network's nullo-type call logits lowered by DELTA (bias of the policy head):
the net then bids a nullo only where it prefers it by more than DELTA.  Nullo-type actions are legal only
in the auction, so nothing else changes.  usage: shift_nullo.py IN.pt OUT.pt DELTA"""
import sys, torch
sys.path.insert(0, "/work/main")
import fh_env.actions as A
from agents.neural import read_checkpoint, policy_from_checkpoint
src, out, delta = sys.argv[1], sys.argv[2], float(sys.argv[3])
agent = read_checkpoint(src); net = policy_from_checkpoint(agent)
obs = torch.zeros(1, net.obs_size); before = net(obs)[0][0, list(A.NULLO_TYPES)]  # no trump: the auction's row
cols = [int(net.action_index[4][a]) if net.trump_first else a for a in A.NULLO_TYPES]
sd = {k: v.clone() for k, v in agent["policy"]["state_dict"].items()}
sd["policy_head.bias"][cols] -= delta
agent["policy"]["state_dict"] = sd; agent["nullo_shift"] = delta
net2 = policy_from_checkpoint(agent); after = net2(obs)[0][0, list(A.NULLO_TYPES)]
print("trump_first", net.trump_first, "cols", cols, "logit change", (after - before).tolist())
torch.save(agent, out)
