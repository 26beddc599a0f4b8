// The failure kinds' names, as a remote supervisor writes them into its answers.
#include "client/worker_result.hpp"

#include "base/enum_names.hpp"

namespace kplay {

namespace {

constexpr EnumNames<WorkerFailure, 7> kFailures{{{WorkerFailure::none, "none"},
                                                 {WorkerFailure::timeout, "timeout"},
                                                 {WorkerFailure::crashed, "crashed"},
                                                 {WorkerFailure::protocol, "protocol"},
                                                 {WorkerFailure::gave_up, "gave_up"},
                                                 {WorkerFailure::start_failed, "start_failed"},
                                                 {WorkerFailure::disconnected, "disconnected"}}};

}  // namespace

const char* worker_failure_name(WorkerFailure failure) { return enum_name(kFailures, failure); }
std::optional<WorkerFailure> parse_worker_failure(std::string_view text) { return enum_value(kFailures, text); }

}  // namespace kplay
