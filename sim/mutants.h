// The run-time side of the mutant switches (hw/devices/Mutants.scala): in a
// model built with SCOREBOARD every switch asks the harness, once, before the
// first clock edge, whether its knob is on (+mutant=NAME).
#pragma once
#include <set>
#include <string>

// Turns knob `name` on for this run (before the model's first eval).
void mutant_select(const std::string& name);
// The knob names the model's switches asked about (after the first eval).
const std::set<std::string>& mutants_known();
