#!/bin/bash
# Session 33: session 32's three prepared steps rounds one after another (each resumes from its
# pieces if cut off), each followed by the mcfast:samples=100 check (1,000 deals), the 2-minute
# stand-in for mc6.  Usage: bash state/session33/chain.sh
set -u
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1
check() {  # NAME PRESET SEED: the run's best.pt against mcfast:samples=100
  [ -s runs/$1-mcfast.txt ] || .venv/bin/fh-eval neural:runs/$1/best.pt mcfast:samples=100 --rules $2 \
    --deals 1000 --seed $3 --workers 2 --no-progress > runs/$1-mcfast.txt 2>&1
}
r=state/session32/round.sh
bash $r australian-steps2 australian distill-australian-calls-steps 2442 && check australian-steps2 australian 2445
bash $r avondale-steps2 avondale-classic distill-avondale-classic-calls-steps 2443 && check avondale-steps2 avondale-classic 2446
bash $r canadian-steps canadian distill-canadian-dagger 2444 && check canadian-steps canadian 2447
