// A worker's answer and a WorkerResult, each way: the client reads an answer's body and blobs into the
// result's part for its kind; a relay that lost its worker writes the answer a worker would have sent
// with what the failed result holds. And the two things the client's supervision reads or adds to a
// run's answer, whether it was decoded or is relayed as it came (WorkerResult::answer).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "client/worker_result.hpp"
#include "protocol/frames.hpp"

namespace kplay {

// Fills result.run, .compile, .devices or .stats (by result.kind) from the answer's body and blobs;
// throws ProtocolError or a JSON exception for an answer of the wrong shape.
void read_answer(const Frame& answer, WorkerResult& result);

// {"id", "type", "body"[, "blobs": []]} with the body of result's kind: a failed run's report, a failed
// compile's input error, and so on.
nlohmann::json failed_answer(const WorkerResult& result);

// A run's answer says the worker's CUDA context is dead (a sticky fault).
bool reports_sticky_fault(const WorkerResult& result);
// Adds `text` to a run's error message.
void append_to_run_error(WorkerResult& result, const std::string& text);

}  // namespace kplay
