#!/usr/bin/env bash
# bench-scaling.sh : how the cost of a shootdown grows with the machine.
# bench_shootdown.c on the checked 8-hart SoC (hart 0 shoots down 1, 8, 32 and
# 256 pages on 1, 3 and 7 targets, by the lean IPI path and by the unit), one
# run; prints initiator latency and stolen cycles per target against the
# number of targets and writes build/results/scaling.csv and scaling.png.
# A benchmark, not a test. The 8-hart model takes a while to build the first
# time (elaboration about 5 GB of RAM).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

VENV=$("$ROOT/scripts/setup.sh")
RESULTS="$BUILD/results"
mkdir -p "$RESULTS"
make -s -C "$ROOT/sw/baremetal" PLATFORM=soc O="$BUILD/sw/baremetal/soc" >&2
sim=$("$ROOT/scripts/build-model.sh" 8 checked)
RAW="$RESULTS/scaling-raw.txt"
step "shootdown benchmark on the 8-hart SoC (1, 3 and 7 targets)"
"$sim" +max-cycles=400000000 "$BUILD/sw/baremetal/soc/bench_shootdown.elf" > "$RAW" \
  || { tail -n 20 "$RAW" >&2; die "bench_shootdown failed on the 8-hart SoC (log: $RAW)"; }
"$VENV/bin/python" "$ROOT/scripts/bench_table.py" --scaling "$RAW" "$RESULTS"
