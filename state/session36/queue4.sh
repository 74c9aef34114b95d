# Session 36, queue 4: two card search steps under three-handed (three-cards, seed 136, from
# distill-three-handed-nullo-declarer-2), each stage's agent against mcfast:samples=20 on the
# deals of seed 2490 (the start -13.5), the last's head to head (seed 2494) and rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session36 && . state/session34/lib.sh
train three-cards
ev runs/three-cards-s1-mcfast.txt neural:runs/three-cards/stage-1-distill/agent.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2490
ev runs/three-cards-mcfast.txt neural:runs/three-cards/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2490
ev runs/three-cards-h2h.txt neural:runs/three-cards/best.pt neural:distill-three-handed-nullo-declarer-2 --rules three-handed --deals 2000 --seed 2494
ev runs/three-cards-rule.txt neural:runs/three-cards/best.pt rule --rules three-handed --deals 2000 --seed 2027
