#!/bin/bash
# Session 40, queue 3: the lead-search distillation step from neural:best, then its match.
cd "$(dirname "$0")/../.."
STATE=state/session40 && . state/session34/lib.sh
train best-leads
ev state/session40/results/best-leads-h2h-2523.txt neural:runs/best-leads/best.pt neural:best --deals 2000 --seed 2523
ev state/session40/results/best-leads-rule-2027.txt neural:runs/best-leads/best.pt rule --deals 2000 --seed 2027
