#!/bin/bash
# Session 34: what runs after session 33's nd-queue.sh (american-double-nullo and american
# nullo-declarer steps, started first): their rule checks, a second nullo-declarer step under
# avondale-classic and the three-handed one, with their checks.  Each step
# is skipped when its output exists, so a rerun goes on where it stopped (a cut-off fh-train
# resumes from its pieces on the same machine).
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
while pgrep -f nd-queue.sh > /dev/null; do sleep 30; done
ev() { out=$1; shift; [ -s $out ] && grep -q "points" $out && return
       .venv/bin/fh-eval "$@" --workers 2 --no-progress > $out 2>&1; }
train() {  # NAME: state/session34/NAME/pipeline.toml -> runs/NAME/best.pt
  run=runs/$1
  [ -f $run/best.pt ] && return
  if [ -d $run ]; then .venv/bin/fh-train --resume $run --no-progress >> $run.log 2>&1
  else .venv/bin/fh-train --config state/session34/$1/pipeline.toml --run-dir $run --no-progress > $run.log 2>&1; fi
}
ev runs/american-double-nullo-nd-rule.txt neural:runs/american-double-nullo-nd/best.pt rule --rules american-double-nullo --deals 2000 --seed 2027
ev runs/american-nd-rule.txt neural:runs/american-nd/best.pt rule --rules american --deals 2000 --seed 2027
train avondale-classic-nd2
ev runs/avondale-classic-nd2-h2h.txt neural:runs/avondale-classic-nd2/best.pt neural:distill-avondale-classic-nullo-declarer --rules avondale-classic --deals 2000 --seed 2463
train three-handed-nd
ev runs/three-handed-nd-h2h.txt neural:runs/three-handed-nd/best.pt neural:distill-three-handed-rule-steps --rules three-handed --deals 2000 --seed 2460
ev runs/three-handed-nd-mcfast.txt neural:runs/three-handed-nd/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2461
ev runs/three-handed-nd-start-mcfast.txt neural:distill-three-handed-rule-steps mcfast:samples=20 --rules three-handed --deals 1000 --seed 2461
# (the avondale-classic agent against mc6: moved to queue2.sh, after this session's second step shipped)
