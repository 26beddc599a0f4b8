// kplay_half.h: CUDA's 16-bit floating-point types in software: __half and __half2 (cuda_fp16.h) and
// __nv_bfloat16 and __nv_bfloat162 (cuda_bf16.h), with their conversions, operators and intrinsics
// (kplay_half_math.h). Freestanding; the emulated kernels' cuda_fp16.h and cuda_bf16.h and the host
// references' ones are all this file, so a reference rounds through these types exactly as a kernel does.
//
// The classes mirror CUDA's: the bits are the protected member __x, reached through __half_raw; the
// default constructor is trivial (a __shared__ array of them needs no constructor); conversions from
// and to float, double and the integer types are implicit, as in cuda_fp16.h, so an expression resolves
// (or is ambiguous) as it does under nvcc. Every conversion and operation rounds exactly once, to nearest
// even unless its name says _rz, _ru or _rd (kplay_small_float.h).
#pragma once

#include "kplay_small_float.h"

struct __half_raw {
    unsigned short x;
};
struct __half2_raw {
    unsigned short x, y;
};
struct __nv_bfloat16_raw {
    unsigned short x;
};
struct __nv_bfloat162_raw {
    unsigned short x, y;
};
struct __half;
struct __nv_bfloat16;

namespace kplay_float {
// The value a bit pattern of `format` holds, and the bits of a value rounded into it.
inline float to_float(unsigned short bits, const Format& format) { return static_cast<float>(decode(bits, format)); }
inline unsigned short from_double(double v, const Format& format, int mode = nearest) {
    return static_cast<unsigned short>(encode(v, format, mode));
}
}  // namespace kplay_float

