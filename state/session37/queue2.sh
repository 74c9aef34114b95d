# Session 37, queue 2: card search steps with the derived inputs under three-handed
# (three-features, seed 139, from distill-three-handed-nullo-declarer-2); each stage's agent
# against mcfast:samples=20 on seed 2490's deals (paired with session 36's), then the last one
# head to head (seed 2500), against rule (2027) and against mcfast on fresh deals (seed 2501).
cd "$(dirname "$0")/../.." && STATE=state/session37 && . state/session34/lib.sh
train three-features
for s in 1 2 3; do
  ev runs/three-features-s$s-mcfast-2490.txt neural:runs/three-features/stage-$s-distill/agent.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2490
done
ev runs/three-features-h2h.txt neural:runs/three-features/best.pt neural:distill-three-handed-nullo-declarer-2 --rules three-handed --deals 2000 --seed 2500
ev runs/three-features-rule.txt neural:runs/three-features/best.pt rule --rules three-handed --deals 2000 --seed 2027
ev runs/three-features-mcfast-2501.txt neural:runs/three-features/best.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2501
