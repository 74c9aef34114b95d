# Session 38, queue 1: the two steps a fourth time under canadian (canadian-steps5, seed 141, from
# distill-canadian-calls-steps-3, its card step with the derived inputs, 4 epochs at 4e-4), head
# to head (seed 2505), rule (2027), and mc6 (1,000 deals, seed 2506) if the head to head is above
# zero.
cd "$(dirname "$0")/../.." && STATE=state/session38 && . state/session34/lib.sh
train canadian-steps5
ev runs/canadian-steps5-h2h.txt neural:runs/canadian-steps5/best.pt neural:distill-canadian-calls-steps-3 --rules canadian --deals 2000 --seed 2505
ev runs/canadian-steps5-rule.txt neural:runs/canadian-steps5/best.pt rule --rules canadian --deals 2000 --seed 2027
bash state/session35/mc6-if-better.sh canadian-steps5 canadian 2506
