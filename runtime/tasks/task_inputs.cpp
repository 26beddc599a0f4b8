// Makes a run's inputs from the task's declaration: the sizes (from the user's text, the image or the
// task's defaults), every buffer at its declared length, inputs filled by their init rule from seeded
// generators (so the same request gives the same bytes, run after run, and caches can key on it),
// outputs given their poison patterns, and the identity that names the whole input set.
#include "tasks/task_inputs.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

#include "base/content_hash.hpp"
#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/task_sizes.hpp"
#include "tasks/image_inputs.hpp"
#include "tasks/narrow_float.hpp"

namespace kplay {

namespace {

constexpr int64_t kMaxElements = int64_t{1} << 31;
constexpr int64_t kMaxBytes = int64_t{4} << 30;
constexpr int kFillAttempts = 16;

// ---- Sizes

const std::vector<int64_t>& device_default(const TaskSpec& task, bool cpu) {
    return cpu && !task.sizes.cpu_default.empty() ? task.sizes.cpu_default : task.sizes.gpu_default;
}

[[noreturn]] void throw_no_default(const TaskSpec& task, bool cpu) {
    throw InputError("task '" + task.name + "' has no default size for the " + (cpu ? "CPU" : "GPU") +
                     " device: give one with --size (" + size_example(task) + ")");
}

// ---- Conversions to element types

// An integer meant modulo the element type's range (iota wraps; u8 at 256).
struct Wrapped {
    uint64_t bits;
};
struct Half {
    uint16_t bits;
};
// bf16, fp8 e4m3 and e5m2: an encoding as narrow_float.hpp makes it, stored in the type's width.
template <ElementType Type, typename Bits>
struct Narrow {
    Bits bits;
    static constexpr ElementType type = Type;
};
template <typename T>
struct is_narrow : std::false_type {};
template <ElementType Type, typename Bits>
struct is_narrow<Narrow<Type, Bits>> : std::true_type {};

template <typename T>
T to_element(double value) {
    if constexpr (std::is_same_v<T, Half>) {
        return Half{float_to_half(static_cast<float>(value))};
    } else if constexpr (is_narrow<T>::value) {
        return T{static_cast<decltype(T::bits)>(encode_narrow(T::type, value))};
    } else if constexpr (std::is_same_v<T, int64_t>) {
        // 2^63 itself does not fit: the largest double below it does.
        return static_cast<int64_t>(std::clamp(std::round(value), -9223372036854775808.0, 9223372036854774784.0));
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(value);
    } else {
        constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
        constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
        return static_cast<T>(std::clamp(std::round(value), lo, hi));
    }
}

template <typename T>
T to_element(Wrapped value) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<T>(value.bits);
    else
        return to_element<T>(static_cast<double>(static_cast<int64_t>(value.bits)));
}

// One loop per element type, with `make` inlined into it: no per-element dispatch or virtual call.
template <typename T, typename Make>
void fill_as(std::vector<unsigned char>& data, size_t count, Make& make) {
    unsigned char* out = data.data();
    for (size_t i = 0; i < count; ++i) {
        const T value = to_element<T>(make(i));
        std::memcpy(out + i * sizeof(T), &value, sizeof(T));
    }
}

template <typename Make>
void fill_typed(HostBuffer& buffer, Make make) {
    switch (buffer.type) {
        case ElementType::u8: fill_as<uint8_t>(buffer.data, buffer.count, make); break;
        case ElementType::i32: fill_as<int32_t>(buffer.data, buffer.count, make); break;
        case ElementType::u32: fill_as<uint32_t>(buffer.data, buffer.count, make); break;
        case ElementType::f16: fill_as<Half>(buffer.data, buffer.count, make); break;
        case ElementType::f32: fill_as<float>(buffer.data, buffer.count, make); break;
        case ElementType::f64: fill_as<double>(buffer.data, buffer.count, make); break;
        case ElementType::i8: fill_as<int8_t>(buffer.data, buffer.count, make); break;
        case ElementType::i64: fill_as<int64_t>(buffer.data, buffer.count, make); break;
        case ElementType::bf16: fill_as<Narrow<ElementType::bf16, uint16_t>>(buffer.data, buffer.count, make); break;
        case ElementType::fp8_e4m3: fill_as<Narrow<ElementType::fp8_e4m3, uint8_t>>(buffer.data, buffer.count, make); break;
        case ElementType::fp8_e5m2: fill_as<Narrow<ElementType::fp8_e5m2, uint8_t>>(buffer.data, buffer.count, make); break;
    }
}

std::pair<double, double> integer_range(ElementType type) {
    switch (type) {
        case ElementType::u8: return {0, 255};
        case ElementType::i32: return {-2147483648.0, 2147483647.0};
        case ElementType::u32: return {0, 4294967295.0};
        case ElementType::i8: return {-128, 127};
        case ElementType::i64: return {-9.2e18, 9.2e18};  // what an init's integer parameter may be
        default: return {-9007199254740992.0, 9007199254740992.0};  // floats hold integers exactly up to 2^53
    }
}

// The largest value of a floating type below `hi`, so a uniform [lo, hi) draw stays below hi once rounded
// to the buffer's precision.
double largest_below(double hi, ElementType type) {
    if (type == ElementType::f64) return std::nextafter(hi, -INFINITY);
    if (type == ElementType::f32) {
        const float near = static_cast<float>(hi);
        return near < hi ? near : std::nextafter(near, -INFINITY);
    }
    if (is_narrow_float(type)) {
        const uint32_t bits = encode_narrow(type, hi);
        if (decode_narrow(type, bits) < hi) return decode_narrow(type, bits);
        const uint32_t sign = type == ElementType::bf16 ? 0x8000u : 0x80u;
        if ((bits & (sign - 1)) == 0) return decode_narrow(type, sign | 1u);
        return decode_narrow(type, (bits & sign) ? bits + 1 : bits - 1);
    }
    uint16_t bits = float_to_half(static_cast<float>(hi));
    if (half_to_float(bits) < hi) return half_to_float(bits);
    if (bits == 0x0000) return half_to_float(0x8001);
    bits = (bits & 0x8000) ? bits + 1 : bits - 1;
    return half_to_float(bits);
}

// ---- Init rules

std::string sizes_for_message(const NamedValues& values) {
    std::vector<std::string> parts;
    for (const auto& [name, value] : values) parts.push_back(name + "=" + std::to_string(value));
    return join(parts);
}


struct FillRequest {
    const BufferSpec& spec;
    const NamedValues& values;
    const PlanarImage* image;
};

std::string init_text(const InitSpec& init) {
    if (!init.text.empty()) return init.text;
    static const char* const kNames[] = {"uniform", "normal", "randint", "iota", "constant", "image"};
    return std::string(kNames[static_cast<int>(init.kind)]) + "(" + join(init.params, ",") + ")";
}

[[noreturn]] void throw_init_error(const BufferSpec& spec, const std::string& problem) {
    throw InputError("input '" + spec.name + "' (init=" + init_text(spec.init) + "): " + problem);
}

double init_param(const FillRequest& request, size_t index, double fallback) {
    const auto& params = request.spec.init.params;
    if (index >= params.size() || trim(params[index]).empty()) return fallback;
    try {
        return evaluate_real_expr(params[index], request.values);
    } catch (const InputError& error) {
        throw_init_error(request.spec, error.what());
    }
}

void expect_params(const FillRequest& request, size_t most) {
    if (request.spec.init.params.size() > most)
        throw_init_error(request.spec, "takes at most " + std::to_string(most) + " parameters");
}

int64_t integer_param(const FillRequest& request, double value) {
    if (!(std::fabs(value) < 9.2e18)) throw_init_error(request.spec, "a parameter is too large for an integer");
    return static_cast<int64_t>(value);
}

void fill_randint(HostBuffer& buffer, const FillRequest& request, std::mt19937_64& engine) {
    expect_params(request, 2);
    const double default_hi = buffer.type == ElementType::u8 ? 255 : 100;
    const auto [type_lo, type_hi] = integer_range(buffer.type);
    const double lo = std::max(std::ceil(init_param(request, 0, 0)), type_lo);
    const double hi = std::min(std::floor(init_param(request, 1, default_hi)), type_hi);
    if (lo > hi)
        throw_init_error(request.spec, "no integer of type " + std::string(element_type_name(buffer.type)) +
                                           " lies between the bounds; give lo <= hi");
    std::uniform_int_distribution<int64_t> draw(integer_param(request, lo), integer_param(request, hi));
    fill_typed(buffer, [&](size_t) { return static_cast<double>(draw(engine)); });
}

void fill_uniform(HostBuffer& buffer, const FillRequest& request, std::mt19937_64& engine) {
    if (!is_floating(buffer.type)) return fill_randint(buffer, request, engine);
    expect_params(request, 2);
    const double lo = init_param(request, 0, 0), hi = init_param(request, 1, 1);
    if (!(lo < hi)) throw_init_error(request.spec, "needs lo < hi");
    const double top = largest_below(hi, buffer.type);
    std::uniform_real_distribution<double> draw(lo, hi);
    fill_typed(buffer, [&](size_t) { return std::min(draw(engine), top); });
}

void fill_normal(HostBuffer& buffer, const FillRequest& request, std::mt19937_64& engine) {
    expect_params(request, 2);
    const double mean = init_param(request, 0, 0), deviation = init_param(request, 1, 1);
    if (deviation < 0) throw_init_error(request.spec, "the standard deviation must not be negative");
    if (deviation == 0) return fill_typed(buffer, [&](size_t) { return mean; });
    std::normal_distribution<double> draw(mean, deviation);
    fill_typed(buffer, [&](size_t) { return draw(engine); });
}

void fill_iota(HostBuffer& buffer, const FillRequest& request) {
    expect_params(request, 2);
    const double start = init_param(request, 0, 0), step = init_param(request, 1, 1);
    if (is_floating(buffer.type)) return fill_typed(buffer, [&](size_t i) { return start + static_cast<double>(i) * step; });
    const auto first = static_cast<uint64_t>(integer_param(request, std::round(start)));
    const auto stride = static_cast<uint64_t>(integer_param(request, std::round(step)));
    fill_typed(buffer, [&](size_t i) { return Wrapped{first + static_cast<uint64_t>(i) * stride}; });
}

void fill_constant(HostBuffer& buffer, const FillRequest& request) {
    expect_params(request, 1);
    if (request.spec.init.params.empty()) throw_init_error(request.spec, "give the value, like constant(1.5)");
    const auto special = non_finite_init(trim(request.spec.init.params[0]));
    const double value = special ? *special : init_param(request, 0, 0);
    fill_typed(buffer, [&](size_t) { return value; });
}

// A u8 buffer takes the image's bytes; a floating-point one their values scaled to its white (1 or 255).
void fill_image(HostBuffer& buffer, const FillRequest& request) {
    const PlanarImage* image = request.image;
    const InitSpec& init = request.spec.init;
    if (!image) throw_init_error(request.spec, "no image was given; give an image file");
    if (buffer.type != ElementType::u8 && !is_floating(buffer.type))
        throw_init_error(request.spec, "an image gives bytes or float values, but the buffer is " +
                                           std::string(element_type_name(buffer.type)) + "; declare it u8 or f32");
    if (image->planes.size() != 3 * image->pixels()) throw_init_error(request.spec, "the image's planes do not hold its pixels");
    if (const std::string problem = image_fit_problem(*image, init.layout, buffer.count); !problem.empty())
        throw_init_error(request.spec, problem);
    const std::vector<uint8_t> bytes = image_bytes(*image, init.layout);
    if (buffer.type == ElementType::u8) {
        std::memcpy(buffer.data.data(), bytes.data(), bytes.size());
        return;
    }
    const double scale = image_white(init, buffer.type) / 255.0;
    fill_typed(buffer, [&](size_t i) { return bytes[i] * scale; });
}

bool is_random(InitKind kind) { return kind == InitKind::uniform || kind == InitKind::normal || kind == InitKind::randint; }

void fill_once(HostBuffer& buffer, const FillRequest& request, uint64_t seed) {
    std::mt19937_64 engine(seed);
    switch (request.spec.init.kind) {
        case InitKind::uniform: fill_uniform(buffer, request, engine); break;
        case InitKind::normal: fill_normal(buffer, request, engine); break;
        case InitKind::randint: fill_randint(buffer, request, engine); break;
        case InitKind::iota: fill_iota(buffer, request); break;
        case InitKind::constant: fill_constant(buffer, request); break;
        case InitKind::image: fill_image(buffer, request); break;
    }
}

bool all_zero(const std::vector<unsigned char>& data) {
    return std::find_if(data.begin(), data.end(), [](unsigned char b) { return b != 0; }) == data.end();
}

// The buffer's own seed, else one mixed from the run's seed and the buffer's index; each further attempt
// (after an all-zero fill) moves on to another seed the same way every time.
uint64_t fill_seed(const BufferSpec& spec, uint64_t run_seed, size_t index, int attempt) {
    const uint64_t base = spec.seed ? *spec.seed : run_seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull * (index + 1);
    return base + static_cast<uint64_t>(attempt) * 0xD6E8FEB86659FD93ull;
}

// Zeros hide unwritten outputs and ignored inputs, so a random fill that comes out all zero is drawn
// again, and a rule that can only give zeros is refused.
void fill_input(HostBuffer& buffer, const FillRequest& request, uint64_t run_seed, size_t index) {
    buffer.data.assign(buffer.bytes(), 0);
    const int attempts = is_random(request.spec.init.kind) ? kFillAttempts : 1;
    for (int attempt = 0; attempt < attempts; ++attempt) {
        fill_once(buffer, request, fill_seed(request.spec, run_seed, index, attempt));
        if (!all_zero(buffer.data) || request.spec.zeros_allowed) return;
    }
    throw InputError("input '" + buffer.name + "' would be all zeros (init=" + init_text(request.spec.init) +
                     ") at " + sizes_for_message(request.values) +
                     ": kplay never tests on zeros, since they hide unwritten outputs and ignored inputs; " +
                     (request.spec.init.kind == InitKind::image ? "give an image that is not all black"
                                                                : "give values that are not all zero, or declare the input zeros=ok"));
}

// ---- Buffer lengths

int64_t evaluate_length(const BufferSpec& spec, const std::string& what, const std::string& expression,
                        const NamedValues& values) {
    try {
        return evaluate_int_expr(expression, values);
    } catch (const InputError& error) {
        throw InputError("buffer '" + spec.name + "' " + what + " '" + expression + "': " + error.what());
    }
}

void size_buffer(HostBuffer& buffer, const BufferSpec& spec, const NamedValues& values) {
    const int64_t length = evaluate_length(spec, "length", spec.length, values);
    const std::string stated = "buffer '" + spec.name + "' has length '" + spec.length + "' = " + std::to_string(length);
    if (length < 1) throw InputError(stated + " at " + sizes_for_message(values) + ": a buffer needs at least 1 element");
    if (length > kMaxElements || length > kMaxBytes / static_cast<int64_t>(element_size(spec.type)))
        throw InputError(stated + " elements of " + element_type_name(spec.type) +
                         ": kplay allows at most 2^31 elements and 4 GiB per buffer; give smaller sizes");
    buffer.count = static_cast<size_t>(length);
    buffer.shape = {length};
    if (spec.shape.empty()) return;
    if (spec.shape.size() != 2 && spec.shape.size() != 3)
        throw InputError("buffer '" + spec.name + "' has a shape of " + std::to_string(spec.shape.size()) +
                         " dimensions: give rows and cols (and channels), or none for a 1D buffer");
    const int64_t rows = evaluate_length(spec, "rows", spec.shape[0], values);
    const int64_t cols = evaluate_length(spec, "cols", spec.shape[1], values);
    const int64_t channels = spec.shape.size() == 3 ? evaluate_length(spec, "channels", spec.shape[2], values) : 1;
    const int64_t row_length = cols * channels;
    if (rows < 1 || cols < 1 || channels < 1 || length % row_length != 0 || length / row_length != rows)
        throw InputError("buffer '" + spec.name + "' has shape " + std::to_string(rows) + "x" + std::to_string(cols) +
                         (channels > 1 ? "x" + std::to_string(channels) : "") + " ('" + join(spec.shape, "' x '") +
                         "'), which does not hold its length " + std::to_string(length) + ": make their product equal the length");
    buffer.shape = {rows, cols};
    if (spec.shape.size() == 3) buffer.shape.push_back(channels);
}

// ---- Identity

bool uses_image(const TaskSpec& task, const PlanarImage* image) { return image && task.has_image_input(); }

std::string input_identity(const TaskSpec& task, const TaskData& data, uint64_t seed, const PlanarImage* image) {
    ContentHasher hasher;
    hasher.add("kplay task inputs 1").add(task.name).add(data.sizes).add(std::to_string(seed));
    for (size_t i = 0; i < task.buffers.size(); ++i) {
        const BufferSpec& spec = task.buffers[i];
        const HostBuffer& buffer = data.buffers[i];
        hasher.add(spec.name).add(element_type_name(spec.type)).add(spec_name(spec.role));
        hasher.add(std::to_string(buffer.count)).add(spec.shape.empty() ? "1d" : std::to_string(buffer.shape[1]));
        hasher.add(init_text(spec.init)).add(std::to_string(static_cast<int>(spec.init.kind)));
        hasher.add(join(spec.init.params, ",")).add(std::to_string(static_cast<int>(spec.init.layout)));
        hasher.add(spec.seed ? std::to_string(*spec.seed) : "derived");
    }
    if (uses_image(task, image)) {
        hasher.add(std::to_string(image->width) + "x" + std::to_string(image->height));
        hasher.add(std::string_view(reinterpret_cast<const char*>(image->planes.data()), image->planes.size()));
    }
    return hasher.hex();
}

std::string input_description(const TaskSpec& task, const std::vector<int64_t>& sizes, uint64_t seed, const PlanarImage* image,
                              std::string_view image_description) {
    if (uses_image(task, image))
        return (image_description.empty() ? std::string("image") : std::string(image_description)) + ", " +
               std::to_string(image->width) + "x" + std::to_string(image->height);
    const std::string at = task.sizes.names.empty() ? "" : " at " + named_sizes_text(task.sizes.names, sizes, ", ");
    return "random inputs" + at + " (seed " + std::to_string(seed) + ")";
}

}  // namespace

