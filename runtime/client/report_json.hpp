// JSON forms of the engine's results, for `kplay-cli --json` (documented in docs/CLI.md).
//
// The layout is stable: keys are only ever added. Version 1.
#pragma once

#include <nlohmann/json.hpp>

#include "cuda/device_info.hpp"
#include "run/engine.hpp"

namespace kplay {

constexpr int kJsonSchemaVersion = 1;

nlohmann::json to_json(const Diagnostic& diagnostic);
nlohmann::json to_json(const CompileResult& result);
nlohmann::json to_json(const DeviceInfo& device);
nlohmann::json to_json(const DeviceQuery& query);
nlohmann::json to_json(const RunReport& report);

}  // namespace kplay
