#!/usr/bin/env bash
# litmus-long.sh [SCHEDULES [BACK-END...]] : every litmus test (tests/litmus)
# SCHEDULES times (1,000 unless told) on every back end (or those named),
# two runs at a time on the two
# cores: the unit's channels on the 2- and 4-hart SoCs, on the 2-hart SoC
# the batched SBI extension and SBI RFENCE carried out by the unit and, under
# stock OpenSBI, over IPIs, and RFENCE over IPIs on QEMU with 4 harts. Judges
# each run against the reference models and writes
# build/results/litmus-<back end>.txt (litmus7-style reports) and the runs'
# logs beside them. Exits 1 if a test failed. A benchmark of hours at 1,000
# schedules; the 4-hart SoC is the slowest (about 90 minutes).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

SCHEDULES="${1:-1000}"
[[ "$SCHEDULES" =~ ^[1-9][0-9]*$ ]] || die "litmus-long: SCHEDULES must be a positive number, not '$SCHEDULES'"
shift $(($# > 0 ? 1 : 0))
ORDER=(unit-4harts unit-2harts sbi-ext-2harts sbi-rfence-unit-2harts sbi-rfence-ipi-2harts qemu-rfence-ipi-4harts)
if [ $# -gt 0 ]; then
  for b in "$@"; do
    printf '%s\n' "${ORDER[@]}" | grep -qx -- "$b" || die "litmus-long: unknown back end '$b' (${ORDER[*]})"
  done
  ORDER=("$@")
fi
RESULTS="$BUILD/results"
mkdir -p "$RESULTS"
for p in soc sbi; do
  make -s -C sw/baremetal PLATFORM=$p O="$BUILD/sw/baremetal/$p-litmus-$SCHEDULES" LITMUS_SCHEDULES="$SCHEDULES"
done
SOC="$BUILD/sw/baremetal/soc-litmus-$SCHEDULES"
SBI="$BUILD/sw/baremetal/sbi-litmus-$SCHEDULES"
fw() {  # fw FLAVOR PAYLOAD: OpenSBI with the payload, built into its own directory
  local out="$BUILD/sw/opensbi/litmus-$SCHEDULES-$1-$2"
  "$ROOT/sw/opensbi/build.sh" $([ "$1" = stock ] && echo --stock) "$SBI/$2.bin" "$out" >&2
  echo "$out"
}
SIM2=$("$ROOT/scripts/build-model.sh" 2 tuned)
SIM4=$("$ROOT/scripts/build-model.sh" 4 tuned)
declare -A JOBS=(
  [unit-2harts]="$SIM2 $SOC/litmus.elf"
  [unit-4harts]="$SIM4 $SOC/litmus.elf"
  [sbi-ext-2harts]="$SIM2 $(fw unit sbi_litmus_ext)/fw_payload.elf"
  [sbi-rfence-unit-2harts]="$SIM2 $(fw unit sbi_litmus_rfence)/fw_payload.elf"
  [sbi-rfence-ipi-2harts]="$SIM2 $(fw stock sbi_litmus_rfence)/fw_payload.elf"
  [qemu-rfence-ipi-4harts]="$ROOT/scripts/qemu-virt.sh 4 -bios $(fw stock sbi_litmus_rfence)/fw_payload.bin"
)
status=0
judge() {
  local name="$1" log="$RESULTS/litmus-$1.log"
  if ! grep -q '^litmus-done' "$log"; then
    tail -n 20 "$log" >&2
    echo "litmus-long: the $name run did not finish (log: $log)" >&2
    return 1
  fi
  python3 tests/litmus/judge.py --schedules "$SCHEDULES" "$log" "$RESULTS/litmus-$name.txt" > /dev/null || { echo "litmus-long: $name: a test failed" >&2; return 1; }
  echo "$name: $(tail -n +1 "$RESULTS/litmus-$name.txt" | grep -m1 'tests failed')"
}
running=()
for name in "${ORDER[@]}"; do
  step "litmus, $SCHEDULES schedules a test: $name"
  ${JOBS[$name]} > "$RESULTS/litmus-$name.log" 2>&1 &
  running+=("$!:$name")
  if [ ${#running[@]} -eq 2 ]; then
    wait "${running[0]%%:*}" || true
    judge "${running[0]#*:}" || status=1
    running=("${running[@]:1}")
  fi
done
for job in "${running[@]}"; do
  wait "${job%%:*}" || true
  judge "${job#*:}" || status=1
done
exit $status
