#!/usr/bin/env bash
# A policy-improvement step from distill-search-1 (neural:best at the time) with the network's
# own Q (train/distill.py, docs/training.md "A step with the network's own scores"): the
# network plays 11,000 hands at every seat; nmc with rollout=net (30 worlds, the network
# playing each world out) scores every legal card of each card decision; the network is
# fitted to its own policy times exp(score / 3).  It did NOT help (-0.6 [-3.7, +2.5] a deal
# against it over 2,000 deals of seed 2052); kept as the record of the experiment.
# About 60 minutes on 2 CPU cores (each collection runs as one process per core).
#   bash scripts/distill_netq.sh [OUT_DIR] [INIT]
set -euo pipefail
OUT=${1:-runs/distill-netq}
INIT=${2:-distill-search-1}
PY=${PY:-.venv/bin/python}
export OMP_NUM_THREADS=1
mkdir -p "$OUT"

"$PY" -m train.distill collect --teacher "nmc:$INIT,samples=30,rollout=net" --player "$INIT" \
    --hands 6000 --seed 410 --out "$OUT/n-410.npz" &
"$PY" -m train.distill collect --teacher "nmc:$INIT,samples=30,rollout=net" --player "$INIT" \
    --hands 5000 --seed 411 --out "$OUT/n-411.npz" &
wait
OMP_NUM_THREADS=2 "$PY" -m train.distill fit --init "$INIT" --data "$OUT"/n-41[01].npz \
    --epochs 1 --temperature 3 --anchor --out "$OUT/step.pt"
echo "agent: $OUT/step.pt   (fh-eval neural:$OUT/step.pt neural:$INIT --deals 2000 --seed 2052)"
