// `kplay-cli devices`: the GPUs the driver sees (or why there are none), and the emulated CPU device.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "emu/emulated_device.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/host_compiler.hpp"
#include "exit_codes.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "client/report_json.hpp"
#include "client/worker_client.hpp"

namespace kplay::cli {

std::function<int()> add_devices_command(CLI::App& app) {
    auto* command = app.add_subcommand("devices", "List CUDA devices and their limits");
    auto json = std::make_shared<bool>(false);
    command->add_flag("--json", *json, "Print JSON (schema in docs/CLI.md)");
    return [json] {
        WorkerClient client;
        const WorkerResult answer = client.wait(client.submit_devices());
        if (!answer.ok()) {
            std::cerr << "kplay-cli: " << answer.failure_message << "\n";
            return kCudaError;
        }
        const DeviceQuery& query = answer.devices;
        // The emulated CPU device is always there when a host compiler is.
        const HostCompiler& compiler = host_compiler();
        const DeviceInfo emulated = emulated_device_info(default_emulation_workers());
        if (*json) {
            nlohmann::json out = to_json(query);
            out["nvrtc_version"] = nvrtc_version_string();
            out["emulated_device"] = {{"name", emulated.name}, {"available", !compiler.path.empty()},
                                      {"host_compiler", compiler.path.empty() ? compiler.problem : compiler.version},
                                      {"default", !query.problem().empty()}};
            std::cout << out.dump(2) << "\n";
        } else {
            std::printf("NVRTC %s; CUDA driver %s\n", nvrtc_version_string().c_str(),
                        query.driver.ready() ? cuda_version_string(query.driver.driver_version).c_str() : "not available");
            for (const auto& d : query.devices)
                std::printf("[%d] %s  %s (cc %d.%d)  %d SMs  %.1f GiB  L2 %d MiB  max smem/block %d KiB (opt-in %d KiB)\n",
                            d.ordinal, d.name.c_str(), d.arch().c_str(), d.cc_major, d.cc_minor, d.sm_count,
                            d.total_memory / double(1 << 30), d.l2_bytes >> 20, d.limits.max_smem_per_block >> 10,
                            d.limits.max_smem_per_block_optin >> 10);
            if (!query.problem().empty()) std::printf("%s\n", query.problem().c_str());
            if (compiler.path.empty())
                std::printf("[cpu] emulated device unavailable: %s\n", compiler.problem.c_str());
            else
                std::printf("[cpu] %s  host compiler %s  (--device cpu%s; times are not GPU times)\n", emulated.name.c_str(),
                            compiler.version.c_str(), query.problem().empty() ? "" : "; the default here");
        }
        return query.problem().empty() ? kSuccess : kNoDevice;
    };
}

}  // namespace kplay::cli
