// kplay_cuda_math_common.h: CUDA's min and max overloads and the math functions CUDA adds to C's
// (rsqrt, sinpi, erfinv, normcdf, ...), for both of kplay's host builds: the emulated device's kernels
// and a file's host reference, where a __host__ __device__ helper may call them as under nvcc.
//
// min and max follow the overload set of CUDA's math_functions.hpp, so a call resolves (or is
// ambiguous) as it does there: a signed and an unsigned operand of one width compare as unsigned
// (min(unsigned, int) is unsigned), float with double is double, and a float pair uses fminf. Written
// on compiler builtins only, so that it needs nothing from the C library: in the emulated build a
// builtin becomes an instruction or a call to one of the pure libm functions the runtime allows.
#pragma once

// ---- min and max ------------------------------------------------------------------------------------
inline int min(const int a, const int b) { return a < b ? a : b; }
inline unsigned int umin(const unsigned int a, const unsigned int b) { return a < b ? a : b; }
inline long long int llmin(const long long int a, const long long int b) { return a < b ? a : b; }
inline unsigned long long int ullmin(const unsigned long long int a, const unsigned long long int b) { return a < b ? a : b; }
inline int max(const int a, const int b) { return a > b ? a : b; }
inline unsigned int umax(const unsigned int a, const unsigned int b) { return a > b ? a : b; }
inline long long int llmax(const long long int a, const long long int b) { return a > b ? a : b; }
inline unsigned long long int ullmax(const unsigned long long int a, const unsigned long long int b) { return a > b ? a : b; }
#define KPLAY_MINMAX(R, A, B, cast)                                                      \
    inline R min(const A a, const B b) { return cast(a) < cast(b) ? cast(a) : cast(b); } \
    inline R max(const A a, const B b) { return cast(a) > cast(b) ? cast(a) : cast(b); }
KPLAY_MINMAX(unsigned int, unsigned int, unsigned int, static_cast<unsigned int>)
KPLAY_MINMAX(unsigned int, int, unsigned int, static_cast<unsigned int>)
KPLAY_MINMAX(unsigned int, unsigned int, int, static_cast<unsigned int>)
KPLAY_MINMAX(long int, long int, long int, static_cast<long int>)
KPLAY_MINMAX(unsigned long int, unsigned long int, unsigned long int, static_cast<unsigned long int>)
KPLAY_MINMAX(unsigned long int, long int, unsigned long int, static_cast<unsigned long int>)
KPLAY_MINMAX(unsigned long int, unsigned long int, long int, static_cast<unsigned long int>)
KPLAY_MINMAX(long long int, long long int, long long int, static_cast<long long int>)
KPLAY_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int, static_cast<unsigned long long int>)
KPLAY_MINMAX(unsigned long long int, long long int, unsigned long long int, static_cast<unsigned long long int>)
KPLAY_MINMAX(unsigned long long int, unsigned long long int, long long int, static_cast<unsigned long long int>)
#undef KPLAY_MINMAX
inline float min(const float a, const float b) { return __builtin_fminf(a, b); }
inline float max(const float a, const float b) { return __builtin_fmaxf(a, b); }
inline double min(const double a, const double b) { return __builtin_fmin(a, b); }
inline double max(const double a, const double b) { return __builtin_fmax(a, b); }
inline double min(const float a, const double b) { return __builtin_fmin(a, b); }
inline double max(const float a, const double b) { return __builtin_fmax(a, b); }
inline double min(const double a, const float b) { return __builtin_fmin(a, b); }
inline double max(const double a, const float b) { return __builtin_fmax(a, b); }

