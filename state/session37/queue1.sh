# Session 37, queue 1: after session 36's queue 5 (its mc6 match), the two steps a third time
# under canadian (canadian-steps4, seed 138, from distill-canadian-calls-steps-2), head to head
# (seed 2498), rule (2027), and mc6 (1,000 deals, seed 2499) if the head to head is above zero.
# Skipped when distill-canadian-calls-steps-2 already beats mc6 with its interval above zero.
cd "$(dirname "$0")/../.." && STATE=state/session37 && . state/session34/lib.sh
while pgrep -f "state/session36/queue[5].sh" > /dev/null; do sleep 30; done
if interval_above_zero runs/canadian-steps3-mc6.txt; then
  echo "canadian-steps3 beats mc6 (interval above zero): no third round"; exit 0
fi
train canadian-steps4
ev runs/canadian-steps4-h2h.txt neural:runs/canadian-steps4/best.pt neural:distill-canadian-calls-steps-2 --rules canadian --deals 2000 --seed 2498
ev runs/canadian-steps4-rule.txt neural:runs/canadian-steps4/best.pt rule --rules canadian --deals 2000 --seed 2027
bash state/session35/mc6-if-better.sh canadian-steps4 canadian 2499
