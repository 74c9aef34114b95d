#!/bin/bash
# Session 34: what runs after session 33's nd-queue.sh (american-double-nullo and american
# nullo-declarer steps, started first): their rule checks, a second nullo-declarer step under
# avondale-classic and the three-handed one, with their checks.  Each step
# is skipped when its output exists, so a rerun goes on where it stopped (a cut-off fh-train
# resumes from its pieces on the same machine).
set -u
cd "$(dirname "$0")/../.."
source state/session34/lib.sh
while pgrep -f nd-queue.sh > /dev/null; do sleep 30; done
ev runs/american-double-nullo-nd-rule.txt neural:runs/american-double-nullo-nd/best.pt rule --rules american-double-nullo --deals 2000 --seed 2027
ev runs/american-nd-rule.txt neural:runs/american-nd/best.pt rule --rules american --deals 2000 --seed 2027
train avondale-classic-nd2
ev runs/avondale-classic-nd2-h2h.txt neural:runs/avondale-classic-nd2/best.pt neural:distill-avondale-classic-nullo-declarer --rules avondale-classic --deals 2000 --seed 2463
train three-handed-nd
ev runs/three-handed-nd-h2h.txt neural:runs/three-handed-nd/best.pt neural:distill-three-handed-rule-steps --rules three-handed --deals 2000 --seed 2460
ev runs/three-handed-nd-mcfast.txt neural:runs/three-handed-nd/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2461
ev runs/three-handed-nd-start-mcfast.txt neural:distill-three-handed-rule-steps mcfast:samples=20 --rules three-handed --deals 1000 --seed 2461
# (the avondale-classic agent against mc6: moved to queue2.sh, after this session's second step shipped)
