"""Fit the nullo branch only (hard cross-entropy on FastMCBot(50)'s cards), from INIT's branch weights.
The base network (calls, suit play) is frozen and checked byte-identical on save.  Hands with seed % 10 == 0
are held out; agreement with mcfast's card is reported by role before and after each epoch.
usage: fit.py DATADIRS(comma-separated) OUT.pt EPOCHS LR   env: INIT=agents/checkpoints/distill-three-handed-calls.pt DECL_W=2"""
import os, sys, glob, math
os.environ.setdefault("NULLO_RULES", "three-handed"); os.environ.setdefault("NULLO_BASE", "distill-three-handed-nullo")
sys.path.insert(0, "/work/main/state/session17/nullo")
from common import *
from agents.neural import read_checkpoint, policy_from_checkpoint, masked_logits
dirs, out, epochs, lr = sys.argv[1].split(","), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
INIT = os.environ.get("INIT", "agents/checkpoints/distill-three-handed-calls.pt"); DW = float(os.environ.get("DECL_W", "2"))
torch.manual_seed(0)
D = {k: [] for k in ("obs", "mask", "label", "role", "greedy", "hand")}
for d in dirs:  # each directory has its own value table: decode to float16 observations here
    table = pickle.load(open(f"{d}/table.pkl", "rb")); values = np.zeros(256, np.float32)
    for v, c in table.items(): values[c] = v
    for f in sorted(glob.glob(f"{d}/chunk-*.npz")):
        z = np.load(f); D["obs"].append(values[z["codes"]].astype(np.float16))
        for k in ("mask", "label", "role", "greedy", "hand"): D[k].append(z[k])
D = {k: np.concatenate(v) for k, v in D.items()}
N = len(D["label"]); role = D["role"]; lab = D["label"]; held = D["hand"] % 10 == 0
assert np.allclose(D["obs"].astype(np.float32)[:1000], D["obs"][:1000])  # values exactly representable
agent = read_checkpoint(INIT)
net = policy_from_checkpoint(agent); assert net.nullo is not None
base_before = {k: v.clone() for k, v in agent["policy"]["state_dict"].items() if not k.startswith("nullo.")}
for n_, p in net.named_parameters(): p.requires_grad_(n_.startswith("nullo."))
# every stored row must be one that the branch plays
o = torch.from_numpy(D["obs"][:: max(1, N // 20000)].astype(np.float32))
assert bool(((o[:, net._play_column] > 0) & (o[:, net._nullo_columns].sum(1) > 0)).all())
groups = {"declarer": held & (role == 0), "defender": held & (role == 1)}
print(f"decisions {N}; declarer {int((role == 0).sum())}, defender {int((role == 1).sum())}; hands {len(np.unique(D['hand']))}, "
      f"held-out hands {len(np.unique(D['hand'][held]))}", flush=True)
print("stored greedy==label on held-out:", {g: round(float(np.mean(D['greedy'][m] == lab[m])), 3) for g, m in groups.items()})

def batch(idx):
    return (torch.from_numpy(D["obs"][idx].astype(np.float32)), torch.from_numpy(D["mask"][idx].astype(np.float32)),
            torch.from_numpy(lab[idx].astype(np.int64)))

def evaluate(tag):
    net.eval(); res = {}
    with torch.no_grad():
        for g, m in groups.items():
            idx = np.flatnonzero(m); agree = 0; nll = 0.0
            for s in range(0, len(idx), 4096):
                obs, mask, y = batch(idx[s:s + 4096])
                lp = torch.log_softmax(masked_logits(net.nullo(obs)[0], mask), 1)
                agree += int((lp.argmax(1) == y).sum()); nll -= float(lp.gather(1, y[:, None]).sum())
            res[g] = (agree / len(idx), nll / len(idx), len(idx))
    print(f"[{tag}] " + "; ".join(f"{g} (n={n}): agree {a:.3f} nll {l:.3f}" for g, (a, l, n) in res.items()), flush=True)

evaluate("before")
train_idx = np.flatnonzero(~held)
opt = torch.optim.Adam([p for p in net.nullo.parameters()], lr=lr)
B = 512; steps = epochs * math.ceil(len(train_idx) / B)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: max(0.0, 1 - i / steps))
gen = np.random.default_rng(0); t0 = time.time()
for ep in range(1, epochs + 1):
    net.train(); gen.shuffle(train_idx); tot = 0.0; n = 0
    for s in range(0, len(train_idx), B):
        idx = np.sort(train_idx[s:s + B]); obs, mask, y = batch(idx)
        lp = torch.log_softmax(masked_logits(net.nullo(obs)[0], mask), 1)
        w = torch.from_numpy(np.where(role[idx] == 0, DW, 1.0).astype(np.float32))
        loss = -(w * lp.gather(1, y[:, None]).squeeze(1)).sum() / w.sum()
        opt.zero_grad(); loss.backward(); torch.nn.utils.clip_grad_norm_(net.nullo.parameters(), 0.5)
        opt.step(); sched.step(); tot += float(loss) * len(idx); n += len(idx)
    print(f"epoch {ep} train loss {tot / n:.4f} ({time.time() - t0:.0f}s)", flush=True)
    evaluate(f"epoch {ep}")
    sd = {k: v.detach().clone() for k, v in net.state_dict().items()}
    for k, v in base_before.items(): assert torch.equal(sd[k], v), k  # base network byte-identical
    agent["policy"]["state_dict"] = sd
    agent["branch_fit"] = {"init": INIT, "data": dirs, "epochs_done": ep, "lr": lr, "decl_w": DW}
    torch.save(agent, out)
print("saved", out, f"{time.time() - t0:.0f}s")
