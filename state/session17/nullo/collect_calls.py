"""Call/exchange decisions of distill-australian-2 at every seat (labels = its greedy), same storage as collect.py (role 5).
usage: collect_calls.py SEED_LO SEED_HI DATADIR (appends chunk files; reuses table.pkl)"""
from common import *
lo, hi, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
net = NeuralBot.load(BASE)
table = pickle.load(open(f"{out}/table.pkl", "rb"))
def codes(o):
    u, inv = np.unique(o, return_inverse=True)
    m = np.array([table.setdefault(float(x), len(table)) for x in u], dtype=np.uint8)
    return m[inv]
buf = {k: [] for k in ("codes", "mask", "label", "role", "greedy", "hand", "contract")}
t0 = time.time(); rng = random.Random(0)
for seed in range(lo, hi):
    st = State(RULES, seed=seed)
    while not st.is_terminal and st.phase != Phase.PLAY:
        v = seat_view(st, st.turn); o, m, g = encode(net, v)
        if m.sum() > 1:
            buf["codes"].append(codes(o)); buf["mask"].append(m); buf["label"].append(g); buf["role"].append(5)
            buf["greedy"].append(g); buf["hand"].append(seed * 100 + 99); buf["contract"].append(-1)
        st.apply(g)
np.savez(f"{out}/chunk-calls.npz", **{k: np.array(v) for k, v in buf.items()})
with open(f"{out}/table.pkl", "wb") as f: pickle.dump(table, f)
print("calls", len(buf["label"]), "from", hi - lo, "hands", time.time() - t0, "table", len(table))
