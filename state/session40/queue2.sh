#!/bin/bash
# Session 40, queue 2 (niced beside queues 1 and 3): the leaderboard of docs/bots.md again, on the
# same 300 deals of seed 2025, with `search`; the distilled agents of old ranks 3, 6 and 7 are left
# out for time (their pairs are in the research log's table before this one).
cd "$(dirname "$0")/../.."
out=state/session40/results/tournament-2025.txt
[ -s $out ] && grep -q "rating" $out && exit 0
OMP_NUM_THREADS=1 nice -n 10 .venv/bin/fh-eval --tournament random rule mcfast neural:ppo-selfplay neural:distill-vs-rule-6 neural:best nmc:best search --deals 300 --seed 2025 --workers 2 --no-progress > $out 2>&1
