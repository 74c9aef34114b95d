# Session 35, queue 1: australian's second nullo-declarer step (seed 126), its head to head over
# the shipped agent (2,000 deals, seed 2470).
cd "$(dirname "$0")/../.." && . state/session35/lib.sh
train australian-nd2
ev runs/australian-nd2-h2h.txt neural:runs/australian-nd2/best.pt neural:distill-australian-nullo-declarer --rules australian --deals 2000 --seed 2470
