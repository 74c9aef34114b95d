cd /work/main
export OMP_NUM_THREADS=1
D="runs/three-cards/stage-1-distill/piece-*.npz"
fitev() { name=$1; shift
  [ -f runs/$name/agent.pt ] || .venv/bin/python -m train.distill fit --init distill-three-handed-nullo-declarer-2 --data $D --temperature 3.0 --seed 1 --out runs/$name/agent.pt "$@" > runs/$name.log 2>&1
  tr '\r' '\n' < runs/$name.log | grep "regret" | grep "epoch [0-9]:" > runs/$name-fit.txt
  .venv/bin/fh-eval neural:runs/$name/agent.pt mcfast:samples=20 --rules three-handed --deals 1000 --seed 2490 --workers 1 --no-progress > runs/$name-mcfast-2490.txt 2>&1
}
mkdir -p runs/three-feat4 runs/three-feat-anchor runs/three-feat2 runs/three-feat-anchor4 runs/three-feat-anchor-both
fitev three-feat4 --features --epochs 4 --learning-rate 6e-4
fitev three-feat2 --features --epochs 2 --learning-rate 2e-4
fitev three-feat-anchor --features --anchor --epochs 2 --learning-rate 2e-4
# second round: anchored fits with the inputs, longer or on both stages' data
fitev three-feat-anchor4 --features --anchor --epochs 4 --learning-rate 4e-4
D="runs/three-cards/stage-1-distill/piece-*.npz runs/three-cards/stage-2-distill/piece-*.npz"
fitev three-feat-anchor-both --features --anchor --epochs 2 --learning-rate 2e-4
