// kplay_texture_sampling.h: how CUDA's texture unit reads an image, as plain C++, so the emulated
// device's tex2D (kplay_emu_texture.h) and a host reference's kplay_tex2D (reference/kplay_texture.h)
// sample one way. Freestanding (the emulated build has no C library); the vector types come first
// (kplay_vector_types.h).
//
// It follows the CUDA C++ Programming Guide's texture-fetching appendix:
// - point sampling returns T[i], i = floor(x), x scaled by the extent first for normalized coordinates;
// - linear filtering returns (1-a)T[i] + aT[i+1] (and the 4- and 8-texel forms), i = floor(x - 0.5),
//   a = frac(x - 0.5) held in 9-bit fixed point with 8 fraction bits: a is rounded to the nearest 1/256
//   (so 1.0 is exact). Where the appendix leaves the arithmetic open (how a 2D sample's weights are
//   rounded, how the sum is rounded, bytes and halves), sample() below does what an H100 measurably does;
// - the address modes act on texel indices: clamp to the edge, border (the texel reads 0), wrap and
//   mirror (normalized coordinates only, as CUDA has it);
// - 8-bit integers read as normalized floats become v/255 (u8) or max(v/127, -1) (i8); halves become
//   floats; 32-bit integers are never promoted.
#pragma once

#include "kplay_texture_abi.h"

