// kplay_reference_prelude.h: a kernel file as the host compiler sees it when kplay builds the file's
// host reference, the plain C++ function under `#ifdef KPLAY_REFERENCE` that computes what the kernel
// should have written.
//
// Given with -include, so line numbers stay the user's. The build is hosted: a reference may use <cmath>
// and the C++ standard library's containers and algorithms. kplay refuses the object if it needs
// anything more (files, printing, threads, the clock), and runs the reference once, in a sandboxed
// process of its own. The device code stays in the file with its kernels' and device functions' bodies
// blanked, so it only has to compile: CUDA's keywords are empty here, and threadIdx and its kin are
// dummies for the __host__ __device__ helpers that keep their bodies.
//
// What a reference can use besides standard C++:
//   void kplay_progress(double fraction);  // 0..1: how far a long reference has got, shown while it runs
//   assert(...), and an exception that leaves the reference, end the run with their message.
#pragma once
#define KPLAY_REFERENCE_PRELUDE_VERSION 1

#include <cmath>  // as under nvcc, a __host__ __device__ helper calls expf or sqrt without an include
#include <climits>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <sys/types.h>
#include "../kplay_nvcc_names.h"  // what nvcc's host headers give a kernel file; the host's own headers above define most of it

// ---- keywords: empty, since nothing here runs as device code -----------------------------------------
#include "../kplay_cuda_keywords.h"
#define __shared__

#include "../kplay_vector_types.h"
#include "../kplay_cuda_math_common.h"  // CUDA's min/max overloads and its own math functions, as under nvcc
#include "../kplay_texture_types.h"       // a kernel's cudaTextureObject_t parameters (reference/kplay_texture.h samples)

// One thread of one block, for the helpers that read them.
inline constexpr uint3 threadIdx{0, 0, 0};
inline constexpr uint3 blockIdx{0, 0, 0};
inline constexpr dim3 blockDim{1, 1, 1};
inline constexpr dim3 gridDim{1, 1, 1};
inline constexpr int warpSize = 32;

// crtbegin's, left out of the link (-nostartfiles): a static object with a destructor then still links,
// and kplay refuses it by name instead of the linker failing.
extern "C" {
__attribute__((visibility("hidden"))) void* __dso_handle = &__dso_handle;
}

// ---- what kplay's launch process hands the reference ----------------------------------------------
namespace kplay_ref {
inline double* progress_slot = nullptr;
inline char* failure_text = nullptr;  // what happened, read by kplay after abort(): "aborted (assertion ...)"
inline unsigned long failure_capacity = 0;

inline void append(unsigned long& at, const char* text) {
    for (; text && *text && at + 1 < failure_capacity; ++text) failure_text[at++] = *text;
    failure_text[at] = 0;
}
inline void append(unsigned long& at, unsigned long number) {
    char digits[24];
    int n = 0;
    do digits[n++] = static_cast<char>('0' + number % 10);
    while ((number /= 10) != 0);
    char text[24];
    for (int i = 0; i < n; ++i) text[i] = digits[n - 1 - i];
    text[n] = 0;
    append(at, text);
}
// Records why, then ends the launch process through abort(), which kplay catches.
template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
    unsigned long at = 0;
    if (failure_text && failure_capacity > 0) (append(at, parts), ...);
    __builtin_abort();
}
}  // namespace kplay_ref

extern "C" __attribute__((visibility("default"))) int kplay_ref_bind(double* progress, char* failure, unsigned long capacity) {
    kplay_ref::progress_slot = progress;
    kplay_ref::failure_text = failure;
    kplay_ref::failure_capacity = capacity;
    return KPLAY_REFERENCE_PRELUDE_VERSION;
}

inline void kplay_progress(double fraction) {
    if (!(fraction >= 0.0)) fraction = 0.0;
    if (fraction > 1.0) fraction = 1.0;
    if (kplay_ref::progress_slot) __atomic_store(kplay_ref::progress_slot, &fraction, __ATOMIC_RELAXED);
}

// The C library's would print to stderr, which the sandbox forbids: this one tells kplay instead.
extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file, unsigned int line, const char*) noexcept {
    kplay_ref::fail("aborted (assertion `", assertion, "` failed at ", file, ":", static_cast<unsigned long>(line), ")");
}

// ---- the entry kplay appends -------------------------------------------------------------------------
// extern "C" kplay_ref_entry(void** args) calls the reference with cuLaunchKernel-style arguments
// (each points at one argument's bytes); kplay_ref_params reports the parameters' sizes for the binding.
namespace kplay_ref {
template <class T> struct remove_ref { typedef T type; };
template <class T> struct remove_ref<T&> { typedef T type; };
template <unsigned... I> struct indices {};
template <unsigned N, unsigned... I> struct make_indices : make_indices<N - 1, N - 1, I...> {};
template <unsigned... I> struct make_indices<0, I...> { typedef indices<I...> type; };
template <class R> constexpr bool returns_void = false;
template <> constexpr bool returns_void<void> = true;

template <class R, class... P, unsigned... I>
void invoke_with(R (*reference)(P...), void** args, indices<I...>) {
    reference(*static_cast<typename remove_ref<P>::type*>(args[I])...);
}
template <class R, class... P>
void invoke(R (*reference)(P...), void** args) {
    static_assert(returns_void<R>, "a host reference returns void: it writes its results into its output buffers");
    try {
        invoke_with(reference, args, typename make_indices<sizeof...(P)>::type());
    } catch (const std::exception& error) {
        fail("threw an exception it did not catch: ", error.what());
    } catch (...) {
        fail("threw an exception it did not catch (not a std::exception)");
    }
}
template <class R, class... P>
int param_sizes(R (*)(P...), unsigned long* sizes, int max) {
    const unsigned long all[] = {sizeof(P)..., 0};
    for (int i = 0; i < static_cast<int>(sizeof...(P)) && i < max; ++i) sizes[i] = all[i];
    return static_cast<int>(sizeof...(P));
}
}  // namespace kplay_ref
