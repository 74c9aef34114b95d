#!/bin/bash
# Session 28: calls rounds one after another, each a round.sh (its run, then its two checks) of
# state/session28/NAME/pipeline.toml.
# Usage: bash state/session28/chain.sh NAME PRESET START H2H_SEED [NAME PRESET START SEED ...]
set -u
while [ $# -ge 4 ]; do
  bash "$(dirname "$0")/round.sh" "$1" "$2" "$3" "$4"
  shift 4
done
