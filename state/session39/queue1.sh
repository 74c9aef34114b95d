# Session 39, queue 1: a third longer-fit card step for the 2-hour recipe (strong-cards3, seed
# 145, from runs/strong-cards/best.pt), head to head with its start (2511) and neural:best (2512),
# and rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session39 && . state/session34/lib.sh
train strong-cards3
ev runs/strong-cards3-h2h.txt neural:runs/strong-cards3/best.pt neural:runs/strong-cards/best.pt --deals 2000 --seed 2511
ev runs/strong-cards3-best.txt neural:runs/strong-cards3/best.pt neural:best --deals 2000 --seed 2512
ev runs/strong-cards3-rule.txt neural:runs/strong-cards3/best.pt rule --deals 2000 --seed 2027
