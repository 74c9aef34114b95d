"""Made rate of open nullos as declarer, on the same hands for every declarer.
Hands: FastMCBot(30)'s auction at every seat and its exchange (as calls/nullo_diag.py); the declarer's cards by
mcfast:30 or by each NET (its nullo branch); defenders always FastMCBot(20).  Every declarer starts the card
play from the same state with the same fresh rng, so the rates are paired.
usage: made_rate.py SEED_LO SEED_HI NET [NET ...]"""
import os, sys, copy, math
os.environ.setdefault("NULLO_RULES", "three-handed")
sys.path.insert(0, "/work/main/state/session17/nullo")
from common import *
lo, hi, paths = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
mc = FastMCBot(30); mcd = FastMCBot(20)
decls = {"mcfast:30": mc, **{p: NeuralBot.load(p) for p in paths}}
res = {k: [] for k in decls}; t0 = time.time()
for seed in range(lo, hi):
    st = State(RULES, seed=seed); rng = random.Random(seed)
    while not st.is_terminal and st.phase != Phase.PLAY:
        st.apply(mc.act(seat_view(st, st.turn), rng))
    if st.is_terminal or st.contract != A.OPEN_NULLO: continue
    d = st.declarer
    for name, bot in decls.items():
        s3 = copy.deepcopy(st); r = random.Random(f"play/{seed}")
        while not s3.is_terminal:
            s = s3.turn; s3.apply((bot if s == d else mcd).act(seat_view(s3, s), r))
        res[name].append(int(s3.result.made))
n = len(res["mcfast:30"])
for k, v in res.items():
    p = sum(v) / n; h = 1.96 * math.sqrt(p * (1 - p) / n)
    print(f"{k}: made {sum(v)}/{n} = {p:.3f} [{p - h:.3f}, {p + h:.3f}]")
ks = list(res)
for i in range(1, len(ks)):
    for j in range(i + 1, len(ks)):
        dlt = [a - b for a, b in zip(res[ks[j]], res[ks[i]])]; m = sum(dlt) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in dlt) / (n - 1)); h = 1.96 * sd / math.sqrt(n)
        print(f"paired {ks[j]} - {ks[i]}: {m:+.3f} [{m - h:+.3f}, {m + h:+.3f}]")
print(f"{time.time() - t0:.0f}s")
