// Module loading and function attribute queries through the driver table.
#include "cuda/module.hpp"

#include <utility>

#include "cuda/driver.hpp"
#include "base/error.hpp"

namespace kplay {

FunctionAttributes KernelFunction::attributes() const {
    const DriverApi& api = driver_api();
    auto attribute = [&](CUfunction_attribute which) {
        int value = 0;
        KPLAY_CU(api.cuFuncGetAttribute(&value, which, function_));
        return value;
    };
    FunctionAttributes attributes;
    attributes.registers_per_thread = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
    attributes.static_smem_bytes = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    attributes.local_bytes_per_thread = attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    attributes.const_bytes = attribute(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
    attributes.max_threads_per_block = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    attributes.ptx_version = attribute(CU_FUNC_ATTRIBUTE_PTX_VERSION);
    attributes.binary_version = attribute(CU_FUNC_ATTRIBUTE_BINARY_VERSION);
    // The driver answers CUDA_ERROR_INVALID_VALUE past the last parameter; that ends the list.
    for (size_t index = 0; index < 4096; ++index) {
        ParamLayout param;
        if (api.cuFuncGetParamInfo(function_, index, &param.offset, &param.size) != CUDA_SUCCESS) break;
        attributes.params.push_back(param);
    }
    return attributes;
}

void KernelFunction::allow_dynamic_smem(int bytes) const {
    KPLAY_CU(driver_api().cuFuncSetAttribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes));
}

int KernelFunction::max_active_blocks_per_sm(int block_threads, size_t dynamic_smem) const {
    int blocks = 0;
    KPLAY_CU(driver_api().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function_, block_threads, dynamic_smem));
    return blocks;
}

Module Module::load(const std::string& image) {
    CUmodule module = nullptr;
    KPLAY_CU(driver_api().cuModuleLoadData(&module, image.c_str()));
    return Module(module);
}

Module::~Module() { release(); }

Module::Module(Module&& other) noexcept : module_(std::exchange(other.module_, nullptr)) {}

Module& Module::operator=(Module&& other) noexcept {
    if (this != &other) {
        release();
        module_ = std::exchange(other.module_, nullptr);
    }
    return *this;
}

void Module::release() noexcept {
    if (module_) driver_api().cuModuleUnload(module_);
    module_ = nullptr;
}

KernelFunction Module::function(const std::string& lowered_name) const {
    CUfunction function = nullptr;
    KPLAY_CU(driver_api().cuModuleGetFunction(&function, module_, lowered_name.c_str()));
    return KernelFunction(function, lowered_name);
}

bool Module::global(const std::string& name, CUdeviceptr* address, size_t* bytes) const {
    const CUresult result = driver_api().cuModuleGetGlobal(address, bytes, module_, name.c_str());
    if (result == CUDA_ERROR_NOT_FOUND) return false;
    KPLAY_CU(result);
    return true;
}

}  // namespace kplay