namespace kplay_tex {

// A message with numbers in it, without the C library.
struct Text {
    char text[384] = {};
    int length = 0;
    Text& operator<<(const char* part) {
        for (; part && *part && length + 1 < static_cast<int>(sizeof text); ++part) text[length++] = *part;
        return *this;
    }
    Text& operator<<(long long number) {
        char digits[24];
        int n = 0;
        const bool negative = number < 0;
        unsigned long long value = negative ? 0ull - static_cast<unsigned long long>(number) : static_cast<unsigned long long>(number);
        do digits[n++] = static_cast<char>('0' + value % 10);
        while ((value /= 10) != 0);
        if (negative) *this << "-";
        char out[2] = {0, 0};
        while (n > 0) {
            out[0] = digits[--n];
            *this << out;
        }
        return *this;
    }
    Text& operator<<(int number) { return *this << static_cast<long long>(number); }
    Text& operator<<(double number) {  // 4 decimals: enough to tell coordinates apart in a message
        if (number != number) return *this << "nan";
        if (number < 0) {
            *this << "-";
            number = -number;
        }
        if (number > 9e15) return *this << "huge";
        const long long whole = static_cast<long long>(number);
        const long long part = static_cast<long long>((number - static_cast<double>(whole)) * 10000.0 + 0.5);
        *this << whole << ".";
        for (long long scale = 1000; scale > 0; scale /= 10) *this << static_cast<long long>(part / scale % 10);
        return *this;
    }
};

// One element's components: as floats (a float format, or a normalized-float read) or as integers.
struct Value {
    float f[4] = {0, 0, 0, 0};
    int i[4] = {0, 0, 0, 0};
};

inline bool reads_float(const kplay_image& image) {
    return image.format == KPLAY_IMAGE_F16 || image.format == KPLAY_IMAGE_F32 || image.read_normalized;
}

inline int component_bytes(int format) {
    return format == KPLAY_IMAGE_U8 || format == KPLAY_IMAGE_I8 ? 1 : format == KPLAY_IMAGE_F16 ? 2 : 4;
}
inline long long element_bytes(const kplay_image& image) { return component_bytes(image.format) * image.channels; }

inline const char* format_name(int format) {
    switch (format) {
        case KPLAY_IMAGE_U8: return "u8";
        case KPLAY_IMAGE_I8: return "i8";
        case KPLAY_IMAGE_U32: return "u32";
        case KPLAY_IMAGE_I32: return "i32";
        case KPLAY_IMAGE_F16: return "f16";
        default: return "f32";
    }
}

// "640x480 f32" or "3 layers of 64x64 u8x4", outermost first.
inline Text& describe(Text& text, const kplay_image& image) {
    if (image.layered) text << image.layers << " layers of ";
    if (image.dims >= 3) text << image.depth << "x";
    if (image.dims >= 2) text << image.height << "x";
    text << image.width << " " << format_name(image.format);
    if (image.channels > 1) text << "x" << image.channels;
    return text;
}

inline float half_to_float(unsigned short h) {
    const unsigned sign = static_cast<unsigned>(h & 0x8000u) << 16;
    unsigned exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu, bits;
    if (exponent == 0x1fu) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {  // subnormal: normalise it
        exponent = 113;
        while (!(mantissa & 0x400u)) {
            mantissa <<= 1;
            --exponent;
        }
        bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
    float value;
    __builtin_memcpy(&value, &bits, sizeof value);
    return value;
}

// The element at in-range indices, converted as the texture reads it.
inline Value load(const kplay_image& image, long long x, long long y, long long z, long long layer) {
    const long long index = ((layer * image.depth + z) * image.height + y) * image.width + x;
    const unsigned char* at = image.data + index * element_bytes(image);
    Value value;
    for (int c = 0; c < image.channels; ++c) {
        switch (image.format) {
            case KPLAY_IMAGE_U8: {
                const unsigned char v = at[c];
                value.i[c] = v;
                value.f[c] = image.read_normalized ? static_cast<float>(v) / 255.0f : 0.0f;
                break;
            }
            case KPLAY_IMAGE_I8: {
                const signed char v = static_cast<signed char>(at[c]);
                value.i[c] = v;
                const float scaled = static_cast<float>(v) / 127.0f;
                value.f[c] = image.read_normalized ? (scaled < -1.0f ? -1.0f : scaled) : 0.0f;
                break;
            }
            case KPLAY_IMAGE_F16: {
                unsigned short h;
                __builtin_memcpy(&h, at + 2 * c, 2);
                value.f[c] = half_to_float(h);
                break;
            }
            case KPLAY_IMAGE_F32: __builtin_memcpy(&value.f[c], at + 4 * c, 4); break;
            default: __builtin_memcpy(&value.i[c], at + 4 * c, 4); break;  // u32 and i32: the bits
        }
    }
    return value;
}

// Texel index `i` of an extent `n` under the address mode; false where it reads the border (0).
inline bool address_index(long long& i, long long n, int address) {
    if (i >= 0 && i < n) return true;
    switch (address) {
        case KPLAY_ADDRESS_BORDER: return false;
        case KPLAY_ADDRESS_WRAP: i = ((i % n) + n) % n; return true;
        case KPLAY_ADDRESS_MIRROR: {
            const long long m = ((i % (2 * n)) + 2 * n) % (2 * n);
            i = m < n ? m : 2 * n - 1 - m;
            return true;
        }
        default: i = i < 0 ? 0 : n - 1; return true;
    }
}

inline Value texel(const kplay_image& image, long long x, long long y, long long z, long long layer) {
    if (!address_index(x, image.width, image.address) || !address_index(y, image.height, image.address) ||
        !address_index(z, image.depth, image.address))
        return Value{};
    return load(image, x, y, z, layer);
}

// A coordinate in texels: normalized ones are scaled by the extent first. Kept within what an index
// can hold (a NaN reads as 0), so far-off coordinates clamp, wrap or read the border like near ones.
inline float texel_coordinate(const kplay_image& image, float c, long long n) {
    if (image.normalized) c *= static_cast<float>(n);
    if (!(c == c)) return 0.0f;
    const float limit = 1073741824.0f;  // 2^30
    return c < -limit ? -limit : c > limit ? limit : c;
}

inline long long floor_index(float c) { return static_cast<long long>(__builtin_floorf(c)); }

// The fractional weight in 1/256ths: 9-bit fixed point with 8 fraction bits, rounded to nearest.
inline int weight256(float fraction) { return static_cast<int>(fraction * 256.0f + 0.5f); }

// A bit pattern's float and back, without the C library.
inline float float_of(unsigned bits) {
    float value;
    __builtin_memcpy(&value, &bits, sizeof value);
    return value;
}
inline unsigned bits_of(float value) {
    unsigned bits;
    __builtin_memcpy(&bits, &value, sizeof bits);
    return bits;
}

// `v` to the nearest float, a tie away from zero: how the texture unit rounds a filtered float (measured).
inline float round_ties_away(double v) {
    const float r = static_cast<float>(v);  // nearest, ties to even
    const double off = v - static_cast<double>(r);
    if (off == 0 || r == 0.0f || r != r || r - r != 0.0f) return r;
    const bool beyond = (off > 0) == (r > 0);  // v lies farther from zero than r
    const float other = float_of(bits_of(r) + (beyond ? 1u : static_cast<unsigned>(-1)));
    const double other_off = static_cast<double>(other) - v;
    const bool tie = (other_off < 0 ? -other_off : other_off) == (off < 0 ? -off : off);
    return tie && beyond ? other : r;
}

// `v` to the nearest half (returned as a float), a tie away from zero: a filtered f16 texture's result.
inline float round_to_half_ties_away(double v) {
    const double magnitude = v < 0 ? -v : v;
    if (magnitude >= 65520.0) return float_of(v < 0 ? 0xff800000u : 0x7f800000u);
    unsigned long long bits;
    __builtin_memcpy(&bits, &magnitude, sizeof bits);
    const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;  // of the double: magnitude in [2^e, 2^(e+1))
    // A half keeps 10 fraction bits; below 2^-14 its steps stay 2^-24 (subnormals).
    const int step = (exponent < -14 ? -14 : exponent) - 10;
    const unsigned long long ulp_bits = static_cast<unsigned long long>(step + 1023) << 52;  // 2^step
    double ulp;
    __builtin_memcpy(&ulp, &ulp_bits, sizeof ulp);
    const double steps = static_cast<double>(static_cast<long long>(magnitude / ulp + 0.5));
    const float rounded = static_cast<float>(steps * ulp);
    return v < 0 ? -rounded : rounded;
}

// Linear filtering as a GPU's texture unit does it, measured on an H100 at every 1/256 of a texel and
// matched bit for bit (README "Textures and surfaces"): each dimension's weight `a` in 1/256ths, as
// above; a 2D sample's four weights again in 1/256ths, from the one rounded product c = ax*ay/256 (a
// half rounded up): (256-ax-ay+c, ax-c, ay-c, c), so they sum to 256; a 3D sample nests that once more
// with z (not measured). The weighted sum is exact and rounded once: to the nearest float, a tie away
// from zero, for float texels; to the nearest half for f16 texels; and for bytes read as normalized
// floats in 16-bit fixed point: u8 texels count v*257 of 65535 and the sum is rounded to a whole step
// (v/255 at a texel's centre); i8 texels (-128 read as -127) are filtered as they are and scaled to
// steps of 1/32767 (a GPU differs from this by one step on about one sample in 17).
inline Value sample(const kplay_image& image, float x, float y, float z, long long layer) {
    const float c[3] = {x, y, z};
    const long long extent[3] = {image.width, image.height, image.depth};
    if (image.filter != KPLAY_FILTER_LINEAR) {
        long long i[3] = {0, 0, 0};
        for (int d = 0; d < image.dims; ++d) i[d] = floor_index(texel_coordinate(image, c[d], extent[d]));
        return texel(image, i[0], i[1], i[2], layer);
    }
    long long base[3] = {0, 0, 0};
    int a[3] = {0, 0, 0};
    for (int d = 0; d < image.dims; ++d) {
        const float shifted = texel_coordinate(image, c[d], extent[d]) - 0.5f;
        const float below = __builtin_floorf(shifted);
        base[d] = static_cast<long long>(below);
        a[d] = weight256(shifted - below);
    }
    // Corner k's weight in 1/256ths: x varies fastest, then y, then z (the appendix's order).
    int weights[8] = {256 - a[0], a[0], 0, 0, 0, 0, 0, 0};
    for (int d = 1; d < image.dims; ++d) {  // each corner so far splits into a lower and an upper one
        const int before = 1 << d;
        int rest = a[d];  // the upper corners' weights sum to a[d]; corner 0's upper takes what is left
        for (int k = before - 1; k >= 1; --k) {
            const int upper = (weights[k] * a[d] + 128) >> 8;
            weights[k + before] = upper;
            weights[k] -= upper;
            rest -= upper;
        }
        weights[before] = rest;
        weights[0] -= rest;
    }
    const bool unorm = image.read_normalized && image.format == KPLAY_IMAGE_U8;
    const bool snorm = image.read_normalized && image.format == KPLAY_IMAGE_I8;
    double sum[4] = {0, 0, 0, 0};
    for (int k = 0; k < (1 << image.dims); ++k) {
        long long at[3] = {0, 0, 0};
        for (int d = 0; d < image.dims; ++d) at[d] = base[d] + ((k >> d) & 1);
        const Value t = texel(image, at[0], at[1], at[2], layer);
        for (int ch = 0; ch < 4; ++ch) {
            const double v = unorm ? t.i[ch] * 257.0 : snorm ? (t.i[ch] < -127 ? -127.0 : static_cast<double>(t.i[ch])) : t.f[ch];
            sum[ch] += weights[k] * v;
        }
    }
    Value result;
    for (int ch = 0; ch < 4; ++ch) {
        const double v = sum[ch] / 256.0;
        if (unorm) {
            result.f[ch] = static_cast<float>(static_cast<long long>(v + 0.5)) / 65535.0f;
        } else if (snorm) {
            const double steps = v * (32767.0 / 127.0);
            const long long q = static_cast<long long>(steps < 0 ? steps - 0.5 : steps + 0.5);
            result.f[ch] = static_cast<float>(q) / 32767.0f;
        } else {
            result.f[ch] = image.format == KPLAY_IMAGE_F16 ? round_to_half_ties_away(v) : round_ties_away(v);
        }
    }
    return result;
}

// tex1Dfetch: linear memory by index, unfiltered, without address modes, and 0 past either end.
inline Value index_fetch(const kplay_image& image, long long x) { return x < 0 || x >= image.width ? Value{} : load(image, x, 0, 0, 0); }

// The texture unit clamps a layer past the last to the last, and reads the index as unsigned, so a
// negative one is past the last too (measured on an H100: layer -1 reads the last layer, not the first).
inline long long layer_index(const kplay_image& image, int layer) {
    return layer < 0 || layer >= image.layers ? image.layers - 1 : layer;
}

// ---- what a fetch returns as the kernel's type ------------------------------------------------------
template <class T> struct Returned;  // channels, whether it is a float type, and the value made from components
#define KPLAY_TEX_SCALAR(T, is_real)                                                        \
    template <> struct Returned<T> {                                                        \
        static constexpr int channels = 1;                                                  \
        static constexpr bool real = is_real;                                               \
        static T make(const Value& v) { return real ? (T)v.f[0] : (T)v.i[0]; }             \
    };
#define KPLAY_TEX_VECTORS(V, S, is_real)                                                                          \
    template <> struct Returned<V##1> {                                                                           \
        static constexpr int channels = 1;                                                                        \
        static constexpr bool real = is_real;                                                                     \
        static V##1 make(const Value& v) { return {real ? (S)v.f[0] : (S)v.i[0]}; }                              \
    };                                                                                                            \
    template <> struct Returned<V##2> {                                                                           \
        static constexpr int channels = 2;                                                                        \
        static constexpr bool real = is_real;                                                                     \
        static V##2 make(const Value& v) {                                                                        \
            return {real ? (S)v.f[0] : (S)v.i[0], real ? (S)v.f[1] : (S)v.i[1]};                                  \
        }                                                                                                         \
    };                                                                                                            \
    template <> struct Returned<V##4> {                                                                           \
        static constexpr int channels = 4;                                                                        \
        static constexpr bool real = is_real;                                                                     \
        static V##4 make(const Value& v) {                                                                        \
            return {real ? (S)v.f[0] : (S)v.i[0], real ? (S)v.f[1] : (S)v.i[1], real ? (S)v.f[2] : (S)v.i[2],     \
                    real ? (S)v.f[3] : (S)v.i[3]};                                                                \
        }                                                                                                         \
    };
