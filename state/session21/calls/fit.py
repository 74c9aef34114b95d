"""Hard-label fit of distill-three-handed-nullo on mcfast's calls (role 5) and nullo discards (role 7),
soft anchor (cross-entropy to the original network's own distribution) on suit discards (6) and card play (3).
The nullo branch (policy.nullo) is frozen: its weights are saved unchanged.  10% of hands (seed % 10 == 0) held out.
usage: fit.py DATADIR OUT.pt EPOCHS LR   env: NULLO_W=1 (weight of hard labels that are nullo-type calls),
       ANCHOR_WEIGHT=1, ROLES=5,7 (hard-label roles used),
       NULLO_ONLY=1 (hard call labels only where mcfast's is a nullo type, the other calls soft-anchored),
       DROP_NULLO=1 (leave out the calls whose label is a nullo type, and the nullo discards)"""
import os, sys, glob, copy, math
os.environ.setdefault("NULLO_RULES", "three-handed"); os.environ.setdefault("NULLO_BASE", "distill-three-handed-nullo")
sys.path.insert(0, "/work/main/state/session17/nullo")
from common import *
from agents.neural import read_checkpoint, resolve_checkpoint, policy_from_checkpoint, masked_logits
datadir, out, epochs, lr = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
NW = float(os.environ.get("NULLO_W", "1")); AW = float(os.environ.get("ANCHOR_WEIGHT", "1"))
NULLO_ONLY = bool(os.environ.get("NULLO_ONLY"))  # variant: hard call labels only where mcfast calls a nullo type; other calls anchored
HARD = tuple(int(r) for r in os.environ.get("ROLES", "5,7").split(","))
torch.manual_seed(0)
D = {k: [] for k in ("codes", "mask", "label", "role", "greedy", "hand")}
for f in sorted(glob.glob(f"{datadir}/chunk-*.npz")):
    z = np.load(f)
    for k in D: D[k].append(z[k])
D = {k: np.concatenate(v) for k, v in D.items()}
table = pickle.load(open(f"{datadir}/table.pkl", "rb"))
values = np.zeros(256, np.float32)
for v, c in table.items(): values[c] = v
N = len(D["label"]); role = D["role"]; lab = D["label"]; gr = D["greedy"]
held = D["hand"] % 10 == 0
nul = np.isin(lab, list(NULLOS))
print(f"decisions {N}; by role", {r: int((role == r).sum()) for r in (3, 5, 6, 7)}, "held-out hands", len(np.unique(D["hand"][held])), flush=True)
c5 = role == 5
groups = {"calls": held & c5, "calls mc!=net": held & c5 & (lab != gr), "calls mc nullo": held & c5 & nul,
          "calls mc pass": held & c5 & (lab == A.PASS), "nullo discards": held & (role == 7),
          "suit discards (anchor)": held & (role == 6), "cards (anchor)": held & (role == 3)}
agent = read_checkpoint(resolve_checkpoint(BASE))
net = policy_from_checkpoint(agent)
assert net.nullo is not None
for p in net.nullo.parameters(): p.requires_grad_(False)
nullo_before = {k: v.clone() for k, v in net.nullo.state_dict().items()}
prior = copy.deepcopy(net).eval()

def batch(idx):
    return (torch.from_numpy(values[D["codes"][idx]]), torch.from_numpy(D["mask"][idx].astype(np.float32)),
            torch.from_numpy(lab[idx].astype(np.int64)))

def evaluate(tag):
    net.eval(); res = {}
    with torch.no_grad():
        for g, m in groups.items():
            idx = np.flatnonzero(m); agree = 0; nll = 0.0; pn = 0
            for s in range(0, len(idx), 4096):
                obs, mask, y = batch(idx[s:s + 4096])
                lp = torch.log_softmax(masked_logits(net(obs)[0], mask), 1)
                agree += int((lp.argmax(1) == y).sum()); nll -= float(lp.gather(1, y[:, None]).sum())
                pn += int(np.isin(lp.argmax(1).numpy(), list(NULLOS)).sum())
            res[g] = (agree / max(1, len(idx)), nll / max(1, len(idx)), pn, len(idx))
    print(f"[{tag}] " + "; ".join(f"{g} (n={n}): agree {a:.3f} nll {l:.3f} net-nullo {p}" for g, (a, l, p, n) in res.items()), flush=True)

evaluate("before")
train_idx = np.flatnonzero(~held)
if os.environ.get("DROP_NULLO"):  # variant: no nullo-type call labels (and no nullo discards): suit/notrump/pass calls only
    train_idx = train_idx[~((role[train_idx] == 5) & nul[train_idx]) & (role[train_idx] != 7)]
opt = torch.optim.Adam([p for p in net.parameters() if p.requires_grad], lr=lr)
B = 512; steps = epochs * math.ceil(len(train_idx) / B)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: max(0.0, 1 - i / steps))
gen = np.random.default_rng(0); t0 = time.time()
for ep in range(1, epochs + 1):
    net.train(); gen.shuffle(train_idx); tot = 0.0; n = 0
    for s in range(0, len(train_idx), B):
        idx = np.sort(train_idx[s:s + B])
        obs, mask, y = batch(idx)
        lp = torch.log_softmax(masked_logits(net(obs)[0], mask), 1)
        a_np = np.isin(role[idx], (3, 6)) | (NULLO_ONLY & (role[idx] == 5) & ~nul[idx])
        hard_rows = torch.from_numpy(np.isin(role[idx], HARD) & ~a_np); anc = torch.from_numpy(a_np)
        w = torch.from_numpy(np.where(nul[idx], NW, 1.0).astype(np.float32))[hard_rows]
        with torch.no_grad():
            pt = torch.softmax(masked_logits(prior(obs[anc])[0], mask[anc]), 1)
        hard = -(w * lp[hard_rows].gather(1, y[hard_rows][:, None]).squeeze(1))
        soft = -(pt * lp[anc]).sum(1)
        loss = (hard.sum() + AW * soft.sum()) / len(idx)
        opt.zero_grad(); loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
        opt.step(); sched.step(); tot += float(loss) * len(idx); n += len(idx)
    print(f"epoch {ep} train loss {tot / n:.4f} ({time.time() - t0:.0f}s)", flush=True)
    evaluate(f"epoch {ep}")
    sd = {k: v.detach().clone() for k, v in net.state_dict().items()}
    assert all(torch.equal(sd["nullo." + k], v) for k, v in nullo_before.items())
    agent["policy"]["state_dict"] = sd
    agent["calls_fit"] = {"data": datadir, "epochs_done": ep, "lr": lr, "nullo_w": NW, "anchor_w": AW, "roles": HARD}
    torch.save(agent, out)
print("saved", out, time.time() - t0)
