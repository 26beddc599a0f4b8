// Building texture and surface objects on a GPU, and their copies around a set's launches.
#include "device/cuda_images.hpp"

#include <string>

#include "base/error.hpp"
#include "cuda/driver.hpp"
#include "cuda/texture_object.hpp"

namespace kplay {

namespace {

CUarray_format array_format(ElementType type) {
    switch (type) {
        case ElementType::u8: return CU_AD_FORMAT_UNSIGNED_INT8;
        case ElementType::i8: return CU_AD_FORMAT_SIGNED_INT8;
        case ElementType::u32: return CU_AD_FORMAT_UNSIGNED_INT32;
        case ElementType::i32: return CU_AD_FORMAT_SIGNED_INT32;
        case ElementType::f16: return CU_AD_FORMAT_HALF;
        default: return CU_AD_FORMAT_FLOAT;  // the plan allows no other
    }
}

CUaddress_mode address_mode(TextureAddress address) {
    switch (address) {
        case TextureAddress::wrap: return CU_TR_ADDRESS_MODE_WRAP;
        case TextureAddress::mirror: return CU_TR_ADDRESS_MODE_MIRROR;
        case TextureAddress::border: return CU_TR_ADDRESS_MODE_BORDER;
        case TextureAddress::clamp: break;
    }
    return CU_TR_ADDRESS_MODE_CLAMP;
}

bool is_integer(ElementType type) { return type != ElementType::f16 && type != ElementType::f32; }

class CudaImage final : public BoundImage {
public:
    explicit CudaImage(const Stream& stream) : stream_(stream) {}
    // Members in the order they are released backwards: the object before the memory it reads.
    CudaArray array;
    DeviceBuffer staging;                 // 1D linear memory aligned for the texture unit, when the buffer is not
    uint64_t staged_at = 0, staged_bytes = 0, source = 0;
    CUDA_MEMCPY3D copy_in{}, copy_out{};  // buffer -> array, array -> buffer
    bool copies_in = false, copies_out = false;
    TextureObject texture;
    SurfaceObject surface;

