// A pool of workers for the reader: a line per device group (its model, compute capability, how many
// workers and where they run) and a line per member that did not come up; or the same as JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/worker_pool.hpp"

namespace kplay::cli {

std::string pool_text(const WorkerPool& pool);

// `members`: the pool as parsed, whose entries the JSON repeats as written.
nlohmann::json pool_json(const WorkerPool& pool, const std::vector<PoolMember>& members);

}  // namespace kplay::cli
