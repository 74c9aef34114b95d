#!/bin/bash
# Session 33: the nullo-declarer step (state/session33/PRESET-nd/pipeline.toml) for more presets,
# one after another, each with its checks: head to head over its start (2,000 deals), and it and
# its start against mcfast:samples=100 on the same 1,000 deals.  Resumes a cut-off run.
# Usage: bash state/session33/nd-queue.sh "PRESET START H2H_SEED MCFAST_SEED" ...
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
ev() { .venv/bin/fh-eval "$@" --workers 2 --no-progress; }
for job in "$@"; do
  set -- $job
  preset=$1 start=$2 run=runs/$1-nd
  if [ ! -f $run/best.pt ]; then
    if [ -d $run ]; then .venv/bin/fh-train --resume $run --no-progress >> $run.log 2>&1
    else .venv/bin/fh-train --config state/session33/$1-nd/pipeline.toml --run-dir $run --no-progress > $run.log 2>&1; fi
  fi
  ev neural:$run/best.pt neural:$start --rules $preset --deals 2000 --seed $3 > $run-h2h.txt 2>&1
  ev neural:$run/best.pt mcfast:samples=100 --rules $preset --deals 1000 --seed $4 > $run-mcfast.txt 2>&1
  ev neural:$start mcfast:samples=100 --rules $preset --deals 1000 --seed $4 > $run-start-mcfast.txt 2>&1
done
