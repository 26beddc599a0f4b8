// fork -> (child) load, threads, sandbox, run, report through shared memory -> (parent) wait, explain.
// A call (a host reference) takes the same path with one function called once instead of a grid.
#include "emu/emulated_launch.hpp"

#include <dlfcn.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <tuple>

#include "emu/block_residency.hpp"
#include "emu/emulated_limits.hpp"
#include "emu/grid_barrier.hpp"
#include "emu/message_names.hpp"
#include "emu/preemption.hpp"
#include "emu/sandbox.hpp"
#include "emu/sanitizer_stop.hpp"
#include "emu/tracked_launch.hpp"
#include "emu/writer_map_pages.hpp"
#include "base/subprocess.hpp"
#include "base/unique_fd.hpp"

namespace kplay {

namespace {

constexpr size_t kLogBytes = 1 << 20;
constexpr uint32_t kLogLineLimit = 4096;
constexpr int kWarningSlots = 8;

// Written by the launch process, read by the caller after it ends. Only atomics and plain bytes:
// the fault handler writes here too.
struct SharedStatus {
    std::atomic<int> claimed;  // the first failure wins; later ones (other workers) are dropped
    std::atomic<int> finished;
    char kind[32];
    char message[2048];
    char file[512];
    int line;
    // A hardware fault, filled by the signal handler.
    int signal;
    int code;  // si_code: SI_KERNEL for a general protection fault (a non-canonical address)
    int syscall;
    char syscall_path[256];  // the path an open/openat asked for, for the message
    uintptr_t address, pc, so_base;
    int is_write;  // -1 unknown
    int has_thread;
    kplay_emu_dim thread_idx, block_idx;
    double kernel_ms;
    int workers;
    // A call (run_emulated_call): how far it says it has got, and what ended it (an assert, an exception).
    double progress;
    char failure[1024];
    std::atomic<size_t> log_used;
    std::atomic<uint32_t> log_lines, log_dropped;
    std::atomic<int> warning_count;
    char warnings[kWarningSlots][512];
    RaceSlots races;  // a tracked launch's, written after the grid, or when it failed (races_published)
    int races_published;
    WriterSlots writers;
    SiteSlots sites;
    StallSlot stall;  // where the resident blocks all wait, while they do
    char log[kLogBytes];
};

SharedStatus* g_status = nullptr;  // the launch process's view (set after fork)
// A tracked launch's tracker: a failure still reports the races seen before it, its likely cause.
AccessTracker* g_tracker = nullptr;

// Once the launch has failed (its claim won): the tracker is consistent unless it failed inside it.
void publish_races_before_failure() {
    if (!g_tracker || g_tracker->busy()) return;
    publish_races(*g_tracker, g_status->so_base, g_status->races);
    g_status->races_published = 1;
}

void copy_text(char* to, size_t capacity, const char* from) {
    size_t i = 0;
    for (; from && from[i] && i + 1 < capacity; ++i) to[i] = from[i];
    to[i] = 0;
}

// Text the launch process wrote: the code that ran there could have left it without an end.
template <size_t N>
std::string bounded(const char (&text)[N]) {
    return std::string(text, strnlen(text, N));
}

// A failure that lost the claim to another worker's waits for that worker's _exit: exiting here would end
// the process (every thread) while the winner is still writing its account, which then reads as empty.
// nanosleep, not pause: the sandbox allows it, and a call it refuses here (inside the fault handler, with
// SIGSYS blocked) would end the process by SIGSYS instead of the winner's account.
[[noreturn]] void wait_for_the_claimant() {
    for (;;) {
        timespec second{1, 0};
        nanosleep(&second, nullptr);
    }
}

void fail_and_exit(const std::string& kind, const std::string& message, const char* file, int line) {
    if (g_status->claimed.exchange(1) != 0) wait_for_the_claimant();
    copy_text(g_status->kind, sizeof g_status->kind, kind.c_str());
    copy_text(g_status->message, sizeof g_status->message, message.c_str());
    copy_text(g_status->file, sizeof g_status->file, file);
    g_status->line = line;
    publish_races_before_failure();
    _exit(2);
}

void fault_handler(int signal, siginfo_t* info, void* context) {
    if (g_status->claimed.exchange(1) != 0) wait_for_the_claimant();
    copy_text(g_status->kind, sizeof g_status->kind, signal == SIGSYS ? "sandbox" : signal == SIGABRT ? "abort" : "fault");
    g_status->signal = signal;
    g_status->code = info->si_code;
    g_status->address = reinterpret_cast<uintptr_t>(info->si_addr);
    g_status->is_write = -1;
#if defined(__x86_64__)
    const auto* uc = static_cast<const ucontext_t*>(context);
    g_status->pc = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
    if (signal == SIGSEGV) g_status->is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
    (void)context;
#endif
    if (signal == SIGSYS) {
        g_status->syscall = info->si_syscall;
#if defined(__x86_64__)
        // open(path, ...) and openat(dir, path, ...): copy the path, byte by byte (no libc in a handler).
        const auto* regs = static_cast<const ucontext_t*>(context)->uc_mcontext.gregs;
        const char* path = info->si_syscall == SYS_open ? reinterpret_cast<const char*>(regs[REG_RDI])
                           : info->si_syscall == SYS_openat ? reinterpret_cast<const char*>(regs[REG_RSI])
                                                            : nullptr;
        if (path) copy_text(g_status->syscall_path, sizeof g_status->syscall_path, path);
#endif
    }
    if (const kplay_emu_thread* thread = BlockScheduler::current_thread()) {
        g_status->has_thread = 1;
        g_status->thread_idx = thread->thread_idx;
        g_status->block_idx = thread->block->block_idx;
    }
    // A synchronous fault, in the kernel's own code on the one tracked worker; the process ends here anyway.
    if (signal == SIGSEGV || signal == SIGBUS || signal == SIGFPE || signal == SIGILL) publish_races_before_failure();
    _exit(3);
}

// `with_abort`: a call may abort() (assert, std::terminate); a kernel cannot reach abort.
void install_fault_handlers(bool with_abort) {
    struct sigaction action {};
    action.sa_sigaction = fault_handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGSYS}) sigaction(signal, &action, nullptr);
    if (with_abort) sigaction(SIGABRT, &action, nullptr);
}

