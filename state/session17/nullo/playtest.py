"""mcfast:samples=20 calls at every seat on seeds LO..HI (deal 0); in nullo contracts play the cards
with several card players; count made. usage: playtest.py LO HI FIT.pt [FIT2.pt ...]"""
from common import *
lo, hi = int(sys.argv[1]), int(sys.argv[2])
mc20 = FastMCBot(20); mc50 = FastMCBot(50)
net0 = NeuralBot.load(BASE)
fits = [NeuralBot.load(p) for p in sys.argv[3:]]
players = {"mcfast50": None, "net0 all": net0, "net0 decl": net0}
for p, b in zip(sys.argv[3:], fits):
    players[f"{p.split('/')[-1]} all"] = b; players[f"{p.split('/')[-1]} decl"] = b
res = {k: [] for k in players}; agree = {k: [0, 0] for k in players}
t0 = time.time(); nn_ = 0; selfag = {}; alt = random.Random("alt")
for seed in range(lo, hi):
    rngs = [random.Random(f"pt/{seed}/{s}") for s in range(N)]
    st = auction(seed, mc20, rngs)
    if st is None or st.contract not in NULLOS: continue
    nn_ += 1
    for name, bot in players.items():
        s2 = st.clone(); r2 = [random.Random(f"pt/{seed}/{s}/cards") for s in range(N)]
        if bot is None: bots = [mc50] * N
        elif name.endswith("all"): bots = [bot] * N
        else: bots = [bot if s == st.declarer else mc50 for s in range(N)]
        while not s2.is_terminal:
            s = s2.turn; v = seat_view(s2, s); a = bots[s].act(v, r2[s])
            if bot is None and len(mc50._mc.candidates(v)) > 1:  # mcfast self-agreement (another rng)
                k = "decl" if s == s2.declarer else "def"
                selfag.setdefault(k, [0, 0]); selfag[k][0] += int(mc50.act(v, alt) == a); selfag[k][1] += 1
                for nb, tag in ((net0, "net0"), *((b, p.split('/')[-1]) for p, b in zip(sys.argv[3:], fits))):
                    key = f"{tag} {k}"; selfag.setdefault(key, [0, 0])
                    selfag[key][0] += int(nb.act(v, alt) == a); selfag[key][1] += 1
            s2.apply(a)
        res[name].append((seed, s2.contract, bool(s2.result.made)))
print(f"{nn_} nullo hands in seeds {lo}..{hi - 1} ({time.time() - t0:.0f}s); contracts",
      {c: sum(1 for x in res['mcfast50'] if x[1] == c) for c in NULLOS})
for name, r in res.items():
    m = sum(x[2] for x in r)
    print(f"{name:28s} made {m:4d} / {len(r)}  set {len(r) - m}")
print("agreement with mcfast50's card on its own line (non-forced decisions; 'decl'/'def' rows = mcfast50 re-run with another rng):")
for k, (a, n) in selfag.items(): print(f"  {k:20s} {a}/{n} = {a / max(1, n):.3f}")
base = {x[0]: x[2] for x in res["mcfast50"]}
for name, r in res.items():
    print(name, "set seeds:", [x[0] for x in r if not x[2]][:60])
