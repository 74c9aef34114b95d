"""Session 33: where a duplicate match's points come from, by contract type and declaring side.

Reads the deal records of ``fh-eval A B --save DIR`` and splits A's points a deal minus B's
(both plays of each deal) by who declared and what: the rows sum to the match's A - B figure
when that figure is the mean over deals of (A's points - B's points) over both plays / 2.
Usage: python state/session33/by_contract.py DIR
"""
import json
import sys
from collections import defaultdict
from pathlib import Path


def kind(contract: str) -> str:
    """'nullo', 'open nullo', 'double nullo' as named; '6NT' notrump; '7S' a suit."""
    if "nullo" in contract:
        return contract
    return "notrump" if contract.endswith("NT") else "suit"


def main(folder: str) -> None:
    files = sorted(Path(folder).glob("deal-*.json"))
    total = defaultdict(float)
    count = defaultdict(int)
    made = defaultdict(int)
    a_name = None
    for f in files:
        rec = json.loads(f.read_text())
        for hand in rec["hands"]:
            a_name = a_name or hand["players"][0]
            res = hand["result"]
            if res.get("thrown_in") is not None or res.get("contract") is None:
                continue
            seats = hand["players"]
            a_team = 0 if seats[0] == a_name else 1
            pts = res["hand_points"]
            diff = (pts[a_team] - pts[1 - a_team]) / 2
            side = "A" if res["declarer"] % 2 == a_team else "B"
            key = (side, kind(res["contract"]))
            total[key] += diff
            count[key] += 1
            made[key] += bool(res["made"])
    n = len(files)
    print(f"{n} deals; A = {a_name}")
    print(f"{'declarer':8} {'contract':13} {'bid':>5} {'made':>5} {'A-B a deal':>10}")
    for key in sorted(total, key=lambda k: -abs(total[k])):
        print(f"{key[0]:8} {key[1]:13} {count[key]:5d} {made[key] / count[key]:5.0%} "
              f"{total[key] / n:+10.1f}")
    print(f"{'all':22} {sum(count.values()):5d} {'':5} {sum(total.values()) / n:+10.1f}")


if __name__ == "__main__":
    main(sys.argv[1])
