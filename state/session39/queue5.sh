# Session 39, queue 5: a fifth longer-fit card step (strong-cards5, seed 148, from
# runs/strong-cards4/best.pt), against neural:best (2518) and rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session39 && . state/session34/lib.sh
train strong-cards5
ev runs/strong-cards5-best.txt neural:runs/strong-cards5/best.pt neural:best --deals 2000 --seed 2518
ev runs/strong-cards5-rule.txt neural:runs/strong-cards5/best.pt rule --deals 2000 --seed 2027
