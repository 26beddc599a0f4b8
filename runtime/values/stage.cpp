// Names of stages and phases, for JSON and the protocol, and the words a person reads for a stage.
#include "values/stage.hpp"

#include "base/enum_names.hpp"

namespace kplay {

namespace {
constexpr EnumNames<Stage, 12> kStages{{{Stage::source, "source"},
                                        {Stage::spec, "spec"},
                                        {Stage::compile, "compile"},
                                        {Stage::device, "device"},
                                        {Stage::load, "load"},
                                        {Stage::inputs, "inputs"},
                                        {Stage::launch, "launch"},
                                        {Stage::reference, "reference"},
                                        {Stage::run, "run"},
                                        {Stage::check, "check"},
                                        {Stage::done, "done"},
                                        {Stage::worker, "worker"}}};
constexpr EnumNames<Phase, 3> kPhases{{{Phase::compile, "compile"}, {Phase::cpu, "cpu"}, {Phase::gpu, "gpu"}}};
}  // namespace

const char* stage_name(Stage stage) { return enum_name(kStages, stage); }
std::optional<Stage> parse_stage(std::string_view name) { return enum_value(kStages, name); }
const char* stage_label(Stage stage) { return stage == Stage::spec ? "declaration" : stage_name(stage); }
const char* phase_name(Phase phase) { return enum_name(kPhases, phase); }
std::optional<Phase> parse_phase(std::string_view name) { return enum_value(kPhases, name); }

}  // namespace kplay
