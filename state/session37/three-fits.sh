# Session 37: fits of distill-three-handed-nullo-declarer-2 on session 36's three-handed card data
# (runs/three-cards, on the machine that ran it), each against mcfast:samples=20 on seed 2490's
# deals (docs/research-log.md, session 37).  A fit or a match already written is skipped.
cd "$(dirname "$0")/../.." && export OMP_NUM_THREADS=1
D="runs/three-cards/stage-1-distill/piece-*.npz"
fitev() { local name=$1; shift
  mkdir -p runs/$name
  [ -f runs/$name/agent.pt ] || .venv/bin/python -m train.distill fit --init distill-three-handed-nullo-declarer-2 --data $D --temperature 3.0 --seed 1 --out runs/$name/agent.pt "$@" > runs/$name.log 2>&1
  tr '\r' '\n' < runs/$name.log | grep "regret" | grep "epoch [0-9]:" > runs/$name-fit.txt
  [ -s runs/$name-mcfast-2490.txt ] || .venv/bin/fh-eval neural:runs/$name/agent.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2490 --workers 1 --no-progress > runs/$name-mcfast-2490.txt 2>&1
}
fitev three-fit4 --epochs 4 --learning-rate 6e-4
fitev three-feat4 --features --epochs 4 --learning-rate 6e-4
fitev three-feat2 --features --epochs 2 --learning-rate 2e-4
fitev three-feat-anchor --features --anchor --epochs 2 --learning-rate 2e-4
# second round: anchored fits with the inputs, longer or on both stages' data
fitev three-feat-anchor4 --features --anchor --epochs 4 --learning-rate 4e-4
D="runs/three-cards/stage-1-distill/piece-*.npz runs/three-cards/stage-2-distill/piece-*.npz"
fitev three-feat-anchor-both --features --anchor --epochs 2 --learning-rate 2e-4
