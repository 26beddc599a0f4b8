// Full-fidelity JSON forms of the engine's requests and results, for the worker protocol.
//
// Unlike report_json.hpp (the user-facing, documented CLI output), these round-trip every field so a
// RunReport made in kplay-worker arrives in the window or CLI exactly as the engine built it. The
// OutputView's arrays are not in the JSON: they travel as shared-memory blobs (protocol.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include "values/device_values.hpp"
#include "values/run_report.hpp"
#include "values/run_request.hpp"

namespace kplay {

void to_json(nlohmann::json& j, const RunRequest& value);
void from_json(const nlohmann::json& j, RunRequest& value);
void to_json(nlohmann::json& j, const RunReport& value);
void from_json(const nlohmann::json& j, RunReport& value);
void to_json(nlohmann::json& j, const CompileFileRequest& value);
void from_json(const nlohmann::json& j, CompileFileRequest& value);
void to_json(nlohmann::json& j, const CompileFileResult& value);
void from_json(const nlohmann::json& j, CompileFileResult& value);
void to_json(nlohmann::json& j, const DeviceQuery& value);
void from_json(const nlohmann::json& j, DeviceQuery& value);
void to_json(nlohmann::json& j, const KernelSpec& value);
void from_json(const nlohmann::json& j, KernelSpec& value);

}  // namespace kplay
