# Session 39, queue 7: a second deal-branch step (strong-deal6, seed 150, from
# runs/strong-deal5/best.pt), against neural:best (2522) and rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session39 && . state/session34/lib.sh
train strong-deal6
ev runs/strong-deal6-best.txt neural:runs/strong-deal6/best.pt neural:best --deals 2000 --seed 2522
ev runs/strong-deal6-rule.txt neural:runs/strong-deal6/best.pt rule --deals 2000 --seed 2027
