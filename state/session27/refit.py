"""Session 27 experiments: refit a calls round on its own collected pieces, the rows fitted
to the teacher chosen otherwise than the stage does (train.imitate.hard_rows: the teacher's
nullo-type calls and nullo discards; every other row anchored to the starting network).

    python state/session27/refit.py INIT RUN_DIR OUT SEED own|no-double

INIT is the stage's start, RUN_DIR a finished calls round (its pieces), SEED the stage's fit
seed (the pipeline's seed; the stage index is 0).
  own: the calls where the starting network's greedy call is a nullo type are fitted to the
       teacher's call too.
  no-double: no double nullo is taught: the teacher's double-nullo calls are labelled pass
       (leaving the partner's nullo to the partner), and the calls where the starting
       network's greedy call is a double nullo are fitted to the teacher's call (pass where
       that is a double nullo too)."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from fh_env import actions as A  # noqa: E402
from train import imitate  # noqa: E402

init, run, out, seed, variant = (sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]),
                                 sys.argv[5])


def hard_rows(data, labels):
    call = data["role"] == imitate.CALL
    teacher = call & np.isin(data["label"], A.NULLO_TYPES)
    if variant == "own":
        own = call & np.isin(data["greedy"], A.NULLO_TYPES)
    else:
        own = call & (data["greedy"] == A.DOUBLE_NULLO)
        double = call & (data["label"] == A.DOUBLE_NULLO)
        assert data["mask"][double, A.PASS].all()
        data["label"][double] = A.PASS
    return teacher | own | (data["role"] == imitate.NULLO_DISCARD)


imitate.hard_rows = hard_rows
pieces = sorted((run / "stage-1-imitate").glob("piece-*.npz"), key=lambda p: int(p.stem.split("-")[1]))
history = imitate.fit_agent(init, pieces, out, seed=seed, progress=True)
print(history[-1])
