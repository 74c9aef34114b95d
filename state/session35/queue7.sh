# Session 35, queue 7: the american agent of the fifth steps round (distill-american-calls-steps-5)
# against mc6 (1,000 deals, seed 2486).
cd "$(dirname "$0")/../.." && . state/session35/lib.sh
ev runs/american-steps5-mc6.txt neural:distill-american-calls-steps-5 mc6 --rules american --deals 1000 --seed 2486
