# Session 36, queue 2: the steps round under three-handed (three-steps, seed 134), its head to
# head (seed 2489), rule (2027) and mcfast:samples=20 (1,000 deals, seed 2490); then session 35's
# canadian-steps2 (seed 131), its head to head (seed 2491) and rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session36 && . state/session34/lib.sh
train three-steps
ev runs/three-steps-h2h.txt neural:runs/three-steps/best.pt neural:distill-three-handed-nullo-declarer-2 --rules three-handed --deals 2000 --seed 2489
ev runs/three-steps-rule.txt neural:runs/three-steps/best.pt rule --rules three-handed --deals 2000 --seed 2027
ev runs/three-steps-mcfast.txt neural:runs/three-steps/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2490
STATE=state/session35 train canadian-steps2
ev runs/canadian-steps2-h2h.txt neural:runs/canadian-steps2/best.pt neural:distill-canadian-dagger --rules canadian --deals 2000 --seed 2491
ev runs/canadian-steps2-rule.txt neural:runs/canadian-steps2/best.pt rule --rules canadian --deals 2000 --seed 2027
