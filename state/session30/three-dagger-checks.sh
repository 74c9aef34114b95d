#!/bin/bash
# Session 30: three-dagger against mcfast on the 1,000 deals of seed 2405 (three-rule-steps:
# -15.8 there).
cd "$(dirname "$0")/../.." && export OMP_NUM_THREADS=1
.venv/bin/fh-eval neural:runs/three-dagger/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2405 --workers 2 --no-progress > runs/three-dagger-mcfast.txt 2>&1
