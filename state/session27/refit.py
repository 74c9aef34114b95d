"""Session 27 experiment: refit a calls round on its own collected pieces with the network's
own nullo-type calls corrected too (hard rows: the teacher's nullo-type calls, as the stage
does, and the calls where the starting network's greedy call is a nullo type, labelled with the
teacher's call), instead of anchored to the starting network.

    python state/session27/refit.py INIT RUN_DIR OUT SEED

INIT is the stage's start, RUN_DIR a finished calls round (its pieces), SEED the stage's fit
seed (the pipeline's seed + 0)."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from fh_env import actions as A  # noqa: E402
from train import imitate  # noqa: E402

init, run, out, seed = sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])


def hard_rows(data, labels):
    call = data["role"] == imitate.CALL
    teacher = call & np.isin(data["label"], A.NULLO_TYPES)
    own = call & np.isin(data["greedy"], A.NULLO_TYPES)
    return teacher | own | (data["role"] == imitate.NULLO_DISCARD)


imitate.hard_rows = hard_rows
pieces = sorted((run / "stage-1-imitate").glob("piece-*.npz"), key=lambda p: int(p.stem.split("-")[1]))
history = imitate.fit_agent(init, pieces, out, seed=seed, progress=True)
print(history[-1])
