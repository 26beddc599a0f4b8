// A per-thread CPU-time timer and its signal, for the emulated launch's workers.
#include "emu/preemption.hpp"

#include <link.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#ifndef sigev_notify_thread_id  // glibc before 2.35 names the member only through the union
#define sigev_notify_thread_id _sigev_un._tid
#endif

namespace kplay {

namespace {

void (*g_handler)(void*) = nullptr;

int preemption_signal() { return SIGRTMIN + 3; }  // glibc keeps the first real-time signals for itself

void on_signal(int, siginfo_t*, void* context) {
    const int saved_errno = errno;
    if (g_handler) g_handler(context);
    errno = saved_errno;
}

}  // namespace

CodeRange code_range_of(const void* symbol_address) {
    struct Search {
        uintptr_t address;
        CodeRange range;
    } search{reinterpret_cast<uintptr_t>(symbol_address), {}};
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
            auto* s = static_cast<Search*>(data);
            CodeRange found;
            bool holds = false;
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& segment = info->dlpi_phdr[i];
                if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X)) continue;
                const uintptr_t begin = info->dlpi_addr + segment.p_vaddr, end = begin + segment.p_memsz;
                if (found.begin == 0 || begin < found.begin) found.begin = begin;
                if (end > found.end) found.end = end;
                if (s->address >= begin && s->address < end) holds = true;
            }
            if (!holds) return 0;
            s->range = found;
            return 1;
        },
        &search);
    return search.range;
}

void install_preemption_handler(void (*handler)(void* ucontext)) {
    g_handler = handler;
    struct sigaction action {};
    action.sa_sigaction = on_signal;
    // Not on the alternate stack: the handler switches fibers, so it must run on the interrupted fiber's own
    // stack. SA_NODEFER: a fiber switched out inside the handler must not leave the signal blocked for the others.
    action.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(preemption_signal(), &action, nullptr);
}

std::string start_preemption_timer(long period_us) {
    sigevent event{};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = preemption_signal();
    event.sigev_notify_thread_id = static_cast<pid_t>(syscall(SYS_gettid));
    timer_t timer;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0) return std::string("timer_create: ") + std::strerror(errno);
    itimerspec period{};
    period.it_interval.tv_sec = period_us / 1000000;
    period.it_interval.tv_nsec = (period_us % 1000000) * 1000;
    period.it_value = period.it_interval;
    if (timer_settime(timer, 0, &period, nullptr) != 0) return std::string("timer_settime: ") + std::strerror(errno);
    return {};
}

uintptr_t interrupted_pc(const void* ucontext) {
#if defined(__x86_64__)
    return static_cast<uintptr_t>(static_cast<const ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return static_cast<uintptr_t>(static_cast<const ucontext_t*>(ucontext)->uc_mcontext.pc);
#else
    (void)ucontext;
    return 0;
#endif
}

}  // namespace kplay
