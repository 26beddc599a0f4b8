// A loaded CUDA module (move-only) and the functions found in it, with their resource usage.
#pragma once

#include <cuda.h>

#include <string>
#include <vector>

#include "values/kernel_resources.hpp"

namespace kplay {

class KernelFunction {
public:
    KernelFunction() = default;
    KernelFunction(CUfunction function, std::string name) : function_(function), name_(std::move(name)) {}
    CUfunction get() const { return function_; }
    const std::string& name() const { return name_; }
    FunctionAttributes attributes() const;
    // Lets the function use more than 48 KiB of dynamic shared memory (the opt-in limit).
    void allow_dynamic_smem(int bytes) const;
    // Resident blocks per SM at this block size and dynamic smem (for theoretical occupancy).
    int max_active_blocks_per_sm(int block_threads, size_t dynamic_smem) const;

private:
    CUfunction function_ = nullptr;  // owned by its module
    std::string name_;
};

class Module {
public:
    Module() = default;
    // Loads a CUBIN or a NUL-terminated PTX image. PTX is JIT-compiled by the driver.
    static Module load(const std::string& image);
    ~Module();
    Module(Module&& other) noexcept;
    Module& operator=(Module&& other) noexcept;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    // Looks up a function by its lowered (mangled) name; throws ApiError when absent.
    KernelFunction function(const std::string& lowered_name) const;
    // A module-scope variable's address and size (a __constant__ array, by its unmangled name); false
    // when the module has none of that name.
    bool global(const std::string& name, CUdeviceptr* address, size_t* bytes) const;
    explicit operator bool() const { return module_ != nullptr; }

private:
    explicit Module(CUmodule module) : module_(module) {}
    void release() noexcept;
    CUmodule module_ = nullptr;
};

}  // namespace kplay
