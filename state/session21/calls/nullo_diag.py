"""Open nullos that mcfast:30 bids in its own auction (all seats mcfast): made rate with the declarer's
discards by NET or by mcfast, and the declarer's cards by NET or by mcfast; defenders always mcfast:20.
usage: nullo_diag.py NET SEED_LO SEED_HI"""
import os, sys, copy
os.environ.setdefault("NULLO_RULES", "three-handed")
sys.path.insert(0, "/work/main/state/session17/nullo")
from common import *
from collections import Counter
net = NeuralBot.load(sys.argv[1]); lo, hi = int(sys.argv[2]), int(sys.argv[3])
mc = FastMCBot(30); mcd = FastMCBot(20); res = Counter(); t0 = time.time()
for seed in range(lo, hi):
    st = State(RULES, seed=seed); rng = random.Random(seed)
    while not st.is_terminal and st.phase == Phase.AUCTION:
        st.apply(mc.act(seat_view(st, st.turn), rng))
    if st.is_terminal or st.contract not in NULLOS: continue
    d = st.declarer
    for disc in ("net", "mc"):
        s2 = copy.deepcopy(st)
        while s2.phase == Phase.EXCHANGE:
            s2.apply((net if disc == "net" else mc).act(seat_view(s2, s2.turn), rng))
        for cards in ("net", "mc"):
            s3 = copy.deepcopy(s2)
            while not s3.is_terminal:
                s = s3.turn; b = mcd if s != d else (net if cards == "net" else mc)
                s3.apply(b.act(seat_view(s3, s), rng))
            res[(disc + "-discards", cards + "-declarer-cards")] += int(s3.result.made); res["n"] += 1
n = res.pop("n") // 4
for k in sorted(res): print(k, f"made {res[k]}/{n} = {res[k]/n:.2f}")
print(f"{time.time() - t0:.0f}s")
