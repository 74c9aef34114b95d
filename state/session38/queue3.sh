# Session 38, queue 3: after queue 2, strong.toml's two deal-branch stages from strong-cards
# (strong-deals, seed 143), head to head with neural:best (2510) and against rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session38 && . state/session34/lib.sh
while pgrep -f "state/session38/queue[2].sh" > /dev/null; do sleep 30; done
train strong-deals
ev runs/strong-deals-best.txt neural:runs/strong-deals/best.pt neural:best --deals 2000 --seed 2510
ev runs/strong-deals-rule.txt neural:runs/strong-deals/best.pt rule --deals 2000 --seed 2027
