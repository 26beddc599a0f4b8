// kplay_cg_device.h: what kplay's cooperative_groups.h and CUB need of the device, for both host builds.
//
// On the emulated device the prelude provides it all (barriers, warp collectives, the grid barrier). A
// host reference's build includes the same headers so that a kernel file's declarations parse, but it
// blanks the kernels' bodies: there these are declarations only, and nothing calls them (a reference
// that did would be refused for calling an undefined function, by name).
#pragma once

#ifndef KPLAY_EMULATED
namespace kplay_emu {
void grid_sync(const char* file, int line);
bool grid_is_cooperative();
void fail_unsupported(const char* what, const char* file, int line);
template <class T> constexpr bool always_false = false;
}  // namespace kplay_emu
void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE());
void __syncwarp(unsigned mask = 0xffffffffu, const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T> T __shfl_sync(unsigned mask, T var, int src, int width = 32, const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T> T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T> T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T> T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, const char* file = __builtin_FILE(), int line = __builtin_LINE());
int __any_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE());
int __all_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE());
unsigned __ballot_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE());
unsigned __activemask(const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T> unsigned __match_any_sync(unsigned mask, T value, const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T> unsigned __match_all_sync(unsigned mask, T value, int* predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE());
unsigned __fns(unsigned mask, unsigned base, int offset);
int __popc(unsigned x);
#endif
