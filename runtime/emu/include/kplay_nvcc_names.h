/* kplay_nvcc_names.h: the names nvcc's implicit host headers give a .cu file that includes nothing.
 *
 * nvcc compiles a .cu file after its host headers (<sys/types.h>, <math.h>, <stdlib.h>, <time.h>, <limits.h>
 * through cuda_runtime.h), so kernels use `uint`, `u_char`, `int32_t`, `clock_t`, `M_PI`, `INFINITY` and
 * `INT_MAX` without an include. NVRTC has none of those headers. This one list is what kplay gives a kernel
 * in each of its three builds, so the three agree:
 *   - NVRTC: the text of this file is kplay's prelude for NVRTC (compiled into kplay, see
 *     runtime/compile/nvrtc_host_headers.cpp), force-included before the kernel;
 *   - the emulated CPU device's host build: kplay_emu_prelude.h includes it;
 *   - the host reference's build: kplay_reference_prelude.h includes it, after the host's own headers,
 *     which define the same names with the same types (the guards below then keep theirs).
 * tests/data/names/every_name.cu uses every name; real_kernels_emulated_test and gpu_kernels_test run it. Values are glibc's on x86-64 Linux (the
 * host nvcc uses there), except int64_t and time_t under NVRTC, which are CCCL's (`long long`) so that a
 * kernel that also includes <cuda/std/cstdint> or <cuda/std/ctime> sees one type. Plain C: the reference may be C-like code. */
#ifndef KPLAY_NVCC_NAMES_H
#define KPLAY_NVCC_NAMES_H

/* <sys/types.h> */
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
#if defined(__CUDACC_RTC__)
typedef long long int64_t;
#else
typedef long int64_t;
#endif
typedef unsigned char u_int8_t;
typedef unsigned short u_int16_t;
typedef unsigned int u_int32_t;
typedef unsigned long u_int64_t;
typedef long quad_t;
typedef unsigned long u_quad_t;
typedef long off_t;
typedef long ssize_t;
#if defined(__CUDACC_RTC__)
typedef long long time_t; /* CCCL's, as int64_t: <cuda/std/ctime> (cooperative groups include it) declares it so under NVRTC */
#else
typedef long time_t;
#endif
typedef char* caddr_t;
/* <time.h> (clock() itself is the device's: the emulated prelude and NVRTC each have it) */
typedef long clock_t;

/* <math.h>: constant expressions, as glibc's are (NVRTC has __builtin_bit_cast but not __builtin_inff). */
#ifndef INFINITY
#define INFINITY (__builtin_bit_cast(float, 0x7f800000u))
#endif
#ifndef NAN
#define NAN (__builtin_bit_cast(float, 0x7fc00000u))
#endif
#ifndef HUGE_VALF
#define HUGE_VALF INFINITY
#endif
#ifndef HUGE_VAL
#define HUGE_VAL (__builtin_bit_cast(double, 0x7ff0000000000000ull))
#endif
#ifndef M_PI
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif

/* <stdlib.h> */
#ifndef EXIT_SUCCESS
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#endif
#ifndef RAND_MAX
#define RAND_MAX 2147483647
#endif

/* <limits.h>, spelled as CCCL spells them for NVRTC, so that <cuda/std/climits> after this agrees. */
#ifndef INT_MAX
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-SHRT_MAX - 1)
#define SHRT_MAX 0x7fff
#define USHRT_MAX 0xffff
#define INT_MIN (-INT_MAX - 1)
#define INT_MAX 0x7fffffff
#define UINT_MAX 0xffffffff
#define LONG_MIN (-LONG_MAX - 1)
#define LONG_MAX LLONG_MAX
#define ULONG_MAX ULLONG_MAX
#define LLONG_MIN (-LLONG_MAX - 1)
#define LLONG_MAX 0x7fffffffffffffffLL
#define ULLONG_MAX 0xffffffffffffffffUL
#endif

#endif