// This thread's own signal stack, so that a stack overflow is still reported. Mapped, never freed: the
// process ends with the launch, and a sanitizer runtime unmaps the alternate stack it finds at thread
// exit, which must not be memory the allocator owns.
void use_alternate_signal_stack() {
    constexpr size_t kAlternateBytes = 64 * 1024;
    void* alternate = mmap(nullptr, kAlternateBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alternate == MAP_FAILED) return;
    stack_t stack{};
    stack.ss_sp = alternate;
    stack.ss_size = kAlternateBytes;
    sigaltstack(&stack, nullptr);
}

void append_log(const std::string& line) {
    if (g_status->log_lines.fetch_add(1) >= kLogLineLimit) {
        g_status->log_dropped.fetch_add(1);
        return;
    }
    const size_t need = line.size() + 1;
    const size_t at = g_status->log_used.fetch_add(need);
    if (at + need > kLogBytes) {
        g_status->log_dropped.fetch_add(1);
        return;
    }
    std::memcpy(g_status->log + at, line.data(), line.size());
    g_status->log[at + line.size()] = '\n';
}

void add_warning(const std::string& text) {
    const int slot = g_status->warning_count.fetch_add(1);
    if (slot < kWarningSlots) copy_text(g_status->warnings[slot], sizeof g_status->warnings[slot], text.c_str());
}

// Thorough mode: when a sanitizer ends the process, note which CUDA thread was running.
void sanitizer_death() {
    if (g_status->claimed.exchange(1) != 0) return;
    copy_text(g_status->kind, sizeof g_status->kind, "sanitizer");
    if (const kplay_emu_thread* thread = BlockScheduler::current_thread()) {
        g_status->has_thread = 1;
        g_status->thread_idx = thread->thread_idx;
        g_status->block_idx = thread->block->block_idx;
    }
}