// ---- math functions CUDA adds ---------------------------------------------------------------------------
// Computed in double (float versions round once at the end) from libm's correctly behaved functions.
namespace kplay_math {
constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kSqrtPi = 1.772453850905516027298167483341145183;
constexpr double kSqrt2 = 1.414213562373095048801688724209698079;

// sin(pi x) and cos(pi x) with the argument reduced exactly, so that whole and half numbers give exact zeros.
inline void sincospi(double x, double* s, double* c) {
    if (__builtin_isinf(x) || __builtin_isnan(x)) {
        *s = *c = __builtin_nan("");
        return;
    }
    const double r = __builtin_fmod(x, 2.0);                 // exact, in (-2, 2)
    const double quarter = __builtin_rint(2.0 * r);          // the nearest multiple of 1/2, in halves
    const double f = r - 0.5 * quarter;                      // exact, in [-1/4, 1/4]
    const double sf = __builtin_sin(kPi * f), cf = __builtin_cos(kPi * f);
    switch (static_cast<int>(quarter) & 3) {
        case 0: *s = sf, *c = cf; break;
        case 1: *s = cf, *c = -sf; break;
        case 2: *s = -sf, *c = -cf; break;
        default: *s = -cf, *c = sf; break;
    }
    if (*s == 0.0) *s = __builtin_copysign(0.0, x);
    if (*c == 0.0) *c = 0.0;
}

// Winitzki's closed form for erf^-1, from l = ln(1 - y^2), good to about 2e-3: where Newton's steps start.
inline double erfinv_start(double l) {
    const double a = 0.147, b = 2.0 / (kPi * a) + 0.5 * l;
    return __builtin_sqrt(__builtin_sqrt(b * b - l / a) - b);
}
// Newton's steps for x >= 0 with erf(x) = 1 - tail (on erfc, so that a tail near 0 keeps its digits).
inline double erfc_newton(double x, double tail) {
    for (int step = 0; step < 6; ++step) {
        const double slope = -2.0 / kSqrtPi * __builtin_exp(-x * x);
        if (slope == 0.0) break;
        const double next = x - (__builtin_erfc(x) - tail) / slope;
        if (next == x) break;
        x = next;
    }
    return x;
}
inline double erfinv(double y) {
    if (__builtin_isnan(y) || y < -1.0 || y > 1.0) return __builtin_nan("");
    if (y == 1.0 || y == -1.0) return __builtin_copysign(__builtin_inf(), y);
    if (y == 0.0) return y;
    const double a = __builtin_fabs(y);
    double x = erfinv_start(__builtin_log((1.0 - a) * (1.0 + a)));
    if (a > 0.5) {
        x = erfc_newton(x, 1.0 - a);  // 1 - a is exact here
    } else {
        for (int step = 0; step < 4; ++step) x -= (__builtin_erf(x) - a) / (2.0 / kSqrtPi * __builtin_exp(-x * x));
    }
    return __builtin_copysign(x, y);
}
// erfc^-1(z) = erf^-1(1 - z); near 0 and 2, by Newton on erfc itself, where 1 - z would lose the digits.
inline double erfcinv(double z) {
    if (__builtin_isnan(z) || z < 0.0 || z > 2.0) return __builtin_nan("");
    if (z == 0.0) return __builtin_inf();
    if (z == 2.0) return -__builtin_inf();
    if (z >= 0.5 && z <= 1.5) return erfinv(1.0 - z);  // exact subtraction
    const double tail = z < 1.0 ? z : 2.0 - z;           // erfc(-x) = 2 - erfc(x)
    const double x = erfc_newton(erfinv_start(__builtin_log(tail) + __builtin_log(2.0 - tail)), tail);
    return z < 1.0 ? x : -x;
}

// exp(x^2) erfc(x): x^2 split exactly (fma), and the asymptotic series where erfc underflows.
inline double erfcx(double x) {
    if (__builtin_isnan(x)) return x;
    if (x < 0.0) {
        const double hi = x * x, lo = __builtin_fma(x, x, -hi);
        return 2.0 * __builtin_exp(hi) * (1.0 + lo) - erfcx(-x);
    }
    if (x < 26.0) {
        const double hi = x * x, lo = __builtin_fma(x, x, -hi);
        return __builtin_exp(hi) * (1.0 + lo) * __builtin_erfc(x);
    }
    if (__builtin_isinf(x)) return 0.0;
    const double inv2x2 = 1.0 / (2.0 * x * x);
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 12; ++k) {
        term *= -(2 * k - 1) * inv2x2;
        sum += term;
    }
    return sum / (x * kSqrtPi);
}

// Modified Bessel functions of the first kind of orders 0 and 1: the power series, or the asymptotic one.
inline double bessel_i(int order, double x) {
    const double a = x < 0 ? -x : x;
    double result;
    if (__builtin_isnan(x)) return x;
    if (a <= 20.0) {
        const double q = 0.25 * a * a;
        double term = order == 0 ? 1.0 : 0.5 * a, sum = term;
        for (int k = 1; k < 200 && term > sum * 1e-18; ++k) {
            term *= q / (k * static_cast<double>(k + order));
            sum += term;
        }
        result = sum;
    } else {
        const double mu = 4.0 * order * order, e8x = 8.0 * a;
        double term = 1.0, sum = 1.0;
        for (int k = 1; k < 40; ++k) {
            const double next = -term * (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * e8x);
            if ((next < 0 ? -next : next) >= (term < 0 ? -term : term)) break;
            term = next;
            sum += term;
        }
        result = a > 709.0 ? __builtin_inf() : __builtin_exp(a) / __builtin_sqrt(2.0 * kPi * a) * sum;
    }
    return order == 1 && x < 0 ? -result : result;
}

