#include "elf_loader.h"

#include <elf.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "axi_mem.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#define EF_RISCV_FLOAT_ABI 0x6

static std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

std::string load_elf(const std::string& path, AxiMem& mem, ElfImage* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return path + ": cannot open: " + std::strerror(errno);
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());

  if (data.size() < EI_NIDENT || std::memcmp(data.data(), ELFMAG, SELFMAG) != 0)
    return path + ": not an ELF file";
  if (data[EI_CLASS] != ELFCLASS64)
    return path + ": wrong ISA: 32-bit ELF, but the SoC is RV64";
  if (data[EI_DATA] != ELFDATA2LSB) return path + ": wrong ISA: big-endian ELF";
  if (data.size() < sizeof(Elf64_Ehdr)) return path + ": truncated ELF header";

  Elf64_Ehdr eh;
  std::memcpy(&eh, data.data(), sizeof eh);
  if (eh.e_machine != EM_RISCV)
    return path + ": wrong ISA: ELF machine " + std::to_string(eh.e_machine) + ", not RISC-V (243)";
  if (eh.e_flags & EF_RISCV_FLOAT_ABI)
    return path + ": wrong ISA: built for a hard-float ABI, but the SoC's harts have no FPU (use -mabi=lp64)";
  // ET_DYN too: OpenSBI links its firmware as a PIE at its load address.
  if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
    return path + ": not an executable (ELF type " + std::to_string(eh.e_type) + ")";
  // A PIE (OpenSBI's firmware) is linked at 0 and relocates itself: load it
  // at the DRAM base, where the boot ROM jumps.
  const uint64_t bias = eh.e_type == ET_DYN ? mem.base() : 0;
  if (eh.e_entry + bias != mem.base())
    return path + ": entry point " + hex(eh.e_entry + bias) + " is not " + hex(mem.base()) +
           ", where the boot ROM jumps";
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > data.size())
    return path + ": truncated or corrupt program headers";

  ElfImage img;
  img.entry = eh.e_entry + bias;
  // Check every segment before writing any, so a bad file leaves memory untouched.
  for (int pass = 0; pass < 2; pass++) {
    for (unsigned i = 0; i < eh.e_phnum; i++) {
      Elf64_Phdr ph;
      std::memcpy(&ph, data.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
      if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
      ph.p_paddr += bias;
      if (pass == 0) {
        if (ph.p_filesz > ph.p_memsz || ph.p_offset + ph.p_filesz > data.size())
          return path + ": segment " + std::to_string(i) + " runs past the end of the file";
        if (!mem.contains(ph.p_paddr, ph.p_memsz))
          return path + ": segment " + std::to_string(i) + " [" + hex(ph.p_paddr) + ", " +
                 hex(ph.p_paddr + ph.p_memsz) + ") is outside memory [" + hex(mem.base()) + ", " +
                 hex(mem.base() + mem.size()) + ")";
        continue;
      }
      std::memcpy(mem.at(ph.p_paddr), data.data() + ph.p_offset, ph.p_filesz);
      std::memset(mem.at(ph.p_paddr) + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
      img.bytes += ph.p_filesz;
      img.segments++;
    }
  }
  if (img.segments == 0) return path + ": no loadable segments";
  if (out) *out = img;
  return "";
}
