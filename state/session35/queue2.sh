# Session 35, queue 2: the two steps once more under american-double-nullo (seed 129), then
# its head to head over the shipped agent (2,000 deals, seed 2471) and its rule check (seed 2027).
cd "$(dirname "$0")/../.." && . state/session35/lib.sh
train adn-steps3
ev runs/adn-steps3-h2h.txt neural:runs/adn-steps3/best.pt neural:distill-american-double-nullo-nullo-declarer --rules american-double-nullo --deals 2000 --seed 2471
ev runs/adn-steps3-rule.txt neural:runs/adn-steps3/best.pt rule --rules american-double-nullo --deals 2000 --seed 2027
