#!/bin/bash
# Session 40, queue 1: issue 30's second confirmation on 2,000 unseen deals (seed 2521).
cd "$(dirname "$0")/../.."
STATE=state/session40 && . state/session34/lib.sh
ev state/session40/results/search-h2h-2521.txt "nmc:best,cards=leads,samples=100,rollout=net,belief=0.5" neural:best --deals 2000 --seed 2521
