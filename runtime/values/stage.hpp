// Where a run is: the stage it reached (or stopped at) and the phase the watchdog times it by.
//
// Stages follow the path of one run; a report's stage is where it stopped, `done` when it went
// through. Names exist only for JSON and the protocol.
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

namespace kplay {

enum class Stage {
    source,     // reading the kernel file
    spec,       // its annotation and task declaration
    compile,    // NVRTC (and, for the emulated device, the host compiler)
    device,     // choosing and opening the device
    load,       // loading the compiled kernel
    inputs,     // making the task's inputs
    launch,     // planning the launch: sizes, grid and block, arguments, checked against the limits
    reference,  // computing the expected outputs
    run,        // the launches
    check,      // comparing outputs with the reference
    done,       // went through
    worker,     // the worker process failed (crashed, hung, or sent a broken answer)
};
const char* stage_name(Stage stage);
// The stage in a message ("declaration failed: ..."): its name, except the spec stage, which users know
// as the file's task declaration.
const char* stage_label(Stage stage);
std::optional<Stage> parse_stage(std::string_view name);
inline std::ostream& operator<<(std::ostream& out, Stage stage) { return out << stage_name(stage); }

// What a run is doing, so the supervising client times it by that phase's limit: a slow CPU
// reference must not be mistaken for a hung kernel.
enum class Phase { compile, cpu, gpu };
const char* phase_name(Phase phase);
std::optional<Phase> parse_phase(std::string_view name);

}  // namespace kplay
