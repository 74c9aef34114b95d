#!/bin/bash
# Session 33: a search step on the nullo contracts' cards alone, from a shipped preset agent.
# nmc:AGENT,samples=100,cards=nullo labels only the card decisions of nullo-type contracts (the
# network plays every card, the searched ones too, as in the pipeline's search step); the anchored
# fit (T = 3, as the pipeline's search step) then moves the nullo branch alone.
# Level head to head with the defenders' cards in the fit (docs/research-log.md, "The nullo
# cards"); state/session33/declarer_rows.py keeps the declarer's, which gained.  The stage
# cards = "nullo-declarer" does that in one run (state/session33/australian-nd).
# Usage: bash state/session33/nullo-step.sh NAME AGENT PRESET HANDS SEED EPOCHS
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
name=$1 agent=$2 preset=$3 hands=$4 seed=$5 epochs=$6 dir=runs/$1
mkdir -p $dir
for piece in 1 2; do
  [ -f $dir/piece-$piece.npz ] || .venv/bin/python -m train.distill collect --teacher "nmc:$agent,samples=100,cards=nullo" --player $agent \
    --hands $((hands / 2)) --seed $((seed * 1000 + piece)) --search cards --out $dir/piece-$piece.npz > $dir/collect-$piece.log 2>&1
done
[ -f $dir/agent-e$epochs.pt ] || .venv/bin/python -m train.distill fit --init $agent --data $dir/piece-1.npz $dir/piece-2.npz \
  --epochs $epochs --temperature 3 --anchor --seed $seed --out $dir/agent-e$epochs.pt > $dir/fit-e$epochs.log 2>&1
