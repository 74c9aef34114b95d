"""Agreement of card choices at six players (a diagnostic): the network plays every seat; at
each non-forced card decision the network's, rule's and mcfast's cards are compared, split by
lead and follow.  usage: agree6.py NET SEED_LO SEED_HI"""
import random, sys, time
from agents.registry import make_bot
from fh_env import Rules
from fh_env.engine import Phase, State
from fh_env.view import seat_view

net_path, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = Rules.preset("six-handed")
net = make_bot(f"neural:{net_path}", rules)
rule, mc = make_bot("rule", rules), make_bot("mcfast:samples=50", rules)
count = {k: [0, 0, 0, 0] for k in ("lead", "follow")}  # n, net=rule, net=mc, rule=mc
t0 = time.time()
for seed in range(lo, hi):
    st, rng = State(rules, seed=seed), random.Random(seed)
    while not st.is_terminal:
        view = seat_view(st, st.turn)
        a = net.act(view, rng)
        if st.phase == Phase.PLAY and len(view.legal_actions()) > 1:
            r, m = rule.act(view, random.Random(1)), mc.act(view, random.Random(2))
            c = count["follow" if st.trick else "lead"]
            c[0] += 1; c[1] += a == r; c[2] += a == m; c[3] += r == m
        st.apply(a)
for k, (n, nr, nm, rm) in count.items():
    print(f"{k}: {n} decisions; net=rule {nr / n:.3f}, net=mcfast {nm / n:.3f}, rule=mcfast {rm / n:.3f}")
print(f"{time.time() - t0:.0f}s")
