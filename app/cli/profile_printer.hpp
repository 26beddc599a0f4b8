// A Nsight Compute summary for kplay-cli: as text beside the run's, and as JSON.
#pragma once

#include <nlohmann/json.hpp>

#include "inspect/profiler.hpp"

namespace kplay::cli {

void print_profile(const ProfileOutcome& profile);
nlohmann::json profile_json(const ProfileOutcome& profile);

}  // namespace kplay::cli