KPLAY_TEX_SCALAR(char, false)
KPLAY_TEX_SCALAR(signed char, false)
KPLAY_TEX_SCALAR(unsigned char, false)
KPLAY_TEX_SCALAR(short, false)
KPLAY_TEX_SCALAR(unsigned short, false)
KPLAY_TEX_SCALAR(int, false)
KPLAY_TEX_SCALAR(unsigned int, false)
KPLAY_TEX_SCALAR(float, true)
KPLAY_TEX_VECTORS(char, signed char, false)
KPLAY_TEX_VECTORS(uchar, unsigned char, false)
KPLAY_TEX_VECTORS(short, short, false)
KPLAY_TEX_VECTORS(ushort, unsigned short, false)
KPLAY_TEX_VECTORS(int, int, false)
KPLAY_TEX_VECTORS(uint, unsigned int, false)
KPLAY_TEX_VECTORS(float, float, true)
#undef KPLAY_TEX_SCALAR
#undef KPLAY_TEX_VECTORS

// The fetch functions' shapes: which image each reads (by dimensions and layering), for the check below.
enum Fetch { fetch_1d_linear, fetch_1d, fetch_2d, fetch_3d, fetch_1d_layered, fetch_2d_layered };

inline const char* fetch_name(Fetch fetch) {
    switch (fetch) {
        case fetch_1d_linear: return "tex1Dfetch";
        case fetch_1d: return "tex1D";
        case fetch_2d: return "tex2D";
        case fetch_3d: return "tex3D";
        case fetch_1d_layered: return "tex1DLayered";
        default: return "tex2DLayered";
    }
}

