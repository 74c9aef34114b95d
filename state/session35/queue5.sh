# Session 35, queue 5: the pipeline's run of the rule-defence recipe under american (seed 132),
# its head to head over the shipped agent it started from (2,000 deals, seed 2482) and over the
# prototype's agent (seed 2483).
cd "$(dirname "$0")/../.." && . state/session35/lib.sh
train american-defence
ev runs/american-defence-h2h.txt neural:runs/american-defence/best.pt neural:distill-american-nullo-declarer --rules american --deals 2000 --seed 2482
ev runs/american-defence-vs-prototype.txt neural:runs/american-defence/best.pt neural:runs/s35-rd/fit-20k.pt --rules american --deals 2000 --seed 2483
