/* kplay_std_math.h: what <cmath> adds to CUDA's math library in a kernel: the std:: names of the math
 * functions CUDA declares globally (overloaded for float and double, min and max included), so that
 * `std::sqrt(x)`, `std::isinf(x)` and `std::max(a, b)` compile in device code as under nvcc.
 * One list for two builds: the emulated device's <cmath> includes it, and NVRTC's stand-in <cmath> is its
 * text (compiled into kplay from this file, see runtime/CMakeLists.txt). */
#ifndef KPLAY_STD_MATH_H
#define KPLAY_STD_MATH_H
namespace std {
using ::abs; using ::fabs; using ::sqrt; using ::cbrt; using ::hypot; using ::exp; using ::exp2; using ::expm1;
using ::log; using ::log2; using ::log10; using ::log1p; using ::pow; using ::sin; using ::cos; using ::tan;
using ::asin; using ::acos; using ::atan; using ::atan2; using ::sinh; using ::cosh; using ::tanh; using ::asinh;
using ::acosh; using ::atanh; using ::erf; using ::erfc; using ::tgamma; using ::lgamma; using ::floor; using ::ceil;
using ::round; using ::trunc; using ::rint; using ::nearbyint; using ::lround; using ::lrint; using ::llrint;
using ::fmod; using ::remainder; using ::modf; using ::frexp; using ::ldexp; using ::scalbn; using ::ilogb;
using ::logb; using ::fma; using ::fmin; using ::fmax; using ::fdim; using ::copysign; using ::nextafter;
using ::nan; using ::isnan; using ::isinf; using ::isfinite; using ::signbit; using ::min; using ::max;
}
#endif
