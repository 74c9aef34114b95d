#!/bin/bash
# Session 32: which part of each preset agent's play loses to a 100-world search (mcfast at 100
# worlds: mc6's candidates and rollouts, compiled), by arena.split on 1,000 new deals each.
# Usage: bash state/session32/split.sh
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
split() {  # AGENT PRESET SEED
  .venv/bin/python -m arena.split "$1" mcfast:samples=100 --rules "$2" --parts calls,leads,follows \
    --deals 1000 --seed "$3" > "runs/split-$2.txt" 2>&1
}
split neural:best-australian australian 2428
split neural:best-avondale-classic avondale-classic 2429
split neural:best-american-double-nullo american-double-nullo 2430
split neural:best-american-45 american-45 2431
