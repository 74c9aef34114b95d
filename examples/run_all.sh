#!/usr/bin/env bash
# The full recipes, one after the other, as reported in README.md ("Use with other RL
# libraries"): MINUTES of training each (default 5), then 200 duplicate deals against random and
# against rule.  Results: runs/recipes/<recipe>.json and .log.  Run from the repository root
# with the recipes' virtualenv: `make test-recipes` creates .venv-recipes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PY:-.venv-recipes/bin/python}
MINUTES=${MINUTES:-5}
OUT=runs/recipes
mkdir -p "$OUT"
export OMP_NUM_THREADS=1
export RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0  # a local Ray on 127.0.0.1 only
for recipe in ${RECIPES:-sb3_maskable_ppo tianshou_ppo torchrl_ppo rllib_ppo}; do
    echo "== $recipe: $MINUTES minutes"
    "$PY" "examples/$recipe.py" --minutes "$MINUTES" --timesteps 100000000 --eval-deals 200 \
        --out "$OUT/$recipe.json" > "$OUT/$recipe.log" 2>&1
    grep -E "^trained|points per deal" "$OUT/$recipe.log"
done
