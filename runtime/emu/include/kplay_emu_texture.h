// kplay_emu_texture.h: texture and surface objects on the emulated device (part of kplay_emu_prelude.h,
// through kplay_emu_refused.h). A cudaTextureObject_t or cudaSurfaceObject_t is the address of the
// kplay_image kplay made from the kernel file's kplay-texture or kplay-surface line; tex2D and its kin
// sample the task's buffer as CUDA's texture unit does (kplay_texture_sampling.h), and surf2Dwrite and
// its kin write the buffer itself, with CUDA's byte-addressed x and its boundary modes.
//
// What CUDA leaves undefined is a failure here, said at the kernel's line: a fetch function that does not
// match the texture (tex1D over linear memory, tex2D of a 1D texture), a return type of another kind or
// more channels than the texture's, a surface access whose size is not the element's, or out of range
// with cudaBoundaryModeTrap (the default). Mipmapped, gather and cubemap fetches stay refused by name
// (kplay_emu_refused.h): kplay declares no such textures.
#pragma once

#include "kplay_texture_sampling.h"
#include "kplay_texture_types.h"

namespace kplay_emu {

template <class T>
inline T texture_fetch(cudaTextureObject_t object, ::kplay_tex::Fetch fetch, float x, float y, float z, int layer, const char* file, int line) {
    const auto* image = reinterpret_cast<const kplay_image*>(object);
    ::kplay_tex::Text problem;
    if (!::kplay_tex::can_fetch<T>(image, fetch, problem)) host()->fail("unsupported", problem.text, file, line);
    return ::kplay_tex::Returned<T>::make(::kplay_tex::sample(*image, x, y, z, ::kplay_tex::layer_index(*image, layer)));
}

template <class T>
inline T texture_index(cudaTextureObject_t object, int x, const char* file, int line) {
    const auto* image = reinterpret_cast<const kplay_image*>(object);
    ::kplay_tex::Text problem;
    if (!::kplay_tex::can_fetch<T>(image, ::kplay_tex::fetch_1d_linear, problem)) host()->fail("unsupported", problem.text, file, line);
    return ::kplay_tex::Returned<T>::make(::kplay_tex::index_fetch(*image, x));
}

template <class T>
inline T surface_read(cudaSurfaceObject_t object, const char* op, int x, int y, int z, int layer, int boundary, const char* file, int line) {
    ::kplay_tex::Text problem;
    ::kplay_tex::SurfaceAccess failed = ::kplay_tex::access_ok;
    const unsigned char* at = ::kplay_tex::surface_element(reinterpret_cast<const kplay_image*>(object), op, x, y, z, layer,
                                                           static_cast<long long>(sizeof(T)), boundary, problem, failed);
    if (failed != ::kplay_tex::access_ok) host()->fail(failed == ::kplay_tex::outside ? "trap" : "unsupported", problem.text, file, line);
    T value;
    if (at) __builtin_memcpy(&value, at, sizeof value);
    else __builtin_memset(&value, 0, sizeof value);
    return value;
}

template <class T>
inline void surface_write(const T& value, cudaSurfaceObject_t object, const char* op, int x, int y, int z, int layer, int boundary, const char* file, int line) {
    ::kplay_tex::Text problem;
    ::kplay_tex::SurfaceAccess failed = ::kplay_tex::access_ok;
    unsigned char* at = ::kplay_tex::surface_element(reinterpret_cast<const kplay_image*>(object), op, x, y, z, layer,
                                                     static_cast<long long>(sizeof(T)), boundary, problem, failed);
    if (failed != ::kplay_tex::access_ok) host()->fail(failed == ::kplay_tex::outside ? "trap" : "unsupported", problem.text, file, line);
    if (at) __builtin_memcpy(at, &value, sizeof value);
}

}  // namespace kplay_emu

// ---- texture fetches (texture_indirect_functions.h), each with its out-parameter form --------------------
template <class T> inline T tex1Dfetch(cudaTextureObject_t t, int x, KPLAY_EMU_SITE) { return ::kplay_emu::texture_index<T>(t, x, file, line); }
template <class T> inline void tex1Dfetch(T* out, cudaTextureObject_t t, int x, KPLAY_EMU_SITE) { *out = tex1Dfetch<T>(t, x, file, line); }
template <class T> inline T tex1D(cudaTextureObject_t t, float x, KPLAY_EMU_SITE) {
    return ::kplay_emu::texture_fetch<T>(t, ::kplay_tex::fetch_1d, x, 0, 0, 0, file, line);
}
template <class T> inline void tex1D(T* out, cudaTextureObject_t t, float x, KPLAY_EMU_SITE) { *out = tex1D<T>(t, x, file, line); }
template <class T> inline T tex2D(cudaTextureObject_t t, float x, float y, KPLAY_EMU_SITE) {
    return ::kplay_emu::texture_fetch<T>(t, ::kplay_tex::fetch_2d, x, y, 0, 0, file, line);
}
template <class T> inline void tex2D(T* out, cudaTextureObject_t t, float x, float y, KPLAY_EMU_SITE) { *out = tex2D<T>(t, x, y, file, line); }
template <class T> inline T tex3D(cudaTextureObject_t t, float x, float y, float z, KPLAY_EMU_SITE) {
    return ::kplay_emu::texture_fetch<T>(t, ::kplay_tex::fetch_3d, x, y, z, 0, file, line);
}
template <class T> inline void tex3D(T* out, cudaTextureObject_t t, float x, float y, float z, KPLAY_EMU_SITE) {
    *out = tex3D<T>(t, x, y, z, file, line);
}
template <class T> inline T tex1DLayered(cudaTextureObject_t t, float x, int layer, KPLAY_EMU_SITE) {
    return ::kplay_emu::texture_fetch<T>(t, ::kplay_tex::fetch_1d_layered, x, 0, 0, layer, file, line);
}
template <class T> inline void tex1DLayered(T* out, cudaTextureObject_t t, float x, int layer, KPLAY_EMU_SITE) {
    *out = tex1DLayered<T>(t, x, layer, file, line);
}
template <class T> inline T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer, KPLAY_EMU_SITE) {
    return ::kplay_emu::texture_fetch<T>(t, ::kplay_tex::fetch_2d_layered, x, y, 0, layer, file, line);
}
template <class T> inline void tex2DLayered(T* out, cudaTextureObject_t t, float x, float y, int layer, KPLAY_EMU_SITE) {
    *out = tex2DLayered<T>(t, x, y, layer, file, line);
}

