#!/bin/bash
# Session 29: one run and its two checks, as state/session27/round.sh does, with the configs in
# state/session29/NAME/pipeline.toml.
# Usage: bash state/session29/round.sh NAME PRESET START H2H_SEED
STATE=state/session29 exec bash "$(dirname "$0")/../session27/round.sh" "$@"
