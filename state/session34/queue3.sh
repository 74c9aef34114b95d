#!/bin/bash
# Session 34: after queue.sh, a second nullo-declarer step under american and
# american-double-nullo (from the agents shipped this session), each with its head to head over
# its start.  Skips what exists; a cut-off fh-train resumes.
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
while pgrep -f "session34/queue.sh" > /dev/null; do sleep 30; done
ev() { out=$1; shift; [ -s $out ] && grep -q "points" $out && return
       .venv/bin/fh-eval "$@" --workers 2 --no-progress > $out 2>&1; }
train() {  # NAME: state/session34/NAME/pipeline.toml -> runs/NAME/best.pt
  run=runs/$1
  [ -f $run/best.pt ] && return
  if [ -d $run ]; then .venv/bin/fh-train --resume $run --no-progress >> $run.log 2>&1
  else .venv/bin/fh-train --config state/session34/$1/pipeline.toml --run-dir $run --no-progress > $run.log 2>&1; fi
}
train american-nd2
ev runs/american-nd2-h2h.txt neural:runs/american-nd2/best.pt neural:distill-american-nullo-declarer --rules american --deals 2000 --seed 2466
train american-double-nullo-nd2
ev runs/american-double-nullo-nd2-h2h.txt neural:runs/american-double-nullo-nd2/best.pt neural:distill-american-double-nullo-nullo-declarer --rules american-double-nullo --deals 2000 --seed 2467
