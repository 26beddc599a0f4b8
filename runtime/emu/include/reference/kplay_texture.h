// kplay_texture.h: a host reference samples a texture's buffer as the kernel's tex2D does.
//
// The reference gets the buffer itself where the kernel has a cudaTextureObject_t (or a
// cudaSurfaceObject_t). To compute what the kernel's fetches return, describe the texture with the keys
// of its kplay-texture line and fetch from it with the same function names, prefixed kplay_:
//
//   #ifdef KPLAY_REFERENCE
//   #include <kplay_texture.h>
//   void kplay_reference(const float* img, float* out, int w, int h) {
//       const kplay_image tex = kplay_texture_2d(img, w, h, "filter=linear address=clamp");
//       ... out[y * w + x] = kplay_tex2D<float>(tex, x + 0.25f, y + 0.5f); ...
//   }
//   #endif
//
// The sampling is the emulated device's own (kplay_texture_sampling.h): linear filtering with CUDA's
// 9-bit fractional weights, the address modes, normalized coordinates and normalized-float reads. The
// element type and channel count come from the pointer (const uchar4* is 4 channels of u8), or from
// channels= beside a plain byte pointer. A key or a fetch that does not fit ends the reference with why.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>

#include "../kplay_texture_sampling.h"

namespace kplay_ref_texture {

template <class T> struct Format;
#define KPLAY_REF_FORMAT(T, format, channels) \
    template <> struct Format<T> { static constexpr int value = format, count = channels; };
KPLAY_REF_FORMAT(unsigned char, KPLAY_IMAGE_U8, 1) KPLAY_REF_FORMAT(uchar2, KPLAY_IMAGE_U8, 2) KPLAY_REF_FORMAT(uchar4, KPLAY_IMAGE_U8, 4)
KPLAY_REF_FORMAT(signed char, KPLAY_IMAGE_I8, 1) KPLAY_REF_FORMAT(char, KPLAY_IMAGE_I8, 1) KPLAY_REF_FORMAT(char2, KPLAY_IMAGE_I8, 2)
KPLAY_REF_FORMAT(char4, KPLAY_IMAGE_I8, 4) KPLAY_REF_FORMAT(unsigned int, KPLAY_IMAGE_U32, 1) KPLAY_REF_FORMAT(uint2, KPLAY_IMAGE_U32, 2)
KPLAY_REF_FORMAT(uint4, KPLAY_IMAGE_U32, 4) KPLAY_REF_FORMAT(int, KPLAY_IMAGE_I32, 1) KPLAY_REF_FORMAT(int2, KPLAY_IMAGE_I32, 2)
KPLAY_REF_FORMAT(int4, KPLAY_IMAGE_I32, 4) KPLAY_REF_FORMAT(float, KPLAY_IMAGE_F32, 1) KPLAY_REF_FORMAT(float2, KPLAY_IMAGE_F32, 2)
KPLAY_REF_FORMAT(float4, KPLAY_IMAGE_F32, 4)
#undef KPLAY_REF_FORMAT
template <class T> struct Format<const T> : Format<T> {};

// A buffer of halves: whatever 2-byte type the reference names it (half, __half) other than the integers.
template <class T>
constexpr bool is_half = sizeof(T) == 2 && !std::is_integral_v<T>;
template <class T>
constexpr int format_of() {
    if constexpr (is_half<T>) return KPLAY_IMAGE_F16;
    else return Format<T>::value;
}
template <class T>
constexpr int channels_of() {
    if constexpr (is_half<T>) return 1;
    else return Format<T>::count;
}

// The keys of a kplay-texture line that say how it samples.
inline void apply_keys(kplay_image& image, const char* keys) {
    const std::string text = keys ? keys : "";
    size_t at = 0;
    while (at < text.size()) {
        const size_t end = text.find(' ', at) == std::string::npos ? text.size() : text.find(' ', at);
        const std::string token = text.substr(at, end - at);
        at = end + 1;
        if (token.empty()) continue;
        const size_t equals = token.find('=');
        const std::string key = token.substr(0, equals), value = equals == std::string::npos ? "" : token.substr(equals + 1);
        if (key == "filter" && (value == "point" || value == "linear")) image.filter = value == "linear" ? KPLAY_FILTER_LINEAR : KPLAY_FILTER_POINT;
        else if (key == "address" && value == "clamp") image.address = KPLAY_ADDRESS_CLAMP;
        else if (key == "address" && value == "wrap") image.address = KPLAY_ADDRESS_WRAP;
        else if (key == "address" && value == "mirror") image.address = KPLAY_ADDRESS_MIRROR;
        else if (key == "address" && value == "border") image.address = KPLAY_ADDRESS_BORDER;
        else if (key == "normalized" && (value == "yes" || value == "no")) image.normalized = value == "yes";
        else if (key == "read" && (value == "element" || value == "normalized-float")) image.read_normalized = value == "normalized-float";
        else if (key == "channels" && (value == "1" || value == "2" || value == "4")) image.channels = value[0] - '0';
        else if (key == "layers" && !value.empty() && value.find_first_not_of("0123456789") == std::string::npos) {
            image.layered = 1;
            image.layers = 0;
            for (char digit : value) image.layers = image.layers * 10 + (digit - '0');  // (std::stoll calls strtoll, which a reference may not)
        } else if (key == "layout" && (value == "array" || value == "linear")) image.in_array = value == "array" || image.dims > 1;
        else kplay_ref::fail("kplay_texture: '", token.c_str(), "' is not a key of a kplay-texture line (filter, address, normalized, read, channels, layers, layout)");
    }
    if (image.filter == KPLAY_FILTER_LINEAR && !kplay_tex::reads_float(image))
        kplay_ref::fail("kplay_texture: filter=linear over integers read as elements: add read=normalized-float, as CUDA filters only floats");
}

template <class T>
kplay_image make(const T* data, int dims, long long w, long long h, long long d, const char* keys) {
    kplay_image image{};
    image.magic = KPLAY_IMAGE_MAGIC;
    image.format = format_of<T>();
    image.channels = channels_of<T>();
    image.dims = dims;
    image.in_array = dims > 1;
    image.width = w;
    image.height = h;
    image.depth = d;
    image.layers = 1;
    image.data = const_cast<unsigned char*>(reinterpret_cast<const unsigned char*>(data));
    const char name[] = "the reference's texture";
    std::memcpy(image.name, name, sizeof name);
    apply_keys(image, keys);
    if (image.layered || image.dims == 3) image.in_array = 1;
    return image;
}

template <class R>
R fetch(const kplay_image& image, kplay_tex::Fetch fetch, float x, float y, float z, int layer) {
    kplay_tex::Text problem;
    if (!kplay_tex::can_fetch<R>(&image, fetch, problem)) kplay_ref::fail("kplay_", problem.text);
    return kplay_tex::Returned<R>::make(kplay_tex::sample(image, x, y, z, kplay_tex::layer_index(image, layer)));
}

}  // namespace kplay_ref_texture

