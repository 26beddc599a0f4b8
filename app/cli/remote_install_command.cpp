// `kplay-cli remote-install [user@]host[:port]`: copies what kplay-worker needs to ~/.kplay on a GPU
// machine over ssh (the program, the shared libraries it uses that are not the C library's, kernels_src
// and the emulated device's headers), then checks the host: the worker starts and says hello, the
// driver, the GPUs, NVRTC, the emulated device, compute-sanitizer and ncu.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "base/install_paths.hpp"
#include "base/subprocess.hpp"
#include "values/device_values.hpp"
#include "client/worker_client.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "client/remote_target.hpp"

namespace kplay::cli {

namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& word) {
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string shell_line(const std::vector<std::string>& argv) {
    std::string line;
    for (const auto& word : argv) line += (line.empty() ? "" : " ") + quoted(word);
    return line;
}

// The shared libraries a program loads that a GPU host may not have: all but the C library's own.
std::vector<fs::path> libraries_to_copy(const fs::path& program) {
    std::vector<fs::path> libraries;
    const ProcessResult ldd = run_process({"ldd", program.string()}, 30);
    std::istringstream lines(ldd.output);
    for (std::string line; std::getline(lines, line);) {
        const auto arrow = line.find("=> /");
        if (arrow == std::string::npos) continue;
        const std::string path = line.substr(arrow + 3, line.find(" (", arrow) - arrow - 3);
        const std::string name = fs::path(path).filename().string();
        bool system = false;
        for (const char* base : {"libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so", "ld-linux", "libcuda.so"})
            system = system || name.rfind(base, 0) == 0;
        if (!system) libraries.emplace_back(path);
    }
    return libraries;
}

}  // namespace

std::function<int()> add_remote_install_command(CLI::App& app) {
    auto* command = app.add_subcommand("remote-install", "Install kplay-worker on a GPU machine over ssh, then check it");
    auto destination = std::make_shared<std::string>();
    auto check_only = std::make_shared<bool>(false);
    command->add_option("HOST", *destination, "[user@]host[:port], as for --remote")->required();
    command->add_flag("--check", *check_only, "Only check the host (copy nothing)");
    return [destination, check_only]() -> int {
        const RemoteTarget target = ssh_target(*destination);
        const std::vector<std::string> ssh = ssh_prefix(target);
        std::error_code error;
        const fs::path self = fs::read_symlink("/proc/self/exe", error);
        const fs::path worker = self.parent_path() / "kplay-worker";
        const fs::path kernels = kernels_dir(), emu = emulated_include_dir();

        std::vector<std::string> probe = ssh;
        probe.insert(probe.end(), {"--", "uname -sm"});
        const ProcessResult reached = run_process(probe, 60);
        if (reached.exit_code != 0) {
            std::cerr << "kplay-cli: " << connection_failure_message(target, "ssh exited with status " + std::to_string(reached.exit_code), reached.exit_code, reached.output)
                      << "\n";
            return kNoDevice;
        }
        std::printf("reached %s (%s)\n", target.label.c_str(), reached.output.substr(0, reached.output.find('\n')).c_str());

        if (!*check_only) {
            if (!fs::is_regular_file(worker) || kernels.empty() || emu.empty()) {
                std::cerr << "kplay-cli: cannot find kplay-worker, kernels_src or runtime/emu/include beside " << self << "\n";
                return kInputError;
            }
            // One tar stream with the installed layout the worker looks for (base/install_paths): bin/, lib/
            // (its RPATH), share/kplay/kernels_src/, share/kplay/emu/include/.
            const fs::path stage = fs::temp_directory_path() / ("kplay-install-" + std::to_string(getpid()));
            const fs::path data = installed_data_dir(stage / "bin");
            fs::remove_all(stage, error);
            fs::create_directories(stage / "bin");
            fs::create_directories(stage / "lib");
            fs::create_directories(data / "emu");
            fs::copy_file(worker, stage / "bin" / "kplay-worker");
            for (const fs::path& library : libraries_to_copy(worker)) fs::copy_file(library, stage / "lib" / library.filename(), fs::copy_options::skip_existing, error);
            fs::copy(kernels, data / "kernels_src", fs::copy_options::recursive, error);
            fs::copy(emu, data / "emu" / "include", fs::copy_options::recursive, error);
            std::vector<std::string> remote = ssh;
            remote.insert(remote.end(), {"--", "rm -rf .kplay.new && mkdir -p .kplay.new && tar xzf - -C .kplay.new && rm -rf .kplay && mv .kplay.new .kplay"});
            const std::string pipeline = "tar czf - -C " + quoted(stage.string()) + " . | " + shell_line(remote);
            const ProcessResult copied = run_process({"/bin/sh", "-c", pipeline}, 600);
            fs::remove_all(stage, error);
            if (copied.exit_code != 0) {
                std::cerr << "kplay-cli: copying to " << target.label << " failed:\n" << copied.output << "\n";
                return kInputError;
            }
            std::printf("installed kplay-worker in ~/.kplay on %s\n", target.label.c_str());
        }

        // The check: the installed worker answers through the same path a run takes.
        WorkerOptions options;
        options.remote = target;
        WorkerClient client(options);
        const WorkerResult answer = client.wait(client.submit_devices());
        if (!answer.ok()) {
            std::cerr << "kplay-cli: " << answer.failure_message << "\n";
            return kNoDevice;
        }
        const DeviceQuery& query = answer.devices;
        std::printf("  worker      answers (connection %.0f ms, round trip %.1f ms)\n", client.remote_status().connect_ms,
                    answer.link_ms);
        std::printf("  NVRTC       %s\n", query.nvrtc_version.c_str());
        std::printf("  driver      %s\n", query.driver.ready() ? cuda_version_string(query.driver.driver_version).c_str() : query.problem().c_str());
        for (const auto& d : query.devices) std::printf("  GPU %d       %s (%s, %d SMs)\n", d.ordinal, d.name.c_str(), d.arch().c_str(), d.sm_count);
        std::printf("  emulated    %s\n", query.emulated.available ? query.emulated.device.name.c_str() : query.emulated.problem.c_str());
        std::vector<std::string> tools = ssh;
        tools.insert(tools.end(), {"--", "PATH=$PATH:/usr/local/cuda/bin; for t in compute-sanitizer ncu; do printf '%s ' $t; command -v $t || echo missing; done"});
        const ProcessResult found = run_process(tools, 60);
        std::istringstream lines(found.output);
        for (std::string line; std::getline(lines, line);) {
            const auto space = line.find(' ');
            std::printf("  %-11s %s\n", line.substr(0, space).c_str(), space == std::string::npos ? "" : line.substr(space + 1).c_str());
        }
        return query.devices.empty() && !query.emulated.available ? kNoDevice : kSuccess;
    };
}

}  // namespace kplay::cli
