#!/usr/bin/env python3
"""sparse_image.py RAW OUT: writes RAW's non-zero 4 KiB blocks to OUT as
records of an 8-byte little-endian block number followed by the block.

/init (sw/linux/init/reclaim.c, restore_image) writes these records onto
the RAM disk, which starts zeroed, so the initramfs carries only the blocks
mke2fs wrote, not the whole empty file system."""
import struct
import sys

BLOCK = 4096


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: sparse_image.py RAW OUT")
    raw = open(argv[1], "rb").read()
    if len(raw) % BLOCK:
        sys.exit(f"sparse_image.py: {argv[1]} is {len(raw)} bytes, not a whole number of {BLOCK}-byte blocks")
    with open(argv[2], "wb") as out:
        for nr in range(len(raw) // BLOCK):
            block = raw[nr * BLOCK:(nr + 1) * BLOCK]
            if block.strip(b"\0"):
                out.write(struct.pack("<Q", nr) + block)


if __name__ == "__main__":
    main(sys.argv)