    void before_launches() override {
        if (copies_in) KPLAY_CU(driver_api().cuMemcpy3DAsync(&copy_in, stream_.get()));
        if (staged_bytes) KPLAY_CU(driver_api().cuMemcpyDtoDAsync(staged_at, source, staged_bytes, stream_.get()));
    }
    void after_launches() override {
        if (copies_out) KPLAY_CU(driver_api().cuMemcpy3DAsync(&copy_out, stream_.get()));
    }

private:
    const Stream& stream_;
};

[[noreturn]] void refused(const TexturePlan& plan, const char* what, CUresult result) {
    const char* name = nullptr;
    driver_api().cuGetErrorName(result, &name);
    throw InputError(std::string(plan.decl.key()) + " " + plan.decl.name + ": the driver refused the " + what + " (" + (name ? name : "an error") +
                     ") for " + plan.text() + ".");
}

// A CUDA array of the plan's shape, and the copies between it and the buffer at `address`.
void make_array(const TexturePlan& plan, uint64_t address, CudaImage& image) {
    const TextureDecl& decl = plan.decl;
    CUDA_ARRAY3D_DESCRIPTOR descriptor{};
    descriptor.Width = static_cast<size_t>(plan.extent[0]);
    descriptor.Height = decl.dims() >= 2 ? static_cast<size_t>(plan.extent[1]) : 0;
    descriptor.Depth = plan.layers > 0 ? static_cast<size_t>(plan.layers) : decl.dims() == 3 ? static_cast<size_t>(plan.extent[2]) : 0;
    descriptor.Format = array_format(plan.type);
    descriptor.NumChannels = static_cast<unsigned>(decl.channels);
    descriptor.Flags = (plan.layers > 0 ? CUDA_ARRAY3D_LAYERED : 0u) | (decl.kind == ImageKind::surface ? CUDA_ARRAY3D_SURFACE_LDST : 0u);
    if (const CUresult result = CudaArray::create(descriptor, image.array); result != CUDA_SUCCESS) refused(plan, "CUDA array", result);
    CUDA_MEMCPY3D copy{};
    copy.WidthInBytes = plan.row_bytes();
    copy.Height = static_cast<size_t>(plan.extent[1]);
    copy.Depth = static_cast<size_t>(plan.layers > 0 ? plan.layers : plan.extent[2]);
    image.copy_in = copy;
    image.copy_in.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    image.copy_in.srcDevice = address;
    image.copy_in.srcPitch = plan.row_bytes();
    image.copy_in.srcHeight = static_cast<size_t>(plan.extent[1]);
    image.copy_in.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    image.copy_in.dstArray = image.array.get();
    image.copies_in = true;
    image.copy_out = copy;
    image.copy_out.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    image.copy_out.srcArray = image.array.get();
    image.copy_out.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    image.copy_out.dstDevice = address;
    image.copy_out.dstPitch = plan.row_bytes();
    image.copy_out.dstHeight = static_cast<size_t>(plan.extent[1]);
    image.copies_out = decl.kind == ImageKind::surface;
}

// Where a texture reads: the buffer itself where the alignments allow, else staged memory or an array.
CUDA_RESOURCE_DESC texture_resource(const TexturePlan& plan, uint64_t address, const TextureAlignment& alignment, CudaImage& image) {
    const TextureDecl& decl = plan.decl;
    CUDA_RESOURCE_DESC resource{};
    if (decl.in_array() || (decl.dims() == 2 && (address % alignment.base != 0 || plan.row_bytes() % alignment.pitch != 0))) {
        make_array(plan, address, image);
        resource.resType = CU_RESOURCE_TYPE_ARRAY;
        resource.res.array.hArray = image.array.get();
    } else if (decl.dims() == 2) {
        resource.resType = CU_RESOURCE_TYPE_PITCH2D;
        resource.res.pitch2D.devPtr = address;
        resource.res.pitch2D.format = array_format(plan.type);
        resource.res.pitch2D.numChannels = static_cast<unsigned>(decl.channels);
        resource.res.pitch2D.width = static_cast<size_t>(plan.extent[0]);
        resource.res.pitch2D.height = static_cast<size_t>(plan.extent[1]);
        resource.res.pitch2D.pitchInBytes = plan.row_bytes();
    } else {
        uint64_t at = address;
        if (address % alignment.base != 0) {  // a copy at an aligned address, refreshed before the launches
            image.staging = DeviceBuffer(plan.row_bytes() + alignment.base);
            at = (image.staging.get() + alignment.base - 1) / alignment.base * alignment.base;
            image.staged_at = at;
            image.staged_bytes = plan.row_bytes();
            image.source = address;
        }
        resource.resType = CU_RESOURCE_TYPE_LINEAR;
        resource.res.linear.devPtr = at;
        resource.res.linear.format = array_format(plan.type);
        resource.res.linear.numChannels = static_cast<unsigned>(decl.channels);
        resource.res.linear.sizeInBytes = plan.row_bytes();
    }
    return resource;
}

}  // namespace

std::unique_ptr<BoundImage> bind_cuda_image(const TexturePlan& plan, uint64_t address, const Stream& stream, const TextureAlignment& alignment) {
    auto image = std::make_unique<CudaImage>(stream);
    const TextureDecl& decl = plan.decl;
    if (decl.kind == ImageKind::surface) {
        make_array(plan, address, *image);
        CUDA_RESOURCE_DESC resource{};
        resource.resType = CU_RESOURCE_TYPE_ARRAY;
        resource.res.array.hArray = image->array.get();
        if (const CUresult result = SurfaceObject::create(resource, image->surface); result != CUDA_SUCCESS) refused(plan, "surface object", result);
        image->handle = image->surface.get();
        return image;
    }
    const CUDA_RESOURCE_DESC resource = texture_resource(plan, address, alignment, *image);
    CUDA_TEXTURE_DESC texture{};
    for (CUaddress_mode& mode : texture.addressMode) mode = address_mode(decl.address);
    texture.filterMode = decl.filter == TextureFilter::linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    if (decl.normalized) texture.flags |= CU_TRSF_NORMALIZED_COORDINATES;
    if (is_integer(plan.type) && decl.read == TextureRead::element) texture.flags |= CU_TRSF_READ_AS_INTEGER;
    if (const CUresult result = TextureObject::create(resource, texture, image->texture); result != CUDA_SUCCESS) refused(plan, "texture object", result);
    image->handle = image->texture.get();
    return image;
}

}  // namespace kplay
