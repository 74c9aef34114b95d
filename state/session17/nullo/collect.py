"""Collect nullo card decisions (mcfast:samples=50 labels) + suit anchors (net greedy labels).
usage: collect.py SEED_LO SEED_HI DEALS_PER_SEED LIMIT_S OUTDIR"""
from common import *
from fh_env.engine import deal_cards
import os
lo, hi, K, limit, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
os.makedirs(out, exist_ok=True)
mc20 = FastMCBot(20); mc50 = FastMCBot(50)
net = NeuralBot.load(BASE)
table = {}  # float value -> code

def codes(o):
    u, inv = np.unique(o, return_inverse=True)
    m = np.array([table.setdefault(float(x), len(table)) for x in u], dtype=np.uint8)
    return m[inv]

buf = {k: [] for k in ("codes", "mask", "label", "role", "greedy", "hand", "contract")}
stats = dict(hands=0, nullo=0, nullo_made=0, suit_rec=0, suit_eval=0, n_nullo_dec=0, n_suit_dec=0, thrown=0)
chunk = 0; t0 = time.time(); suit_seen = 0
def flush():
    global chunk
    if not buf["label"]: return
    np.savez(f"{out}/chunk-{chunk:03d}.npz", **{k: np.array(v) for k, v in buf.items()})
    for v in buf.values(): v.clear()
    chunk += 1
    with open(f"{out}/table.pkl", "wb") as f: pickle.dump(table, f)
    print(f"[{time.time()-t0:.0f}s] chunk {chunk} {stats}", flush=True)

done = False
for seed in range(lo, hi):
    for k in range(K):
        if time.time() - t0 > limit: done = True; break
        hid = seed * 100 + k
        rngs = [random.Random(f"nullo/{seed}/{k}/{s}") for s in range(N)]
        dealer = random.Random(f"{seed}/{k}/dealer").randrange(N)
        st = State(RULES, seed=seed, dealer=dealer, deal=deal_cards(RULES, seed, k))
        stats["hands"] += 1
        while not st.is_terminal and st.phase != Phase.PLAY:
            s = st.turn; st.apply(mc20.act(seat_view(st, s), rngs[s]))
        if st.is_terminal: stats["thrown"] += 1; continue
        rec = []
        if st.contract in NULLOS:
            play_out(st, [mc50] * N, rngs, rec, net)
            stats["nullo"] += 1; stats["nullo_made"] += int(st.result.made)
            stats["n_nullo_dec"] += len(rec)
        else:
            suit_seen += 1
            if suit_seen % 8 == 0:   # evaluation-only suit hands: mcfast's cards, role 4
                play_out(st, [mc50] * N, rngs, rec, net)
                rec = [(o, m, a, 4, g) for o, m, a, r, g in rec]; stats["suit_eval"] += 1
            elif stats["n_suit_dec"] < stats["n_nullo_dec"]:
                play_out(st, [net] * N, rngs, rec, net)
                rec = [(o, m, a, 3, g) for o, m, a, r, g in rec]; stats["suit_rec"] += 1
                stats["n_suit_dec"] += len(rec)
        for o, m, a, r, g in rec:
            buf["codes"].append(codes(o)); buf["mask"].append(m); buf["label"].append(a)
            buf["role"].append(r); buf["greedy"].append(g); buf["hand"].append(hid)
            buf["contract"].append(st.contract)
        if len(buf["label"]) >= 20000: flush()
    if done: break
flush()
print("done", seed, k, time.time() - t0, stats, "table size", len(table), flush=True)