// Before anything of the user's runs: each __constant__ array gets its content (sizes were checked when
// the kernel was loaded; a mismatch here means a stale object).
void fill_constants(void* handle, const std::vector<ConstantFill>& constants) {
    for (const ConstantFill& fill : constants) {
        auto accessor = reinterpret_cast<void* (*)(unsigned long*)>(dlsym(handle, fill.accessor.c_str()));
        unsigned long bytes = 0;
        void* address = accessor ? accessor(&bytes) : nullptr;
        if (!address || bytes != fill.bytes.size())
            fail_and_exit("load", "the __constant__ array '" + fill.name + "' is not the one kplay filled (a stale build?)", "", 0);
        std::memcpy(address, fill.bytes.data(), fill.bytes.size());
    }
}

// The launch process of a kernel. Never returns.
[[noreturn]] void launch_process(const EmulatedLaunchRequest& request, const std::vector<GuardedBuffer>& smem, int workers,
                                 int report_fd, const WriterMapPages& writer_pages, size_t writer_region) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (request.thorough) {
        // The sanitizers write their reports to stderr: point it at the buffer the caller reads back.
        dup2(report_fd, STDERR_FILENO);
        // Each preloaded runtime (ASan, UBSan) keeps its own callback: register with every one.
        const char* preload = std::getenv("LD_PRELOAD");
        std::string libraries = preload ? preload : "";
        for (size_t at = 0; at < libraries.size();) {
            const size_t end = libraries.find_first_of(" :", at);
            const std::string library = libraries.substr(at, end == std::string::npos ? std::string::npos : end - at);
            at = end == std::string::npos ? libraries.size() : end + 1;
            if (library.empty()) continue;
            if (void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_NOLOAD))
                if (auto set_death = reinterpret_cast<void (*)(void (*)())>(dlsym(handle, "__sanitizer_set_death_callback")))
                    set_death(sanitizer_death);
        }
    }
    void* handle = dlopen(request.shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) fail_and_exit("load", std::string("cannot load the emulated kernel: ") + dlerror(), "", 0);
    auto bind = reinterpret_cast<int (*)(const kplay_emu_host*)>(dlsym(handle, "kplay_emu_bind"));
    auto set_thread = reinterpret_cast<void (*)(kplay_emu_thread*)>(dlsym(handle, "kplay_emu_set_thread"));
    auto entry = reinterpret_cast<void (*)(void**)>(dlsym(handle, request.entry_symbol.c_str()));
    if (!bind || !set_thread || !entry) fail_and_exit("load", "the emulated kernel lacks kplay's entry points (a stale build?)", "", 0);
    if (bind(BlockScheduler::host_table()) != KPLAY_EMU_ABI_VERSION) fail_and_exit("load", "the emulated kernel was built for another prelude", "", 0);
    fill_constants(handle, request.constants);
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(entry), &info)) g_status->so_base = reinterpret_cast<uintptr_t>(info.dli_fbase);
    if (request.debug) {
        kplay_emu_debug_launch = {request.geometry.grid, request.geometry.block};
        kplay_emu_debug_kernel_loaded();
    }

    install_fault_handlers(false);
    BlockScheduler::enable_preemption(code_range_of(reinterpret_cast<void*>(entry)));

    // Everything that may reach the system on first use happens before the filter: malloc's arenas
    // (glibc counts the CPUs, reading /sys, when it creates one past its limit), each worker's share
    // of the kernel's thread-local storage (its __shared__ arrays) and its preemption timer.
    mallopt(M_ARENA_MAX, std::min(workers, 64) + 1);
    // glibc reads /proc/sys/vm/overcommit_memory when it first gives a thread arena's memory back, which
    // the sandbox forbids: a launch allocates as it goes, so no arena is trimmed (the process is short-lived).
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    const LaunchGeometry geometry = request.geometry;
    const uint64_t blocks = static_cast<uint64_t>(geometry.grid.x) * geometry.grid.y * geometry.grid.z;
    std::atomic<int> go{0}, ready{0};
    // Blocks resident at once, as a GPU keeps them (block_residency.hpp); an endless wait ends the launch.
    const size_t tls_bytes = thread_local_bytes_of(reinterpret_cast<void*>(entry));
    const double report_after_s = std::min(1.0, request.timeout_s / 4);  // a certain stall, well before the timeout
    Residency residency({geometry.grid, geometry.block, tls_bytes + request.dynamic_smem, workers, report_after_s, request.track},
                        &g_status->stall, [] { fail_and_exit("stall", "", "", 0); });
    BlockEvents events;
    events.fail = [](const std::string& kind, const std::string& message, const char* file, int line) { fail_and_exit(kind, message, file, line); };
    events.warn = add_warning;
    events.print = append_log;
    // A cooperative launch runs every block at once, each on a worker of its own (workers == blocks).
    std::unique_ptr<GridBarrier> grid;
    if (request.cooperative)
        grid = std::make_unique<GridBarrier>(blocks, [](const std::string& message, const char* file, int line) {
            fail_and_exit("deadlock", message, file, line);
        });
    // A tracked launch: one worker (the caller asked for it), so the tracker needs no locks.
    std::unique_ptr<AccessTracker> tracker;
    if (request.track && !request.cooperative) {
        tracker = std::make_unique<AccessTracker>(tracked_buffers(request), geometry.grid, geometry.block);
        if (auto* flag = static_cast<volatile int*>(dlsym(handle, "kplay_emu_tracking")))
            tracker->track_only(flag, request.who_wrote.empty() && request.writer_map.empty() ? request.tracked_blocks : UINT32_MAX);
        g_tracker = tracker.get();
    }
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&, w] {
            use_alternate_signal_stack();  // a fiber's stack overflow must still be reported
            EmulatedKernel kernel{entry, set_thread};
            void** args = const_cast<void**>(request.args.data());
            unsigned char* dynamic = request.dynamic_smem ? smem[static_cast<size_t>(w)].data() : nullptr;
            BlockScheduler scheduler(kernel, args, geometry, request.order, request.seed, dynamic, request.dynamic_smem, events, residency,
                                     grid.get());
            free(malloc(64));       // this thread's malloc arena
            set_thread(nullptr);    // this thread's block of the kernel's thread-local storage
            void* shared_arrays = nullptr;  // saved and restored with a parked block
            if (dlinfo(handle, RTLD_DI_TLS_DATA, &shared_arrays) == 0)
                scheduler.set_static_shared(static_cast<unsigned char*>(shared_arrays), tls_bytes);
            if (tracker) {
                void* tls_block = nullptr;
                if (dlinfo(handle, RTLD_DI_TLS_DATA, &tls_block) != 0) tls_block = nullptr;
                tracker->set_shared_regions(tracked_shared(request, static_cast<unsigned char*>(tls_block), dynamic));
                scheduler.track(tracker.get());
            }
            const std::string timer = start_preemption_timer(1000);
            if (!timer.empty()) add_warning("a thread that spins on a volatile flag cannot be preempted here (" + timer + ")");
            ready.fetch_add(1);
            go.wait(0);
            // A cooperative launch's worker runs its own block; the others take blocks as Residency allows.
            if (!grid) return scheduler.run_blocks(w);
            const auto b = static_cast<uint64_t>(w);
            scheduler.run_block({static_cast<unsigned>(b % geometry.grid.x), static_cast<unsigned>((b / geometry.grid.x) % geometry.grid.y),
                                 static_cast<unsigned>(b / (static_cast<uint64_t>(geometry.grid.x) * geometry.grid.y))});
        });
    }
    while (ready.load() < workers) std::this_thread::yield();  // every worker has done the above
    if (request.sandbox) {
        const std::string problem = install_kernel_sandbox();
        if (!problem.empty()) fail_and_exit("sandbox-setup", "cannot install the sandbox: " + problem, "", 0);
    }
    const auto start = std::chrono::steady_clock::now();
    go.store(1);
    go.notify_all();
    for (auto& thread : threads) thread.join();
    g_status->kernel_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (tracker) {
        publish_races(*tracker, g_status->so_base, g_status->races);
        publish_writers(*tracker, request, g_status->so_base, g_status->writers);
        publish_sites(*tracker, g_status->so_base, g_status->sites);
        writer_pages.publish(*tracker, writer_region, g_status->so_base);
    }
    g_status->finished.store(1);
    _exit(0);
}

