"""Session 27 experiments: refit a calls round on its own collected pieces, the rows fitted
to the teacher chosen otherwise than the stage does (train.imitate.hard_rows: the teacher's
nullo-type calls and nullo discards; every other row anchored to the starting network).

    python state/session27/refit.py INIT RUN_DIR OUT SEED own|no-double

INIT is the stage's start, RUN_DIR a finished calls round (its pieces), SEED the stage's fit
seed (the pipeline's seed; the stage index is 0).
  own: the calls where the starting network's greedy call is a nullo type are fitted to the
       teacher's call too.
  no-double: no double nullo is taught; this variant became the imitate stage's
       double_nullo_calls = "pass", which this runs (train.imitate.pass_double_nullos)."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from fh_env import actions as A  # noqa: E402
from train import imitate  # noqa: E402

init, run, out, seed, variant = (sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]),
                                 sys.argv[5])


teacher_rows = imitate.hard_rows  # the stage's own rows, kept: the "own" variant replaces it below


def own_nullo_calls_too(data, labels, double_nullo_calls="copy"):
    own = (data["role"] == imitate.CALL) & np.isin(data["greedy"], A.NULLO_TYPES)
    return teacher_rows(data, labels, double_nullo_calls) | own


pieces = sorted((run / "stage-1-imitate").glob("piece-*.npz"), key=lambda p: int(p.stem.split("-")[1]))
if variant == "own":
    imitate.hard_rows = own_nullo_calls_too
history = imitate.fit_agent(init, pieces, out, seed=seed, progress=True,
                            double_nullo_calls="pass" if variant == "no-double" else "copy")
print(history[-1])
