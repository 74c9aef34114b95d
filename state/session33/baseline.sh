#!/bin/bash
# Session 33: the shipped agents against mcfast:samples=100 on the deals of chain.sh's checks,
# so that each round's check has its start measured on the same deals.
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
for x in "australian distill-australian-calls-steps 2445" "avondale-classic distill-avondale-classic-calls-steps 2446" \
         "canadian distill-canadian-dagger 2447"; do
  set -- $x
  .venv/bin/fh-eval neural:$2 mcfast:samples=100 --rules $1 --deals 1000 --seed $3 --workers 1 --no-progress > runs/base-$1-mcfast.txt 2>&1
done
