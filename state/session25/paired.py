"""Paired difference of two `fh-eval --save` runs on the same seed (the same deals), for tables
with two sides (4 or 6 players): per deal, A-B = mean over its hands of (A's side's hand points
- the other side's); prints each run's mean and run1 - run2, with 95% intervals.
usage: paired.py DIR1 DIR2"""
import glob, json, math, sys


def per_deal(d):
    files = sorted(glob.glob(f"{d}/deal-*.json"))
    a = json.load(open(files[0]))["hands"][0]["players"][0]  # A: the match's first bot
    out = []
    for f in files:
        r = json.load(open(f)); v = []
        for h in r["hands"]:
            side = 0 if h["players"][0] == a else 1  # A holds the even seats or the odd ones
            pts = h["result"]["hand_points"] if h["result"] else [0, 0]
            v.append(pts[side] - pts[1 - side])
        out.append(sum(v) / len(v))
    return out


def show(name, z):
    m = sum(z) / len(z); sd = math.sqrt(sum((t - m) ** 2 for t in z) / (len(z) - 1))
    h = 1.96 * sd / math.sqrt(len(z))
    print(f"{name}: {m:+.1f} [{m - h:+.1f}, {m + h:+.1f}] (n={len(z)})")


x, y = per_deal(sys.argv[1]), per_deal(sys.argv[2])
show("run1", x); show("run2", y); show("run1-run2", [a - b for a, b in zip(x, y)])
