// Loads a RISC-V ELF into the memory model before reset.
#pragma once

#include <cstdint>
#include <string>

class AxiMem;

struct ElfImage {
  uint64_t entry = 0;
  uint64_t bytes = 0;      // bytes copied from the file
  unsigned segments = 0;
};

// Returns an empty string on success, otherwise a one-line reason.
std::string load_elf(const std::string& path, AxiMem& mem, ElfImage* out);
