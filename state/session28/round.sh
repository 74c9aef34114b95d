#!/bin/bash
# Session 28: one round and its two checks, as state/session27/round.sh does, with the configs
# in state/session28/NAME/pipeline.toml.
# Usage: bash state/session28/round.sh NAME PRESET START H2H_SEED
STATE=state/session28 exec bash "$(dirname "$0")/../session27/round.sh" "$@"