template <class T> kplay_image kplay_texture_1d(const T* data, long long n, const char* keys = "") {
    return kplay_ref_texture::make(data, 1, n, 1, 1, keys);
}
template <class T> kplay_image kplay_texture_2d(const T* data, long long w, long long h, const char* keys = "") {
    return kplay_ref_texture::make(data, 2, w, h, 1, keys);
}
template <class T> kplay_image kplay_texture_3d(const T* data, long long w, long long h, long long d, const char* keys = "") {
    return kplay_ref_texture::make(data, 3, w, h, d, keys);
}

template <class R> R kplay_tex1Dfetch(const kplay_image& image, int x) {
    kplay_tex::Text problem;
    if (!kplay_tex::can_fetch<R>(&image, kplay_tex::fetch_1d_linear, problem)) kplay_ref::fail("kplay_", problem.text);
    return kplay_tex::Returned<R>::make(kplay_tex::index_fetch(image, x));
}
template <class R> R kplay_tex1D(const kplay_image& image, float x) { return kplay_ref_texture::fetch<R>(image, kplay_tex::fetch_1d, x, 0, 0, 0); }
template <class R> R kplay_tex2D(const kplay_image& image, float x, float y) {
    return kplay_ref_texture::fetch<R>(image, kplay_tex::fetch_2d, x, y, 0, 0);
}
template <class R> R kplay_tex3D(const kplay_image& image, float x, float y, float z) {
    return kplay_ref_texture::fetch<R>(image, kplay_tex::fetch_3d, x, y, z, 0);
}
template <class R> R kplay_tex1DLayered(const kplay_image& image, float x, int layer) {
    return kplay_ref_texture::fetch<R>(image, kplay_tex::fetch_1d_layered, x, 0, 0, layer);
}
template <class R> R kplay_tex2DLayered(const kplay_image& image, float x, float y, int layer) {
    return kplay_ref_texture::fetch<R>(image, kplay_tex::fetch_2d_layered, x, y, 0, layer);
}
