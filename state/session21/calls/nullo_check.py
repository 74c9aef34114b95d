"""Nullo contracts that mcfast calls (mcfast makes every call): made rate with the network's cards,
discards by the network vs by mcfast.  usage: nullo_check.py SEED_LO SEED_HI"""
import os, sys
os.environ.setdefault("NULLO_RULES", "three-handed"); os.environ.setdefault("NULLO_BASE", "distill-three-handed-nullo")
sys.path.insert(0, "/work/main/state/session17/nullo")
from common import *
from collections import Counter
lo, hi = int(sys.argv[1]), int(sys.argv[2])
net = NeuralBot.load(os.environ.get("NET", BASE)); mc = FastMCBot(30); res = Counter(); t0 = time.time()
for seed in range(lo, hi):
    st = State(RULES, seed=seed); rng = random.Random(seed)
    while not st.is_terminal and st.phase == Phase.AUCTION:
        st.apply(mc.act(seat_view(st, st.turn), rng))
    if st.is_terminal or st.contract not in NULLOS: continue
    for who in ("net", "mc"):
        s2 = st.clone() if hasattr(st, "clone") else __import__("copy").deepcopy(st)
        while s2.phase == Phase.EXCHANGE:
            v = seat_view(s2, s2.turn); s2.apply((net if who == "net" else mc).act(v, rng))
        for cards in ("net", "mc"):
            s3 = __import__("copy").deepcopy(s2)
            while not s3.is_terminal:
                v = seat_view(s3, s3.turn); s3.apply((net if cards == "net" else mc).act(v, rng))
            res[(A.ACTION_NAMES[st.contract], who + "-discards", cards + "-cards", "made" if s3.result.made else "set")] += 1
for k in sorted(res): print(k, res[k])
print(time.time() - t0)
