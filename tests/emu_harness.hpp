// A kernel built for the emulated device and launched below the engine, on guarded buffers read back
// directly, for the tests of what the emulated device runs (warp collectives, forward progress,
// cooperative groups, CUB, the numeric types and intrinsics). Kernels come as text or as files under
// tests/data/emu/.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "emu/emulated_launch.hpp"
#include "emu/guarded_memory.hpp"
#include "test_support.hpp"

namespace kplay::test {

// tests/data/emu/NAME as text.
std::string emu_kernel(const std::string& name);

class EmuKernel {
public:
    // Builds `source` (kernel `kernel`); built() says whether the host compiler and the symbol check
    // accepted it, and why not. A refusal before compiling (inline PTX, an unemulated header) is a
    // build failure with its message. `include_dirs`: folders for the kernel's quoted includes; `track`:
    // built and launched with its accesses tracked, so a launch's result lists its races.
    explicit EmuKernel(const std::string& source, const std::string& kernel = "k", const std::vector<std::string>& include_dirs = {},
                       bool track = false);
    bool built() const { return built_; }
    const std::string& diagnostics() const { return diagnostics_; }

    // `count` elements of T, each `fill`.
    template <class T>
    T* buffer(const std::string& name, size_t count, T fill = T()) {
        T* data = static_cast<T*>(add_buffer(name, count * sizeof(T), sizeof(T)));
        for (size_t i = 0; i < count; ++i) data[i] = fill;
        return data;
    }

    struct Launch {
        kplay_emu_dim grid{1, 1, 1}, block{1, 1, 1};
        size_t dynamic_smem = 0;
        ThreadOrder order = ThreadOrder::forward;
        uint64_t seed = 1;
        bool cooperative = false;
        double timeout_s = 30;
        int workers = 0;  // 0: one per core
    };
    // args: cuLaunchKernel-style, each pointing at one argument's bytes.
    EmulatedLaunchResult launch(std::vector<void*> args, const Launch& launch) const;

private:
    void* add_buffer(const std::string& name, size_t bytes, size_t element);

    TempDir dir_;
    std::filesystem::path shared_object_;
    bool built_ = false, track_ = false;
    std::string diagnostics_;
    std::vector<GuardedBuffer> buffers_;
    std::vector<BufferLabel> labels_;
};

// The three orders a test runs in where the order of threads matters.
inline const ThreadOrder kEveryOrder[] = {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::random};

}  // namespace kplay::test
