#!/bin/bash
# Session 31: three-mcfast and its first stage's agent against mcfast, on the 1,000 deals of
# seed 2405 where the shipped distill-three-handed-rule-steps made -15.8 and the 500 of seed
# 2392 where it made -8.3; the first stage's agent against rule and head to head too.
cd "$(dirname "$0")/../.." && export OMP_NUM_THREADS=1
e=".venv/bin/fh-eval --rules three-handed --workers 2 --no-progress"
s1=runs/three-mcfast/stage-1-distill/agent.pt
$e neural:runs/three-mcfast/best.pt mcfast:samples=20 --deals 1000 --seed 2405 > runs/three-mcfast-mcfast.txt 2>&1
$e neural:$s1 mcfast:samples=20 --deals 1000 --seed 2405 > runs/three-mcfast-s1-mcfast.txt 2>&1
$e neural:runs/three-mcfast/best.pt mcfast:samples=20 --deals 500 --seed 2392 > runs/three-mcfast-mcfast2.txt 2>&1
$e neural:$s1 mcfast:samples=20 --deals 500 --seed 2392 > runs/three-mcfast-s1-mcfast2.txt 2>&1
$e neural:$s1 rule --deals 2000 --seed 2027 > runs/three-mcfast-s1-rule.txt 2>&1
$e neural:$s1 neural:distill-three-handed-rule-steps --deals 2000 --seed 2413 > runs/three-mcfast-s1-h2h.txt 2>&1
