#!/usr/bin/env bash
# bench-sim.sh : simulation speed of the naive, checked and debug models of the
# 2- and 4-hart SoC on one workload (OpenSBI booting its payload, cut at a
# fixed cycle count). Prints a table and writes build/results/sim-speed.csv.
# A benchmark, not a test: one run each, on whatever else the machine is doing.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

FW="$BUILD/sw/opensbi/fw_payload.elf"
[ -f "$FW" ] || die "$FW is missing; run 'make sw' first"
OUT="$BUILD/results/sim-speed.csv"
mkdir -p "$(dirname "$OUT")"

# build  cycles (fewer for the slow builds)
RUNS=(
  "naive 300000"
  "debug 300000"
  "checked 3000000"
)
echo "build,harts,cycles,seconds,khz" > "$OUT"
for harts in 2 4; do
  for run in "${RUNS[@]}"; do
    read -r build cycles <<< "$run"
    sim=$("$ROOT/scripts/build-model.sh" "$harts" "$build")
    # the run ends at +max-cycles (status 124) on purpose
    log="$BUILD/logs/bench-sim-$harts-$build.log"
    "$sim" +quiet +max-cycles="$cycles" "$FW" > /dev/null 2> "$log" || true
    speed=$(python3 "$ROOT/scripts/builds.py" speed "$log") || die "no [sim] summary from $sim (log: $log)"
    read -r n s k <<< "$speed"
    echo "$build,$harts,$n,$s,$k" >> "$OUT"
  done
done

python3 "$ROOT/scripts/sim_speed_table.py" "$OUT"