// One 16-bit type: H with raw type RAW and format FORMAT.
#define KPLAY_HALF_CLASS(H, RAW, FORMAT)                                                                                     \
    struct __attribute__((aligned(2))) H {                                                                                   \
    protected:                                                                                                               \
        unsigned short __x;                                                                                                  \
                                                                                                                             \
    public:                                                                                                                  \
        H() = default;                                                                                                       \
        constexpr H(const RAW& r) : __x(r.x) {}                                                                              \
        H& operator=(const RAW& r) { __x = r.x; return *this; }                                                              \
        operator RAW() const { RAW r; r.x = __x; return r; }                                                                 \
        H(float f) : __x(::kplay_float::from_double(f, ::kplay_float::FORMAT)) {}                                            \
        H(double f) : __x(::kplay_float::from_double(f, ::kplay_float::FORMAT)) {}                                           \
        H(short v) : __x(::kplay_float::from_double(v, ::kplay_float::FORMAT)) {}                                            \
        H(unsigned short v) : __x(::kplay_float::from_double(v, ::kplay_float::FORMAT)) {}                                   \
        H(int v) : __x(::kplay_float::from_double(v, ::kplay_float::FORMAT)) {}                                              \
        H(unsigned int v) : __x(::kplay_float::from_double(v, ::kplay_float::FORMAT)) {}                                     \
        H(long v) : __x(static_cast<unsigned short>(::kplay_float::encode_integer(v, ::kplay_float::FORMAT, 0))) {}          \
        H(unsigned long v) : __x(static_cast<unsigned short>(::kplay_float::encode_unsigned(v, ::kplay_float::FORMAT, 0))) {} \
        H(long long v) : __x(static_cast<unsigned short>(::kplay_float::encode_integer(v, ::kplay_float::FORMAT, 0))) {}     \
        H(unsigned long long v)                                                                                              \
            : __x(static_cast<unsigned short>(::kplay_float::encode_unsigned(v, ::kplay_float::FORMAT, 0))) {}               \
        H& operator=(float f) { return *this = H(f); }                                                                       \
        H& operator=(double f) { return *this = H(f); }                                                                      \
        H& operator=(short v) { return *this = H(v); }                                                                       \
        H& operator=(unsigned short v) { return *this = H(v); }                                                              \
        H& operator=(int v) { return *this = H(v); }                                                                         \
        H& operator=(unsigned int v) { return *this = H(v); }                                                                \
        H& operator=(long long v) { return *this = H(v); }                                                                   \
        H& operator=(unsigned long long v) { return *this = H(v); }                                                          \
        explicit H(const OTHER_OF_##H f);                                                                                    \
        operator float() const { return ::kplay_float::to_float(__x, ::kplay_float::FORMAT); }                               \
        operator signed char() const { return as<signed char>(-128, 127); }                                                  \
        operator unsigned char() const { return as<unsigned char>(0, 255); }                                                 \
        operator char() const { return as<char>(static_cast<char>(-128), 127); }                                             \
        operator short() const { return as<short>(-32768, 32767); }                                                          \
        operator unsigned short() const { return as<unsigned short>(0, 65535); }                                             \
        operator int() const { return as<int>(-2147483647 - 1, 2147483647); }                                               \
        operator unsigned int() const { return as<unsigned int>(0u, 4294967295u); }                                          \
        operator long() const { return as<long>(-9223372036854775807l - 1, 9223372036854775807l); }                          \
        operator unsigned long() const { return as<unsigned long>(0ul, 18446744073709551615ul); }                            \
        operator long long() const { return as<long long>(-9223372036854775807ll - 1, 9223372036854775807ll); }              \
        operator unsigned long long() const { return as<unsigned long long>(0ull, 18446744073709551615ull); }                \
        constexpr operator bool() const { return (__x & 0x7fffu) != 0; }                                                     \
                                                                                                                             \
    private:                                                                                                                 \
        template <class I> I as(I lowest, I highest) const {                                                                 \
            return ::kplay_float::to_integer<I>(::kplay_float::decode(__x, ::kplay_float::FORMAT), ::kplay_float::toward_zero, \
                                                lowest, highest);                                                            \
        }                                                                                                                    \
    };
#define OTHER_OF___half __nv_bfloat16
#define OTHER_OF___nv_bfloat16 __half
KPLAY_HALF_CLASS(__half, __half_raw, kHalf)
KPLAY_HALF_CLASS(__nv_bfloat16, __nv_bfloat16_raw, kBfloat16)
#undef OTHER_OF___half
#undef OTHER_OF___nv_bfloat16
#undef KPLAY_HALF_CLASS
inline __half::__half(const __nv_bfloat16 f) : __x(::kplay_float::from_double(static_cast<float>(f), ::kplay_float::kHalf)) {}
inline __nv_bfloat16::__nv_bfloat16(const __half f)
    : __x(::kplay_float::from_double(static_cast<float>(f), ::kplay_float::kBfloat16)) {}

// A pair: x in the low 16 bits, y in the high ones.
#define KPLAY_HALF2_CLASS(H2, H, RAW, RAW2)                                   \
    struct __attribute__((aligned(4))) H2 {                                   \
        H x, y;                                                               \
        H2() = default;                                                       \
        constexpr H2(const H& a, const H& b) : x(a), y(b) {}                  \
        H2(const RAW2& r) : x(RAW{r.x}), y(RAW{r.y}) {}                       \
        H2& operator=(const RAW2& r) { return *this = H2(r); }                \
        operator RAW2() const {                                               \
            RAW2 r;                                                           \
            r.x = static_cast<RAW>(x).x;                                      \
            r.y = static_cast<RAW>(y).x;                                      \
            return r;                                                         \
        }                                                                     \
    };
KPLAY_HALF2_CLASS(__half2, __half, __half_raw, __half2_raw)
KPLAY_HALF2_CLASS(__nv_bfloat162, __nv_bfloat16, __nv_bfloat16_raw, __nv_bfloat162_raw)
#undef KPLAY_HALF2_CLASS

typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#include "kplay_half_math.h"
