#!/usr/bin/env bash
# build-test-models.sh : every Verilator model `make test` uses, built (or
# found in the cache) as two chains side by side. A model's build has long
# stretches on one core (elaboration, Verilator's front end, the profile's
# training runs, linking); the other chain fills the second core meanwhile.
# Elaborations still run one at a time (elaborate_into's lock), and only the
# first chain builds the profile-trained models, which share the bare-metal
# training programs' build directory. The test kernel builds beside them at
# the lowest priority, in what idle time the chains leave, so that pytest's
# Linux tests find it built.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# The boot ROMs first: models of several flavours share them, and two
# makes of one image at once would trip over each other's temporary file.
make -s -C "$ROOT/hw/bootrom" O="$BUILD/bootrom" "$BUILD/bootrom/bootrom.img" "$BUILD/bootrom/uartboot.img" >&2
board_rom ulx3s-bram > /dev/null

chain() {
  local m
  for m in "$@"; do
    "$ROOT/scripts/build-model.sh" "${m%/*}" "${m#*/}" > /dev/null
  done
}

chain 2/checked 4/checked & a=$!
chain 2/debug 2/board 2/uart & b=$!
# (the quick kernel is the port's with one more initramfs file: a relink)
nice -n 19 bash -c '"$1" --quick && "$1"' kernel "$ROOT/sw/linux/build.sh" > /dev/null & k=$!
ok=1
wait "$a" || ok=0
wait "$b" || ok=0
[ "$ok" = 1 ] || die "a model did not build (the messages above say which)"
wait "$k" || die "the test kernel did not build (the messages above say why)"
