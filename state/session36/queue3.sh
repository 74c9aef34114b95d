# Session 36, queue 3: the rule bot's nullo defence copied under three-handed (three-defence,
# seed 135, from distill-three-handed-nullo-declarer-2), its head to head (seed 2493), rule
# (2027) and mcfast:samples=20 on the deals of seed 2490 (where the start scored -13.5).
cd "$(dirname "$0")/../.." && STATE=state/session36 && . state/session34/lib.sh
train three-defence
ev runs/three-defence-h2h.txt neural:runs/three-defence/best.pt neural:distill-three-handed-nullo-declarer-2 --rules three-handed --deals 2000 --seed 2493
ev runs/three-defence-rule.txt neural:runs/three-defence/best.pt rule --rules three-handed --deals 2000 --seed 2027
ev runs/three-defence-mcfast.txt neural:runs/three-defence/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2490
