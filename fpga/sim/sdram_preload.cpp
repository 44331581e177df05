#include "sdram_preload.h"

#include <cstdint>

#include "axi_mem.h"
#include "elf_loader.h"
#include "svdpi.h"

// The chip model's own door to its cells (sdr_sdram.sv): the 16-bit word at
// (bank, row, column), as if written and refreshed at cycle 0.
extern "C" void sdram_preload(int bank, int row, int col, short data);

namespace {
// The board's main memory (Ulx3sSdramConfig: 32 MiB at DRAM_BASE) and the
// top 32 KiB the boot ROM keeps for its loader (hw/bootrom/uartboot/loader.h,
// LOADER_BASE), where the ROM would overwrite anything put there.
constexpr uint64_t kDramBase = 0x80000000ull;
constexpr uint64_t kDramBytes = 32ull << 20;
constexpr uint64_t kLoaderBytes = 32ull << 10;

// The controller's address mapping (fpga/litedram/gen.py: LiteDRAM's
// ROW_BANK_COL on a 16-bit native port, one word a column): byte offset o
// is word o / 2, its column the word's low 9 bits, its bank the next 2, its
// row the 13 above. The low byte of a word is the lower address.
constexpr unsigned kColBits = 9, kBankBits = 2;
}  // namespace

std::string sdram_preload_elf(const std::string& path) {
  AxiMem image(kDramBase, kDramBytes - kLoaderBytes, 0);
  std::string why = load_elf(path, image, nullptr);
  if (!why.empty()) return why + " (the board's SDRAM below its loader: 32 MiB less 32 KiB at 0x80000000)";
  svScope chip = svGetScopeFromName("TOP.ulx3s_sdram_board.chip");
  if (!chip) return "the SDRAM chip's model is not at TOP.ulx3s_sdram_board.chip";
  svSetScope(chip);
  const uint8_t* bytes = image.at(kDramBase);
  for (uint64_t word = 0; word < image.size() / 2; word++) {
    int col = (int)(word & ((1u << kColBits) - 1));
    int bank = (int)((word >> kColBits) & ((1u << kBankBits) - 1));
    int row = (int)(word >> (kColBits + kBankBits));
    sdram_preload(bank, row, col, (short)(bytes[2 * word] | bytes[2 * word + 1] << 8));
  }
  return "";
}
