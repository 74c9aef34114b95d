from common import *
mc20 = FastMCBot(20); mc50 = FastMCBot(50)
net = NeuralBot.load(BASE)
t0 = time.time(); nn_ = 0; tp = 0; kinds = {}
for i in range(60):
    seed = 59000 + i
    rngs = [random.Random(f"t/{seed}/{s}") for s in range(4)]
    st = auction(seed, mc20, rngs)
    if st is None: continue
    kinds[st.contract in NULLOS and st.contract] = kinds.get(st.contract in NULLOS and st.contract, 0) + 1
    if st.contract in NULLOS:
        t1 = time.time(); rec = []
        play_out(st, [mc50]*4, rngs, rec, net); tp += time.time() - t1; nn_ += 1
        print(seed, st.contract, st.declarer, st.result.made, len(rec), round(time.time()-t1, 2), flush=True)
print("total", time.time()-t0, "nullo play", tp, nn_, kinds)