// sqrt(sum of squares) without overflow or underflow on the way.
inline double norm(int dim, const double* v) {
    double scale = 0.0;
    for (int i = 0; i < dim; ++i) {
        const double a = __builtin_fabs(v[i]);
        if (__builtin_isinf(a)) return a;
        if (a > scale) scale = a;
    }
    if (scale == 0.0 || __builtin_isnan(scale)) return scale;
    double sum = 0.0;
    for (int i = 0; i < dim; ++i) sum += (v[i] / scale) * (v[i] / scale);
    return scale * __builtin_sqrt(sum);
}
inline double norm(int dim, const float* v) {
    double wide[64];
    double result = 0.0;
    for (int start = 0; start < dim; start += 64) {  // in pieces, combined by the same rule
        const int n = dim - start < 64 ? dim - start : 64;
        for (int i = 0; i < n; ++i) wide[i] = v[start + i];
        const double pair[2] = {result, norm(n, wide)};
        result = norm(2, pair);
    }
    return result;
}
}  // namespace kplay_math

// C23 added rsqrt, sinpi and cospi to C's library: a host reference against a glibc that has them uses
// them (they compute the same), and no second definition may collide with them.
#if !(defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 41)))
inline double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
inline float rsqrtf(float x) { return static_cast<float>(1.0 / __builtin_sqrt(static_cast<double>(x))); }
inline double sinpi(double x) { double s, c; kplay_math::sincospi(x, &s, &c); return s; }
inline float sinpif(float x) { return static_cast<float>(sinpi(x)); }
inline double cospi(double x) { double s, c; kplay_math::sincospi(x, &s, &c); return c; }
inline float cospif(float x) { return static_cast<float>(cospi(x)); }
#endif
inline double rcbrt(double x) { return 1.0 / __builtin_cbrt(x); }
inline float rcbrtf(float x) { return static_cast<float>(1.0 / __builtin_cbrt(static_cast<double>(x))); }
inline void sincospi(double x, double* s, double* c) { kplay_math::sincospi(x, s, c); }
inline void sincospif(float x, float* s, float* c) {
    double ds, dc;
    kplay_math::sincospi(x, &ds, &dc);
    *s = static_cast<float>(ds);
    *c = static_cast<float>(dc);
}
inline double erfinv(double y) { return kplay_math::erfinv(y); }
inline float erfinvf(float y) { return static_cast<float>(kplay_math::erfinv(y)); }
inline double erfcinv(double z) { return kplay_math::erfcinv(z); }
inline float erfcinvf(float z) { return static_cast<float>(kplay_math::erfcinv(z)); }
inline double erfcx(double x) { return kplay_math::erfcx(x); }
inline float erfcxf(float x) { return static_cast<float>(kplay_math::erfcx(x)); }
inline double normcdf(double x) { return 0.5 * __builtin_erfc(-x / kplay_math::kSqrt2); }
inline float normcdff(float x) { return static_cast<float>(normcdf(x)); }
inline double normcdfinv(double p) { return -kplay_math::kSqrt2 * kplay_math::erfcinv(2.0 * p); }
inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
inline double cyl_bessel_i0(double x) { return kplay_math::bessel_i(0, x); }
inline float cyl_bessel_i0f(float x) { return static_cast<float>(kplay_math::bessel_i(0, x)); }
inline double cyl_bessel_i1(double x) { return kplay_math::bessel_i(1, x); }
inline float cyl_bessel_i1f(float x) { return static_cast<float>(kplay_math::bessel_i(1, x)); }
inline double rhypot(double x, double y) { return 1.0 / __builtin_hypot(x, y); }
inline float rhypotf(float x, float y) { return static_cast<float>(1.0 / __builtin_hypot(x, y)); }
inline double norm3d(double a, double b, double c) { const double v[3] = {a, b, c}; return kplay_math::norm(3, v); }
inline float norm3df(float a, float b, float c) { return static_cast<float>(norm3d(a, b, c)); }
inline double norm4d(double a, double b, double c, double d) { const double v[4] = {a, b, c, d}; return kplay_math::norm(4, v); }
inline float norm4df(float a, float b, float c, float d) { return static_cast<float>(norm4d(a, b, c, d)); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return static_cast<float>(1.0 / norm3d(a, b, c)); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline float rnorm4df(float a, float b, float c, float d) { return static_cast<float>(1.0 / norm4d(a, b, c, d)); }
inline double norm(int dim, const double* v) { return kplay_math::norm(dim, v); }
inline float normf(int dim, const float* v) { return static_cast<float>(kplay_math::norm(dim, v)); }
inline double rnorm(int dim, const double* v) { return 1.0 / kplay_math::norm(dim, v); }
inline float rnormf(int dim, const float* v) { return static_cast<float>(1.0 / kplay_math::norm(dim, v)); }
