# Session 36, queue 1: adn-steps3 (session 35's queue2, shipped) against mc6 (1,000 deals, seed 2488).
cd "$(dirname "$0")/../.." && STATE=state/session36 && . state/session34/lib.sh
ev runs/adn-steps3-mc6.txt neural:runs/adn-steps3/best.pt mc6 --rules american-double-nullo --deals 1000 --seed 2488