// A call's launch process: std::terminate's default handler would print, which the sandbox forbids.
[[noreturn]] void call_terminated() {
    if (!g_status->failure[0]) copy_text(g_status->failure, sizeof g_status->failure, "aborted (std::terminate was called)");
    std::abort();
}

// The launch process of a call: load, handlers, sandbox, bind, one call on this thread. Never returns.
[[noreturn]] void call_process(const EmulatedCallRequest& request) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    void* handle = dlopen(request.shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) fail_and_exit("load", "cannot load " + request.who + ": " + dlerror(), "", 0);
    auto entry = reinterpret_cast<void (*)(void**)>(dlsym(handle, request.entry_symbol.c_str()));
    auto bind = request.bind_symbol.empty() ? nullptr : reinterpret_cast<EmulatedCallBind>(dlsym(handle, request.bind_symbol.c_str()));
    if (!entry || (!request.bind_symbol.empty() && !bind)) fail_and_exit("load", request.who + " lacks kplay's entry points (a stale build?)", "", 0);
    fill_constants(handle, request.constants);
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(entry), &info)) g_status->so_base = reinterpret_cast<uintptr_t>(info.dli_fbase);

    use_alternate_signal_stack();  // a stack overflow (deep recursion) must still be reported
    install_fault_handlers(true);
    std::set_terminate(call_terminated);
    free(malloc(64));  // the allocator's arena exists before the filter
    if (request.sandbox) {
        const std::string problem = install_kernel_sandbox();
        if (!problem.empty()) fail_and_exit("sandbox-setup", "cannot install the sandbox: " + problem, "", 0);
    }
    if (bind) bind(&g_status->progress, g_status->failure, sizeof g_status->failure);
    const auto start = std::chrono::steady_clock::now();
    entry(const_cast<void**>(request.args.data()));
    g_status->kernel_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    g_status->finished.store(1);
    _exit(0);
}

