// The srun command line for a worker, and squeue's and scancel's answers read.
#include "client/slurm_target.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "base/subprocess.hpp"
#include "base/text.hpp"

namespace kplay {

namespace {

constexpr double kSlurmCommandTimeoutS = 15;  // squeue and scancel answer at once unless slurmctld is stuck

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::string absolute_worker(const std::string& worker) {
    if (worker.empty() || worker.front() == '/') return worker;
    const std::string home = environment("HOME");
    return home.empty() ? worker : home + "/" + worker;
}

std::string user_filter() { return "--user=" + std::to_string(getuid()); }

}  // namespace

SlurmPlacement slurm_placement(const std::string& partition, int number) {
    SlurmPlacement placement;
    placement.partition = partition;
    if (partition.empty()) placement.allocation = environment("SLURM_JOB_ID");
    placement.job_name = "kplay-worker-" + std::to_string(getpid()) + "-" + std::to_string(number);
    return placement;
}

RemoteTarget slurm_target(const SlurmPlacement& placement, const std::string& worker) {
    RemoteTarget target;
    std::vector<std::string>& argv = target.argv;
    if (placement.allocation.empty() && !environment("SLURM_JOB_ID").empty()) {
        // A job of its own from inside an allocation: srun would otherwise make a step of the allocation.
        argv = {"env", "-u", "SLURM_JOB_ID", "-u", "SLURM_JOBID"};
    }
    argv.push_back("srun");
    if (!placement.allocation.empty()) {
        argv.push_back("--jobid=" + placement.allocation);
        argv.push_back("--exact");
    } else if (!placement.partition.empty()) {
        argv.push_back("--partition=" + placement.partition);
    }
    // One task on one node with one GPU, whatever SLURM_NTASKS and kin an enclosing job left behind;
    // --unbuffered, or srun forwards stdout a line at a time and the binary frames stall; --quiet keeps
    // srun's progress lines ("job N queued and waiting for resources") off stderr, which the link shows.
    for (const char* option : {"--nodes=1", "--ntasks=1", "--gres=gpu:1", "--quiet", "--unbuffered"})
        argv.push_back(option);
    argv.push_back("--job-name=" + placement.job_name);
    argv.push_back(absolute_worker(worker));
    argv.push_back("--stdio");
    target.label = !placement.allocation.empty() ? "Slurm job " + placement.allocation
                   : placement.partition.empty() ? "Slurm"
                                                 : "Slurm partition " + placement.partition;
    target.try_command = join(argv, " ");
    return target;
}

std::string slurm_job_named(const std::string& job_name) {
    const ProcessResult listed = run_process(
        {"squeue", "--noheader", "--format=%A", "--name=" + job_name, user_filter()}, kSlurmCommandTimeoutS);
    if (listed.exit_code != 0) return "";
    const std::string id = trim(listed.output.substr(0, listed.output.find('\n')));
    return id.find_first_not_of("0123456789") == std::string::npos ? id : "";
}

std::optional<SlurmJobState> slurm_job_state(const std::string& job) {
    const ProcessResult listed =
        run_process({"squeue", "--noheader", "--format=%T %r", "--jobs=" + job}, kSlurmCommandTimeoutS);
    std::istringstream line(listed.output);
    SlurmJobState state;
    if (listed.exit_code != 0 || !(line >> state.state)) return std::nullopt;
    line >> state.reason;
    return state;
}

void slurm_cancel(const std::vector<std::string>& jobs, double wait_s) noexcept {
    if (jobs.empty()) return;
    try {
        std::vector<std::string> argv{"scancel"};
        argv.insert(argv.end(), jobs.begin(), jobs.end());
        (void)run_process(argv, kSlurmCommandTimeoutS);
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
        while (std::chrono::steady_clock::now() < until) {
            const ProcessResult listed = run_process(
                {"squeue", "--noheader", "--format=%A", "--jobs=" + join(jobs, ",")}, kSlurmCommandTimeoutS);
            if (listed.exit_code != 0 || trim(listed.output).empty()) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    } catch (...) {
        // Only when memory or threads ran out: the jobs then end at Slurm's own limits.
    }
}

}  // namespace kplay
