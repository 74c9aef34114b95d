# Session 39, queue 3: a fourth longer-fit card step (strong-cards4, seed 147, from
# runs/strong-cards3/best.pt), head to head with its start (2514) and neural:best (2515), and
# rule (2027).
cd "$(dirname "$0")/../.." && STATE=state/session39 && . state/session34/lib.sh
train strong-cards4
ev runs/strong-cards4-h2h.txt neural:runs/strong-cards4/best.pt neural:runs/strong-cards3/best.pt --deals 2000 --seed 2514
ev runs/strong-cards4-best.txt neural:runs/strong-cards4/best.pt neural:best --deals 2000 --seed 2515
ev runs/strong-cards4-rule.txt neural:runs/strong-cards4/best.pt rule --deals 2000 --seed 2027
# Where does it lose to neural:best?  neural:best's calls, leads and follows each alone in its play.
[ -s runs/strong-cards4-split.txt ] || .venv/bin/python -m arena.split neural:best neural:runs/strong-cards4/best.pt --parts calls,leads,follows --deals 1000 --seed 2517 --workers 2 > runs/strong-cards4-split.txt 2>&1
