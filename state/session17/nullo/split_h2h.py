"""Duplicate: SplitBot(calls=distill-australian-2, cards=FIT) vs distill-australian-2. usage: split_h2h.py FIT.pt DEALS SEED"""
from common import *
from arena.split import SplitBot
from arena.duplicate import duplicate
from agents.registry import make_bot
fit, deals, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
b = make_bot(f"neural:{BASE}", RULES); f = make_bot(f"neural:{fit}", RULES)
a = SplitBot(b, f, f, name=f"calls distill-australian-2, cards {fit}")
t0 = time.time()
r = duplicate(a, b, RULES, deals=deals, seed=seed)
print(f"{a.name} vs distill-australian-2, {deals} deals seed {seed}: {r.mean:+.1f} [{r.ci_low:+.1f}, {r.ci_high:+.1f}] ({time.time()-t0:.0f}s)")
print({t: {k: v for k, v in c.items() if v[0]} for t, c in r.contracts.items()})