// The CUDA thread that was running when the launch process stopped, when the handler knew it.
std::string who_ran(const SharedStatus& status) {
    return status.has_thread ? thread_name(status.thread_idx, status.block_idx) : "the kernel";
}

// "matmul/01_seed_naive.cu:9" for an address in the shared object, via addr2line (line tables: -g1).
std::string source_line(const std::filesystem::path& shared_object, uintptr_t pc, uintptr_t base, std::string& file, int& line) {
    if (pc < base || base == 0) return {};
    char offset[32];
    std::snprintf(offset, sizeof offset, "0x%zx", static_cast<size_t>(pc - base));
    const ProcessResult result = run_process({"addr2line", "-e", shared_object.string(), offset});
    std::string text = result.output.substr(0, result.output.find('\n'));
    if (result.exit_code != 0 || text.empty() || text[0] == '?') return {};
    if (const auto paren = text.find(" (discriminator"); paren != std::string::npos) text.resize(paren);
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) return {};
    // addr2line joins the build folder to the #line name.
    file = kernel_file_name(text.substr(0, colon));
    line = std::atoi(text.c_str() + colon + 1);
    return file + ":" + std::to_string(line);
}

// How a fault's message names what ran, and in whose terms it explains it.
struct Subject {
    std::string who;     // "thread (3,0,0) of block (1,0,0)", "the reference"
    bool kernel = true;  // CUDA's error codes and GPU notes; a call's faults are KPLAY_REFERENCE_FAILED
};

