#!/bin/bash
# Session 34: after queue.sh, a second nullo-declarer step under american and
# american-double-nullo (from the agents shipped this session), each with its head to head over
# its start.  Skips what exists; a cut-off fh-train resumes.
set -u
cd "$(dirname "$0")/../.."
source state/session34/lib.sh
while pgrep -f "session34/queue.sh" > /dev/null; do sleep 30; done
train american-nd2
ev runs/american-nd2-h2h.txt neural:runs/american-nd2/best.pt neural:distill-american-nullo-declarer --rules american --deals 2000 --seed 2466
train american-double-nullo-nd2
ev runs/american-double-nullo-nd2-h2h.txt neural:runs/american-double-nullo-nd2/best.pt neural:distill-american-double-nullo-nullo-declarer --rules american-double-nullo --deals 2000 --seed 2467
