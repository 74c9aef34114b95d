#!/bin/bash
# Session 33: the checks of a nullo step's agent: head to head over its start (2,000 deals),
# against mcfast:samples=100 (1,000 deals; the start measured on the same deals by baseline.sh
# or below), then against rule (2,000 deals, seed 2027).
# Usage: bash state/session33/nullo-check.sh AGENT START PRESET H2H_SEED MCFAST_SEED OUT
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
agent=$1 start=$2 preset=$3 h2h=$4 mcf=$5 out=$6
ev() { .venv/bin/fh-eval "$@" --workers 2 --no-progress; }
ev neural:$agent neural:$start --rules $preset --deals 2000 --seed $h2h > $out-h2h.txt 2>&1
ev neural:$agent mcfast:samples=100 --rules $preset --deals 1000 --seed $mcf > $out-mcfast.txt 2>&1
ev neural:$agent rule --rules $preset --deals 2000 --seed 2027 > $out-rule.txt 2>&1
