#!/bin/bash
# Session 31: runs one after another, each a round.sh (its run, then its two checks), each
# starting where its config's init says (the run before it).
# Usage: bash state/session30/chain.sh NAME PRESET START H2H_SEED [NAME PRESET START SEED ...]
set -u
while [ $# -ge 4 ]; do
  bash "$(dirname "$0")/round.sh" "$1" "$2" "$3" "$4"
  shift 4
done
