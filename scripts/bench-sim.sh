#!/usr/bin/env bash
# bench-sim.sh : simulation speed of the naive, tuned and debug models of the
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
  "tuned 3000000"
)
echo "build,harts,cycles,seconds,khz" > "$OUT"
for harts in 2 4; do
  for run in "${RUNS[@]}"; do
    read -r build cycles <<< "$run"
    sim=$("$ROOT/scripts/build-model.sh" "$harts" "$build")
    # the run ends at +max-cycles (status 124) on purpose
    line=$({ "$sim" +quiet +max-cycles="$cycles" "$FW" 2>&1 >/dev/null || true; } | grep '^\[sim\]' | tail -1)
    [ -n "$line" ] || die "no [sim] summary from $sim"
    # "[sim] timeout, status 124: N cycles in S s (K kHz)"
    read -r n s k <<< "$(sed -E 's/.*: ([0-9]+) cycles in ([0-9.]+) s \(([0-9.]+) kHz\)/\1 \2 \3/' <<< "$line")"
    echo "$build,$harts,$n,$s,$k" >> "$OUT"
  done
done

python3 - "$OUT" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
naive = {r["harts"]: float(r["khz"]) for r in rows if r["build"] == "naive"}
print(f"{'build':<7}{'harts':>6}{'cycles':>10}{'seconds':>9}{'kHz':>8}{'vs naive':>10}")
for r in rows:
    ratio = float(r["khz"]) / naive[r["harts"]]
    print(f"{r['build']:<7}{r['harts']:>6}{r['cycles']:>10}{float(r['seconds']):>9.2f}{float(r['khz']):>8.1f}{ratio:>9.1f}x")
print(f"written: {sys.argv[1]}")
PY
