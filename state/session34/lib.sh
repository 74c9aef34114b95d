# Session 34's queue helpers, sourced by the queue scripts (from the repository root).
# ev OUT ARGS...: fh-eval ARGS into OUT, unless OUT already holds a result; with
#   RECORD_SHIPPED=1 OUT starts with agents.shipped.BEST_AGENTS (what neural:best-PRESET was).
# interval_above_zero OUT: whether OUT's 95% interval lies above zero (the ship rule).
# train NAME: $STATE/NAME/pipeline.toml (STATE: state/session34 unless set) into runs/NAME
#   (resumed when cut off).
export OMP_NUM_THREADS=1
ev() {
  local out=$1; shift
  [ -s "$out" ] && grep -q "points" "$out" && return
  : > "$out"
  if [ "${RECORD_SHIPPED:-0}" = 1 ]; then
    .venv/bin/python -c "from agents.shipped import BEST_AGENTS as B; print('shipped:', B)" > "$out"
  fi
  .venv/bin/fh-eval "$@" --workers 2 --no-progress >> "$out" 2>&1
}
train() {
  local run=runs/$1
  [ -f $run/best.pt ] && return
  if [ -d $run ]; then .venv/bin/fh-train --resume $run --no-progress >> $run.log 2>&1
  else .venv/bin/fh-train --config ${STATE:-state/session34}/$1/pipeline.toml --run-dir $run --no-progress > $run.log 2>&1; fi
}
interval_above_zero() {
  local low
  low=$(grep -o "95% CI \[[^,]*" "$1" | sed 's/95% CI \[//; s/−/-/')
  .venv/bin/python -c "import sys; sys.exit(0 if float('$low') > 0 else 1)"
}
