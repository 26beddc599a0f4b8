// kplay_cuda_math.h: CUDA's math library on the emulated device (part of kplay_emu_prelude.h).
//
// C's functions in float and double, their C++ overloads (sqrt(float) is sqrtf; an integer argument
// is a double), CUDA's additions (kplay_cuda_math_common.h, shared with host references) and its fast
// intrinsics, which here are the precise functions (__expf is expf: more exact than a GPU, never less).
// Builtins: sqrt and fabs become instructions (-fno-math-errno); the rest call libm's pure functions,
// which are on the runtime's allowlist.
#pragma once

#include "kplay_cuda_math_common.h"

// libm's functions that not every compiler has a builtin for, under names of their own (asm labels bind
// them to libm's symbols, which the runtime allows: all are pure). lgamma itself writes the global signgam,
// so lgamma is lgamma_r.
namespace kplay_libm {
#define KPLAY_LIBM(R, name, ...) extern "C" R name(__VA_ARGS__) noexcept __asm__(#name);
KPLAY_LIBM(double, exp10, double) KPLAY_LIBM(float, exp10f, float)
KPLAY_LIBM(void, sincos, double, double*, double*) KPLAY_LIBM(void, sincosf, float, float*, float*)
KPLAY_LIBM(double, j0, double) KPLAY_LIBM(float, j0f, float) KPLAY_LIBM(double, j1, double) KPLAY_LIBM(float, j1f, float)
KPLAY_LIBM(double, jn, int, double) KPLAY_LIBM(float, jnf, int, float) KPLAY_LIBM(double, y0, double) KPLAY_LIBM(float, y0f, float)
KPLAY_LIBM(double, y1, double) KPLAY_LIBM(float, y1f, float) KPLAY_LIBM(double, yn, int, double) KPLAY_LIBM(float, ynf, int, float)
KPLAY_LIBM(double, lgamma_r, double, int*) KPLAY_LIBM(float, lgammaf_r, float, int*)
#undef KPLAY_LIBM
}  // namespace kplay_libm

namespace kplay_emu {
template <class T> struct integral { static constexpr bool value = false; };
#define KPLAY_EMU_INTEGRAL(T) template <> struct integral<T> { static constexpr bool value = true; };
KPLAY_EMU_INTEGRAL(bool) KPLAY_EMU_INTEGRAL(char) KPLAY_EMU_INTEGRAL(signed char) KPLAY_EMU_INTEGRAL(unsigned char)
KPLAY_EMU_INTEGRAL(short) KPLAY_EMU_INTEGRAL(unsigned short) KPLAY_EMU_INTEGRAL(int) KPLAY_EMU_INTEGRAL(unsigned)
KPLAY_EMU_INTEGRAL(long) KPLAY_EMU_INTEGRAL(unsigned long) KPLAY_EMU_INTEGRAL(long long) KPLAY_EMU_INTEGRAL(unsigned long long)
#undef KPLAY_EMU_INTEGRAL
template <bool, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
// C++'s rule for a mixed call such as pow(float, int): both become double, unless both are float.
template <class A, class B> struct promoted { typedef double type; };
template <> struct promoted<float, float> { typedef float type; };
template <class T> struct arithmetic { static constexpr bool value = integral<T>::value; };
template <> struct arithmetic<float> { static constexpr bool value = true; };
template <> struct arithmetic<double> { static constexpr bool value = true; };
template <class A, class B> struct arithmetic_pair {
    static constexpr bool value = arithmetic<A>::value && arithmetic<B>::value;
};
// What KPLAY_EMU_MATH1 returns: the argument's type, or an integer type of its own.
typedef double same_double;
typedef float same_float;
typedef int int_double, int_float;
typedef long long_double, long_float;
typedef long long llong_double, llong_float;
}  // namespace kplay_emu

// name(double), namef(float), and the C++ overloads name(float) and name(integer) -> double.
#define KPLAY_EMU_MATH1(R, name)                                                                         \
    inline ::kplay_emu::R##_double name(double x) { return __builtin_##name(x); }                        \
    inline ::kplay_emu::R##_float name##f(float x) { return __builtin_##name##f(x); }                    \
    inline ::kplay_emu::R##_float name(float x) { return __builtin_##name##f(x); }                       \
    template <class T, class = typename ::kplay_emu::enable_if<::kplay_emu::integral<T>::value>::type>   \
    inline ::kplay_emu::R##_double name(T x) { return __builtin_##name(static_cast<double>(x)); }
