#!/bin/bash
# usage: ev.sh A B DEALS SEED [extra fh-eval args]   (canadian, one worker, niced)
cd /work/main
A=$1; B=$2; D=$3; S=$4; shift 4
nice -n 19 env OMP_NUM_THREADS=1 .venv/bin/fh-eval "$A" "$B" --rules canadian --deals "$D" --seed "$S" --workers 1 --no-progress "$@"
