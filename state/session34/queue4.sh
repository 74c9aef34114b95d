#!/bin/bash
# Session 34: a second nullo-declarer step under three-handed (beside queue2.sh's mc6 matches),
# its head to head over its start and its score against mcfast:samples=20 on the deals where the
# start scored -16.2.  Skips what exists; a cut-off fh-train resumes.
set -u
cd "$(dirname "$0")/../.."
source state/session34/lib.sh
run=runs/three-handed-nd2
train three-handed-nd2
ev $run-h2h.txt neural:$run/best.pt neural:distill-three-handed-nullo-declarer --rules three-handed --deals 2000 --seed 2468
ev $run-mcfast.txt neural:$run/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2461
