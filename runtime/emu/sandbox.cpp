// libseccomp: default action SIGSYS (reported by the launch process's handler), a short allowlist.
#include "emu/sandbox.hpp"

#include <seccomp.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace kplay {

std::string install_kernel_sandbox() {
    std::unique_ptr<void, void (*)(scmp_filter_ctx)> filter(seccomp_init(SCMP_ACT_TRAP), seccomp_release);
    if (!filter) return "seccomp_init failed";
    // Memory (malloc, thread-local storage of shared arrays), waiting (futex), signal return, exit.
    for (const char* name : {"mmap", "munmap", "mprotect", "brk", "madvise", "mremap", "futex", "exit", "exit_group", "rt_sigreturn",
                             "rt_sigprocmask", "sched_yield", "clock_gettime", "clock_nanosleep", "nanosleep", "gettid", "getpid",
                             "tgkill", "restart_syscall", "sigaltstack", "membarrier", "getrandom", "rseq", "set_robust_list", "sched_getaffinity"}) {
        const int number = seccomp_syscall_resolve_name(name);
        if (number == __NR_SCMP_ERROR) continue;  // not on this architecture
        if (const int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ALLOW, number, 0); rc != 0)
            return std::string("seccomp_rule_add(") + name + ") failed: " + std::strerror(-rc);
    }
    if (const int rc = seccomp_attr_set(filter.get(), SCMP_FLTATR_CTL_TSYNC, 1); rc != 0)
        return std::string("seccomp thread synchronisation failed: ") + std::strerror(-rc);
    if (const int rc = seccomp_load(filter.get()); rc != 0) return std::string("seccomp_load failed: ") + std::strerror(-rc);
    return {};
}

std::string syscall_name(int number) {
    char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
    std::string text = name ? name : "syscall " + std::to_string(number);
    std::free(name);
    return text;
}

}  // namespace kplay