// ---- surface reads and writes (surface_indirect_functions.h): x in bytes ---------------------------------
#define KPLAY_SURFACE_MODE cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap, KPLAY_EMU_SITE
template <class T> inline T surf1Dread(cudaSurfaceObject_t s, int x, KPLAY_SURFACE_MODE) {
    return ::kplay_emu::surface_read<T>(s, "surf1Dread", x, 0, 0, 0, mode, file, line);
}
template <class T> inline void surf1Dread(T* out, cudaSurfaceObject_t s, int x, KPLAY_SURFACE_MODE) {
    *out = ::kplay_emu::surface_read<T>(s, "surf1Dread", x, 0, 0, 0, mode, file, line);
}
template <class T> inline T surf2Dread(cudaSurfaceObject_t s, int x, int y, KPLAY_SURFACE_MODE) {
    return ::kplay_emu::surface_read<T>(s, "surf2Dread", x, y, 0, 0, mode, file, line);
}
template <class T> inline void surf2Dread(T* out, cudaSurfaceObject_t s, int x, int y, KPLAY_SURFACE_MODE) {
    *out = ::kplay_emu::surface_read<T>(s, "surf2Dread", x, y, 0, 0, mode, file, line);
}
template <class T> inline T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z, KPLAY_SURFACE_MODE) {
    return ::kplay_emu::surface_read<T>(s, "surf3Dread", x, y, z, 0, mode, file, line);
}
template <class T> inline void surf3Dread(T* out, cudaSurfaceObject_t s, int x, int y, int z, KPLAY_SURFACE_MODE) {
    *out = ::kplay_emu::surface_read<T>(s, "surf3Dread", x, y, z, 0, mode, file, line);
}
template <class T> inline T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer, KPLAY_SURFACE_MODE) {
    return ::kplay_emu::surface_read<T>(s, "surf1DLayeredread", x, 0, 0, layer, mode, file, line);
}
template <class T> inline void surf1DLayeredread(T* out, cudaSurfaceObject_t s, int x, int layer, KPLAY_SURFACE_MODE) {
    *out = ::kplay_emu::surface_read<T>(s, "surf1DLayeredread", x, 0, 0, layer, mode, file, line);
}
template <class T> inline T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer, KPLAY_SURFACE_MODE) {
    return ::kplay_emu::surface_read<T>(s, "surf2DLayeredread", x, y, 0, layer, mode, file, line);
}
template <class T> inline void surf2DLayeredread(T* out, cudaSurfaceObject_t s, int x, int y, int layer, KPLAY_SURFACE_MODE) {
    *out = ::kplay_emu::surface_read<T>(s, "surf2DLayeredread", x, y, 0, layer, mode, file, line);
}
template <class T> inline void surf1Dwrite(T value, cudaSurfaceObject_t s, int x, KPLAY_SURFACE_MODE) {
    ::kplay_emu::surface_write(value, s, "surf1Dwrite", x, 0, 0, 0, mode, file, line);
}
template <class T> inline void surf2Dwrite(T value, cudaSurfaceObject_t s, int x, int y, KPLAY_SURFACE_MODE) {
    ::kplay_emu::surface_write(value, s, "surf2Dwrite", x, y, 0, 0, mode, file, line);
}
template <class T> inline void surf3Dwrite(T value, cudaSurfaceObject_t s, int x, int y, int z, KPLAY_SURFACE_MODE) {
    ::kplay_emu::surface_write(value, s, "surf3Dwrite", x, y, z, 0, mode, file, line);
}
template <class T> inline void surf1DLayeredwrite(T value, cudaSurfaceObject_t s, int x, int layer, KPLAY_SURFACE_MODE) {
    ::kplay_emu::surface_write(value, s, "surf1DLayeredwrite", x, 0, 0, layer, mode, file, line);
}
template <class T> inline void surf2DLayeredwrite(T value, cudaSurfaceObject_t s, int x, int y, int layer, KPLAY_SURFACE_MODE) {
    ::kplay_emu::surface_write(value, s, "surf2DLayeredwrite", x, y, 0, layer, mode, file, line);
}
#undef KPLAY_SURFACE_MODE
