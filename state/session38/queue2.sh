# Session 38, queue 2: strong.toml's card steps with three-handed's fit (strong-cards, seed 142,
# from ppo-selfplay), each stage head to head with distill-search-2 (seed 2507), the last with
# neural:best (2508) and rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session38 && . state/session34/lib.sh
train strong-cards
for s in 1 2; do
  ev runs/strong-cards-s$s-h2h.txt neural:runs/strong-cards/stage-$s-distill/agent.pt neural:distill-search-2 --deals 2000 --seed 2507
done
ev runs/strong-cards-best.txt neural:runs/strong-cards/best.pt neural:best --deals 2000 --seed 2508
ev runs/strong-cards-rule.txt neural:runs/strong-cards/best.pt rule --deals 2000 --seed 2027
