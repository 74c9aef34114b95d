"""Paired difference of two fh-eval --save runs on the same seed (same deals): per deal, A-B of run 1 minus A-B of run 2.
A-B per deal = mean over the deal's hands of (A's points - mean of the two B seats' points).  usage: paired.py DIR1 DIR2"""
import json, sys, glob, math
def per_deal(d):
    out = []
    for f in sorted(glob.glob(f"{d}/deal-*.json")):
        r = json.load(open(f)); v = []
        for h in r["hands"]:
            a = [i for i, p in enumerate(h["players"]) if p != h["players"][(i + 1) % 3] and p != h["players"][(i + 2) % 3]][0]
            pts = h["result"]["hand_points"] if h["result"] else [0, 0, 0]
            v.append(pts[a] - sum(p for i, p in enumerate(pts) if i != a) / 2)
        out.append(sum(v) / len(v))
    return out
x, y = per_deal(sys.argv[1]), per_deal(sys.argv[2])
for n, z in (("run1", x), ("run2", y), ("run1-run2", [a - b for a, b in zip(x, y)])):
    m = sum(z) / len(z); sd = math.sqrt(sum((t - m) ** 2 for t in z) / (len(z) - 1))
    print(f"{n}: {m:+.1f} [{m - 1.96 * sd / math.sqrt(len(z)):+.1f}, {m + 1.96 * sd / math.sqrt(len(z)):+.1f}] (n={len(z)})")
