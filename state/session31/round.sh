#!/bin/bash
# Session 31: one run and its two checks, as state/session27/round.sh does, with the configs in
# state/session31/NAME/pipeline.toml.
# Usage: bash state/session31/round.sh NAME PRESET START H2H_SEED
STATE=state/session31 exec bash "$(dirname "$0")/../session27/round.sh" "$@"
