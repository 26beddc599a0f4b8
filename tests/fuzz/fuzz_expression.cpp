// libFuzzer target: the integer and real expression evaluator (base/expression.hpp) with a few named
// values, including ones near the 64-bit limits. InputError is the documented failure.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "base/error.hpp"
#include "base/expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const kplay::NamedValues names = {
        {"n", 1024}, {"tw", 16}, {"R", 3}, {"C", 1000}, {"zero", 0}, {"neg", -7},
        {"big", std::numeric_limits<int64_t>::max()}, {"small", std::numeric_limits<int64_t>::min()}};
    const std::string_view expression(reinterpret_cast<const char*>(data), size);
    try {
        (void)kplay::evaluate_int_expr(expression, names);
    } catch (const kplay::InputError&) {
    }
    try {
        (void)kplay::evaluate_real_expr(expression, names);
    } catch (const kplay::InputError&) {
    }
    return 0;
}
