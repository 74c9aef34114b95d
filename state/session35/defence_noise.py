"""Session 35: are the search's nullo-defence labels noise?  For card decisions of the
defenders of nullo-type contracts in the shipped agent's self-play, the search (``nmc``'s cards,
rule-bot rollouts) is run at 100 worlds twice and at 300 once, with a 1,600-world search as the
reference: how often labels agree, and each label's regret by the reference, beside the
network's own card's.  Same for the declarer's cards, for comparison.

Usage: python state/session35/defence_noise.py --rules american --positions 200 --seed 35001
"""
import argparse
import random

import numpy as np

from agents.mc import play_groups
from agents.registry import make_bot
from fh_env.actions import NULLO_TYPES
from fh_env.engine import Phase, State
from fh_env.rules import resolve_rules
from fh_env.view import seat_view


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rules", default="american")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=35001)
    p.add_argument("--reference", type=int, default=1600)
    args = p.parse_args()
    rules = resolve_rules(args.rules)
    spec = f"best-{args.rules}"
    net = make_bot(f"neural:{spec}", rules)
    searches = {n: make_bot(f"nmc:{spec},samples={n},cards=nullo", rules)
                for n in (100, 300, args.reference)}
    rng = random.Random(args.seed)
    rows = {"defence": [], "declarer": []}
    deal = 0
    while min(len(v) for v in rows.values()) < args.positions:
        state = State(rules, seed=args.seed, dealer=deal % rules.players)
        deal += 1
        taken = 0
        while not state.is_terminal:
            view = seat_view(state, state.turn)
            if (view.phase == Phase.PLAY and view.contract in NULLO_TYPES and taken < 3
                    and rng.random() < 0.3 and len(view.legal_actions()) > 1):
                part = "declarer" if view.seat == view.declarer else "defence"
                ref_a, cands, ref = searches[args.reference].decide(view, random.Random(rng.random()))
                if len(rows[part]) < args.positions and ref is not None:
                    taken += 1
                    mine = net.act(view, rng)
                    score = dict(zip(cands, ref.tolist()))
                    value = {c: score[g[0]] for g in play_groups(view) for c in g}
                    best = max(value.values())
                    out = {"net": best - value[mine]}
                    labels = {}
                    for n, key in ((100, "100a"), (100, "100b"), (300, "300")):
                        a = searches[n].decide(view, random.Random(rng.random()))[0]
                        labels[key] = a
                        out[key] = best - value[a]
                    out["agree100"] = labels["100a"] == labels["100b"]
                    out["net=ref"] = mine == ref_a
                    out["spread"] = best - min(value.values())
                    rows[part].append(out)
            state.apply(net.act(view, rng))
    print(f"{args.rules}: {deal} hands, reference {args.reference} worlds; regret in points a card")
    for part, vals in rows.items():
        keys = ["net", "100a", "100b", "300"]
        means = {k: np.mean([v[k] for v in vals]) for k in keys}
        print(f"{part:9} n={len(vals)}  " + "  ".join(f"{k} {means[k]:6.1f}" for k in keys)
              + f"  agree(100,100) {np.mean([v['agree100'] for v in vals]):.0%}"
              + f"  net=ref {np.mean([v['net=ref'] for v in vals]):.0%}"
              + f"  spread {np.mean([v['spread'] for v in vals]):6.1f}")


if __name__ == "__main__":
    main()
