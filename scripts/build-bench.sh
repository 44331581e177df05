#!/usr/bin/env bash
# build-bench.sh agent|unit : prints the directory holding the Verilog of a
# cocotb bench top (hw/testing/Benches.scala), elaborating it (cached) if needed.
# The cocotb runner builds its own Verilator model from it (tests/cocotb).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

TOP="${1:?usage: build-bench.sh agent|unit}"
case "$TOP" in agent|unit) ;; *) die "unknown bench top '$TOP' (agent, unit)" ;; esac

DIR="$CACHE/bench/$TOP-$(hw_key)"
if [ ! -d "$DIR" ]; then
  step "elaborating the $TOP bench top (about 30 s)"
  elaborate_into "$DIR" "$BUILD/logs/elaborate-bench-$TOP.log" shootdown.soc.ElaborateBench --top "$TOP"
  prune_cache "$CACHE/bench" "$TOP-"
fi
echo "$DIR"
