// Starts a simulation of the SDRAM board with a program in the SDRAM chip's
// model (fpga/sim/sdr_sdram.sv), at the places the controller would have
// written it.
#pragma once

#include <string>

// Loads the ELF file as the boot ROM's loader would (its loadable
// segments, a position-independent one at DRAM's base; nothing in the
// loader's own top 32 KiB) into the chip. The whole of memory below the
// loader is written: what no segment covers is zero. Returns an empty
// string, or why nothing was loaded.
std::string sdram_preload_elf(const std::string& path);
