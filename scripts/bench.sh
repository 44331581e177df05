#!/usr/bin/env bash
# bench.sh : the batched shootdown unit against a lean software shootdown
# (sw/baremetal/programs/bench_shootdown.c) on the checked 2- and 4-hart SoCs,
# printed side by side and written to build/results/shootdown.csv; then
# back-to-back throughput with 4 initiators (bench_throughput.c,
# build/results/throughput.txt) and the ceiling crossover; then the
# area of the SoC with and without the unit (yosys synth_xilinx) in
# build/results/area.csv. A benchmark, not a test: one run, numbers as measured.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

RESULTS="$BUILD/results"
mkdir -p "$RESULTS"
make -s -C "$ROOT/sw/baremetal" PLATFORM=soc O="$BUILD/sw/baremetal/soc" >&2
ELF="$BUILD/sw/baremetal/soc/bench_shootdown.elf"
RAW="$RESULTS/shootdown-raw.txt"
: > "$RAW"
for harts in 2 4; do
  sim=$("$ROOT/scripts/build-model.sh" "$harts" checked)
  step "shootdown benchmark on the $harts-hart SoC"
  "$sim" +max-cycles=200000000 "$ELF" | tee -a "$RAW" | grep -v '^BENCH' >&2 || die "bench_shootdown failed on $harts harts"
done
python3 "$ROOT/scripts/bench_table.py" "$RAW" "$RESULTS/shootdown.csv"

step "back-to-back requests on the 4-hart SoC (4 initiators, 8 pages to the 3 others each)"
"$(scripts/build-model.sh 4 checked)" +max-cycles=100000000 "$BUILD/sw/baremetal/soc/bench_throughput.elf" \
  | grep '^BENCH' | tee "$RESULTS/throughput.txt" || die "bench_throughput failed"

step "ceiling crossover on the 2-hart SoC (page by page vs one full flush)"
CEIL_RAW="$RESULTS/ceiling-raw.txt"
"$(scripts/build-model.sh 2 checked)" +max-cycles=400000000 "$BUILD/sw/baremetal/soc/bench_ceiling.elf" > "$CEIL_RAW" \
  || die "bench_ceiling failed (see $CEIL_RAW)"
python3 "$ROOT/scripts/bench_table.py" --ceiling "$CEIL_RAW" "$RESULTS/ceiling.csv"

if [ "${BENCH_AREA:-1}" = 1 ]; then
  "$ROOT/scripts/area.sh" "$RESULTS/area.csv"
fi

step "unit v2 goals (the demo rows come from the last make demo)"
python3 "$ROOT/scripts/goals_table.py" "$RESULTS" "make bench"
