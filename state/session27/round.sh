#!/bin/bash
# Session 27: one calls round and its two checks (head to head over its start on new deals,
# then against rule on seed 2027).  The config is state/session27/NAME/pipeline.toml, the run
# runs/NAME (resumed if it was cut off).
# Usage: bash state/session27/round.sh NAME PRESET START H2H_SEED
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
# STATE: the folder of the configs (state/session27 unless set).
state=${STATE:-state/session27}
name=$1 preset=$2 start=$3 seed=$4 run=runs/$1
if [ ! -f $run/best.pt ]; then
  if [ -d $run ]; then .venv/bin/fh-train --resume $run --no-progress >> $run.log 2>&1
  else .venv/bin/fh-train --config $state/$name/pipeline.toml --run-dir $run --no-progress > $run.log 2>&1; fi
fi
.venv/bin/fh-eval neural:$run/best.pt neural:$start --rules $preset --deals 2000 --seed $seed --workers 2 --no-progress > runs/$name-h2h.txt 2>&1
.venv/bin/fh-eval neural:$run/best.pt rule --rules $preset --deals 2000 --seed 2027 --workers 2 --no-progress > runs/$name-rule.txt 2>&1