#define KPLAY_EMU_MATH(name) KPLAY_EMU_MATH1(same, name)
KPLAY_EMU_MATH(acos) KPLAY_EMU_MATH(acosh) KPLAY_EMU_MATH(asin) KPLAY_EMU_MATH(asinh) KPLAY_EMU_MATH(atan) KPLAY_EMU_MATH(atanh)
KPLAY_EMU_MATH(cbrt) KPLAY_EMU_MATH(ceil) KPLAY_EMU_MATH(cos) KPLAY_EMU_MATH(cosh) KPLAY_EMU_MATH(erf) KPLAY_EMU_MATH(erfc)
KPLAY_EMU_MATH(exp) KPLAY_EMU_MATH(exp2) KPLAY_EMU_MATH(expm1) KPLAY_EMU_MATH(fabs) KPLAY_EMU_MATH(floor)
KPLAY_EMU_MATH(log) KPLAY_EMU_MATH(log10) KPLAY_EMU_MATH(log1p) KPLAY_EMU_MATH(log2) KPLAY_EMU_MATH(logb)
KPLAY_EMU_MATH(nearbyint) KPLAY_EMU_MATH(rint) KPLAY_EMU_MATH(round) KPLAY_EMU_MATH(sin) KPLAY_EMU_MATH(sinh) KPLAY_EMU_MATH(sqrt)
KPLAY_EMU_MATH(tan) KPLAY_EMU_MATH(tanh) KPLAY_EMU_MATH(tgamma) KPLAY_EMU_MATH(trunc)
KPLAY_EMU_MATH1(int, ilogb) KPLAY_EMU_MATH1(long, lrint) KPLAY_EMU_MATH1(long, lround) KPLAY_EMU_MATH1(llong, llrint)
KPLAY_EMU_MATH1(llong, llround)
#undef KPLAY_EMU_MATH
#undef KPLAY_EMU_MATH1

