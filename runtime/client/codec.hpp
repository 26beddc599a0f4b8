// Full-fidelity JSON forms of the engine's requests and results, for the worker protocol.
//
// Unlike report_json.hpp (the user-facing, documented CLI output), these round-trip every field so a
// RunReport made in kplay-worker arrives in the window or CLI exactly as the engine built it. Output
// bytes and maps are not in the JSON: they travel as shared-memory blobs.
#pragma once

#include <nlohmann/json.hpp>

#include "run/engine.hpp"

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

}  // namespace kplay
