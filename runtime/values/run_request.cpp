// Names of the request's enums, and the command line that reproduces a request.
#include "values/run_request.hpp"

#include "base/enum_names.hpp"
#include "base/text.hpp"

namespace kplay {

namespace {
constexpr EnumNames<ThreadOrder, 3> kOrders{{{ThreadOrder::forward, "forward"}, {ThreadOrder::reverse, "reverse"}, {ThreadOrder::random, "random"}}};
constexpr EnumNames<Baseline, 3> kBaselines{{{Baseline::none, "none"}, {Baseline::cublas_fp32, "cublas-fp32"}, {Baseline::cublas_tf32, "cublas-tf32"}}};
}  // namespace

const char* thread_order_name(ThreadOrder order) { return enum_name(kOrders, order); }
std::optional<ThreadOrder> parse_thread_order(std::string_view text) { return enum_value(kOrders, text); }
const char* baseline_name(Baseline baseline) { return enum_name(kBaselines, baseline); }
std::optional<Baseline> parse_baseline(std::string_view text) { return enum_value(kBaselines, text); }

std::vector<std::string> rerun_arguments(const RunRequest& request) {
    std::vector<std::string> arguments{"run", request.kernel_path.string()};
    auto add = [&](std::string option, std::string value) {
        arguments.push_back(std::move(option));
        arguments.push_back(std::move(value));
    };
    if (!request.inputs.image_path.empty()) add("--image", request.inputs.image_path);
    if (!request.inputs.size.empty()) add("--size", request.inputs.size);
    auto dims = [](const std::vector<int64_t>& values) {
        std::vector<std::string> parts;
        for (auto v : values) parts.push_back(std::to_string(v));
        return join(parts, ",");
    };
    if (request.block) add("--block", dims(*request.block));
    if (request.grid && !request.grid->empty()) add("--grid", dims(*request.grid));
    if (request.smem) add("--smem", std::to_string(*request.smem));
    for (const auto& [name, value] : request.arg_overrides) add("--arg", name + "=" + value);
    for (const auto& [name, value] : request.init_overrides) add("--init", name + "=" + value);
    for (const auto& [name, value] : request.defines) add("-D", name + (value.empty() ? "" : "=" + value));
    if (request.inputs.seed != 1) add("--seed", std::to_string(request.inputs.seed));
    add("--warmup", "0");
    add("--repeat", "1");
    return arguments;
}

std::string rerun_command(const RunRequest& request) {
    std::string command = "kplay-cli";
    for (const auto& argument : rerun_arguments(request)) command += " " + argument;
    return command;
}

}  // namespace kplay
