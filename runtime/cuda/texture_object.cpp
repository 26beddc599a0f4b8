// Driver calls behind CudaArray, TextureObject and SurfaceObject.
#include "cuda/texture_object.hpp"

#include "cuda/driver.hpp"

namespace kplay {

namespace detail {
void ArrayTraits::destroy(CUarray handle) noexcept { driver_api().cuArrayDestroy(handle); }
void TextureTraits::destroy(CUtexObject handle) noexcept { driver_api().cuTexObjectDestroy(handle); }
void SurfaceTraits::destroy(CUsurfObject handle) noexcept { driver_api().cuSurfObjectDestroy(handle); }
}  // namespace detail

CUresult CudaArray::create(const CUDA_ARRAY3D_DESCRIPTOR& descriptor, CudaArray& out) {
    CUarray handle = nullptr;
    const CUresult result = driver_api().cuArray3DCreate(&handle, &descriptor);
    if (result == CUDA_SUCCESS) out = CudaArray(handle);
    return result;
}

CUresult TextureObject::create(const CUDA_RESOURCE_DESC& resource, const CUDA_TEXTURE_DESC& texture, TextureObject& out) {
    CUtexObject handle = 0;
    const CUresult result = driver_api().cuTexObjectCreate(&handle, &resource, &texture, nullptr);
    if (result == CUDA_SUCCESS) out = TextureObject(handle);
    return result;
}

CUresult SurfaceObject::create(const CUDA_RESOURCE_DESC& resource, SurfaceObject& out) {
    CUsurfObject handle = 0;
    const CUresult result = driver_api().cuSurfObjectCreate(&handle, &resource);
    if (result == CUDA_SUCCESS) out = SurfaceObject(handle);
    return result;
}

}  // namespace kplay
