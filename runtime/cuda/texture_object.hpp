// Move-only owners of a CUDA array and of the texture and surface objects made over one or over device
// memory (device/cuda_images.cpp builds them from a kplay-texture or kplay-surface line). As the other
// handles, each destructor is noexcept and ignores the driver's answer (after a sticky fault it refuses
// every call); the object goes before the array it reads, by the owner's member order.
#pragma once

#include <cuda.h>

#include "cuda/cuda_handles.hpp"

namespace kplay {

namespace detail {
struct ArrayTraits { static void destroy(CUarray handle) noexcept; };
struct TextureTraits { static void destroy(CUtexObject handle) noexcept; };
struct SurfaceTraits { static void destroy(CUsurfObject handle) noexcept; };
}  // namespace detail

// Each create returns the driver's result instead of throwing: a refusal is the user's declaration's
// problem, which the caller words with the object's name.
class CudaArray : public detail::UniqueHandle<CUarray, detail::ArrayTraits> {
public:
    using UniqueHandle::UniqueHandle;
    static CUresult create(const CUDA_ARRAY3D_DESCRIPTOR& descriptor, CudaArray& out);
};

class TextureObject : public detail::UniqueHandle<CUtexObject, detail::TextureTraits> {
public:
    using UniqueHandle::UniqueHandle;
    static CUresult create(const CUDA_RESOURCE_DESC& resource, const CUDA_TEXTURE_DESC& texture, TextureObject& out);
};

class SurfaceObject : public detail::UniqueHandle<CUsurfObject, detail::SurfaceTraits> {
public:
    using UniqueHandle::UniqueHandle;
    static CUresult create(const CUDA_RESOURCE_DESC& resource, SurfaceObject& out);
};

}  // namespace kplay
