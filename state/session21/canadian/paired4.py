"""Paired difference of two fh-eval --save runs on the same seed, for four players (partnerships):
per deal, A-B of run 1 minus A-B of run 2.  A-B per deal = mean over the deal's two plays of
(A's side points - B's side points); in play i A holds the seats of side i (arena.seating).
(state/session21/calls/paired.py assumes three players.)  usage: paired4.py DIR1 DIR2"""
import json, sys, glob, math
def per_deal(d):
    out = []
    for f in sorted(glob.glob(f"{d}/deal-*.json")):
        r = json.load(open(f)); v = []
        for i, h in enumerate(r["hands"]):
            pl = h["players"]; assert pl[i] == pl[i + 2] and pl[i] != pl[1 - i], pl  # A on seats i, i+2
            pts = h["result"]["hand_points"] if h["result"] else [0, 0]
            v.append(pts[i] - pts[1 - i])
        out.append(sum(v) / len(v))
    return out
x, y = per_deal(sys.argv[1]), per_deal(sys.argv[2])
for n, z in (("run1", x), ("run2", y), ("run1-run2", [a - b for a, b in zip(x, y)])):
    m = sum(z) / len(z); sd = math.sqrt(sum((t - m) ** 2 for t in z) / (len(z) - 1))
    print(f"{n}: {m:+.1f} [{m - 1.96 * sd / math.sqrt(len(z)):+.1f}, {m + 1.96 * sd / math.sqrt(len(z)):+.1f}] (n={len(z)})")
