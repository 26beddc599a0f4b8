// `kplay-cli devices`: the GPUs the driver sees (or why there are none), and the emulated CPU device; with
// --pool, the pool's workers grouped by device, and each member that did not come up.
#include <cstdio>
#include <iostream>

#include "values/report_json.hpp"
#include "client/worker_client.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "client/pool_spec.hpp"
#include "client/worker_pool.hpp"
#include "kplay_version.hpp"
#include "pool_printer.hpp"
#include "remote_options.hpp"

namespace kplay::cli {

namespace {

// Exit codes as without a pool: a worker that failed is 5; a pool without a GPU, 4.
int devices_of_pool(const PoolCliOptions& options, bool json) {
    const std::vector<PoolMember> members = parse_pool(options.specs);
    const WorkerPool pool = WorkerPool::start(members, pool_options(options));
    if (json) std::cout << pool_json(pool, members).dump(2) << "\n";
    else std::cout << version_line("kplay") << "\n" << pool_text(pool);
    if (!pool.failures().empty()) return kCudaError;
    for (const DeviceGroup& group : pool.groups())
        if (!group.emulated) return kSuccess;
    return kNoDevice;
}

}  // namespace

std::function<int()> add_devices_command(CLI::App& app) {
    auto* command = app.add_subcommand("devices", "List CUDA devices and their limits");
    auto json = std::make_shared<bool>(false);
    auto remote = std::make_shared<RemoteOptions>();
    command->add_flag("--json", *json, "Print JSON (schema in docs/CLI.md)");
    add_remote_options(command, *remote);
    auto pool = std::make_shared<PoolCliOptions>();
    add_pool_options(command, *pool);
    return [json, remote, pool]() -> int {
        if (!pool->specs.empty()) return devices_of_pool(*pool, *json);
        WorkerClient client(worker_options(*remote));
        const WorkerResult answer = client.wait(client.submit_devices());
        if (!answer.ok()) {
            std::cerr << "kplay-cli: " << answer.failure_message << "\n";
            return kCudaError;
        }
        const DeviceQuery& query = answer.devices;
        // The emulated CPU device is always there when a host compiler is (the worker says).
        const EmulatedDeviceStatus& emulated = query.emulated;
        if (*json) {
            std::cout << to_json(query).dump(2) << "\n";
        } else {
            std::printf("%s\n", version_line("kplay").c_str());
            std::printf("NVRTC %s; CUDA driver %s\n", query.nvrtc_version.c_str(),
                        query.driver.ready() ? cuda_version_string(query.driver.driver_version).c_str() : "not available");
            for (const auto& d : query.devices)
                std::printf("[%d] %s  %s (cc %d.%d)  %d SMs  %.1f GiB  L2 %d MiB  max smem/block %d KiB (opt-in %d KiB)\n",
                            d.ordinal, d.name.c_str(), d.arch().c_str(), d.cc_major, d.cc_minor, d.sm_count,
                            d.total_memory / double(1 << 30), d.l2_bytes >> 20, d.limits.max_smem_per_block >> 10,
                            d.limits.max_smem_per_block_optin >> 10);
            if (!query.problem().empty()) std::printf("%s\n", query.problem().c_str());
            if (!emulated.available)
                std::printf("[cpu] emulated device unavailable: %s\n", emulated.problem.c_str());
            else
                std::printf("[cpu] %s  host compiler %s  (--device cpu%s; times are not GPU times)\n", emulated.device.name.c_str(),
                            emulated.host_compiler.c_str(), query.problem().empty() ? "" : "; the default here");
        }
        return query.problem().empty() ? kSuccess : kNoDevice;
    };
}

}  // namespace kplay::cli
