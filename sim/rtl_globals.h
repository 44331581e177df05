// Globals the generated model reads through $c(...) (see FLAGS_debug).
#pragma once
extern bool sim_verbose;
