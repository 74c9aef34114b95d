"""Session 33: keep only the nullo declarer's card decisions of collected distillation pieces
(the hard fit of the nullo-only step improved the declarer's play and worsened the
defenders'; research log, "The nullo cards").

Usage: python state/session33/declarer_rows.py IN.npz OUT.npz
"""
import sys

import numpy as np


def main(src: str, dst: str) -> None:
    with np.load(src, allow_pickle=False) as f:
        data = {k: f[k] for k in f.files}
    rec = data["records"]
    players = rec["hands"].shape[1]
    sides = 2 if players in (4, 6) else 3
    keep = (rec["turn"] % sides) == (rec["declarer"] % sides)
    for key in ("records", "labels", "scores"):
        data[key] = data[key][keep]
    np.savez_compressed(dst, **data)
    print(f"{int(keep.sum())} of {len(keep)} decisions -> {dst}")


if __name__ == "__main__":
    main(*sys.argv[1:])
