// `kplay-cli bench FILE...`: the kernels side by side with the device's ceilings, measured in one run:
// the copy ceiling (memory-bound tasks) and cuBLAS fp32 and TF32 (matmul).
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "option_parsing.hpp"
#include "report_json.hpp"
#include "kernel_spec.hpp"
#include "source_scan.hpp"
#include "worker_client.hpp"

namespace kplay::cli {

namespace {

struct BenchOptionsCli {
    std::vector<std::string> files;
    std::string image, size;
    int warmup = 5, repeat = 50;
    bool json = false, no_flush = false, no_cublas = false;
    double timeout = 30;
};

struct Row {
    std::string name, launch;
    RunReport report;
    bool is_baseline = false;
};

std::string throughput(const Row& row) {
    char text[48];
    if (row.report.task == "matmul") std::snprintf(text, sizeof text, "%.2f TFLOP/s", row.report.gflops / 1000);
    else std::snprintf(text, sizeof text, "%.1f GB/s", row.report.gbps);
    return text;
}

}  // namespace

std::function<int()> add_bench_command(CLI::App& app) {
    auto o = std::make_shared<BenchOptionsCli>();
    auto* command = app.add_subcommand("bench", "Time kernels side by side against the copy ceiling and cuBLAS");
    command->add_option("FILE", o->files, "Kernel files (.cu)")->required();
    command->add_option("--image", o->image, "Grayscale input image; default: the built-in image at --size (7680x4320)");
    command->add_option("--size", o->size, "Grayscale WxH (default 7680x4320); matmul N, MxN or MxNxK (default 4096)");
    command->add_option("--warmup", o->warmup, "Untimed launches before timing")->check(CLI::Range(0, 1000));
    command->add_option("--repeat", o->repeat, "Timed launches (median reported)")->check(CLI::Range(1, 100000));
    command->add_option("--timeout", o->timeout, "Stop a kernel after this many seconds")->check(CLI::PositiveNumber);
    command->add_flag("--no-l2-flush", o->no_flush, "Do not flush L2 between timed launches");
    command->add_flag("--no-cublas", o->no_cublas, "Leave out the cuBLAS rows");
    command->add_flag("--json", o->json, "Print JSON (schema in docs/CLI.md)");
    return [o]() -> int {
        WorkerOptions options;
        options.run_timeout_s = o->timeout;
        WorkerClient client(options);
        auto request_for = [&](const std::string& file, const std::string& task) {
            RunRequest request;
            request.kernel_path = file;
            request.warmup = o->warmup;
            request.repeat = o->repeat;
            request.flush_l2 = !o->no_flush;
            request.rotate_inputs = true;
            request.inputs.image_path = task == "grayscale" ? o->image : "";
            request.inputs.size = !o->size.empty() ? o->size : task == "matmul" ? "4096" : o->image.empty() ? "7680x4320" : "";
            return request;
        };
        // The task of each file decides its inputs; a quick local look at the annotation is enough.
        std::vector<Row> rows;
        bool any_matmul = false, first = true;
        std::string device_problem;
        for (const auto& file : o->files) {
            std::string task = "grayscale";
            try {
                task = resolve_kernel_spec(read_source_file(file), file).task;
            } catch (const std::exception&) {
                // the run reports the problem
            }
            any_matmul = any_matmul || task == "matmul";
            RunRequest request = request_for(file, task);
            request.remeasure_ceiling = first;  // the copy ceiling is measured in this run, once
            first = false;
            Row row{file, "", client.wait(client.submit_run(request)).run, false};
            if (row.report.stage == "device") device_problem = row.report.error;
            rows.push_back(std::move(row));
        }
        if (!device_problem.empty()) {
            std::cerr << "kplay-cli: cannot benchmark: " << device_problem << "\n";
            return kNoDevice;
        }
        std::vector<Row> baselines;
        std::string cublas_note;
        if (any_matmul && !o->no_cublas) {
            for (const char* baseline : {"cublas-fp32", "cublas-tf32"}) {
                RunRequest request = request_for("", "matmul");
                request.baseline = baseline;
                Row row{baseline, "library", client.wait(client.submit_run(request)).run, true};
                if (!row.report.ok()) cublas_note = row.report.error;
                baselines.push_back(std::move(row));
            }
        }
        const double cublas_fp32 = !baselines.empty() && baselines[0].report.ok() ? baselines[0].report.gflops : 0;

        int exit_code = kSuccess;
        nlohmann::json json_rows = nlohmann::json::array();
        std::vector<Row*> all;
        for (auto& row : baselines) all.push_back(&row);
        for (auto& row : rows) all.push_back(&row);
        double ceiling = 0;
        for (auto* row : all)
            if (row->report.ceiling.gbps > 0) ceiling = row->report.ceiling.gbps;
        if (!o->json) {
            const auto& device = rows.front().report.device;
            std::printf("device: %s; copy ceiling %.0f GB/s (512 MiB device-to-device, measured now)%s\n",
                        device ? device->name.c_str() : "?", ceiling,
                        cublas_fp32 > 0 ? ("; cuBLAS fp32 " + std::to_string(cublas_fp32 / 1000).substr(0, 5) + " TFLOP/s").c_str() : "");
            if (!cublas_note.empty()) std::printf("note: %s\n", cublas_note.c_str());
            std::printf("%-40s %-32s %10s %21s %14s %9s  %s\n", "kernel", "launch", "median ms", "(min - max)", "throughput",
                        "% ceiling", "check");
        }
        for (auto* row : all) {
            const RunReport& r = row->report;
            if (!row->is_baseline) row->launch = "grid " + r.launch.grid.text() + " block " + r.launch.block.text();
            // Kernels and the fp32 baseline are compared with cuBLAS fp32; the TF32 row is a different ceiling.
            const bool tf32_row = row->is_baseline && row->name == "cublas-tf32";
            const double percent = tf32_row ? 0
                                   : r.task == "matmul" ? (cublas_fp32 > 0 ? 100 * r.gflops / cublas_fp32 : 0)
                                                        : r.percent_of_ceiling;
            const std::string ceiling_name = r.task == "matmul" ? "cuBLAS fp32" : "copy";
            if (!r.ok()) exit_code = std::max(exit_code, static_cast<int>(kCudaError));
            else if (!r.check.passed) exit_code = exit_code == kSuccess ? kCheckFailed : exit_code;
            std::string name = row->is_baseline ? r.kernel : row->name;
            if (name.rfind("kernels_src/", 0) == 0) name = name.substr(12);
            if (o->json) {
                json_rows.push_back({{"name", name}, {"baseline", row->is_baseline}, {"task", r.task}, {"launch", row->launch},
                                     {"ok", r.ok()}, {"error", r.error}, {"median_ms", r.kernel_ms.median}, {"min_ms", r.kernel_ms.min},
                                     {"max_ms", r.kernel_ms.max}, {"gbps", r.gbps}, {"gflops", r.gflops},
                                     {"percent_of", ceiling_name}, {"percent", percent}, {"passed", r.check.passed},
                                     {"check", r.check.summary}, {"input", r.input_description}, {"input_copies", r.input_copies}});
                continue;
            }
            if (!r.ok()) {
                std::printf("%-40s %s\n", name.c_str(), ("FAILED at " + r.stage + ": " + r.error.substr(0, r.error.find('\n'))).c_str());
                continue;
            }
            char range[48], pct[16];
            std::snprintf(range, sizeof range, "(%.4f - %.4f)", r.kernel_ms.min, r.kernel_ms.max);
            std::snprintf(pct, sizeof pct, "%.1f%%", percent);
            std::printf("%-40s %-32s %10.4f %21s %14s %9s  %s\n", name.c_str(), row->launch.c_str(), r.kernel_ms.median, range,
                        throughput(*row).c_str(), percent > 0 ? pct : "-", r.check.passed ? "PASS" : "FAIL");
        }
        if (o->json) {
            const auto& device = rows.front().report.device;
            std::cout << nlohmann::json{{"schema", kJsonSchemaVersion}, {"device", device ? device->name : ""},
                                        {"copy_ceiling_gbps", ceiling}, {"cublas_fp32_gflops", cublas_fp32},
                                        {"cublas_note", cublas_note}, {"warmup", o->warmup}, {"repeat", o->repeat},
                                        {"l2_flush", !o->no_flush}, {"rows", json_rows}}
                             .dump(2)
                      << "\n";
        } else {
            std::printf("%d warm-up and %d timed launches each%s; inputs that fit in L2 rotate through copies\n", o->warmup, o->repeat,
                        o->no_flush ? "" : ", L2 flushed before each");
        }
        return exit_code;
    };
}

}  // namespace kplay::cli
