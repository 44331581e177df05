#!/usr/bin/env bash
# setup.sh : installs what the project needs, idempotently. Debian packages
# through apt (only missing ones), the Python venv (in the cache, keyed by
# tests/requirements.txt) and Mill with the Maven artefacts of hw/.
# Prints the venv's path on stdout.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# command -> Debian package
declare -A NEED=(
  [verilator]=verilator
  [riscv64-unknown-elf-gcc]=gcc-riscv64-unknown-elf
  [riscv64-linux-gnu-gcc]=gcc-riscv64-linux-gnu
  [qemu-system-riscv64]=qemu-system-misc
  [dtc]=device-tree-compiler
  [yosys]=yosys
  [mvn]=maven
  [java]=default-jdk-headless
  [g++]=g++
  [make]=make
  [git-clang-format]=clang-format
  [flock]=util-linux
  # the Linux build (sw/linux): its Kconfig parsers, timeconst, headers_install, the tarball
  [flex]=flex
  [bison]=bison
  [bc]=bc
  [rsync]=rsync
  [xz]=xz-utils
  # the reclaim workload's ext2 image
  [mke2fs]=e2fsprogs
  # the boards' debug port, on the simulated board too (tests/system/test_jtag.py)
  [openocd]=openocd
)
missing=()
for cmd in "${!NEED[@]}"; do command -v "$cmd" >/dev/null 2>&1 || missing+=("${NEED[$cmd]}"); done
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  step "installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  command -v apt-get >/dev/null || die "apt-get not found: install ${missing[*]} by hand"
  export DEBIAN_FRONTEND=noninteractive
  run_logged "$BUILD/logs/apt-update.log" $SUDO apt-get update -q
  run_logged "$BUILD/logs/apt-install.log" $SUDO apt-get install -y -q "${missing[@]}"
fi

REQ="$ROOT/tests/requirements.txt"
VENV="$CACHE/venv-$(hash_inputs "$REQ" < /dev/null)"
if [ ! -f "$VENV/.complete" ]; then
  step "creating the Python venv ($VENV)"
  mkdir -p "$CACHE"
  rm -rf "$VENV"
  run_logged "$BUILD/logs/venv.log" bash -c "python3 -m venv '$VENV' && '$VENV/bin/pip' install -q -r '$REQ'"
  touch "$VENV/.complete"
fi

if [ ! -d "$ROOT/out/hw/compile.dest/classes" ]; then
  step "fetching Mill, Rocket Chip and compiling hw/ (first time: about 1-2 min)"
  (cd "$ROOT" && run_logged "$BUILD/logs/mill-compile.log" ./mill --no-server hw.compile)
fi
echo "$VENV"
