#!/bin/bash
# Session 28: wait for the round already running (its round.sh), then the rest of the chain.
# Usage: bash state/session28/queue.sh PATTERN NAME PRESET START H2H_SEED [...]
set -u
while pgrep -f "$1" > /dev/null; do sleep 30; done
shift
bash "$(dirname "$0")/chain.sh" "$@"
