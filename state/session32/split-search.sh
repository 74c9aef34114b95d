#!/bin/bash
# Session 32 (issue 30): a 100-world search's leads and follows inside the network's play,
# against the network (arena.split A=mcfast:samples=100, B=the shipped agent), under a preset
# with nullos and under the default rules.
# Usage: bash state/session32/split-search.sh
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
.venv/bin/python -m arena.split mcfast:samples=100 neural:best-australian --rules australian \
  --parts leads,follows --deals 1000 --seed 2433 > runs/split-search-australian.txt 2>&1
.venv/bin/python -m arena.split mcfast:samples=100 neural:best --parts leads,follows \
  --deals 1000 --seed 2434 > runs/split-search-default.txt 2>&1
