#!/usr/bin/env bash
# The recipe of agents/checkpoints/distill-search-1.pt (neural:best): two anchored steps of search
# distillation from ppo-selfplay (train/distill.py, docs/training.md "Search distillation").
# About 75 minutes on 2 CPU cores (each collection runs as two processes, one per core).
#   bash scripts/distill_search.sh [OUT_DIR]
set -euo pipefail
OUT=${1:-runs/distill-search}
PY=${PY:-.venv/bin/python}
export OMP_NUM_THREADS=1
mkdir -p "$OUT"

# Step 1: nmc:ppo-selfplay plays every seat (the network's calls, mcfast's cards, 100 worlds);
# 40,000 hands, each card decision with the search's score of every legal card.
"$PY" -m train.distill collect --teacher nmc:ppo-selfplay --hands 20000 --seed 401 --out "$OUT/r1-401.npz" &
"$PY" -m train.distill collect --teacher nmc:ppo-selfplay --hands 20000 --seed 402 --out "$OUT/r1-402.npz" &
wait
"$PY" -m train.distill fit --init ppo-selfplay --data "$OUT"/r1-40[12].npz --epochs 1 \
    --temperature 3 --anchor --out "$OUT/step1.pt"

# Step 2: the step-1 network plays (its own states), nmc with its calls scores the cards.
for seed in 405 406; do
  "$PY" -m train.distill collect --teacher "nmc:$OUT/step1.pt" --player "$OUT/step1.pt" \
      --hands 20000 --seed $seed --out "$OUT/r3-$seed.npz" &
done
wait
OMP_NUM_THREADS=2 "$PY" -m train.distill fit --init "$OUT/step1.pt" --data "$OUT"/r3-40[56].npz \
    --epochs 1 --temperature 3 --anchor --out "$OUT/step2.pt"
echo "agent: $OUT/step2.pt   (fh-eval neural:$OUT/step2.pt rule --deals 2000 --seed 2042)"
