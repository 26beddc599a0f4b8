// The kplay-cli subcommands: each registers its options and runs against the engine.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace kplay::cli {

// Each returns the function that runs the command once the command line is parsed.
std::function<int()> add_devices_command(CLI::App& app);
std::function<int()> add_compile_command(CLI::App& app);
std::function<int()> add_run_command(CLI::App& app);
std::function<int()> add_bench_command(CLI::App& app);
std::function<int()> add_inspect_command(CLI::App& app);
std::function<int()> add_sweep_command(CLI::App& app);
std::function<int()> add_export_command(CLI::App& app);
std::function<int()> add_debug_command(CLI::App& app);
std::function<int()> add_remote_install_command(CLI::App& app);
// Hidden: the completion script, from `app`'s own table (call it after the other commands are added).
std::function<int()> add_completion_command(CLI::App& app);

}  // namespace kplay::cli
