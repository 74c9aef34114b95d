"""DAgger collection for the nullo branch (three-handed).
Auction and exchange: FastMCBot(20) at every seat; only hands whose contract is a nullo type are kept.
Card play at EVERY seat: each decision is played by NET (greedy; its nullo branch plays these rows) with
probability P, else by FastMCBot(50).  Every non-forced card decision is labelled with FastMCBot(50)'s card
(hard label) and stored with NET's observation (as session 17: codes via table.pkl, mask, label, role
0 declarer / 1 defender, greedy = NET's card, hand = seed, contract).  Chunks of 20,000 decisions.
usage: collect.py SEED_LO SEED_HI LIMIT_S OUT   env: NET=agents/checkpoints/distill-three-handed-calls.pt P=0.6"""
import os, sys, json
os.environ.setdefault("NULLO_RULES", "three-handed"); os.environ.setdefault("NULLO_BASE", "distill-three-handed-nullo")
sys.path.insert(0, "/work/main/state/session17/nullo")
from common import *
lo, hi, limit, out = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
P = float(os.environ.get("P", "0.6"))
os.makedirs(out, exist_ok=True)
net = NeuralBot.load(os.environ.get("NET", "agents/checkpoints/distill-three-handed-calls.pt"))
mc20 = FastMCBot(20); mc50 = FastMCBot(50)
table = {}
def codes(o):
    u, inv = np.unique(o, return_inverse=True)
    m = np.array([table.setdefault(float(x), len(table)) for x in u], dtype=np.uint8)
    return m[inv]
K = ("codes", "mask", "label", "role", "greedy", "hand", "contract")
buf = {k: [] for k in K}
S = dict(hands=0, thrown=0, nullo=0, dec=0, decl_dec=0, agree_decl=0, agree_def=0)
made = {}  # contract -> [n, made]
chunk = 0; t0 = time.time()
def flush():
    global chunk
    if not buf["label"]: return
    np.savez(f"{out}/chunk-{chunk:03d}.npz", **{k: np.array(v) for k, v in buf.items()})
    for v in buf.values(): v.clear()
    chunk += 1
    with open(f"{out}/table.pkl", "wb") as f: pickle.dump(table, f)
    print(f"[{time.time()-t0:.0f}s] chunk {chunk} {S} made {made}", flush=True)

for seed in range(lo, hi):
    if time.time() - t0 > limit: break
    st = State(RULES, seed=seed); rng = random.Random(f"branch/{seed}"); mix = random.Random(f"mix/{seed}")
    S["hands"] += 1
    while not st.is_terminal and st.phase != Phase.PLAY:
        st.apply(mc20.act(seat_view(st, st.turn), rng))
    if st.is_terminal: S["thrown"] += 1; continue
    if st.contract not in NULLOS: continue
    S["nullo"] += 1
    while not st.is_terminal:
        s = st.turn; v = seat_view(st, s); o, m, g = encode(net, v)
        a = g
        if m.sum() > 1:
            lab = mc50.act(v, rng); r = role_of(st, s)
            for k, x in zip(K, (codes(o), m, lab, r, g, seed, st.contract)): buf[k].append(x)
            S["dec"] += 1; S["decl_dec"] += r == 0
            S["agree_decl" if r == 0 else "agree_def"] += int(lab == g)
            if mix.random() >= P: a = lab
        st.apply(a)
    c = made.setdefault(A.action_name(st.contract) if hasattr(A, "action_name") else int(st.contract), [0, 0])
    c[0] += 1; c[1] += int(st.result.made)
    if len(buf["label"]) >= 20000: flush()
flush()
print("done", seed, f"{time.time() - t0:.0f}s", json.dumps(S), made, "table", len(table), flush=True)
