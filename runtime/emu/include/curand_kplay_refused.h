// curand_kplay_refused.h: the part of cuRAND's device API kplay does not run, refused by name when a
// kernel file names it (included after the toolkit's curand_kernel.h; KPLAY_CURAND_WHERE says where).
//
// MTGP32's state and parameter tables are made by cuRAND's host library (curandMakeMTGP32Constants,
// curandMakeMTGP32KernelState), which a kernel file cannot call, and its device functions step a state
// shared by the whole block between two __syncthreads() that the toolkit's host branch leaves out.
#pragma once

namespace kplay_curand {
template <class T> constexpr bool refused = false;
template <class T> struct mtgp32_state {
    static_assert(refused<T>, "curandStateMtgp32_t (cuRAND's MTGP32 generator) is not supported " KPLAY_CURAND_WHERE
                              ": its state is made by cuRAND's host library (curandMakeMTGP32KernelState); use "
                              "curandStatePhilox4_32_10_t, curandStateXORWOW_t or curandStateMRG32k3a_t");
    typedef T type;
};
}  // namespace kplay_curand

// Naming the type instantiates the check: the message comes at the first line that mentions it.
#define curandStateMtgp32_t ::kplay_curand::mtgp32_state<void>::type
#define curandStateMtgp32 ::kplay_curand::mtgp32_state<void>::type
