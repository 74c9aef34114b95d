# Session 39, queue 4: the lead search with the network's rollouts in belief-model worlds (the
# best of search_gain's lead searches: +2.9 [+1.3, +4.4] points a decision, 150 hands of seeds
# 21400-21549) against neural:best on 2,000 deals (seed 2516).
cd "$(dirname "$0")/../.." && STATE=state/session39 && . state/session34/lib.sh
ev runs/leads-net-belief.txt "nmc:best,cards=leads,samples=100,rollout=net,belief=0.5" neural:best --deals 2000 --seed 2516