// name(double, double), namef(float, float), and mixed arguments as C++ promotes them.
#define KPLAY_EMU_MATH2(name)                                                                                      \
    inline double name(double x, double y) { return __builtin_##name(x, y); }                                      \
    inline float name##f(float x, float y) { return __builtin_##name##f(x, y); }                                   \
    inline float name(float x, float y) { return __builtin_##name##f(x, y); }                                      \
    template <class A, class B, class = typename ::kplay_emu::enable_if<::kplay_emu::arithmetic_pair<A, B>::value>::type> \
    inline typename ::kplay_emu::promoted<A, B>::type name(A x, B y) {                                             \
        typedef typename ::kplay_emu::promoted<A, B>::type R;                                                      \
        return name(static_cast<R>(x), static_cast<R>(y));                                                         \
    }
KPLAY_EMU_MATH2(atan2) KPLAY_EMU_MATH2(copysign) KPLAY_EMU_MATH2(fdim) KPLAY_EMU_MATH2(fmax) KPLAY_EMU_MATH2(fmin)
KPLAY_EMU_MATH2(fmod) KPLAY_EMU_MATH2(hypot) KPLAY_EMU_MATH2(nextafter) KPLAY_EMU_MATH2(pow) KPLAY_EMU_MATH2(remainder)
#undef KPLAY_EMU_MATH2
inline float pow(float x, int n) { return __builtin_powf(x, static_cast<float>(n)); }  // CUDA's own overloads
inline double pow(double x, int n) { return __builtin_pow(x, static_cast<double>(n)); }

inline double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
inline float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline double frexp(double x, int* e) { return __builtin_frexp(x, e); }
inline float frexpf(float x, int* e) { return __builtin_frexpf(x, e); }
inline float frexp(float x, int* e) { return __builtin_frexpf(x, e); }
inline double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
inline float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
inline float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
inline double scalbn(double x, int e) { return __builtin_scalbn(x, e); }
inline float scalbnf(float x, int e) { return __builtin_scalbnf(x, e); }
inline float scalbn(float x, int e) { return __builtin_scalbnf(x, e); }
inline double scalbln(double x, long e) { return __builtin_scalbln(x, e); }
inline float scalblnf(float x, long e) { return __builtin_scalblnf(x, e); }
inline float scalbln(float x, long e) { return __builtin_scalblnf(x, e); }
inline double modf(double x, double* i) { return __builtin_modf(x, i); }
inline float modff(float x, float* i) { return __builtin_modff(x, i); }
inline float modf(float x, float* i) { return __builtin_modff(x, i); }
inline double remquo(double x, double y, int* q) { return __builtin_remquo(x, y, q); }
inline float remquof(float x, float y, int* q) { return __builtin_remquof(x, y, q); }
inline float remquo(float x, float y, int* q) { return __builtin_remquof(x, y, q); }
inline double lgamma(double x) { int sign; return kplay_libm::lgamma_r(x, &sign); }
inline float lgammaf(float x) { int sign; return kplay_libm::lgammaf_r(x, &sign); }
inline float lgamma(float x) { int sign; return kplay_libm::lgammaf_r(x, &sign); }
inline double exp10(double x) { return kplay_libm::exp10(x); }
inline float exp10f(float x) { return kplay_libm::exp10f(x); }
inline float exp10(float x) { return kplay_libm::exp10f(x); }
inline double nan(const char*) { return __builtin_nan(""); }
inline float nanf(const char*) { return __builtin_nanf(""); }
inline void sincos(double x, double* s, double* c) { kplay_libm::sincos(x, s, c); }
inline void sincosf(float x, float* s, float* c) { kplay_libm::sincosf(x, s, c); }
inline double j0(double x) { return kplay_libm::j0(x); }
inline float j0f(float x) { return kplay_libm::j0f(x); }
inline double j1(double x) { return kplay_libm::j1(x); }
inline float j1f(float x) { return kplay_libm::j1f(x); }
inline double jn(int n, double x) { return kplay_libm::jn(n, x); }
inline float jnf(int n, float x) { return kplay_libm::jnf(n, x); }
inline double y0(double x) { return kplay_libm::y0(x); }
inline float y0f(float x) { return kplay_libm::y0f(x); }
inline double y1(double x) { return kplay_libm::y1(x); }
inline float y1f(float x) { return kplay_libm::y1f(x); }
inline double yn(int n, double x) { return kplay_libm::yn(n, x); }
inline float ynf(int n, float x) { return kplay_libm::ynf(n, x); }

// Classification, as functions (C's are macros), and the names CUDA's headers give them.
#define KPLAY_EMU_CLASSIFY(name, builtin)                                   \
    inline bool name(float x) { return builtin(x); }                        \
    inline bool name(double x) { return builtin(x); }                       \
    inline int __##name##f(float x) { return builtin(x); }                  \
    inline int __##name##d(double x) { return builtin(x); }                 \
    inline int __##name##l(long double x) { return builtin(x); }
KPLAY_EMU_CLASSIFY(isnan, __builtin_isnan) KPLAY_EMU_CLASSIFY(isinf, __builtin_isinf)
KPLAY_EMU_CLASSIFY(isfinite, __builtin_isfinite) KPLAY_EMU_CLASSIFY(signbit, __builtin_signbit)
#undef KPLAY_EMU_CLASSIFY
inline int __isnan(double x) { return __builtin_isnan(x); }
inline int __isinf(double x) { return __builtin_isinf(x); }
inline int __finite(double x) { return __builtin_isfinite(x); }
inline int __finitef(float x) { return __builtin_isfinite(x); }
inline int __finitel(long double x) { return __builtin_isfinite(x); }
inline int __signbit(double x) { return __builtin_signbit(x); }

inline int abs(int x) { return x < 0 ? -x : x; }
inline long abs(long x) { return x < 0 ? -x : x; }
inline long long abs(long long x) { return x < 0 ? -x : x; }
inline float abs(float x) { return __builtin_fabsf(x); }
inline double abs(double x) { return __builtin_fabs(x); }
inline long labs(long x) { return x < 0 ? -x : x; }
inline long long llabs(long long x) { return x < 0 ? -x : x; }

// ---- the fast intrinsics: here as exact as the functions they stand for --------------------------------
inline float __expf(float x) { return __builtin_expf(x); }
inline float __exp10f(float x) { return kplay_libm::exp10f(x); }
inline float __logf(float x) { return __builtin_logf(x); }
inline float __log2f(float x) { return __builtin_log2f(x); }
inline float __log10f(float x) { return __builtin_log10f(x); }
inline float __sinf(float x) { return __builtin_sinf(x); }
inline float __cosf(float x) { return __builtin_cosf(x); }
inline float __tanf(float x) { return __builtin_tanf(x); }
inline float __tanhf(float x) { return __builtin_tanhf(x); }
inline void __sincosf(float x, float* s, float* c) { kplay_libm::sincosf(x, s, c); }
inline float __powf(float x, float y) { return __builtin_powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline double fdivide(double x, double y) { return x / y; }
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }  // NaN -> 0, as on a GPU