// The function that reads this image; CUDA leaves any other's result undefined.
inline Fetch fetch_for(const kplay_image& image) {
    if (image.layered) return image.dims == 1 ? fetch_1d_layered : fetch_2d_layered;
    if (image.dims == 1) return image.in_array ? fetch_1d : fetch_1d_linear;
    return image.dims == 2 ? fetch_2d : fetch_3d;
}

// Why `fetch` of a T cannot read `image`, written into `problem`; true when it can.
template <class T>
bool can_fetch(const kplay_image* image, Fetch fetch, Text& problem) {
    const char* name = fetch_name(fetch);
    if (!image || image->magic != KPLAY_IMAGE_MAGIC) {
        problem << name << " was given a texture object that no kplay-texture line made (an uninitialised cudaTextureObject_t?)";
        return false;
    }
    if (image->surface) {
        problem << name << " was given " << image->name << ", a surface object: read it with surf" << (image->dims == 1 ? "1D" : image->dims == 2 ? "2D" : "3D")
                << (image->layered ? "Layered" : "") << "read, or declare a kplay-texture over its buffer";
        return false;
    }
    if (fetch_for(*image) != fetch) {
        problem << name << " cannot read texture " << image->name << " (";
        describe(problem, *image) << (image->dims == 1 && !image->layered ? (image->in_array ? ", in a CUDA array" : ", in linear memory") : "")
                                  << "): CUDA reads it with " << fetch_name(fetch_for(*image));
        if (fetch == fetch_1d && !image->in_array) problem << " (tex1D reads a CUDA array: add layout=array to its kplay-texture line)";
        if (fetch == fetch_1d_linear && image->in_array) problem << " (tex1Dfetch reads linear memory: drop layout=array)";
        return false;
    }
    if (Returned<T>::channels > image->channels) {
        problem << name << " asks texture " << image->name << " for " << Returned<T>::channels << " channels, but its elements have "
                << image->channels << " (channels=" << image->channels << " on its kplay-texture line)";
        return false;
    }
    if (Returned<T>::real != reads_float(*image)) {
        problem << name << " reads texture " << image->name << " as " << (Returned<T>::real ? "float" : "integer") << ", but it returns "
                << (reads_float(*image) ? "floats" : "integers") << " (";
        describe(problem, *image) << (image->read_normalized ? ", read=normalized-float" : ", read=element")
                                  << "): ask for " << (reads_float(*image) ? "float, float2 or float4" : "the element's integer type")
                                  << (!reads_float(*image) && (image->format == KPLAY_IMAGE_U8 || image->format == KPLAY_IMAGE_I8)
                                          ? ", or add read=normalized-float to read it as floats"
                                          : "");
        return false;
    }
    return true;
}

