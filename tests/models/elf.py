"""Builds small ELF files for the harness's bad-input tests."""
import struct

EM_RISCV = 243
EM_X86_64 = 62
ET_EXEC = 2
PT_LOAD = 1


def make_elf(entry=0x80000000, segments=((0x80000000, b"\x13\x00\x00\x00"),), machine=EM_RISCV,
             elf_class=2, flags=0, elf_type=ET_EXEC):
    """An ELF64 (or a bare ELF32 header when elf_class=1) with one PT_LOAD per
    (paddr, bytes) segment."""
    ident = b"\x7fELF" + bytes([elf_class, 1, 1, 0]) + b"\0" * 8
    if elf_class == 1:
        return ident + struct.pack("<HHIIIIIHHHHHH", elf_type, machine, 1, entry, 0, 0, flags, 52, 32, 0, 40, 0, 0)
    phoff, phsize = 64, 56
    data_off = phoff + phsize * len(segments)
    phdrs, blobs = b"", b""
    for paddr, blob in segments:
        phdrs += struct.pack("<IIQQQQQQ", PT_LOAD, 7, data_off + len(blobs), paddr, paddr, len(blob), len(blob), 8)
        blobs += blob
    header = ident + struct.pack("<HHIQQQIHHHHHH", elf_type, machine, 1, entry, phoff, 0, flags, 64, phsize,
                                 len(segments), 64, 0, 0)
    return header + phdrs + blobs
