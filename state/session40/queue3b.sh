#!/bin/bash
# Session 40, queue 3 cut to 2,000 hands for time: once pieces 1-4 of best-leads are written
# (each 500 hands, the same seeds as in the 8-piece run), stop the run, set hands = 2000,
# pieces = 4 in its pipeline.json, resume (the fit), then the matches of queue 3.
cd "$(dirname "$0")/../.."
d=runs/best-leads/stage-1-distill
until [ -f $d/piece-3.npz ] && [ -f $d/piece-4.npz ]; do sleep 5; done
pkill -f "fh-train --resume runs/best-leads"; sleep 5
.venv/bin/python - <<'PY'
import json, pathlib
p = pathlib.Path("runs/best-leads/pipeline.json")
cfg = json.loads(p.read_text())
cfg["stages"][0].update(hands=2000, pieces=4)
p.write_text(json.dumps(cfg, indent=2) + "\n")
PY
rm -f $d/piece-5.npz $d/piece-6.npz
STATE=state/session40 && . state/session34/lib.sh
train best-leads
ev state/session40/results/best-leads-h2h-2523.txt neural:runs/best-leads/best.pt neural:best --deals 2000 --seed 2523
ev state/session40/results/best-leads-rule-2027.txt neural:runs/best-leads/best.pt rule --deals 2000 --seed 2027
