#!/bin/bash
# Session 32: one run and its two checks, as state/session27/round.sh does, with the configs in
# state/session32/NAME/pipeline.toml (or state/session31's for a run resumed from there).
# Usage: bash state/session32/round.sh NAME PRESET START H2H_SEED
STATE=${STATE:-state/session32} exec bash "$(dirname "$0")/../session27/round.sh" "$@"
