# Session 35, queue 4: the american agent fitted to the rule bot's nullo defence
# (runs/s35-rd/fit-20k.pt, state/session35/rule_defence_fit.py) against mc6 (1,000 deals).
cd "$(dirname "$0")/../.." && . state/session35/lib.sh
ev runs/s35-rd/fit-20k-mc6.txt neural:runs/s35-rd/fit-20k.pt mc6 --rules american --deals 1000 --seed 2481
