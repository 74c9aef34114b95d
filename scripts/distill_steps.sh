#!/usr/bin/env bash
# Further anchored steps of search distillation (docs/training.md "Policy iteration"): from
# START, each step lets the current network play 40,000 hands (its own states), scores every
# card decision by nmc of that network with 300 worlds, and fits the next network anchored on
# the current one (T = 3, one epoch).  About 25 minutes a step on 2 CPU cores.
#   bash scripts/distill_steps.sh [START] [OUT_DIR] [FIRST_SEED] [STEPS]
# The defaults give the steps measured in docs/training.md (seeds 412-417 from distill-search-1).
# FEATURES=1 lets the fitted networks read agents.features's derived card-play inputs (the
# first such step adds them with zero weights; docs/training.md "Derived card-play inputs").
# KEEP=1 fits each step on this run's earlier data too (newest first), as the shipped
# distill-features-3 was:  FEATURES=1 KEEP=1 bash scripts/distill_steps.sh distill-search-5 DIR 418 3
# EARLIER="a.npz b.npz ...": data of earlier steps (newest first), fitted on after each step's own.
# OPPONENT=rule: the network plays one partnership and that bot the other, swapping every hand
# (collect --opponent; only the network's decisions are stored), instead of all four seats.
# TEMPERATURE=2: the fit's temperature (default 3, the steps before distill-vs-rule-6).
set -euo pipefail
agent=${1:-distill-search-1}
OUT=${2:-runs/distill-steps}
seed=${3:-412}
STEPS=${4:-3}
HANDS=${HANDS:-20000}  # hands a collection (two a step); a few for a quick check
PY=${PY:-.venv/bin/python}
FIT=()
if [ "${FEATURES:-0}" = 1 ]; then FIT+=(--features); fi
read -r -a earlier <<< "${EARLIER:-}"  # data of the steps before, newest first
COLLECT=()
if [ -n "${OPPONENT:-}" ]; then COLLECT+=(--opponent "$OPPONENT"); fi
export OMP_NUM_THREADS=1
mkdir -p "$OUT"
for step in $(seq 1 "$STEPS"); do
  a=$seed; b=$((seed + 1)); seed=$((seed + 2))
  pids=()
  for s in $a $b; do
    "$PY" -m train.distill collect --teacher "nmc:$agent,samples=300" --player "$agent" \
        --hands "$HANDS" --seed "$s" ${COLLECT[@]+"${COLLECT[@]}"} --out "$OUT/r-$s.npz" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done  # a failed collection stops the script
  OMP_NUM_THREADS=2 "$PY" -m train.distill fit --init "$agent" --data "$OUT/r-$a.npz" \
      "$OUT/r-$b.npz" ${earlier[@]+"${earlier[@]}"} --epochs 1 \
      --temperature "${TEMPERATURE:-3}" --anchor \
      ${FIT[@]+"${FIT[@]}"} --out "$OUT/step$step.pt"
  if [ "${KEEP:-0}" = 1 ]; then
    earlier=("$OUT/r-$a.npz" "$OUT/r-$b.npz" ${earlier[@]+"${earlier[@]}"})
  fi
  agent="$OUT/step$step.pt"
done
echo "agent: $agent   (fh-eval neural:$agent neural:best --deals 2000 --seed SEED)"
