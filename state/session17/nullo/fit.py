"""Hard-label fit of distill-australian-2 on collected nullo (mcfast) + suit (own greedy) decisions.
usage: fit.py DATADIR OUT.pt EPOCHS LR"""
from common import *
import glob, copy, math
from agents.neural import read_checkpoint, resolve_checkpoint, policy_from_checkpoint, masked_logits
datadir, out, epochs, lr = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
torch.manual_seed(0)
files = sorted(glob.glob(f"{datadir}/chunk-*.npz"))
D = {k: [] for k in ("codes", "mask", "label", "role", "greedy", "hand")}
for f in files:
    z = np.load(f)
    for k in D: D[k].append(z[k])
D = {k: np.concatenate(v) for k, v in D.items()}
table = pickle.load(open(f"{datadir}/table.pkl", "rb"))
values = np.zeros(256, np.float32)
for v, c in table.items(): values[c] = v
N = len(D["label"])
held_hand = (np.array([hash((int(h) * 2654435761) % 1000003) for h in D["hand"]]) % 10) == 0
role = D["role"]
nonforced = D["mask"].sum(1) > 1
print(f"decisions {N}; by role", {r: int((role == r).sum()) for r in range(6)},
      "hands", {r: len(np.unique(D['hand'][role == r])) for r in (0, 3, 4)},
      "held-out hands", len(np.unique(D["hand"][held_hand])), flush=True)
train_idx = np.flatnonzero(~held_hand & (role != 4))
sub4 = np.zeros(N, bool); i4 = np.flatnonzero(role == 4)
sub4[np.random.default_rng(1).choice(i4, min(len(i4), 20000), replace=False)] = True
groups = {"nullo declarer": held_hand & (role == 0), "nullo defender": held_hand & (role == 1),
          "suit (mcfast card, eval-only hands)": sub4, "suit anchor (own greedy)": held_hand & (role == 3), "calls anchor (own greedy)": held_hand & (role == 5),
          "train nullo declarer": ~held_hand & (role == 0) & (np.random.default_rng(2).random(N) < 0.2)}
print("stored greedy==label (before), all / non-forced:")
for g, m in groups.items():
    print(f"  {g:38s} n={m.sum():6d} {np.mean(D['greedy'][m] == D['label'][m]):.3f} / "
          f"{np.mean(D['greedy'][m & nonforced] == D['label'][m & nonforced]):.3f} (n={int((m & nonforced).sum())})")

agent = read_checkpoint(resolve_checkpoint(BASE))
net = policy_from_checkpoint(agent)

def batch(idx):
    obs = torch.from_numpy(values[D["codes"][idx]])
    mask = torch.from_numpy(D["mask"][idx].astype(np.float32))
    return obs, mask, torch.from_numpy(D["label"][idx].astype(np.int64))

def evaluate(tag):
    net.eval(); res = {}
    with torch.no_grad():
        for g, m in groups.items():
            idx = np.flatnonzero(m & nonforced); agree = 0; nll = 0.0
            for s in range(0, len(idx), 2048):
                obs, mask, lab = batch(idx[s:s + 2048])
                lp = torch.log_softmax(masked_logits(net(obs)[0], mask), 1)
                agree += int((lp.argmax(1) == lab).sum()); nll -= float(lp.gather(1, lab[:, None]).sum())
            res[g] = (agree / max(1, len(idx)), nll / max(1, len(idx)))
    print(f"[{tag}] " + "; ".join(f"{g}: agree {a:.3f} nll {l:.3f}" for g, (a, l) in res.items()), flush=True)
    return res

hist = [evaluate("before")]
opt = torch.optim.Adam(net.parameters(), lr=lr)
B = 512
steps = epochs * math.ceil(len(train_idx) / B)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: max(0.0, 1 - i / steps))
gen = np.random.default_rng(0); t0 = time.time()
for ep in range(1, epochs + 1):
    net.train(); gen.shuffle(train_idx); tot = 0.0; n = 0
    for s in range(0, len(train_idx), B):
        idx = np.sort(train_idx[s:s + B])
        obs, mask, lab = batch(idx)
        lp = torch.log_softmax(masked_logits(net(obs)[0], mask), 1)
        loss = -lp.gather(1, lab[:, None]).mean()
        opt.zero_grad(); loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
        opt.step(); sched.step(); tot += float(loss) * len(idx); n += len(idx)
        if (s // B) % 100 == 0: print(f"  ep {ep} batch {s // B} loss {tot / n:.4f} ({time.time() - t0:.0f}s)", flush=True)
    print(f"epoch {ep} train loss {tot / n:.4f} ({time.time() - t0:.0f}s)", flush=True)
    hist.append(evaluate(f"epoch {ep}"))
    agent["policy"]["state_dict"] = {k: v.detach().clone() for k, v in net.state_dict().items()}
    agent["nullo_fit"] = {"data": datadir, "epochs_done": ep, "lr": lr}
    torch.save(agent, out)
print("saved", out, time.time() - t0)
