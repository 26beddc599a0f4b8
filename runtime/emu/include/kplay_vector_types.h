// kplay_vector_types.h: CUDA's vector types (int2, float4, uchar4, ...), their make_* functions and
// dim3, with CUDA's sizes and alignments, so that a reinterpret_cast to float4 means what it means on a
// GPU. Freestanding; shared by the emulated kernels' prelude and the host references' prelude.
#pragma once

#define KPLAY_VEC1(name, T, align) struct __attribute__((aligned(align))) name { T x; };
#define KPLAY_VEC2(name, T, align) struct __attribute__((aligned(align))) name { T x, y; };
#define KPLAY_VEC3(name, T, align) struct __attribute__((aligned(align))) name { T x, y, z; };
#define KPLAY_VEC4(name, T, align) struct __attribute__((aligned(align))) name { T x, y, z, w; };
#define KPLAY_VECS(base, T, s)                                            \
    KPLAY_VEC1(base##1, T, s) KPLAY_VEC2(base##2, T, 2 * s)               \
    KPLAY_VEC3(base##3, T, s) KPLAY_VEC4(base##4, T, 4 * s)               \
    inline base##1 make_##base##1(T x) { return {x}; }                     \
    inline base##2 make_##base##2(T x, T y) { return {x, y}; }             \
    inline base##3 make_##base##3(T x, T y, T z) { return {x, y, z}; }     \
    inline base##4 make_##base##4(T x, T y, T z, T w) { return {x, y, z, w}; }
KPLAY_VECS(char, signed char, 1)
KPLAY_VECS(uchar, unsigned char, 1)
KPLAY_VECS(short, short, 2)
KPLAY_VECS(ushort, unsigned short, 2)
KPLAY_VECS(int, int, 4)
KPLAY_VECS(uint, unsigned int, 4)
KPLAY_VECS(float, float, 4)
KPLAY_VEC1(long1, long, 8) KPLAY_VEC2(long2, long, 16)
KPLAY_VEC1(ulong1, unsigned long, 8) KPLAY_VEC2(ulong2, unsigned long, 16)
KPLAY_VEC1(longlong1, long long, 8) KPLAY_VEC2(longlong2, long long, 16)
KPLAY_VEC1(ulonglong1, unsigned long long, 8) KPLAY_VEC2(ulonglong2, unsigned long long, 16)
KPLAY_VEC1(double1, double, 8) KPLAY_VEC2(double2, double, 16) KPLAY_VEC3(double3, double, 8) KPLAY_VEC4(double4, double, 16)
inline double2 make_double2(double x, double y) { return {x, y}; }
inline double3 make_double3(double x, double y, double z) { return {x, y, z}; }
inline double4 make_double4(double x, double y, double z, double w) { return {x, y, z, w}; }
inline longlong2 make_longlong2(long long x, long long y) { return {x, y}; }

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return {x, y, z}; }
};