std::string explain_fault(const Subject& subject, const std::filesystem::path& shared_object, const std::vector<BufferLabel>& buffers,
                          const SharedStatus& status, EmulatedLaunchResult& result) {
    const std::string& who = subject.who;
    std::string at;
    const std::string where = source_line(shared_object, status.pc, status.so_base, result.file, result.line);
    if (!where.empty()) at = " at " + where;
    auto code = [&](ErrorCode cuda_code) { result.error_code = subject.kernel ? cuda_code : ErrorCode::reference_failed; };
    if (status.signal == SIGSYS) {
        result.error_code = ErrorCode::sandbox;
        const std::string path = bounded(status.syscall_path);
        const std::string target = path.empty() ? "" : " of '" + path + "'";
        return who + " made a system call the emulated device forbids (" + syscall_name(status.syscall) + target + ")" + at +
               "; the sandbox stopped it. " + (subject.kernel ? "An emulated kernel" : "A reference") + " may only compute into its buffers.";
    }
    if (status.signal == SIGFPE) {
        code(ErrorCode::cuda_launch_failed);
        return who + " divided an integer by zero" + at + (subject.kernel ? " (on a GPU the result is undefined; here it stops the kernel)" : "");
    }
    if (status.signal == SIGILL) {
        code(ErrorCode::cuda_illegal_instruction);
        return who + " reached an illegal instruction" + at;
    }
    code(ErrorCode::cuda_illegal_address);
    const std::string verb = status.is_write == 1 ? "wrote" : status.is_write == 0 ? "read" : "accessed";
    for (const BufferLabel& buffer : buffers) {
        const std::string hit = describe_guard_hit(buffer, status.address);
        if (!hit.empty()) return who + " " + verb + " " + hit + at;
    }
    char address[32];
    std::snprintf(address, sizeof address, "0x%zx", static_cast<size_t>(status.address));
    if (status.signal == SIGSEGV && status.code == SI_KERNEL)
        return who + " " + verb + " an address no pointer can hold (beyond the 47-bit address space: an index far out of range)" + at;
    if (status.address < 65536) return who + " " + verb + " through a null pointer (address " + address + ")" + at;
    return who + " " + verb + " address " + address + ", which is in no buffer" + at +
           (subject.kernel ? " (a wild pointer, or a thread's local arrays overflowing its 256 KiB stack)"
                           : " (a wild pointer, or a stack overflow: deep recursion or large local arrays)");
}

// The record both sides share, mapped before the fork.
class StatusMapping {
public:
    StatusMapping() {
        void* mapping = mmap(nullptr, sizeof(SharedStatus), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (mapping == MAP_FAILED) throw std::bad_alloc();
        status_ = new (mapping) SharedStatus();
    }
    ~StatusMapping() { munmap(status_, sizeof(SharedStatus)); }
    StatusMapping(const StatusMapping&) = delete;
    StatusMapping& operator=(const StatusMapping&) = delete;
    SharedStatus* get() const { return status_; }
    SharedStatus* operator->() const { return status_; }
    SharedStatus& operator*() const { return *status_; }

private:
    SharedStatus* status_;
};

struct ChildEnd {
    int wait_status = 0;
    bool timed_out = false;
};

// Runs `body` (which never returns) in a forked launch process and waits for it, killing it after
// timeout_s; `poll` runs here between looks.
ChildEnd run_forked(SharedStatus* status, double timeout_s, const std::function<void()>& body, const std::function<void()>& poll = {}) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed for the emulated launch");
    if (pid == 0) {
        g_status = status;
        body();
        _exit(2);
    }
    ChildEnd end;
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        if (waitpid(pid, &end.wait_status, WNOHANG) == pid) break;
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &end.wait_status, 0);
            end.timed_out = true;
            break;
        }
        try {
            if (poll) poll();
        } catch (...) {  // the caller's callback failed: the launch process must not outlive the wait
            kill(pid, SIGKILL);
            waitpid(pid, &end.wait_status, 0);
            throw;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return end;
}

// printf output and warnings, whatever happened.
void collect_log(const SharedStatus& status, EmulatedLaunchResult& result) {
    const size_t used = std::min(status.log_used.load(), kLogBytes);
    std::string log(status.log, used);
    size_t begin = 0;
    while (begin < log.size()) {
        const size_t end = log.find('\n', begin);
        if (end == std::string::npos) break;
        result.printf_lines.push_back(log.substr(begin, end - begin));
        begin = end + 1;
    }
    result.printf_dropped = status.log_dropped.load();
    for (int i = 0; i < std::min(status.warning_count.load(), kWarningSlots); ++i) result.warnings.push_back(bounded(status.warnings[i]));
    if (status.warning_count.load() > kWarningSlots)
        result.warnings.push_back("... and " + std::to_string(status.warning_count.load() - kWarningSlots) + " more warnings");
}

// Exit 0 after saying it finished: the result is good, with the time the process measured.
bool finished_cleanly(const ChildEnd& end, const SharedStatus& status, EmulatedLaunchResult& result) {
    if (!WIFEXITED(end.wait_status) || WEXITSTATUS(end.wait_status) != 0 || !status.finished.load()) return false;
    result.ok = true;
    result.kernel_ms = status.kernel_ms;
    return true;
}

