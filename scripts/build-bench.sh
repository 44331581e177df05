#!/usr/bin/env bash
# build-bench.sh agent|unit : prints the directory holding the Verilog of a
# cocotb bench top (hw/soc/Benches.scala), elaborating it (cached) if needed.
# The cocotb runner builds its own Verilator model from it (tests/cocotb).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

TOP="${1:?usage: build-bench.sh agent|unit}"
case "$TOP" in agent|unit) ;; *) die "unknown bench top '$TOP' (agent, unit)" ;; esac

KEY=$(hash_inputs "$ROOT/build.sc" "$ROOT/.mill-version" "$ROOT/hw/soc" "$ROOT/hw/configs" \
  "$ROOT/hw/devices" "$ROOT/hw/tile" < /dev/null)
DIR="$CACHE/bench/$TOP-$KEY"
if [ ! -f "$DIR/$TOP.v" ]; then
  step "elaborating the $TOP bench top (about 30 s)"
  mkdir -p "$CACHE/bench"
  tmp="$DIR.tmp.$$"
  rm -rf "$tmp"
  (cd "$ROOT" && run_logged "$BUILD/logs/elaborate-bench-$TOP.log" \
    ./mill --no-server hw.runMain shootdown.soc.ElaborateBench --top "$TOP" --out "$tmp")
  rm -f "$tmp"/*.fir
  rm -rf "$DIR" && mv "$tmp" "$DIR"
  prune_cache "$CACHE/bench" "$TOP-"
fi
echo "$DIR"
