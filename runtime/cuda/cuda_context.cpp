// Primary-context retain/release; the primary context is shared with any other user in the process.
#include "cuda/cuda_context.hpp"

#include <utility>

#include "cuda/driver.hpp"
#include "base/error.hpp"

namespace kplay {

PrimaryContext::PrimaryContext(int ordinal) {
    const DriverApi& api = driver_api();
    KPLAY_CU(api.cuDeviceGet(&device_, ordinal));
    KPLAY_CU(api.cuDevicePrimaryCtxRetain(&context_, device_));
    try {
        make_current();
    } catch (...) {
        release();
        throw;
    }
}

PrimaryContext::~PrimaryContext() { release(); }

PrimaryContext::PrimaryContext(PrimaryContext&& other) noexcept
    : device_(other.device_), context_(std::exchange(other.context_, nullptr)) {}

PrimaryContext& PrimaryContext::operator=(PrimaryContext&& other) noexcept {
    if (this != &other) {
        release();
        device_ = other.device_;
        context_ = std::exchange(other.context_, nullptr);
    }
    return *this;
}

void PrimaryContext::make_current() const { KPLAY_CU(driver_api().cuCtxSetCurrent(context_)); }

void PrimaryContext::synchronize() const { KPLAY_CU(driver_api().cuCtxSynchronize()); }

void PrimaryContext::release() noexcept {
    if (context_) driver_api().cuDevicePrimaryCtxRelease(device_);  // destructor: nothing to report to
    context_ = nullptr;
}

}  // namespace kplay
