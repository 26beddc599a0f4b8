// Arithmetic in CUDA's directed rounding modes (__fadd_rz, __dmul_ru, __fmaf_rd, __int2float_ru, ...),
// done in the runtime with the FPU's rounding mode set for the one operation: the kernel's shared object
// may not reach fesetround, and the compiler keeps nothing across it here.
#pragma once

namespace kplay {

// kplay_emu_round_op `op` in kplay_emu_round_mode `mode`, in float (to_double 0; the operands hold floats)
// or in double; the result as a double (holding a float when to_double is 0).
double emulated_round_arith(int op, int mode, int to_double, double a, double b, double c);
// A 64-bit integer's `bits` (signed unless is_unsigned) to a float or a double, rounded in `mode`.
double emulated_round_integer(int mode, int to_double, int is_unsigned, unsigned long long bits);

}  // namespace kplay