// The launch process ended without saying why.
void explain_silent_end(int wait_status, ErrorCode code, EmulatedLaunchResult& result) {
    result.error_code = code;
    if (WIFSIGNALED(wait_status))
        result.error = std::string("The emulated launch process ended by signal ") + strsignal(WTERMSIG(wait_status)) + ".";
    else
        result.error = "The emulated launch process ended without a result (exit " + std::to_string(WEXITSTATUS(wait_status)) + ").";
}

// "aborted (assertion `n > 0` failed at emu/ref.cu:12)": the file and line, for the editor.
void read_failed_at(const std::string& failure, EmulatedLaunchResult& result) {
    const size_t at = failure.rfind(" failed at ");
    const size_t colon = failure.rfind(':');
    if (at == std::string::npos || colon == std::string::npos || colon < at) return;
    result.file = failure.substr(at + 11, colon - at - 11);
    result.line = std::atoi(failure.c_str() + colon + 1);
}

}  // namespace

extern "C" {
__attribute__((used)) kplay_emu_debug_geometry kplay_emu_debug_launch{};
__attribute__((noinline, used)) void kplay_emu_debug_launch_begins() {
    asm volatile("" ::: "memory");  // kept, and not folded into its callers
}
__attribute__((noinline, used)) void kplay_emu_debug_kernel_loaded() {
    asm volatile("" ::: "memory");
}
}

int default_emulation_workers() {
    const unsigned cores = std::thread::hardware_concurrency();
    return cores == 0 ? 1 : static_cast<int>(cores);
}

