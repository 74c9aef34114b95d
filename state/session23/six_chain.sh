#!/bin/bash
# Chain six-handed card-search steps (session 22's recipe), one run directory per step.
# Usage: state/session23/six_chain.sh FIRST LAST   (step numbers; step N uses seed 43+N)
# Resumable: a finished step (runs/six-stepN/best.pt) is skipped, an unfinished one resumed.
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
prev="state/session22/six-step7/agent.pt"
for n in $(seq "$1" "$2"); do
  dir="state/session23/six-step$n"; run="runs/six-step$n"
  mkdir -p "$dir"
  if [ "$n" -gt 8 ]; then prev="runs/six-step$((n-1))/best.pt"; fi
  sed -e "s|^seed = .*|seed = $((43+n))|" -e "s|^init = .*|init = \"$prev\"|" \
      state/session22/six-step7/pipeline.toml > "$dir/pipeline.toml"
  if [ -f "$run/best.pt" ]; then continue; fi
  args="--config $dir/pipeline.toml --run-dir $run"; [ -d "$run" ] && args="--resume $run"
  .venv/bin/fh-train $args --no-progress > "$run.log" 2>&1 || { echo "step $n failed"; exit 1; }
  cp "$run/stages.json" "$dir/stages.json"
done
