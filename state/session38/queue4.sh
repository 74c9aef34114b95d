# Session 38, queue 4 (in place of queue 3, stopped: too long for the session): one deal-branch
# step from strong-cards (strong-deal1, seed 144), then against neural:best (2,000 deals, seed
# 2510) and rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session38 && . state/session34/lib.sh
train strong-deal1
ev runs/strong-deal1-best.txt neural:runs/strong-deal1/best.pt neural:best --deals 2000 --seed 2510
ev runs/strong-deal1-rule.txt neural:runs/strong-deal1/best.pt rule --deals 2000 --seed 2027
