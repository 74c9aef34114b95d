# Session 36, queue 5 (started late, for the next session to finish): the two steps a second
# time under canadian (canadian-steps3, seed 137, from distill-canadian-calls-steps), head to
# head (seed 2496), rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session36 && . state/session34/lib.sh
train canadian-steps3
ev runs/canadian-steps3-h2h.txt neural:runs/canadian-steps3/best.pt neural:distill-canadian-calls-steps --rules canadian --deals 2000 --seed 2496
ev runs/canadian-steps3-rule.txt neural:runs/canadian-steps3/best.pt rule --rules canadian --deals 2000 --seed 2027
# then, started in the last minutes of the session (its agent shipped as distill-canadian-calls-steps-2):
ev runs/canadian-steps3-mc6.txt neural:runs/canadian-steps3/best.pt mc6 --rules canadian --deals 1000 --seed 2497
