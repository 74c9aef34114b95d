#!/bin/bash
# Chain six-handed card-search steps at tables with `rule`, from the shipped agent.
# Usage: state/session24/rule_chain.sh FIRST LAST   (step N uses pipeline seed 60+N)
# Resumable: a finished step (runs/six-ruleN/best.pt) is skipped, an unfinished one resumed.
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
for n in $(seq "$1" "$2"); do
  dir="state/session24/six-rule$n"; run="runs/six-rule$n"
  prev="agents/checkpoints/distill-six-handed.pt"
  if [ "$n" -gt 1 ]; then prev="runs/six-rule$((n-1))/best.pt"; fi
  mkdir -p "$dir"
  sed -e "s|^seed = .*|seed = $((60+n))|" -e "s|^init = .*|init = \"$prev\"|" \
      state/session24/six-rule.toml > "$dir/pipeline.toml"
  if [ -f "$run/best.pt" ]; then continue; fi
  args="--config $dir/pipeline.toml --run-dir $run"; [ -d "$run" ] && args="--resume $run"
  .venv/bin/fh-train $args --no-progress > "$run.log" 2>&1 || { echo "step $n failed"; exit 1; }
  cp "$run/stages.json" "$dir/stages.json"
done
