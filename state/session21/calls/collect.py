"""DAgger collection of three-handed call decisions.
The network (distill-three-handed-nullo, greedy) makes every call, exchange and card at every seat;
at each of its call decisions with >1 legal action FastMCBot(SAMPLES) is asked too (hard label, role 5).
With probability MIX the call actually played is mcfast's (so that states after nullo calls are seen).
Exchange decisions of suit/notrump contracts, sampled with prob EXCH_P: role 6 (label = net greedy, anchor);
of nullo contracts: role 7, label = mcfast's discard (hard; played w.p. MIX); card decisions of suit/no-contract play,
sampled with prob CARD_P: role 3 (anchor).  Chunks of 20000 decisions go to OUT/chunk-NNN.npz.
usage: collect.py SEED_LO SEED_HI LIMIT_S OUT   env: SAMPLES=30 MIX=0.5 CARD_P=0.15 EXCH_P=0.5"""
import os, sys, json
os.environ.setdefault("NULLO_RULES", "three-handed"); os.environ.setdefault("NULLO_BASE", "distill-three-handed-nullo")
sys.path.insert(0, "/work/main/state/session17/nullo")
from common import *
lo, hi, limit, out = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
SAMPLES = int(os.environ.get("SAMPLES", "30")); MIX = float(os.environ.get("MIX", "0.5"))
CARD_P = float(os.environ.get("CARD_P", "0.15")); EXCH_P = float(os.environ.get("EXCH_P", "0.5"))
os.makedirs(out, exist_ok=True)
net = NeuralBot.load(os.environ.get("NET", BASE)); mc = FastMCBot(SAMPLES)
table = {}
def codes(o):
    u, inv = np.unique(o, return_inverse=True)
    m = np.array([table.setdefault(float(x), len(table)) for x in u], dtype=np.uint8)
    return m[inv]
K = ("codes", "mask", "label", "role", "greedy", "hand", "contract")
buf = {k: [] for k in K}
st_ = dict(hands=0, calls=0, differ=0, mc_nullo=0, net_nullo=0, mc_pass=0, net_pass=0, played_mc=0,
           exch=0, nullo_exch=0, nullo_exch_differ=0, cards=0, thrown=0, nullo_contracts=0, nullo_made=0)
chunk = 0; t0 = time.time()
def flush():
    global chunk
    if not buf["label"]: return
    np.savez(f"{out}/chunk-{chunk:03d}.npz", **{k: np.array(v) for k, v in buf.items()})
    for v in buf.values(): v.clear()
    chunk += 1
    with open(f"{out}/table.pkl", "wb") as f: pickle.dump(table, f)
    print(f"[{time.time()-t0:.0f}s] chunk {chunk} {st_}", flush=True)
def rec(o, m, lab, role, g, seed, contract):
    for k, v in zip(K, (codes(o), m, lab, role, g, seed, contract)): buf[k].append(v)

for seed in range(lo, hi):
    if time.time() - t0 > limit: break
    st = State(RULES, seed=seed); rng = random.Random(f"calls/{seed}"); mix = random.Random(f"mix/{seed}")
    st_["hands"] += 1; calls = []
    while not st.is_terminal and st.phase != Phase.PLAY:
        v = seat_view(st, st.turn); o, m, g = encode(net, v); a = g
        if st.phase == Phase.AUCTION and m.sum() > 1:
            c = mc.act(v, rng)
            st_["calls"] += 1; st_["differ"] += c != g; st_["mc_nullo"] += c in NULLOS; st_["net_nullo"] += g in NULLOS
            st_["mc_pass"] += c == A.PASS; st_["net_pass"] += g == A.PASS
            calls.append((o, m, c, 5, g))
            if mix.random() < MIX: a = c; st_["played_mc"] += 1
        elif st.phase == Phase.EXCHANGE and m.sum() > 1 and st.contract in NULLOS:
            c = mc.act(v, rng)  # the network's nullo discards are poor: mcfast's are the labels
            calls.append((o, m, c, 7, g)); st_["nullo_exch"] += 1; st_["nullo_exch_differ"] += c != g
            if mix.random() < MIX: a = c
        elif st.phase == Phase.EXCHANGE and m.sum() > 1:
            if rng.random() < EXCH_P: calls.append((o, m, g, 6, g)); st_["exch"] += 1
        st.apply(a)
    for r in calls: rec(*r, seed, -2)
    if st.is_terminal: st_["thrown"] += 1; continue
    nullo = st.contract in NULLOS
    while not st.is_terminal:
        v = seat_view(st, st.turn); o, m, g = encode(net, v)
        if not nullo and m.sum() > 1 and rng.random() < CARD_P:
            rec(o, m, g, 3, g, seed, st.contract); st_["cards"] += 1
        st.apply(g)
    if nullo: st_["nullo_contracts"] += 1; st_["nullo_made"] += int(st.result.made)
    if len(buf["label"]) >= 20000: flush()
flush()
print("done", seed, time.time() - t0, json.dumps(st_), "table", len(table), flush=True)
