#include "mutants.h"

namespace {
std::string g_selected;
std::set<std::string> g_known;
}  // namespace

void mutant_select(const std::string& name) { g_selected = name; }
const std::set<std::string>& mutants_known() { return g_known; }

// The DPI import of MutantSwitch.v: "is knob `name` on?"
extern "C" unsigned char sim_mutant(const char* name) {
  g_known.insert(name);
  return !g_selected.empty() && g_selected == name;
}
