#!/bin/bash
# Session 34: a third nullo-declarer step under three-handed, with its head to head over its
# start and its score against mcfast:samples=20 on the deals where the second scored -11.9.
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
ev() { out=$1; shift; [ -s $out ] && grep -q "points" $out && return
       .venv/bin/fh-eval "$@" --workers 2 --no-progress > $out 2>&1; }
run=runs/three-handed-nd3
if [ ! -f $run/best.pt ]; then
  if [ -d $run ]; then .venv/bin/fh-train --resume $run --no-progress >> $run.log 2>&1
  else .venv/bin/fh-train --config state/session34/three-handed-nd3/pipeline.toml --run-dir $run --no-progress > $run.log 2>&1; fi
fi
ev $run-h2h.txt neural:$run/best.pt neural:distill-three-handed-nullo-declarer-2 --rules three-handed --deals 2000 --seed 2469
ev $run-mcfast.txt neural:$run/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2461
