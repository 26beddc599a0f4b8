// JSON forms of the engine's results, for `kplay-cli --json` (documented in docs/CLI.md).
//
// The layout is stable: keys are only ever added within a version. Version 2 (per-buffer checks,
// test sizes, ceilings other than copy bandwidth, stage "source" for what was "input").
#pragma once

#include <nlohmann/json.hpp>

#include "values/device_values.hpp"
#include "values/compile_result.hpp"
#include "values/run_report.hpp"

namespace kplay {

constexpr int kJsonSchemaVersion = 2;

nlohmann::json to_json(const Diagnostic& diagnostic);
nlohmann::json to_json(const CompileResult& result);
nlohmann::json to_json(const DeviceInfo& device);
nlohmann::json to_json(const DeviceQuery& query);
nlohmann::json to_json(const BufferCheck& check);
nlohmann::json to_json(const RunReport& report);

}  // namespace kplay
