// kplay-cli: the headless face of the engine, for scripts, editors, tests and benchmarks.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "kplay_version.hpp"

int main(int argc, char** argv) {
    CLI::App app{"kplay-cli: compile and run CUDA kernel files with NVRTC and the CUDA driver.\n", "kplay-cli"};
    app.require_subcommand(1);
    app.set_version_flag("--version", kplay::version_line("kplay-cli"), "Print the version and the git commit, then exit");
    // Each subcommand's --help ends with its own examples; the top-level help lists them all.
    const std::vector<std::string> examples = {
        "kplay-cli devices",
        "kplay-cli devices --pool local,ssh:gpu-box --pool \"slurm:a100 x4\"",
        "kplay-cli compile kernels_src/grayscale/01_seed_1d.cu",
        "kplay-cli run kernels_src/grayscale/01_seed_1d.cu --image photo.jpg --out gray.png",
        "kplay-cli run kernels_src/matmul/02_tiled_dynamic_smem.cu --size 1000x999x1001 --arg tw=32",
        "kplay-cli run kernels_src/matmul/01_seed_naive.cu --block 32,8 --repeat 50 --json",
        "kplay-cli run kernels_src/grayscale/01_seed_1d.cu --device cpu --who-wrote 'out[700]'",
        "kplay-cli bench kernels_src/grayscale/*.cu --size 7680x4320",
        "kplay-cli bench kernels_src/matmul/*.cu --size 4096",
        "kplay-cli inspect kernels_src/matmul/08_warp_tiling.cu --sass",
        "kplay-cli sweep kernels_src/grayscale/01_seed_1d.cu --param \"block_x=32..1024 step *2\"",
        "kplay-cli export kernels_src/grayscale/01_seed_1d.cu --torch -o gray.py && python3 gray.py",
        "kplay-cli debug kernels_src/grayscale/01_seed_1d.cu --size 64x4 --thread 5 --line 13 --do print:i,step",
        "kplay-cli remote-install gpu-box && kplay-cli run kernels_src/grayscale/01_seed_1d.cu --remote gpu-box",
        "kplay-cli completion bash > ~/.local/share/bash-completion/completions/kplay-cli",
    };
    const std::string exit_codes = R"(
Exit codes: 0 ok, 1 compile error, 2 usage error, 3 input error (file, annotation, image, launch
configuration), 4 no CUDA driver/device, 5 CUDA error at run time, 6 output does not match the reference.)";
    const auto footer = [&](const std::string& command) {
        std::string text = "Examples:\n";
        for (const std::string& example : examples)
            if (command.empty() || example.rfind("kplay-cli " + command + " ", 0) == 0) text += "  " + example + "\n";
        return text + exit_codes;
    };
    app.footer(footer(""));
    auto devices = kplay::cli::add_devices_command(app);
    auto compile = kplay::cli::add_compile_command(app);
    auto run = kplay::cli::add_run_command(app);
    auto bench = kplay::cli::add_bench_command(app);
    auto inspect = kplay::cli::add_inspect_command(app);
    auto sweep = kplay::cli::add_sweep_command(app);
    auto export_torch = kplay::cli::add_export_command(app);
    auto debug = kplay::cli::add_debug_command(app);
    auto remote_install = kplay::cli::add_remote_install_command(app);
    auto completion = kplay::cli::add_completion_command(app);
    for (CLI::App* command : app.get_subcommands({})) command->footer(footer(command->get_name()));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int code = app.exit(error);
        return code == 0 ? kplay::cli::kSuccess : kplay::cli::kUsageError;
    }
    try {
        if (app.got_subcommand("devices")) return devices();
        if (app.got_subcommand("compile")) return compile();
        if (app.got_subcommand("run")) return run();
        if (app.got_subcommand("bench")) return bench();
        if (app.got_subcommand("inspect")) return inspect();
        if (app.got_subcommand("sweep")) return sweep();
        if (app.got_subcommand("export")) return export_torch();
        if (app.got_subcommand("debug")) return debug();
        if (app.got_subcommand("remote-install")) return remote_install();
        if (app.got_subcommand("completion")) return completion();
    } catch (const std::exception& error) {
        std::cerr << "kplay-cli: " << error.what() << "\n";
        return kplay::cli::kInputError;
    }
    return kplay::cli::kUsageError;
}
