# Session 35, queue 3: the two steps a fifth time under american (seed 130), then its head to
# head over the shipped agent (2,000 deals, seed 2472) and its rule check (seed 2027).
cd "$(dirname "$0")/../.." && . state/session35/lib.sh
train american-steps5
ev runs/american-steps5-h2h.txt neural:runs/american-steps5/best.pt neural:distill-american-nullo-declarer --rules american --deals 2000 --seed 2472
ev runs/american-steps5-rule.txt neural:runs/american-steps5/best.pt rule --rules american --deals 2000 --seed 2027
