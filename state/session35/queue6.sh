# Session 35, queue 6: the rule-defence recipe under american-double-nullo (seed 133), its head
# to head over the shipped agent it started from (2,000 deals, seed 2484) and its rule check.
cd "$(dirname "$0")/../.." && . state/session35/lib.sh
train adn-defence
ev runs/adn-defence-h2h.txt neural:runs/adn-defence/best.pt neural:distill-american-double-nullo-nullo-declarer --rules american-double-nullo --deals 2000 --seed 2484
ev runs/adn-defence-rule.txt neural:runs/adn-defence/best.pt rule --rules american-double-nullo --deals 2000 --seed 2027