std::vector<int64_t> choose_sizes(const TaskSpec& task, std::string_view size_text, bool cpu, const PlanarImage* image) {
    if (!trim(size_text).empty()) return parse_size_values(task, size_text);
    const auto& names = task.sizes.names;
    const auto& fallback = device_default(task, cpu);
    const bool from_image = image && task.has_image_input();
    std::vector<int64_t> values;
    for (size_t i = 0; i < names.size(); ++i) {
        if (from_image && names[i] == "w")
            values.push_back(image->width);
        else if (from_image && names[i] == "h")
            values.push_back(image->height);
        else if (fallback.size() == names.size())
            values.push_back(fallback[i]);
        else
            throw_no_default(task, cpu);
    }
    return values;
}

TaskData make_task_inputs(const TaskSpec& task, const std::vector<int64_t>& sizes, uint64_t seed, const PlanarImage* image,
                          std::string_view image_description) {
    TaskData data;
    data.values = size_values(task, sizes);
    data.sizes = size_values_text(sizes);
    for (size_t i = 0; i < task.buffers.size(); ++i) {
        const BufferSpec& spec = task.buffers[i];
        HostBuffer& buffer = data.buffers.emplace_back();
        buffer.name = spec.name;
        buffer.type = spec.type;
        buffer.role = spec.role;
        buffer.constant = spec.constant;
        size_buffer(buffer, spec, data.values);
        if (spec.is_input() && !spec.prefill) fill_input(buffer, FillRequest{spec, data.values, image}, seed, i);
        if (spec.is_output() || spec.role == BufferRole::scratch) buffer.poison = poison_patterns(spec.type);
        if (spec.prefill) {  // an accumulator: its starting value, zero allowed
            buffer.data.assign(buffer.bytes(), 0);
            fill_once(buffer, FillRequest{spec, data.values, image}, seed);
            buffer.prefilled = true;
        }
    }
    data.identity = input_identity(task, data, seed, image);
    data.description = input_description(task, sizes, seed, image, image_description);
    return data;
}

