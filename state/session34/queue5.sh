#!/bin/bash
# Session 34: a third nullo-declarer step under three-handed, with its head to head over its
# start and its score against mcfast:samples=20 on the deals where the second scored -11.9.
set -u
cd "$(dirname "$0")/../.."
source state/session34/lib.sh
run=runs/three-handed-nd3
train three-handed-nd3
ev $run-h2h.txt neural:$run/best.pt neural:distill-three-handed-nullo-declarer-2 --rules three-handed --deals 2000 --seed 2469
ev $run-mcfast.txt neural:$run/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2461
