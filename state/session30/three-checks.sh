#!/bin/bash
# Session 30: three-rule-steps against mcfast (the 500 deals of seed 2392, where the shipped
# agent made -9.2, then 1,000 fresh deals), and its first stage's agent against rule.
cd "$(dirname "$0")/../.." && export OMP_NUM_THREADS=1
e=".venv/bin/fh-eval --rules three-handed --workers 2 --no-progress"
$e neural:runs/three-rule-steps/best.pt mcfast:samples=20 --deals 500 --seed 2392 > runs/three-rule-steps-mcfast.txt 2>&1
$e neural:runs/three-rule-steps/stage-1-distill/agent.pt rule --deals 2000 --seed 2027 > runs/three-rule-steps-s1-rule.txt 2>&1
$e neural:runs/three-rule-steps/best.pt mcfast:samples=20 --deals 1000 --seed 2405 > runs/three-rule-steps-mcfast2.txt 2>&1
