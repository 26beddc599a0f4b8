// The device's primary context, retained for the life of this object and made current on construction.
#pragma once

#include <cuda.h>

namespace kplay {

class PrimaryContext {
public:
    explicit PrimaryContext(int ordinal);
    ~PrimaryContext();
    PrimaryContext(PrimaryContext&& other) noexcept;
    PrimaryContext& operator=(PrimaryContext&& other) noexcept;
    PrimaryContext(const PrimaryContext&) = delete;
    PrimaryContext& operator=(const PrimaryContext&) = delete;

    void make_current() const;
    void synchronize() const;
    CUdevice device() const { return device_; }
    CUcontext get() const { return context_; }

private:
    void release() noexcept;
    CUdevice device_ = 0;
    CUcontext context_ = nullptr;
};

}  // namespace kplay