EmulatedLaunchResult run_emulated_launch(const EmulatedLaunchRequest& request) {
    EmulatedLaunchResult result;
    int workers = request.track ? 1 : request.workers > 0 ? request.workers : default_emulation_workers();
    if (request.cooperative) {
        if (const std::string refusal = cooperative_launch_refusal(request.geometry.grid, request.geometry.block); !refusal.empty()) {
            result.error_code = ErrorCode::cuda_cooperative_launch_too_large;
            result.error = refusal;
            return result;
        }
        workers = static_cast<int>(static_cast<uint64_t>(request.geometry.grid.x) * request.geometry.grid.y * request.geometry.grid.z);
    }
    result.workers = workers;
    StatusMapping status;
    // Each worker's dynamic shared memory, guarded at its end like the buffers; made here so that the
    // addresses are known for fault messages.
    std::vector<GuardedBuffer> smem;
    std::vector<BufferLabel> labels = request.buffers;
    if (request.dynamic_smem > 0)
        for (int w = 0; w < workers; ++w) {
            smem.emplace_back(request.dynamic_smem);
            labels.push_back({"dynamic shared memory", "byte", 1, reinterpret_cast<uintptr_t>(smem.back().data()), request.dynamic_smem,
                              smem.back().mapping_begin(), smem.back().mapping_end()});
        }

    // Thorough mode: the sanitizers' reports land in this memory file.
    UniqueFd report(request.thorough ? memfd_create("kplay-sanitizer-report", MFD_CLOEXEC) : -1);
    if (request.debug) kplay_emu_debug_launch_begins();
    // The writer map's pages: a cell per element of the buffer asked for.
    WriterMapPages writer_pages;
    size_t writer_region = 0;
    for (; request.track && writer_region < request.buffers.size(); ++writer_region)
        if (const BufferLabel& buffer = request.buffers[writer_region]; buffer.name == request.writer_map) {
            writer_pages = WriterMapPages(buffer.bytes / std::max<size_t>(1, buffer.element_size));
            break;
        }
    const ChildEnd end = run_forked(status.get(), request.timeout_s,
                                    [&] { launch_process(request, smem, workers, report.get(), writer_pages, writer_region); });
    collect_log(*status, result);
    // Where the blocks wait when every resident one does (a note the launch process left).
    const StallText stall = describe_stall(status->stall, request.shared_object, status->so_base, request.runtime_headers);
    if (end.timed_out) {
        result.error_code = ErrorCode::timeout;
        char text[160];
        std::snprintf(text, sizeof text, "Kernel did not finish within %.3g s on the emulated device and was stopped: ", request.timeout_s);
        result.error = text + (stall.text.empty() ? "an endless loop?" : stall.text);
        std::tie(result.file, result.line) = std::tie(stall.file, stall.line);
        return result;
    }
    if (finished_cleanly(end, *status, result)) {
        if (request.track && !request.cooperative) {
            result.races = read_races(status->races, request);
            result.races_dropped = status->races.dropped > 0;
            result.writers = read_writers(status->writers, request);
            result.writes = read_buffer_writes(status->writers, request);
            result.line_access = read_line_access(status->sites, request);
            writer_pages.read(request.shared_object, request.runtime_headers, result.writer_map);
        }
        return result;
    }
    // A tracked launch that failed still tells the races it saw first (the likely cause).
    if (request.track && !request.cooperative && status->races_published) {
        result.races = read_races(status->races, request);
        result.races_dropped = status->races.dropped > 0;
    }
    std::string kind = bounded(status->kind);
    if (kind.empty() && request.thorough) kind = "sanitizer";  // a report without the thread (the callback did not run)
    if (kind == "sanitizer") {
        std::string text(1 << 16, '\0');
        const ssize_t n = pread(report.get(), text.data(), text.size(), 0);
        text.resize(n > 0 ? static_cast<size_t>(n) : 0);
        result.error_code = ErrorCode::sanitizer;
        result.error = explain_sanitizer_report(who_ran(*status), text, result.file, result.line);
    } else if (kind == "fault" || kind == "sandbox") {
        result.error = explain_fault({who_ran(*status), true}, request.shared_object, labels, *status, result);
    } else if (!kind.empty()) {
        result.error = bounded(status->message);
        result.file = bounded(status->file);
        result.line = status->line;
        result.error_code = kind == "deadlock" ? ErrorCode::deadlock
                            : kind == "assert" ? ErrorCode::cuda_assert
                            : kind == "trap"   ? ErrorCode::cuda_launch_failed
                                               : ErrorCode::emulation_failed;
        if (kind == "stall") {
            result.error = stall.text;
            std::tie(result.file, result.line) = std::tie(stall.file, stall.line);
            result.error_code = ErrorCode::deadlock;
        }
        if (kind == "deadlock" || kind == "stall") result.error = "Deadlock: " + result.error;
    } else {
        explain_silent_end(end.wait_status, ErrorCode::emulation_failed, result);
    }
    return result;
}

EmulatedLaunchResult run_emulated_call(const EmulatedCallRequest& request) {
    EmulatedLaunchResult result;
    result.workers = 1;
    StatusMapping status;
    double reported = 0;
    auto poll = [&] {
        double now = 0;
        __atomic_load(&status->progress, &now, __ATOMIC_RELAXED);
        if (request.progress && now >= 0 && now <= 1 && now != reported) request.progress(reported = now);
    };
    const ChildEnd end = run_forked(status.get(), request.timeout_s, [&] { call_process(request); }, poll);
    poll();  // the last value it reported

    if (end.timed_out) {
        result.error_code = ErrorCode::timeout;
        char text[160];
        std::snprintf(text, sizeof text, "The host reference did not finish within %g s and was stopped: an endless loop?", request.timeout_s);
        result.error = text;
        return result;
    }
    if (finished_cleanly(end, *status, result)) return result;
    const std::string kind = bounded(status->kind);
    if (kind == "fault" || kind == "sandbox") {
        result.error = explain_fault({request.who, false}, request.shared_object, request.buffers, *status, result);
    } else if (kind == "abort") {
        result.error_code = ErrorCode::reference_failed;
        const std::string failure = bounded(status->failure);
        result.error = request.who + " " + (failure.empty() ? "aborted (abort() was called)" : failure);
        read_failed_at(failure, result);
    } else if (!kind.empty()) {
        result.error_code = ErrorCode::reference_failed;
        result.error = bounded(status->message);
    } else {
        explain_silent_end(end.wait_status, ErrorCode::reference_failed, result);
    }
    return result;
}

}  // namespace kplay