// Bit by bit, so every float maps to the one half the standard names (ties to the even mantissa).
uint16_t float_to_half(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    const int exponent = static_cast<int>((bits >> 23) & 0xFFu);
    const uint32_t mantissa = bits & 0x7FFFFFu;
    if (exponent == 0xFF) {
        if (mantissa == 0) return sign | 0x7C00u;
        // The quiet bit keeps a NaN whose payload lies only in the dropped low bits a NaN.
        return static_cast<uint16_t>(sign | 0x7E00u | (mantissa >> 13));
    }
    const int half_exponent = exponent - 127 + 15;
    if (half_exponent >= 31) return sign | 0x7C00u;
    // Below half of the smallest subnormal (2^-25) everything rounds to zero.
    if (half_exponent < -10) return sign;
    // Normal halves drop 13 mantissa bits; subnormals drop more, with the implicit bit made explicit.
    const uint32_t significand = half_exponent > 0 ? mantissa : (mantissa | 0x800000u);
    const int dropped = half_exponent > 0 ? 13 : 14 - half_exponent;
    uint32_t half = (half_exponent > 0 ? static_cast<uint32_t>(half_exponent) << 10 : 0) | (significand >> dropped);
    const uint32_t rest = significand & ((1u << dropped) - 1);
    const uint32_t halfway = 1u << (dropped - 1);
    // A carry out of the mantissa moves to the next exponent, and past the largest finite to infinity.
    // Branch-free: on random inputs the round-up is a coin toss no predictor can learn.
    half += (static_cast<uint32_t>(rest > halfway) | (static_cast<uint32_t>(rest == halfway) & half)) & 1u;
    return static_cast<uint16_t>(sign | half);
}

float half_to_float(uint16_t bits) {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1Fu;
    const uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0) {
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31) return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

}  // namespace kplay
