#!/usr/bin/env bash
# fw-profile.sh [HARTS] : where OpenSBI's cycles go in one shootdown call.
# Runs sw/baremetal/programs-sbi/fw_profile.c under OpenSBI with the
# project's series on the debug model of the HARTS-hart SoC (4 unless told)
# with the commit trace on, and splits the cycles of a null SBI call, RFENCE
# of 32 pages and the batched extension with the same pages among the
# firmware's functions (scripts/fw_profile.py). Writes
# build/results/fw-profile.md. The debug model is slow and the trace large:
# some minutes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

HARTS="${1:-4}"
RESULTS="$BUILD/results"
mkdir -p "$RESULTS"
SBI="$BUILD/sw/baremetal/sbi"
make -s -C sw/baremetal PLATFORM=sbi O="$SBI"
FW="$BUILD/sw/opensbi/fw_profile-unit"
sw/opensbi/build.sh "$SBI/fw_profile.bin" "$FW" >&2
sim=$(scripts/build-model.sh "$HARTS" debug)
step "fw_profile on the $HARTS-hart debug model, commit trace on"
status=0
# Rocket's printfs (the trace) go to stderr; the console to stdout.
"$sim" +verbose +max-cycles=50000000 "$FW/fw_payload.elf" 2>&1 |
  tee >(grep -av '^C[0-9]*: ' > "$RESULTS/fw-profile-sim.log") |
  python3 scripts/fw_profile.py --payload "$SBI/fw_profile.elf" --firmware "$FW/fw_payload.elf" \
    --out "$RESULTS/fw-profile.md" || status=$?
[ "$status" = 0 ] || { tail -n 20 "$RESULTS/fw-profile-sim.log" >&2; die "fw-profile failed (the run without its trace: $RESULTS/fw-profile-sim.log)"; }
echo "(written to $RESULTS/fw-profile.md)"
