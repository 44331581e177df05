#!/usr/bin/env bash
# qemu-virt.sh HARTS -bios FIRMWARE | -kernel PROGRAM : QEMU virt as every
# run of the project starts it (the tests, make demo, make litmus-long):
# HARTS harts, 256 MiB, the console on stdin/stdout, no monitor. -bios runs
# an OpenSBI fw_payload.bin; -kernel runs a bare-metal program in M-mode.
set -euo pipefail
usage() { echo "usage: qemu-virt.sh HARTS -bios FIRMWARE | -kernel PROGRAM" >&2; exit 2; }
[ $# = 3 ] || usage
harts="$1"
[[ "$harts" =~ ^[1-9][0-9]*$ ]] || usage
case "$2" in
  -bios) boot=(-bios "$3") ;;
  -kernel) boot=(-bios none -kernel "$3") ;;
  *) usage ;;
esac
[ -f "$3" ] || { echo "qemu-virt.sh: '$3' does not exist" >&2; exit 2; }
exec qemu-system-riscv64 -machine virt -nographic -m 256M -smp "$harts" -monitor none -serial stdio "${boot[@]}"
