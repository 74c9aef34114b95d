# Session 35: once a run's head to head is in (runs/NAME-h2h.txt), and only if its interval lies
# above zero (the ship rule), its agent against mc6 on 1,000 deals.
# Usage: bash state/session35/mc6-if-better.sh NAME PRESET SEED
cd "$(dirname "$0")/../.." && . state/session35/lib.sh
name=$1 preset=$2 seed=$3
until grep -q "95% CI" runs/$name-h2h.txt 2>/dev/null; do sleep 30; done
if interval_above_zero runs/$name-h2h.txt; then
  ev runs/$name-mc6.txt neural:runs/$name/best.pt mc6 --rules $preset --deals 1000 --seed $seed
else
  echo "$name: head to head interval not above zero: no mc6 match"
fi
