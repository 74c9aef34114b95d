"""Time FastMCBot call decisions along the network's auction (three-handed)."""
import os, sys, time, random
os.environ.setdefault("NULLO_RULES", "three-handed"); os.environ.setdefault("NULLO_BASE", "distill-three-handed-nullo")
sys.path.insert(0, "/work/main/state/session17/nullo")
from common import *
net = NeuralBot.load(BASE)
for S in (20, 30):
    mc = FastMCBot(S); n = 0; t = 0.0; diff = 0; t0 = time.time()
    for seed in range(900000, 900030):
        st = State(RULES, seed=seed); rng = random.Random(seed)
        while not st.is_terminal and st.phase == Phase.AUCTION:
            v = seat_view(st, st.turn); o, m, g = encode(net, v)
            if m.sum() > 1:
                a = time.time(); c = mc.act(v, rng); t += time.time() - a; n += 1; diff += c != g
            st.apply(g)
    print(S, "decisions", n, "per decision %.3fs" % (t / n), "differ", diff, "total %.1fs" % (time.time() - t0), flush=True)
