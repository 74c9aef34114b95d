#!/bin/bash
# Session 34: after queue.sh and queue3.sh, the mc6 bar of the agents shipped from session 33's
# nullo-declarer configs (american, american-double-nullo) and of this session's second
# avondale-classic step (neural:best-PRESET is read when each match starts).  Skips a match whose output exists.
set -u
cd "$(dirname "$0")/../.."
source state/session34/lib.sh
RECORD_SHIPPED=1
while pgrep -f "session34/queue3?.sh" > /dev/null; do sleep 30; done
# and until the second steps' ship decisions are made (touch runs/session34-shipped)
while [ ! -f runs/session34-shipped ]; do sleep 30; done
ev runs/best-american-mc6.txt neural:best-american mc6 --rules american --deals 1000 --seed 2464
# (stopped by queue6.sh to run avondale-classic's first, then run again by rerunning this script)
ev runs/best-american-double-nullo-mc6.txt neural:best-american-double-nullo mc6 --rules american-double-nullo --deals 1000 --seed 2465
ev runs/best-avondale-classic-mc6.txt neural:best-avondale-classic mc6 --rules avondale-classic --deals 1000 --seed 2462