// ---- surfaces -----------------------------------------------------------------------------------------
enum Boundary { boundary_zero = 0, boundary_clamp = 1, boundary_trap = 2 };

// How a surface access went: `misused` (the wrong object or size) and `outside` (out of range with
// cudaBoundaryModeTrap) end the kernel.
enum SurfaceAccess { access_ok, misused, outside };

// The byte address of element (x_bytes, y, z) of `layer` for an access of `bytes`, after the boundary
// mode; null where the access is skipped (zero mode out of range) or fails (`problem` says why).
inline unsigned char* surface_element(const kplay_image* image, const char* op, long long x_bytes, long long y, long long z, long long layer,
                                      long long bytes, int boundary, Text& problem, SurfaceAccess& failed) {
    failed = access_ok;
    if (!image || image->magic != KPLAY_IMAGE_MAGIC || !image->surface) {
        problem << op << " was given " << (image && image->magic == KPLAY_IMAGE_MAGIC ? image->name : "a surface object")
                << (image && image->magic == KPLAY_IMAGE_MAGIC ? ", a texture object: CUDA writes only through a kplay-surface"
                                                               : " that no kplay-surface line made (an uninitialised cudaSurfaceObject_t?)");
        failed = misused;
        return nullptr;
    }
    const long long size = element_bytes(*image);
    if (bytes != size) {
        problem << op << " moves " << bytes << " bytes, but surface " << image->name << " (";
        describe(problem, *image) << ") has elements of " << size << " bytes: read or write its element type";
        failed = misused;
        return nullptr;
    }
    if (x_bytes % size != 0) {
        problem << op << " at x = " << x_bytes << " on surface " << image->name << ": x is a byte offset, and " << x_bytes
                << " is not a multiple of the element's " << size << " bytes (write x * " << size << ", as CUDA's surface x coordinates count bytes)";
        failed = misused;
        return nullptr;
    }
    long long x = x_bytes / size;
    const bool inside = x >= 0 && x < image->width && y >= 0 && y < image->height && z >= 0 && z < image->depth && layer >= 0 &&
                        layer < image->layers;
    if (!inside) {
        if (boundary == boundary_zero) return nullptr;
        if (boundary != boundary_clamp) {
            problem << op << " at x = " << x_bytes << " bytes (element " << x << ")";
            if (image->dims >= 2) problem << ", y = " << y;
            if (image->dims >= 3) problem << ", z = " << z;
            if (image->layered) problem << ", layer " << layer;
            problem << " is outside surface " << image->name << " (";
            describe(problem, *image) << "); with cudaBoundaryModeTrap, the default, that ends the kernel "
                                         "(pass cudaBoundaryModeZero or cudaBoundaryModeClamp to skip or clamp such accesses)";
            failed = outside;
            return nullptr;
        }
        auto clamp = [](long long v, long long n) { return v < 0 ? 0 : v >= n ? n - 1 : v; };
        x = clamp(x, image->width);
        y = clamp(y, image->height);
        z = clamp(z, image->depth);
        layer = clamp(layer, image->layers);
    }
    return image->data + (((layer * image->depth + z) * image->height + y) * image->width + x) * size;
}

}  // namespace kplay_tex
