# Session 39, queue 2: a longer-fit card step from neural:best itself (best-cards, seed 146),
# head to head with neural:best (2513), then rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session39 && . state/session34/lib.sh
train best-cards
ev runs/best-cards-h2h.txt neural:runs/best-cards/best.pt neural:best --deals 2000 --seed 2513
ev runs/best-cards-rule.txt neural:runs/best-cards/best.pt rule --deals 2000 --seed 2027
