# Session 37, queue 3 (started late, for the next session to finish): a fourth card search step
# under three-handed (three-features2, seed 140, from distill-three-handed-features), head to
# head (seed 2503), rule (2027), mcfast:samples=20 (2,000 deals, seed 2504).
cd "$(dirname "$0")/../.." && STATE=state/session37 && . state/session34/lib.sh
train three-features2
ev runs/three-features2-h2h.txt neural:runs/three-features2/best.pt neural:distill-three-handed-features --rules three-handed --deals 2000 --seed 2503
ev runs/three-features2-rule.txt neural:runs/three-features2/best.pt rule --rules three-handed --deals 2000 --seed 2027
ev runs/three-features2-mcfast-2504.txt neural:runs/three-features2/best.pt mcfast:samples=20 --rules three-handed --deals 2000 --seed 2504
