#!/usr/bin/env bash
# Steps of policy iteration on deal branches (docs/training.md "Deal branches"): from START, each
# step lets the current network play at tables with the compiled rule bot (the sides swapping
# every hand), plays each of its four favourite actions at every decision out on the dealt
# cards (train/branches.py), and fits the next network anchored on the current one (cards at
# T = 20 points, calls and discards at 150, two epochs) on this step's data and the earlier
# ones'.  The shipped distill-branches-2 is, from distill-vs-rule-6:
#   bash scripts/distill_deal.sh distill-vs-rule-6 runs/deal 432
# which runs one collection of the calls and discards only (30,000 hands a process), then
# step 1 (24,000 hands a process) and step 2 (16,000).  About 90 minutes on 2 CPU cores.
#   bash scripts/distill_deal.sh [START] [OUT_DIR] [FIRST_SEED]
# HANDS=8 shrinks every collection to that many hands, for a quick check.
set -euo pipefail
agent=${1:-distill-vs-rule-6}
OUT=${2:-runs/deal}
seed=${3:-432}
PY=${PY:-.venv/bin/python}
export OMP_NUM_THREADS=1
mkdir -p "$OUT"

collect() {  # collect SEARCH HANDS: two processes side by side, seeds $seed and $seed + 1
  local pids=() s
  for s in "$seed" $((seed + 1)); do
    "$PY" -m train.distill collect --teacher "nmc:$agent" --player "$agent" --opponent rule \
        --search "$1" --hands "${HANDS:-$2}" --seed "$s" --out "$OUT/d-$s.npz" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done  # a failed collection stops the script
  data=("$OUT/d-$seed.npz" "$OUT/d-$((seed + 1)).npz" ${data[@]+"${data[@]}"})
  seed=$((seed + 2))
}

data=()
collect deal-calls 30000
for step in 1 2; do
  collect deal $((step == 1 ? 24000 : 16000))
  "$PY" -m train.distill fit --init "$agent" --data "${data[@]}" --epochs 2 --temperature 20 \
      --call-temperature 150 --anchor --out "$OUT/step$step.pt"
  agent="$OUT/step$step.pt"
done
echo "agent: $agent   (fh-eval neural:$agent neural:best --deals 4000 --seed SEED)"
