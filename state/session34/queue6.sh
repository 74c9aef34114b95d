#!/bin/bash
# Session 34: time ran short for three mc6 matches in a row (about 30 minutes each beside
# training), so when queue2.sh's american match ends, stop it (the american-double-nullo match,
# the least likely to meet the bar: -14.6 against mcfast:samples=100) and run avondale-classic's.
set -u
cd "$(dirname "$0")/../.."
source state/session34/lib.sh
RECORD_SHIPPED=1
until grep -q "points per" runs/best-american-mc6.txt 2>/dev/null; do sleep 20; done
pkill -f "session34/queue2.sh"; sleep 2; pkill -f "best-american-double-nullo mc6"
# a stopped match leaves no result; a finished one (a rerun of this script) is kept
grep -q "points per" runs/best-american-double-nullo-mc6.txt 2>/dev/null || rm -f runs/best-american-double-nullo-mc6.txt
ev runs/best-avondale-classic-mc6.txt neural:best-avondale-classic mc6 --rules avondale-classic --deals 1000 --seed 2462
