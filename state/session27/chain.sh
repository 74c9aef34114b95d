#!/bin/bash
# Session 27: the second calls rounds one after another, each followed by its two checks
# (head to head over its start on new deals, then against rule on seed 2027).
# Usage: bash state/session27/chain.sh NAME PRESET START H2H_SEED [NAME PRESET START SEED ...]
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
while [ $# -ge 4 ]; do
  name=$1 preset=$2 start=$3 seed=$4; shift 4
  run=runs/$name-calls2
  if [ ! -f $run/best.pt ]; then
    if [ -d $run ]; then .venv/bin/fh-train --resume $run --no-progress >> runs/$name-calls2.log 2>&1
    else .venv/bin/fh-train --config state/session27/$name-calls2/pipeline.toml --run-dir $run --no-progress > runs/$name-calls2.log 2>&1; fi
  fi
  .venv/bin/fh-eval neural:$run/best.pt neural:$start --rules $preset --deals 2000 --seed $seed --workers 2 --no-progress > runs/$name-h2h.txt 2>&1
  .venv/bin/fh-eval neural:$run/best.pt rule --rules $preset --deals 2000 --seed 2027 --workers 2 --no-progress > runs/$name-rule.txt 2>&1
done
