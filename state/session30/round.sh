#!/bin/bash
# Session 30: one run and its two checks, as state/session27/round.sh does, with the configs in
# state/session30/NAME/pipeline.toml.
# Usage: bash state/session30/round.sh NAME PRESET START H2H_SEED
STATE=state/session30 exec bash "$(dirname "$0")/../session27/round.sh" "$@"
