// The narrow floating-point element types (bfloat16, fp8 e4m3 and e5m2) on the host: a double rounded
// into one (to nearest even, saturating at the largest finite value, as inputs need) and read back.
//
// The emulated device and host references use runtime/emu/include's kplay_small_float.h for the same
// formats; this is the worker's side (inputs, checks, views), which must not include device headers.
#pragma once

#include <cstdint>

#include "kernel_file/task_spec.hpp"

namespace kplay {

// Whether `type` is one of the formats below (not f16, which task_inputs.hpp converts bit by bit).
bool is_narrow_float(ElementType type);

// `value` rounded to the nearest value of `type` (ties to even), finite values beyond the largest
// finite one saturating to it, NaN to the format's NaN, infinities to infinity where the format has one.
uint32_t encode_narrow(ElementType type, double value);
// The value of an encoding of `type` (NaN for e4m3's 0x7f and 0xff).
double decode_narrow(ElementType type, uint32_t bits);

}  // namespace kplay
