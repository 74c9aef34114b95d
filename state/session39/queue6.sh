# Session 39, queue 6: a deal-branch step after the five card steps (strong-deal5, seed 149,
# from runs/strong-cards5/best.pt), against neural:best (2519) and rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session39 && . state/session34/lib.sh
train strong-deal5
ev runs/strong-deal5-best.txt neural:runs/strong-deal5/best.pt neural:best --deals 2000 --seed 2519
ev runs/strong-deal5-rule.txt neural:runs/strong-deal5/best.pt rule --deals 2000 --seed 2027
