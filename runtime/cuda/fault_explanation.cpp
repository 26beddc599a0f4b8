// The fault table: one entry per CUDA error a learner's kernel can cause.
#include "cuda/fault_explanation.hpp"

#include <cuda.h>

namespace kplay {

bool is_sticky_cuda_error(int code) {
    switch (code) {
        case CUDA_ERROR_ILLEGAL_ADDRESS:
        case CUDA_ERROR_MISALIGNED_ADDRESS:
        case CUDA_ERROR_ILLEGAL_INSTRUCTION:
        case CUDA_ERROR_HARDWARE_STACK_ERROR:
        case CUDA_ERROR_INVALID_PC:
        case CUDA_ERROR_LAUNCH_FAILED:
        case CUDA_ERROR_ASSERT:
        case CUDA_ERROR_INVALID_ADDRESS_SPACE:
        case CUDA_ERROR_ECC_UNCORRECTABLE:
            return true;
        default:
            return false;
    }
}

FaultInfo explain_cuda_error(int code, const std::string& rerun_command) {
    FaultInfo info;
    info.sticky = is_sticky_cuda_error(code);
    const std::string sanitizer = "compute-sanitizer --tool memcheck " + rerun_command + " --in-process";
    const std::string bounds = "Check that every index is tested against its buffer's size (e.g. `if (i < n)`) "
                               "before it is used to read or write.";
    switch (code) {
        case CUDA_ERROR_ILLEGAL_ADDRESS:
            info.explanation = "A thread read or wrote memory outside every buffer the kernel was given.";
            info.hint = bounds;
            info.sanitizer_command = sanitizer;
            break;
        case CUDA_ERROR_MISALIGNED_ADDRESS:
            info.explanation = "A thread accessed memory at an address not aligned to the access size (for example a "
                               "float4 load from an address that is not a multiple of 16 bytes).";
            info.hint = "Vector loads need aligned addresses: check the offset you cast to float4/int4.";
            info.sanitizer_command = sanitizer;
            break;
        case CUDA_ERROR_ILLEGAL_INSTRUCTION:
            info.explanation = "The kernel executed an illegal instruction.";
            info.hint = "Look for undefined behaviour: a call through a bad function pointer, or a missing return.";
            info.sanitizer_command = sanitizer;
            break;
        case CUDA_ERROR_HARDWARE_STACK_ERROR:
            info.explanation = "A thread overflowed its call stack (deep or unbounded recursion, or huge local arrays).";
            info.hint = "Avoid recursion in kernels and keep per-thread arrays small.";
            break;
        case CUDA_ERROR_INVALID_PC:
            info.explanation = "A thread jumped to an invalid program counter.";
            info.hint = "Usually memory corruption of a function pointer or the stack.";
            info.sanitizer_command = sanitizer;
            break;
        case CUDA_ERROR_INVALID_ADDRESS_SPACE:
            info.explanation = "A thread used an address outside the memory space it meant (a global-memory pointer "
                               "so far out of bounds that it points into another space).";
            info.hint = bounds;
            info.sanitizer_command = sanitizer;
            break;
        case CUDA_ERROR_ASSERT:
            info.explanation = "A device-side assert() failed or the kernel called __trap().";
            info.hint = "The assertion message, if any, was printed by the device to the worker's output.";
            break;
        case CUDA_ERROR_LAUNCH_FAILED:
            info.explanation = "The kernel was aborted while running: it called __trap(), or hit an exception the GPU "
                               "does not describe further.";
            info.hint = "If the kernel calls __trap(), see what triggers it. Otherwise: " + bounds;
            info.sanitizer_command = sanitizer;
            break;
        case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
            info.explanation = "The launch needs more registers or resources per block than the GPU has.";
            info.hint = "Use a smaller block, or reduce the kernel's registers (__launch_bounds__).";
            break;
        case CUDA_ERROR_INVALID_VALUE:
            info.explanation = "The driver refused the launch configuration or an argument.";
            info.hint = "Check the block and grid sizes and the dynamic shared memory.";
            break;
        case CUDA_ERROR_OUT_OF_MEMORY:
            info.explanation = "The GPU ran out of memory.";
            info.hint = "Use smaller inputs.";
            break;
        default:
            info.explanation = "The CUDA driver reported an error.";
            break;
    }
    return info;
}

}  // namespace kplay
